"""The wave-3 probe's smaller holes (issue 26, item 7; docs/security.md, "7. Smaller ones").

Each test failed before its fix.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import reload
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import Resolver404, clear_url_caches, resolve
from django.utils import translation
from knox.models import AuthToken
from rest_framework.test import APIClient

import config.urls
from clubs.forms import SessionForm, TablePlayerForm
from tests.config.test_settings import settings_under
from tests.conftest import unchanged
from tests.factories import PASSWORD
from tests.security.conftest import World, build_world
from tests.security.test_club_transfer import _refused, _stranger_file

# --- DEBUG is off unless the environment turns it on ----------------------------------------------


def test_debug_is_off_when_the_environment_says_nothing() -> None:
    """Before: DEBUG defaulted to True, so a server started without DEBUG in its environment ran
    with Django's debug pages, no HTTPS redirect and the development signing key."""
    s = settings_under({"SECRET_KEY": "k" * 50})
    assert s.DEBUG is False
    assert s.SECURE_SSL_REDIRECT is True


def test_no_environment_refuses_to_start_without_a_secret_key() -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        settings_under({})


def test_debug_on_from_the_environment_still_has_a_development_key() -> None:
    """What `make run` passes (Makefile): DEBUG on, the development key."""
    s = settings_under({"DEBUG": "true"})
    assert s.DEBUG is True
    assert s.SECRET_KEY.startswith("dev-insecure")


# --- the benchmark's baseline is not part of the site ---------------------------------------------


def test_the_benchmark_baseline_is_not_mounted_by_default(client: Client) -> None:
    """Before: /bench/plain answered 200 on every deployment, an unthrottled endpoint no page
    uses."""
    assert client.get("/bench/plain").status_code == 404
    assert client.post("/bench/floor/1/").status_code == 404  # the POST's floor, raw writes


def test_the_benchmarks_mount_their_baseline(settings: Any) -> None:
    settings.BENCH_PLAIN = True
    try:
        reload(config.urls)
        clear_url_caches()
        assert resolve("/bench/plain").url_name == "bench-plain"
        assert resolve("/bench/floor/1/").url_name == "bench-floor"
    finally:
        settings.BENCH_PLAIN = False
        reload(config.urls)
        clear_url_caches()
    with pytest.raises(Resolver404):
        resolve("/bench/plain")


def test_the_benchmark_runner_asks_for_the_baseline() -> None:
    """`make bench` (bench/run.py) and the servers the HTTP benchmarks start."""
    from bench import bench_http, bench_live_http, run

    assert run.BENCH_ENV["BENCH_PLAIN"] == "true"
    assert bench_http.SERVER_ENV["BENCH_PLAIN"] == "true"
    assert bench_live_http.SERVER_ENV["BENCH_PLAIN"] == "true"


# --- answers to whoever carries credentials are private, no-store ---------------------------------

PRIVATE = "private, no-store"


@pytest.mark.django_db
def test_a_signed_in_page_is_private_and_not_stored(world: World) -> None:
    """Before: no Cache-Control at all, so a browser could keep a director's pages on disk and a
    proxy could keep them for others."""
    client = Client()
    client.force_login(world.users["director"])
    for path in ("/", f"/clubs/{world.club.slug}/", f"/rubbers/{world.rubber.pk}/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == PRIVATE, path


@pytest.mark.django_db
def test_an_api_answer_to_a_token_or_a_session_is_private_and_not_stored(world: World) -> None:
    token = APIClient()
    _, key = AuthToken.objects.create(user=world.users["director"])
    token.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    session = APIClient()
    session.force_login(world.users["director"])
    for client in (token, session):
        for path in ("/api/v1/clubs/", f"/api/v1/rubbers/{world.rubber.pk}/"):
            response = client.get(path)
            assert response.status_code == 200, path
            assert response["Cache-Control"] == PRIVATE, path
    refused = token.post(f"/api/v1/rubbers/{world.rubber.pk}/deals/", {}, format="json")
    assert refused.status_code == 400
    assert refused["Cache-Control"] == PRIVATE


@pytest.mark.django_db
def test_a_table_code_phone_gets_private_pages(running_session: Any) -> None:
    rubber = running_session.rubbers.get(number=1)
    phone = Client()
    # The seat picker, before any cookie: the code in the path is the credential, and the page
    # names the seated players (outside probe); an unknown code answers alike.
    picker = phone.get(f"/t/{rubber.table.code}")
    assert picker.status_code == 200
    assert picker["Cache-Control"] == PRIVATE
    assert Client().get("/t/ZZZZ2222")["Cache-Control"] == PRIVATE
    picked = phone.post(f"/t/{rubber.table.code}", {"seat": "S"})
    assert picked.status_code == 302
    assert picked["Cache-Control"] == PRIVATE  # the answer that sets the code's cookie
    page = phone.get(f"/rubbers/{rubber.pk}/")
    assert page.status_code == 200
    assert page["Cache-Control"] == PRIVATE


@pytest.mark.django_db
def test_an_anonymous_visitor_of_a_public_club_gets_no_such_header(world: World) -> None:
    world.club.public = True
    world.club.save(update_fields=["public"])
    response = Client().get(f"/clubs/{world.club.slug}/")
    assert response.status_code == 200
    assert "Cache-Control" not in response


@pytest.mark.django_db
def test_the_live_pad_keeps_its_no_cache_and_its_304_made_private(world: World) -> None:
    """The live pad's own `no-cache` (its poll is answered 304 while nothing changed) stays: the
    decision is written in docs/security.md; for a signed-in player it is private too."""
    client = Client()
    client.force_login(world.users["seated"])
    first = client.get(f"/rubbers/{world.rubber.pk}/live")
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache, private"
    again = client.get(f"/rubbers/{world.rubber.pk}/live", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again["Cache-Control"] == "no-cache, private"


def test_static_files_stay_public_for_a_signed_in_user(client: Client) -> None:
    client.cookies["sessionid"] = "x"
    response = client.get("/favicon.ico")
    assert "public" in response["Cache-Control"]
    assert "no-store" not in response["Cache-Control"]


# --- a body's unknown field is an error, not dropped ----------------------------------------------


def _director_api(world: World) -> APIClient:
    client = APIClient()
    client.force_login(world.users["director"])
    return client


#: (method, path, body) with one misspelt or unknown field each; every one was answered 2xx
#: before, the field silently dropped.
TYPOS: dict[str, tuple[str, Callable[[World], str], dict[str, Any], str]] = {
    "a deal": (
        "post",
        lambda w: f"/api/v1/rubbers/{w.rubber.pk}/deals/",
        {"number": 2, "contract": "4S", "declarer": "N", "tricks": 10, "trick": 9},
        "trick",
    ),
    "a deal's honours": (
        "post",
        lambda w: f"/api/v1/rubbers/{w.rubber.pk}/deals/",
        {
            "number": 2,
            "contract": "4S",
            "declarer": "N",
            "tricks": 10,
            "honours": {"side": "NS", "points": 100, "aces": 4},
        },
        "honours",
    ),
    "a club": (
        "post",
        lambda w: "/api/v1/clubs/",
        {"slug": "new", "name": "N", "publc": 0},
        "publc",
    ),
    "a player": (
        "post",
        lambda w: f"/api/v1/clubs/{w.club.slug}/players/",
        {"name": "Zed", "directr": True},
        "directr",
    ),
    "a session's change": (
        "patch",
        lambda w: f"/api/v1/sessions/{w.planned.pk}/",
        {"stake": "1.00"},
        "stake",
    ),
    "closing a session": (
        "post",
        lambda w: f"/api/v1/sessions/{w.running.pk}/close",
        {"force": True},
        "force",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(TYPOS))
def test_an_api_body_with_an_unknown_field_is_refused_and_writes_nothing(
    world: World, case: str
) -> None:
    method, path, body, field = TYPOS[case]
    client = _director_api(world)
    with unchanged():
        response = getattr(client, method)(path(world), body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][field], response.json()
    assert "Unknown field" in str(response.json()["errors"])


@pytest.mark.django_db
def test_the_token_sign_in_refuses_an_unknown_field(world: World) -> None:
    response = APIClient().post(
        "/api/v1/auth/token/",
        {"username": "director", "password": PASSWORD, "remember": True},
        format="json",
    )
    assert response.status_code == 400
    assert "remember" in response.json()["errors"]
    assert not AuthToken.objects.exists()


@pytest.mark.django_db
def test_the_refusal_speaks_italian(world: World) -> None:
    path = f"/api/v1/sessions/{world.running.pk}/close"
    response = _director_api(world).post(
        path, {"force": True}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.json()["errors"]["force"] == [
        "Campo sconosciuto: questa richiesta non lo accetta."
    ]


@pytest.mark.django_db
def test_the_offline_queue_refuses_an_unknown_field(world: World) -> None:
    client = Client()
    client.force_login(world.users["seated"])
    taps = {"number": 2, "level": "4", "strain": "S", "declarer": "N", "result": "0"}
    with unchanged():
        response = client.post(f"/rubbers/{world.rubber.pk}/deals/queued", {**taps, "declrer": "E"})
    assert response.status_code == 400
    assert response.json()["status"] == "refused"
    assert "declrer" in response.json()["detail"]
    assert client.post(f"/rubbers/{world.rubber.pk}/deals/queued", taps).status_code == 201


# --- numbers and dates in other digits are refused, not read --------------------------------------

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
IN_DIGITS = "Write numbers and dates with the digits 0-9."


def other_digits(value: object) -> str:
    """`value` written in Arabic-Indic digits: 10 is "١٠", which int() reads as 10."""
    return str(value).translate(ARABIC_INDIC)


@pytest.mark.django_db
def test_the_api_refuses_numbers_and_dates_in_other_digits(world: World) -> None:
    """Before: "١٠" tricks made a deal of 10 tricks, "٢٠٢٦-١٢-٢٤" a session on that date."""
    client = _director_api(world)
    ids = [p.pk for name, p in world.players.items() if name != "mate"]
    deals = f"/api/v1/rubbers/{world.rubber.pk}/deals/"
    game = {"contract": "4S", "declarer": "N"}
    with unchanged():
        answers = {
            "tricks": client.post(deals, {**game, "number": 2, "tricks": "١٠"}, format="json"),
            "number": client.post(deals, {**game, "number": "２", "tricks": 10}, format="json"),
            # int() skips underscores: "1_0" was read as 10 (outside probe).
            "underscore": client.post(deals, {**game, "number": 2, "tricks": "1_0"}, format="json"),
            "default_stake": client.post(
                "/api/v1/clubs/",
                {"slug": "newclub", "name": "N", "default_stake": "١"},
                format="json",
            ),
            "date": client.post(
                f"/api/v1/clubs/{world.club.slug}/sessions/",
                {"date": other_digits("2026-12-24"), "tables": [{"players": ids}]},
                format="json",
            ),
            "tables": client.post(
                f"/api/v1/clubs/{world.club.slug}/sessions/",
                {"date": "2026-12-24", "tables": [{"players": [other_digits(ids[0]), *ids[1:]]}]},
                format="json",
            ),
        }
    for field, response in answers.items():
        field = "tricks" if field == "underscore" else field
        assert response.status_code == 400, (field, response.content)
        assert IN_DIGITS in str(response.json()["errors"][field]), (field, response.json())


@pytest.mark.django_db
def test_the_page_forms_refuse_numbers_dates_and_players_in_other_digits(world: World) -> None:
    """One field class per kind (scoring.shared.inputs) behind every page form: a session's date,
    stake and players, a player chosen from a list, a deal's number."""
    ids = [p.pk for name, p in world.players.items() if name != "mate"]
    session = SessionForm(
        {
            "date": other_digits("2026-12-24"),
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": other_digits("1.50"),
            "players": [other_digits(pk) for pk in ids],
        },
        club=world.club,
    )
    assert not session.is_valid()
    for field in ("date", "stake_per_hundred", "players"):
        assert session.errors[field] == [IN_DIGITS], field
    chosen = TablePlayerForm({"player": other_digits(ids[0])}, club=world.club)
    assert chosen.errors["player"] == [IN_DIGITS]


@pytest.mark.django_db
def test_the_offline_queue_refuses_a_deal_number_in_other_digits(world: World) -> None:
    """Before: "٢" was deal 2, recorded."""
    client = Client()
    client.force_login(world.users["seated"])
    taps = {"level": "4", "strain": "S", "declarer": "N", "result": "0"}
    with unchanged():
        response = client.post(
            f"/rubbers/{world.rubber.pk}/deals/queued", {**taps, "number": other_digits(2)}
        )
    assert response.status_code == 400
    # The hidden number is the page's: a bad one says the page is out of date (games.forms).
    assert response.json()["status"] == "refused"


# --- the import takes numbers as numbers ----------------------------------------------------------


@pytest.mark.django_db
def test_the_import_refuses_numbers_given_as_strings(director: Any, tmp_path: Any) -> None:
    """docs/operations.md says so; before, only the natural keys were checked: a deal's tricks,
    version and honours as strings, a date in other digits were read and imported."""
    data = _stranger_file(build_world(director))
    deal, where = data["deals"][0], "deals[0]"
    deal.update(tricks=str(deal["tricks"]), version="1", honours_points="100")
    data["deal_history"][0]["tricks"] = "9"
    data["sessions"][0]["date"] = other_digits(data["sessions"][0]["date"])
    data["sessions"][0]["stake_per_hundred"] = other_digits(
        data["sessions"][0]["stake_per_hundred"]
    )
    message = _refused(data, tmp_path)
    for line in (
        f"{where}: tricks: '{deal['tricks']}' is not a whole number",
        f"{where}: version: '1' is not a whole number",
        f"{where}: honours_points: '100' is not a whole number",
        "deal_history[0]: tricks: '9' is not a whole number",
        f"sessions[0]: date: {IN_DIGITS}",
        f"sessions[0]: stake_per_hundred: {IN_DIGITS}",
    ):
        assert line in message, (line, message)


def test_a_typed_number_in_other_digits_is_named_on_the_page() -> None:
    """A Turnover's tricks are typed: the page says which digits it reads, in Italian too."""
    from games.forms import TurnoverFields, TwoPlayerDealForm

    def form() -> TwoPlayerDealForm:
        taps = {"number": "1", "tricks_0": "١٤", "tricks_1": "0"}
        return TwoPlayerDealForm(
            taps, kind="turnover", entry=TurnoverFields(), players=["Ann", "Bob"]
        )

    assert form().errors["tricks_0"] == [IN_DIGITS]
    with translation.override("it"):
        assert form().errors["tricks_0"] == ["Scrivi numeri e date con le cifre 0-9."]
