"""The wave-3 probe's first hole (issue 26, item 1): a reopened session revived its table codes.

A session reopened for corrections is its director's alone (docs/security.md, "Holes found by
the wave-3 probe"): its table codes stay dead, whatever the order of reopen, codes on and new
codes, and so do the seated players' own writes (entry, correction, deletion, confirmation),
by page, queue or API. The director's corrections still work. A dead code answers exactly like
an unknown one; a phone still holding deals queued offline is told that the session is closed
and to show them to the director (docs/offline.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from clubs.models import Session, Table
from games.models import Conflict, Deal, Rubber
from games.sessions import lifecycle
from tests.conftest import unchanged
from tests.factories import acting
from tests.games.test_pages import TAP_4S_MADE

pytestmark = pytest.mark.django_db

CLOSED_WORDS = "This session is closed: show these to the director."


@pytest.fixture(autouse=True)
def _empty_throttle() -> None:
    caches["throttle"].clear()


def _codes(on: bool) -> Callable[[Session, Any], None]:
    def step(session: Session, director: Any) -> None:
        # As the console, or the admin (which edits the setting whatever the session's state).
        Session.objects.filter(pk=session.pk).update(table_codes=on)

    return step


def _regenerate(session: Session, director: Any) -> None:
    for table in Table.objects.filter(session=session):
        table.regenerate_code()


STEPS: dict[str, Callable[[Session, Any], Any]] = {
    "close": lambda session, director: lifecycle.session_close(session=session, by=director),
    "reopen": lambda session, director: lifecycle.session_reopen(session=session, by=director),
    "codes off": _codes(False),
    "codes on": _codes(True),
    "regenerate": _regenerate,
}

#: Each order of the probe ends with the session reopened and its codes on.
ORDERS = [
    ("close", "reopen"),
    ("close", "reopen", "codes off", "codes on"),
    ("close", "reopen", "regenerate"),
    ("codes off", "close", "reopen", "codes on"),
    ("close", "regenerate", "reopen"),
    ("close", "codes off", "reopen", "codes on", "regenerate"),
    ("close", "reopen", "close", "reopen"),
]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def phone_at(rubber: Rubber, seat: str) -> Client:
    """A phone with no account holding the table's code as the player in `seat`."""
    phone = Client()
    assert phone.post(f"/t/{rubber.table.code}", {"seat": seat}).status_code == 302
    return phone


def queued(rubber: Rubber) -> str:
    return f"/rubbers/{rubber.pk}/deals/queued"


def walk(order: tuple[str, ...], session: Session, director: Any) -> None:
    for step in order:
        STEPS[step](session, director)
    session.refresh_from_db()
    assert session.is_reopened and session.table_codes


def correction(deal: Deal, result: str) -> dict[str, Any]:
    """The correction form of deal 1 (3NT by E) with another `result`, as the pad sends it."""
    fields = {"version": "1", "level": "3", "strain": "NT", "declarer": "E", "result": result}
    return {f"deal{deal.pk}-{name}": value for name, value in fields.items()}


def night(running_session: Session, north: Any) -> tuple[Rubber, Deal, Client]:
    """Deal 1 (3NT by E, 8 tricks) entered by North; West's phone holds the table's code."""
    rubber = running_session.rubbers.get(number=1)
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    return rubber, deal, phone_at(rubber, "W")


@pytest.mark.parametrize("order", ORDERS, ids=", ".join)
def test_a_reopened_sessions_codes_stay_dead_whatever_the_order(
    order: tuple[str, ...], running_session: Session, director: Any, north: Any
) -> None:
    rubber, deal, phone = night(running_session, north)
    walk(order, running_session, director)
    code = Table.objects.get(pk=rubber.table_id).code  # the code now (new after "regenerate")
    unknown = Client().get("/t/ZZZZ2222")
    with unchanged():
        # The card's code answers exactly like a code never made, and picks no seat.
        for client in (Client(), phone):
            page = client.get(f"/t/{code}")
            assert (page.status_code, page.content) == (404, unknown.content)
        picked = Client().post(f"/t/{code}", {"seat": "W"})
        assert picked.status_code == 404 and "table_code" not in picked.cookies
        # The phone's old cookie writes nothing: the queue's correction, a new deal, the pad.
        replaced = phone.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
        assert (replaced.status_code, replaced.json()) == (
            409,
            {"status": "closed", "detail": CLOSED_WORDS},
        )
        assert phone.post(queued(rubber), {**TAP_4S_MADE, "number": 2}).json()["status"] == (
            "closed"
        )
        assert (
            phone.post(f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "number": 2}).status_code
            == 403
        )
        assert phone.post(f"/deals/{deal.pk}/correct", correction(deal, "0")).status_code == 403
        assert 'id="correct-1"' not in phone.get(f"/rubbers/{rubber.pk}/").content.decode()


def test_the_seated_players_own_writes_are_refused_in_a_reopened_session(
    api: Any, running_session: Session, director: Any, north: Any, east: Any
) -> None:
    """North entered deal 1 and sits in the rubber: while the session runs they correct it; once
    it is reopened for corrections, neither they nor East (the other side) write anything."""
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    rubber, deal, _phone = night(running_session, north)
    walk(("close", "reopen"), running_session, director)
    player, opponent = signed_in(north), signed_in(east)
    html = player.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="correct-1"' not in html and 'id="confirm-1"' not in html
    with unchanged():
        api.force_authenticate(north)
        patched = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 9}, format="json")
        assert patched.status_code == 403
        assert "reopened for the director's corrections only" in patched.json()["detail"]
        italian = api.patch(
            f"/api/v1/deals/{deal.pk}/",
            {"version": 1, "tricks": 9},
            format="json",
            HTTP_ACCEPT_LANGUAGE="it",
        )
        assert "riaperta solo per le correzioni del direttore" in italian.json()["detail"]
        assert api.delete(f"/api/v1/deals/{deal.pk}/?version=1").status_code == 403
        entered = api.post(
            f"/api/v1/rubbers/{rubber.pk}/deals/",
            {"number": 2, "contract": "1NT", "declarer": "S", "tricks": 7},
            format="json",
        )
        assert entered.status_code == 403
        replaced = player.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
        assert replaced.json() == {"status": "closed", "detail": CLOSED_WORDS}
        refused = player.post(f"/deals/{deal.pk}/correct", correction(deal, "0"))
        assert refused.status_code == 403
        api.force_authenticate(east)
        confirmed = api.post(f"/api/v1/deals/{deal.pk}/confirm", {"version": 1}, format="json")
        assert confirmed.status_code == 403
        assert (
            opponent.post(
                f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}
            ).status_code
            == 403
        )


def test_the_verbs_refuse_anyone_but_a_director_in_a_reopened_session(
    running_session: Session, director: Any, north: Any, table_of_four: dict[str, Any]
) -> None:
    """The check is the writes' own, under the session's lock: a caller that forgot it (or a
    reopen that landed after it) still writes nothing."""
    _rubber, deal, _phone = night(running_session, north)
    walk(("close", "reopen"), running_session, director)
    with unchanged():
        for write in (
            lambda: deal.correct(version=1, tricks=9, actor=acting(deal, north)),
            lambda: deal.correct(
                version=1, tricks=9, actor=acting(deal, None, seat="W", phone="ab12")
            ),
            lambda: deal.delete_last(version=1, actor=acting(deal, north)),
            lambda: deal.dispute(actor=acting(deal, None)),
            lambda: deal.confirm(version=1, actor=acting(deal, None, player=table_of_four["east"])),
        ):
            with pytest.raises(Conflict, match="reopened for the director's corrections only"):
                write()
    corrected = deal.correct(version=1, tricks=9, actor=acting(deal, director))
    assert (corrected.version, corrected.tricks) == (2, 9)


def test_the_director_still_corrects_a_reopened_session_by_page_and_api(
    api: Any, running_session: Session, director: Any, north: Any
) -> None:
    rubber, deal, _phone = night(running_session, north)
    walk(("close", "reopen"), running_session, director)
    console = signed_in(director)
    assert 'id="correct-1"' in console.get(f"/rubbers/{rubber.pk}/").content.decode()
    corrected = console.post(f"/deals/{deal.pk}/correct", correction(deal, "0"))
    assert corrected.status_code == 302
    api.force_authenticate(director)
    patched = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 2, "tricks": 7}, format="json")
    assert patched.status_code == 200, patched.json()
    deal.refresh_from_db()
    assert (deal.version, deal.tricks) == (3, 7)


def test_a_closed_session_tells_the_phone_to_show_its_deals_to_the_director(
    running_session: Session, director: Any, north: Any
) -> None:
    """Closed, not reopened: the queue's answer is the same, in the club's language too."""
    rubber, _deal, phone = night(running_session, north)
    lifecycle.session_close(session=running_session, by=director)
    north_phone = signed_in(north)
    with unchanged():
        answer = phone.post(queued(rubber), {**TAP_4S_MADE, "number": 2})
        assert (answer.status_code, answer.json()["status"]) == (409, "closed")
        assert answer.json()["detail"] == CLOSED_WORDS
        player = north_phone.post(queued(rubber), {**TAP_4S_MADE, "number": 2})
        assert player.json() == {"status": "closed", "detail": CLOSED_WORDS}
    club = running_session.club
    club.language = "it"
    club.save(update_fields=["language"])
    italian = phone.post(queued(rubber), {**TAP_4S_MADE, "number": 2})
    assert italian.json()["detail"] == "Questa serata è chiusa: mostrale al direttore."


def test_the_cards_show_no_code_in_a_reopened_session(
    running_session: Session, director: Any, north: Any
) -> None:
    rubber, _deal, _phone = night(running_session, north)
    walk(("close", "reopen"), running_session, director)
    console = signed_in(director)
    cards = console.get(f"/clubs/riverside/sessions/{running_session.pk}/cards/").content.decode()
    assert rubber.table.code not in cards and 'id="codes-form"' not in cards
    said = "reopened for the director&#x27;s corrections only: its table codes do not open"
    assert said in cards.replace("'", "&#x27;")
    with unchanged():
        changed = console.post(
            f"/clubs/riverside/sessions/{running_session.pk}/codes/",
            {"action": "regenerate", "sure": "1"},
            follow=True,
        )
    assert said in changed.content.decode().replace("'", "&#x27;")
    session = console.get(f"/api/v1/sessions/{running_session.pk}/").json()
    assert [table["code"] for table in session["tables"]] == [None]


def test_a_members_only_tables_phone_is_told_the_session_closed_and_keeps_its_queue(
    running_session: Session, director: Any, north: Any
) -> None:
    """Its pad is hidden once the code is dead: the page says why (not "scan the card again",
    which would not help) and carries the rubber's offline queue, so kept deals stay in view."""
    club = running_session.club
    club.public = False
    club.save(update_fields=["public"])
    rubber, _deal, phone = night(running_session, north)
    walk(("close", "reopen"), running_session, director)
    page = phone.get(f"/rubbers/{rubber.pk}/")
    html = page.content.decode()
    assert page.status_code == 403
    assert "This session is closed: the table's code no longer opens it." in html
    assert f'data-queue-url="/rubbers/{rubber.pk}/deals/queued"' in html
    polled = phone.get(f"/rubbers/{rubber.pk}/live", HTTP_HX_REQUEST="true").content.decode()
    assert "This session is closed: the table's code no longer opens it." in polled
    assert Client().get(f"/rubbers/{rubber.pk}/").status_code == 404  # nobody else learns it


def test_giving_back_a_phone_whose_session_closed_says_the_session_is_closed(
    running_session: Session, director: Any, north: Any
) -> None:
    """The phone's old cookie posting "give it back" (the probe: it said "scan the card again",
    which cannot help once the session closed): the closed wording, with the rubber's queue."""
    rubber, _deal, phone = night(running_session, north)
    lifecycle.session_close(session=running_session, by=director)
    with unchanged():
        page = phone.post(f"/t/{rubber.table.code}/back", {"rubber": rubber.pk})
    html = page.content.decode()
    assert page.status_code == 403
    assert "This session is closed: the table's code no longer opens it." in html
    assert "scan the table card again" not in html
    assert f'data-queue-url="/rubbers/{rubber.pk}/deals/queued"' in html


def test_a_queued_deal_sent_during_the_close_is_told_closed_not_sign_in(
    running_session: Session, director: Any, north: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe's race: the rubber was read while the session ran, and the phone's code was
    checked after the director closed it. The answer is "closed" (the deals stay for the
    director), not "sign in" (which the phone would retry 15 s later)."""
    from games.codes import tokens as codes

    rubber, _deal, phone = night(running_session, north)
    real_open_table = codes.open_table

    def closed_meanwhile(code: str) -> Table | None:
        lifecycle.session_close(session=Session.objects.get(pk=running_session.pk), by=director)
        return real_open_table(code)

    monkeypatch.setattr(codes, "open_table", closed_meanwhile)
    answer = phone.post(queued(rubber), {**TAP_4S_MADE, "number": 2})
    assert answer.status_code == 409
    assert answer.json() == {"status": "closed", "detail": CLOSED_WORDS}
    assert list(Deal.objects.filter(rubber=rubber).values_list("number", flat=True)) == [1]
