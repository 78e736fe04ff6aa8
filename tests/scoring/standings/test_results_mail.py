"""Each player's night by e-mail (issue 32): one mail per player per close, in their language, with
a signed one-click unsubscribe link; a corrected night mails a corrected version, marked; the
director sees who gets mail. Django's in-memory outbox here; a real SMTP server and a real
PostgreSQL in tests/integration/test_results_mail_smtp.py."""

from __future__ import annotations

import datetime
from typing import Any
from unittest import mock

import pytest
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from games.sessions import lifecycle
from scoring.standings import results_mail
from scoring.standings.outbox import ResultsMail
from tests.factories import acting

from .conftest import win_rubber

pytestmark = pytest.mark.django_db

Status = ResultsMail.Status


@pytest.fixture
def addressed(table_of_four: dict[str, Any]) -> dict[str, Any]:
    """North and East have addresses (East reads Italian); South has none; West stopped it."""
    players = table_of_four
    for name in ("north", "east", "west"):
        players[name].email = f"{name}@example.org"
    players["east"].language = "it"
    for player in players.values():
        player.save()
    players["west"].stop_results_mail()
    return players


def close(session: Any, django_capture_on_commit_callbacks: Any) -> None:
    """Close, then run what the close queued after its commit (eager Celery sends at once)."""
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.session_close(session=session)


def by_address() -> dict[str, Any]:
    return {message.to[0]: message for message in mail.outbox}


def test_a_closed_night_mails_each_player_with_an_address_their_night_once(
    room: Any, addressed: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1))  # NS +9 hundreds at 0.50
    close(room, django_capture_on_commit_callbacks)
    sent = by_address()
    assert sorted(sent) == ["east@example.org", "north@example.org"]  # South none, West stopped
    north = sent["north@example.org"]
    assert north.subject == f"Your night at Riverside, {'Dec. 1, 2026'}"
    assert "Place: 1 of 4" in north.body  # table 2 played no deal: unranked
    assert "table 1, rubber 1: won, +9 hundreds" in north.body
    assert "You receive €4.50:" in north.body
    assert "- €4.50 from " in north.body  # the one payer who settles North's money
    assert f"/players/{addressed['north'].pk}/" in north.body
    html, kind = north.alternatives[0]
    assert kind == "text/html"
    assert "<table>" in html and "€4.50" in html
    unsubscribe = north.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith("<http://127.0.0.1:8000/mail/unsubscribe/")
    assert unsubscribe.strip("<>") in north.body
    assert north.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    east = sent["east@example.org"]  # Italian
    assert east.subject == "La tua serata al Riverside, 1 dicembre 2026"
    assert "Paghi 4,50 €:" in east.body
    assert east.extra_headers["Content-Language"] == "it"
    rows = ResultsMail.objects.filter(session=room)
    assert {(r.player_id, r.close, r.status) for r in rows} == {
        (addressed["north"].pk, 1, Status.SENT),
        (addressed["east"].pk, 1, Status.SENT),
    }

    # The task again (a retry, a second worker, the sweep): nothing more is sent.
    assert results_mail.results_mail_send(session_id=room.pk, close=1) == {}
    assert len(mail.outbox) == 2


def test_names_are_plain_in_the_text_and_subject_and_escaped_in_the_html(
    room: Any, addressed: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    room.club.name = "Bridge & <Co>"
    room.club.save(update_fields=["name"])
    win_rubber(room.rubbers.get(table__number=1))
    close(room, django_capture_on_commit_callbacks)
    north = by_address()["north@example.org"]
    assert north.subject.startswith("Your night at Bridge & <Co>, ")
    assert "Your night at Bridge & <Co> on " in north.body
    html = north.alternatives[0][0]
    assert "Bridge &amp; &lt;Co&gt;" in html and "<Co>" not in html


def test_a_reopened_and_corrected_night_mails_the_corrected_version_marked(
    room: Any, addressed: dict[str, Any], director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    rubber = room.rubbers.get(table__number=1)
    win_rubber(rubber)
    close(room, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    # Reopened and closed with nothing changed: nobody is mailed again.
    lifecycle.session_reopen(session=room)
    close(room, django_capture_on_commit_callbacks)
    assert mail.outbox == []
    assert set(ResultsMail.objects.filter(close=2).values_list("status", flat=True)) == {
        Status.UNCHANGED
    }
    lifecycle.session_reopen(session=room)
    deal = rubber.deals.get(number=2)
    deal.correct(version=deal.version, actor=acting(deal, director), tricks=11)
    close(room, django_capture_on_commit_callbacks)
    sent = by_address()
    north = sent["north@example.org"]
    assert north.subject == "Corrected: your night at Riverside, Dec. 1, 2026"
    assert "CORRECTED" in north.body
    assert "+10 hundreds" in north.body and "€5.00" in north.body
    assert sent["east@example.org"].subject.startswith("Corretta: ")
    row = ResultsMail.objects.get(player=addressed["north"], close=3)
    assert (row.status, row.corrected) == (Status.SENT, True)


def test_a_mail_whose_night_was_reopened_before_it_went_is_not_sent(
    room: Any, addressed: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    with mock.patch.object(results_mail, "_publish"):  # the task is not run yet
        close(room, django_capture_on_commit_callbacks)
    lifecycle.session_reopen(session=room)
    assert results_mail.results_mail_send(session_id=room.pk, close=1) == {Status.SKIPPED: 2}
    assert mail.outbox == []


def test_a_failed_send_gives_the_row_back_for_the_retry(
    room: Any, addressed: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    with mock.patch.object(results_mail, "_publish"):
        close(room, django_capture_on_commit_callbacks)
    with (
        mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("down")),
        pytest.raises(OSError),
    ):
        results_mail.results_mail_send(session_id=room.pk, close=1)
    assert set(ResultsMail.objects.values_list("status", flat=True)) == {Status.WAITING}
    assert results_mail.results_mail_send(session_id=room.pk, close=1) == {Status.SENT: 2}
    assert len(mail.outbox) == 2


def test_the_unsubscribe_link_stops_the_mail_with_one_click_and_no_login(
    room: Any, addressed: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    north = addressed["north"]
    path = f"/mail/unsubscribe/{results_mail.unsubscribe_token(north)}/"
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)  # a mail program's preview opens links: a GET stops nothing
    assert page.status_code == 200
    assert b'id="unsubscribe-form"' in page.content
    north.refresh_from_db()
    assert north.gets_results_mail
    # RFC 8058: the mail program POSTs this body, with no cookie and no CSRF token.
    done = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert b'id="mail-stopped"' in done.content
    north.refresh_from_db()
    assert not north.gets_results_mail
    assert client.post(path).status_code == 200  # twice: still stopped, no error
    win_rubber(room.rubbers.get(table__number=1))
    close(room, django_capture_on_commit_callbacks)
    assert "north@example.org" not in by_address()


def test_a_forged_or_altered_token_answers_as_a_missing_page(addressed: dict[str, Any]) -> None:
    north = addressed["north"]
    forged = signing.dumps({"p": north.pk}, salt="another purpose")
    client = Client()
    missing = client.get("/no-such-page/")
    for token in (forged, results_mail.unsubscribe_token(north) + "x", "abc"):
        for method in (client.get, client.post):
            response = method(f"/mail/unsubscribe/{token}/")
            assert response.status_code == 404
            assert response.content == missing.content
    north.refresh_from_db()
    assert north.gets_results_mail


def test_a_link_minted_for_an_old_address_answers_as_a_missing_page(
    addressed: dict[str, Any], director: Any
) -> None:
    north = addressed["north"]
    old = results_mail.unsubscribe_token(north)
    unbound = signing.dumps({"p": north.pk}, salt=results_mail.UNSUBSCRIBE_SALT)
    north.choose_email("north@new.example.org", by=director)
    client = Client()
    missing = client.get("/no-such-page/")
    for token in (old, unbound):
        for method in (client.get, client.post):
            response = method(f"/mail/unsubscribe/{token}/")
            assert response.status_code == 404
            assert response.content == missing.content
    north.refresh_from_db()
    assert north.gets_results_mail
    fresh = client.get(f"/mail/unsubscribe/{results_mail.unsubscribe_token(north)}/")
    assert fresh.status_code == 200


def test_the_link_holder_subscribes_again_with_a_post_and_a_get_changes_nothing(
    addressed: dict[str, Any],
) -> None:
    north = addressed["north"]
    path = f"/mail/unsubscribe/{results_mail.unsubscribe_token(north)}/"
    client = Client(enforce_csrf_checks=True)
    stopped = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert b'id="subscribe-form"' in stopped.content
    assert b"ask the club" not in stopped.content
    assert client.get(path, {"subscribe": "1"}).status_code == 200
    north.refresh_from_db()
    assert not north.gets_results_mail
    again = client.post(path, {"subscribe": "1"})
    assert again.status_code == 200
    assert b'id="unsubscribe-form"' in again.content
    north.refresh_from_db()
    assert north.gets_results_mail


def test_the_director_sees_who_gets_mail_and_players_do_not(
    client: Any, director: Any, north: Any, addressed: dict[str, Any]
) -> None:
    client.force_login(director)
    page = client.get("/clubs/riverside/players/").content.decode()
    assert "north@example.org" in page
    assert "west@example.org" in page and "Stopped" in page
    client.force_login(north)
    assert "north@example.org" not in client.get("/clubs/riverside/players/").content.decode()


def test_a_director_sets_an_address_and_only_the_player_restarts_a_stopped_mail(
    client: Any, director: Any, west: Any, east: Any, addressed: dict[str, Any]
) -> None:
    player = addressed["west"]
    path = f"/players/{player.pk}/email/"
    client.force_login(director)
    bad = client.post(path, {"email": "not an address"})
    assert bad.status_code == 400
    assert b"errorlist" in bad.content
    assert client.post(path, {"email": "w@example.org"}).status_code == 302
    player.refresh_from_db()
    assert (player.email, player.gets_results_mail) == ("w@example.org", False)
    client.force_login(east)  # another player of the club may not
    assert client.post(path, {"email": "x@example.org"}).status_code == 403
    client.force_login(west)
    assert client.post(path, {"email": "w@example.org"}).status_code == 302
    player.refresh_from_db()
    assert player.gets_results_mail


def test_the_api_takes_an_address_and_shows_it_to_directors_only(
    api: Any, director: Any, north: Any, addressed: dict[str, Any]
) -> None:
    api.force_authenticate(director)
    made = api.post(
        "/api/v1/clubs/riverside/players/", {"name": "Zed", "email": "zed@example.org"}, "json"
    )
    assert made.status_code == 201
    assert (made.data["email"], made.data["results_mail"]) == ("zed@example.org", "on")
    bad = api.post("/api/v1/clubs/riverside/players/", {"name": "Yan", "email": "yan"}, "json")
    assert bad.status_code == 400
    assert "email" in bad.json()["errors"]
    listed = {p["name"]: p for p in api.get("/api/v1/clubs/riverside/players/").data}
    assert listed["West"]["results_mail"] == "stopped"
    assert listed["South"]["results_mail"] is None
    api.force_authenticate(north)
    for row in api.get("/api/v1/clubs/riverside/players/").data:
        assert "email" not in row


def test_the_sweep_queues_a_close_whose_task_was_lost_and_only_once_it_is_late(
    room: Any, addressed: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    with mock.patch.object(results_mail, "_publish", return_value=False):  # the broker is down
        close(room, django_capture_on_commit_callbacks)
    assert results_mail.results_mail_queue_waiting() == 0  # not two minutes yet
    ResultsMail.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=3))
    assert results_mail.results_mail_queue_waiting() == 1  # one close, eager: sent at once
    assert sorted(by_address()) == ["east@example.org", "north@example.org"]
    assert results_mail.results_mail_queue_waiting() == 0


def test_the_schema_documents_the_players_address(api: Any) -> None:
    schema = api.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    assert "email" in schema["PlayerInRequest"]["properties"]
    out = schema["PlayerDirectorOut"]["properties"]
    assert {"email", "results_mail"} <= set(out)
    assert "email" not in schema["PlayerOut"]["properties"]
