"""Changing and resetting a password (issue 26, item 5; docs/security.md).

A signed-in user changes the password on a page; anyone asks for a reset link by e-mail, and the
answer is the same whether a login has the address or not; the requests are throttled per client
address and per address asked; a director hands a one-time link to a player of the club whose
login has no address. Every way a password changes revokes the login's API tokens and signs its
other browsers out. The mail through a real SMTP server: tests/integration/test_email_smtp.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.core.cache.backends import base as cache_base
from django.core.cache.backends import locmem
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from clubs.models import Player
from clubs.tasks import send_password_reset
from config import accounts
from tests.conftest import unchanged
from tests.factories import PASSWORD, UserFactory, add_player
from tests.integration.test_concurrency import free_port
from tests.security.conftest import World

NEW_PASSWORD = "fresh-phrase-26-ok"
RESET = "/accounts/password/reset/"
CHANGE = "/accounts/password/"
LINK = re.compile(r"https?://[^/\s]+(/accounts/reset/[^/\s]+/[^/\s]+/)")


def _token(username: str, password: str = PASSWORD) -> str:
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    token: str = response.json()["token"]
    return token


def _token_works(token: str, world: World) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get(f"/api/v1/rubbers/{world.rubber.pk}/").status_code == 200


def _signed_in(client: Client) -> bool:
    """Whether the client's session still signs it in (the change page needs a login)."""
    return client.get(CHANGE).status_code == 200


def _sign_in(client: Client, username: str, password: str) -> bool:
    response = client.post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302


def _signs_in(username: str, password: str) -> bool:
    return _sign_in(Client(), username, password)


def _with_address(user: Any, email: str) -> Any:
    user.email = email
    user.save(update_fields=["email"])
    return user


class FakeClock:
    """The throttle cache's clock (Django's local-memory cache reads `time.time`)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(locmem, "time", fake)
    monkeypatch.setattr(cache_base, "time", fake)
    return fake


# --- change -------------------------------------------------------------------------------------


def test_a_signed_in_user_changes_the_password_and_everything_else_is_signed_out(
    world: World,
) -> None:
    north = world.users["seated"]
    token = _token("north")
    elsewhere = Client()
    assert _sign_in(elsewhere, "north", PASSWORD)
    here = Client()
    here.force_login(north)
    page = here.get(CHANGE)
    assert page.status_code == 200
    assert b'name="old_password"' in page.content
    response = here.post(
        CHANGE,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/done/"
    assert _signs_in("north", NEW_PASSWORD)
    assert not _signs_in("north", PASSWORD)
    assert _signed_in(here)  # update_session_auth_hash keeps this browser
    assert not _signed_in(elsewhere)
    assert not _token_works(token, world)
    assert not AuthToken.objects.filter(user=north).exists()


def test_a_wrong_old_password_is_a_form_error_and_changes_nothing(world: World) -> None:
    token = _token("north")
    client = Client()
    client.force_login(world.users["seated"])
    with unchanged():
        response = client.post(
            CHANGE,
            {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        )
    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    assert _token_works(token, world)


def test_wrong_current_passwords_are_throttled_per_login(world: World, clock: FakeClock) -> None:
    """A borrowed session is no way to guess the password: after CHANGE_LIMIT wrong current
    passwords the page refuses (429) even the right one, until the window ends."""
    client = _as(world.users["seated"])
    wrong = {"old_password": "guess", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    right = {**wrong, "old_password": PASSWORD}
    mismatch = {**right, "new_password2": "something-else-26"}
    for _ in range(accounts.CHANGE_LIMIT):  # the right current password: no guess, no count
        assert client.post(CHANGE, mismatch).status_code == 200
    statuses = [client.post(CHANGE, wrong).status_code for _ in range(accounts.CHANGE_LIMIT)]
    assert statuses == [200] * accounts.CHANGE_LIMIT
    with unchanged():
        assert client.post(CHANGE, right).status_code == 429
    assert _as(world.users["member"]).post(CHANGE, wrong).status_code == 200  # per login
    clock.now += accounts.CHANGE_WINDOW + 1
    assert client.post(CHANGE, right).status_code == 302
    assert _signs_in("north", NEW_PASSWORD)


def test_the_change_page_needs_a_sign_in_and_the_menu_links_it(world: World) -> None:
    anonymous = Client().get(CHANGE)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    client = Client()
    client.force_login(world.users["member"])
    assert b'href="/accounts/password/"' in client.get("/").content


def test_the_pages_speak_italian(world: World) -> None:
    client = Client()
    client.cookies["django_language"] = "it"
    assert "Hai dimenticato la password?" in client.get("/accounts/login/").content.decode()
    assert "Hai dimenticato la password?" in client.get(RESET).content.decode()
    client.force_login(world.users["member"])
    assert "Cambia la password" in client.get(CHANGE).content.decode()


# --- reset by e-mail ----------------------------------------------------------------------------


def _ask(client: Client, email: str, address: str = "203.0.113.7") -> Any:
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address)


#: A masked CSRF token (a new one in every page, for everyone alike).
CSRF = re.compile(rb"[A-Za-z0-9]{64}")


def _page(response: Any) -> tuple[int, bytes]:
    return response.status_code, CSRF.sub(b"<csrf>", response.content)


def _answer(response: Any) -> tuple[Any, ...]:
    return (response.status_code, response.get("Location"), sorted(response.headers.items()))


def test_the_answer_is_the_same_for_a_known_and_an_unknown_address(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same status, redirect, headers and page; the request does the same work for both: the
    same queries (none looks the address up) and one task queued with the address, which the
    worker looks up."""
    _with_address(world.users["seated"], "north@example.org")
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(
        accounts.send_password_reset, "apply_async", lambda kwargs: queued.append(kwargs)
    )
    answers, queries = [], []
    for email in ("north@example.org", "nobody@example.org"):
        client = Client()
        with CaptureQueriesContext(connection) as captured:
            response = _ask(client, email)
        answers.append(_answer(response))
        queries.append([q["sql"] for q in captured.captured_queries])
        done = client.get(response["Location"])
        answers.append(_page(done))
    assert answers[0] == answers[2]
    assert answers[1] == answers[3]
    assert answers[0][:2] == (302, "/accounts/password/reset/sent/")
    assert queries[0] == queries[1]
    assert not any("auth_user" in sql for sql in queries[0])
    assert [q["email"] for q in queued] == ["north@example.org", "nobody@example.org"]
    assert {tuple(sorted(q)) for q in queued} == {
        ("chosen", "domain", "email", "page", "use_https")
    }


def test_the_mail_goes_to_the_login_with_the_address_only(world: World) -> None:
    _with_address(world.users["seated"], "north@example.org")
    _ask(Client(), "nobody@example.org")
    assert mail.outbox == []
    _ask(Client(), "North@Example.org")
    assert [m.to for m in mail.outbox] == [["north@example.org"]]
    assert "north" in mail.outbox[0].body
    assert LINK.search(mail.outbox[0].body)


def test_the_link_sets_a_new_password_once_and_revokes_tokens_and_sessions(world: World) -> None:
    north = _with_address(world.users["seated"], "north@example.org")
    token = _token("north")
    elsewhere = Client()
    assert _sign_in(elsewhere, "north", PASSWORD)
    _ask(Client(), "north@example.org")
    match = LINK.search(mail.outbox[0].body)
    assert match is not None
    browser = Client()
    form = browser.get(match.group(1), follow=True)
    assert form.status_code == 200
    assert form.context["validlink"]
    done = browser.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302
    assert done["Location"] == "/accounts/reset/done/"
    assert _signs_in("north", NEW_PASSWORD)
    assert not _signed_in(elsewhere)
    assert not _token_works(token, world)
    assert not AuthToken.objects.filter(user=north).exists()
    again = Client().get(match.group(1), follow=True)
    assert again.status_code == 200
    assert not again.context["validlink"]


def test_the_mail_speaks_the_logins_language(world: World) -> None:
    """The language the visitor chose when asking; else the login's club's; else the page's."""
    _with_address(world.users["seated"], "north@example.org")
    world.club.language = "it"
    world.club.save(update_fields=["language"])
    _ask(Client(), "north@example.org")
    assert mail.outbox[-1].subject == "Una nuova password per Backscore"
    english = Client()
    english.cookies["django_language"] = "en"
    _ask(english, "north@example.org")
    assert mail.outbox[-1].subject == "A new password for Backscore"
    loner = _with_address(UserFactory(username="loner"), "loner@example.org")
    assert not loner.memberships.exists()
    _ask(Client(HTTP_ACCEPT_LANGUAGE="it"), "loner@example.org")
    assert mail.outbox[-1].subject == "Una nuova password per Backscore"


def test_a_bad_address_is_a_form_error(world: World) -> None:
    response = _ask(Client(), "not an address")
    assert response.status_code == 200
    assert response.context["form"].errors["email"]
    assert mail.outbox == []


def test_reset_requests_are_throttled_per_client_address(world: World, clock: FakeClock) -> None:
    _with_address(world.users["seated"], "north@example.org")
    statuses = [
        _ask(Client(), f"someone{n}@example.org").status_code for n in range(accounts.CLIENT_LIMIT)
    ]
    assert statuses == [302] * accounts.CLIENT_LIMIT
    known, unknown = _ask(Client(), "north@example.org"), _ask(Client(), "nobody@example.org")
    assert known.status_code == 429
    assert _page(known) == _page(unknown)
    assert mail.outbox == []
    assert _ask(Client(), "north@example.org", address="198.51.100.9").status_code == 302
    clock.now += accounts.CLIENT_WINDOW + 1
    assert _ask(Client(), "north@example.org").status_code == 302


def test_reset_requests_are_throttled_per_address_asked(world: World, clock: FakeClock) -> None:
    """At most ADDRESS_LIMIT mails an hour to one address, whoever asks, and the refusal is the
    same for an address no login has."""
    _with_address(world.users["seated"], "north@example.org")
    answers: dict[str, list[tuple[int, bytes]]] = {}
    for email in ("north@example.org", "nobody@example.org"):
        answers[email] = []
        for n in range(accounts.ADDRESS_LIMIT + 1):
            response = _ask(Client(), email, address=f"198.51.100.{n}")
            answers[email].append(_page(response))
    assert [s for s, _ in answers["north@example.org"]] == [302] * accounts.ADDRESS_LIMIT + [429]
    assert answers["north@example.org"] == answers["nobody@example.org"]
    assert len(mail.outbox) == accounts.ADDRESS_LIMIT
    clock.now += accounts.ADDRESS_WINDOW + 1
    assert _ask(Client(), "NORTH@example.org", address="192.0.2.1").status_code == 302
    assert len(mail.outbox) == accounts.ADDRESS_LIMIT + 1


def test_a_broker_that_cannot_take_the_task_is_a_503_for_every_address(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kombu.exceptions import OperationalError

    def down(**kwargs: Any) -> None:
        raise OperationalError("connection refused")

    _with_address(world.users["seated"], "north@example.org")
    monkeypatch.setattr(accounts.send_password_reset, "apply_async", down)
    known, unknown = _ask(Client(), "north@example.org"), _ask(Client(), "nobody@example.org")
    assert known.status_code == 503
    assert known["Retry-After"]
    assert _page(known) == _page(unknown)


def test_a_mail_server_that_does_not_answer_is_logged_not_raised(
    world: World, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The worker gives the mail up after EMAIL_TIMEOUT and logs it (docs/deploy.md)."""
    _with_address(world.users["seated"], "north@example.org")
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nothing listens
    settings.EMAIL_TIMEOUT = 1
    send_password_reset(
        email="north@example.org", domain="testserver", use_https=True, chosen=None, page="en"
    )
    assert "Failed to send password reset email" in caplog.text


# --- the director's reset link ------------------------------------------------------------------


def _link_path(world: World, player: Player, slug: str | None = None) -> str:
    return f"/clubs/{slug or world.club.slug}/players/{player.pk}/reset-link/"


def _as(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_director_gets_a_one_time_link_for_a_login_with_no_address(world: World) -> None:
    mate = world.players["mate"]
    assert mate.user is not None
    assert mate.user.email == ""
    token = _token("mate")
    players = _as(world.users["director"]).get(f"/clubs/{world.club.slug}/players/")
    assert _link_path(world, mate).encode() in players.content
    response = _as(world.users["director"]).post(_link_path(world, mate))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    match = LINK.search(response.content.decode())
    assert match is not None
    browser = Client()
    form = browser.get(match.group(1), follow=True)
    assert form.context["validlink"]
    browser.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert _signs_in("mate", NEW_PASSWORD)
    assert not _token_works(token, world)
    assert not Client().get(match.group(1), follow=True).context["validlink"]


def test_a_player_of_another_club_answers_like_a_missing_one(world: World) -> None:
    """The other club's director asks for a login of this club: through his own club's URL, the
    player is missing; through this club's (members-only) URL, the club is. Byte for byte as an
    id never created."""
    other = _as(world.users["other_director"])
    mate = world.players["mate"]
    ghost = Player(pk=mate.pk + 10_000)
    with unchanged():
        pairs = [
            (
                other.post(_link_path(world, mate, world.other_club.slug)),
                other.post(_link_path(world, ghost, world.other_club.slug)),
            ),
            (other.post(_link_path(world, mate)), other.post(_link_path(world, ghost))),
        ]
    for hidden, missing in pairs:
        assert hidden.status_code == 404
        assert (hidden.content, sorted(hidden.headers.items())) == (
            missing.content,
            sorted(missing.headers.items()),
        )


def test_only_a_director_of_the_club_may_ask(world: World) -> None:
    path = _link_path(world, world.players["north"])
    anonymous = Client().post(path)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    assert _as(world.users["member"]).post(path).status_code == 403
    assert _as(world.users["outsider"]).post(path).status_code == 404
    assert _as(world.users["director"]).get(path).status_code == 405
    assert (
        _as(world.users["director"]).post(_link_path(world, world.players["eve"])).status_code
        == 404
    )


def test_a_login_of_another_club_too_or_of_staff_gets_no_link(world: World) -> None:
    """A director resets only the logins of their own club: a login that also plays elsewhere
    (or a staff login) could open another club, or the admin; a co-director's would let one
    director act in another's name (outside probe); a login with an address resets by mail."""
    mate = world.players["mate"]
    add_player(world.other_club, "Mate elsewhere", user=mate.user)
    staff = UserFactory(username="staffer", is_staff=True)
    staffer = add_player(world.club, "Staffer", user=staff)
    codirector = add_player(
        world.club, "Codirector", user=UserFactory(username="codir"), role="director"
    )
    mailed = add_player(
        world.club, "Mailed", user=UserFactory(username="mailed", email="m@example.org")
    )
    for player in (mate, staffer, codirector, mailed):
        response = _as(world.users["director"]).post(_link_path(world, player))
        assert response.status_code == 400
        assert not LINK.search(response.content.decode())
        assert "Forgot your password?" in response.content.decode()
        assert "outside" not in response.content.decode()
