"""A correction that reopens a completed rubber (docs/rules.md: corrections that reopen a
rubber; RULES 8.1, 8.2; issue 14, item 1).

Nothing a player was told is saved is ever deleted: when the next rubber at the table holds
deals the correction is refused (409) naming them and nothing changes; a director may instead
move them into the reopened rubber (`move_next_deals`), only when the next rubber is the one in
play and seats the same players in the same seats. The race with an entry into the next rubber
runs against a real server in tests/integration/test_correction_race.py.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import translation

from games.models import Conflict, Deal, Rubber
from tests.conftest import unchanged
from tests.factories import acting, make_session
from tests.games.conftest import SIX_DEALS
from tests.games.test_corrections import patch

pytestmark = pytest.mark.django_db

# 6D by N down one (11 tricks): NS no longer win their second game, rubber 1 reopens.
REOPEN = {"tricks": 11}
NEXT_DEALS = [
    {"contract": "2H", "declarer": "E", "tricks": 8},
    {"contract": "1NT", "declarer": "S", "tricks": 7},
]


def snapshot(session: Any) -> list[tuple[Any, ...]]:
    """Every rubber and deal of the session as stored."""
    rubbers = list(
        Rubber.objects.filter(session=session).order_by("pk").values_list("pk", "status", "number")
    )
    deals = list(
        Deal.objects.filter(rubber__session=session)
        .order_by("pk")
        .values_list("pk", "rubber_id", "number", "version", "tricks", "contract")
    )
    return [*rubbers, *deals]


def finish_and_start_next(enter: Any, rubber: Rubber, deals: list[dict[str, Any]]) -> Rubber:
    last = enter(SIX_DEALS, target=rubber).json()
    following = Rubber.objects.get(pk=last["next_rubber"])
    if deals:
        enter(deals, target=following)
    return following


@pytest.fixture
def fixed_rubber(club: Any, table_of_four: dict[str, Any]) -> Rubber:
    """Rubber 1 of a fixed-partnership session: the next rubber seats everyone alike."""
    # Another day than `running_session`'s: one player sits in one running session of a day.
    session = make_session(
        club, [list(table_of_four.values())], movement="fixed", date=datetime.date(2026, 12, 1)
    )
    return session.rubbers.get(number=1)


def test_a_reopening_correction_is_refused_naming_the_next_rubbers_deals(api, rubber, enter, north):
    following = finish_and_start_next(enter, rubber, NEXT_DEALS)
    before = snapshot(rubber.session)
    deal = rubber.deals.get(number=6)
    response = patch(api, deal, north, version=1, **REOPEN)
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert f"rubber {following.number} at this table already holds" in detail
    assert "deal 1 (2♥ by E, 8 tricks); deal 2 (1NT by S, 7 tricks)" in detail
    assert "stay saved" in detail
    assert snapshot(rubber.session) == before  # nothing changed, nothing deleted


def test_the_refusal_is_translated(api, rubber, enter, north):
    finish_and_start_next(enter, rubber, NEXT_DEALS[:1])
    deal = rubber.deals.get(number=6)
    api.force_authenticate(north)
    with unchanged():
        response = api.patch(
            f"/api/v1/deals/{deal.pk}/",
            {"version": 1, **REOPEN},
            format="json",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert response.status_code == 409
    with translation.override("it"):
        summary = Deal.objects.get(rubber__number=2, number=1).summary()
    detail = response.json()["detail"]
    assert f"smazzata 1 ({summary})" in detail
    assert "rimane salvata" in detail


def test_an_empty_next_rubber_is_withdrawn_and_an_entry_into_it_is_then_refused(
    api, rubber, enter, north
):
    following = finish_and_start_next(enter, rubber, [])
    deal = rubber.deals.get(number=6)
    assert patch(api, deal, north, version=1, **REOPEN).status_code == 200
    assert not Rubber.objects.filter(pk=following.pk).exists()
    # An entry that read the rubber before the correction withdrew it, and locks it after:
    # a clear refusal, never a 500 nor a 201 that is lost.
    with pytest.raises(Conflict, match="no longer exists"):
        following.record_deal(
            number=1, contract="1C", declarer="N", tricks=7, actor=acting(following, north)
        )
    api.force_authenticate(north)
    with unchanged():
        response = api.post(
            f"/api/v1/rubbers/{following.pk}/deals/",
            {"number": 1, "contract": "1C", "declarer": "N", "tricks": 7},
            format="json",
        )
    assert response.status_code == 404


def test_a_director_moves_the_next_rubbers_deals_into_the_reopened_rubber(
    api, fixed_rubber, enter, director
):
    following = finish_and_start_next(enter, fixed_rubber, NEXT_DEALS)
    assert following.seat_ids == fixed_rubber.seat_ids
    moved_ids = list(following.deals.order_by("number").values_list("pk", flat=True))
    deal = fixed_rubber.deals.get(number=6)
    response = patch(api, deal, director, version=1, move_next_deals=True, **REOPEN)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["rubber"]["status"] == "in_play"
    assert [d["number"] for d in body["rubber"]["deals"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [d["id"] for d in body["rubber"]["deals"][6:]] == moved_ids  # the same deals, kept
    assert [d["version"] for d in body["rubber"]["deals"][6:]] == [2, 2]
    assert not Rubber.objects.filter(pk=following.pk).exists()
    api.force_authenticate(None)
    history = api.get(f"/api/v1/deals/{moved_ids[0]}/history").json()
    assert [e["reason"] for e in history] == ["entered", "moved"]


def test_moved_deals_that_end_the_rubber_again_seat_a_new_next_rubber(
    api, fixed_rubber, enter, director
):
    # NS make a game in rubber 2: moved into rubber 1 (NS a game up after the correction), it
    # ends rubber 1 again at its last deal, and the next rubber is seated afresh.
    following = finish_and_start_next(
        enter, fixed_rubber, [{"contract": "4H", "declarer": "N", "tricks": 10}]
    )
    deal = fixed_rubber.deals.get(number=6)
    response = patch(api, deal, director, version=1, move_next_deals=True, **REOPEN)
    assert response.status_code == 200, response.json()
    assert response.json()["rubber"]["status"] == "complete"
    assert response.json()["rubber"]["scoresheet"]["winner"] == "NS"
    fresh = Rubber.objects.get(table=fixed_rubber.table, number=2)
    assert fresh.pk != following.pk
    assert fresh.status == Rubber.Status.IN_PLAY
    assert not fresh.deals.exists()


def test_only_a_director_moves_deals(api, fixed_rubber, enter, north):
    finish_and_start_next(enter, fixed_rubber, NEXT_DEALS)
    before = snapshot(fixed_rubber.session)
    deal = fixed_rubber.deals.get(number=6)
    response = patch(api, deal, north, version=1, move_next_deals=True, **REOPEN)
    assert response.status_code == 403
    assert snapshot(fixed_rubber.session) == before


def test_deals_played_in_other_seats_are_not_moved(api, rubber, enter, director):
    # A pivot session: rubber 2 seats other partnerships, so its deals are not rubber 1's.
    following = finish_and_start_next(enter, rubber, NEXT_DEALS)
    assert following.seat_ids != rubber.seat_ids
    before = snapshot(rubber.session)
    deal = rubber.deals.get(number=6)
    response = patch(api, deal, director, version=1, move_next_deals=True, **REOPEN)
    assert response.status_code == 409
    assert "the players sat in other seats" in response.json()["detail"]
    assert snapshot(rubber.session) == before


def test_moved_deals_that_would_fall_after_the_new_end_are_refused(
    api, fixed_rubber, enter, director
):
    # Two NS games in rubber 2: moved, the first would end rubber 1 before the second.
    following = finish_and_start_next(
        enter,
        fixed_rubber,
        [
            {"contract": "4H", "declarer": "N", "tricks": 10},
            {"contract": "4S", "declarer": "S", "tricks": 10},
        ],
    )
    assert following.status == Rubber.Status.COMPLETE or following.deals.count() == 2
    before = snapshot(fixed_rubber.session)
    deal = fixed_rubber.deals.get(number=6)
    response = patch(api, deal, director, version=1, move_next_deals=True, **REOPEN)
    assert response.status_code == 409
    assert snapshot(fixed_rubber.session) == before


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_page_asks_before_its_correction_withdraws_the_empty_next_rubber(
    client, rubber, enter, north, language
):
    """Issue 29: on the pad a correction that reopens rubber 1 saves nothing at first; its form,
    taps kept, says what will happen ("rubber 2, not yet started, will be removed") and asks
    again with a button that says so. Saved from there, the correction is made and rubber 2
    withdrawn. A rubber with deals is never withdrawn: that refusal stands (above)."""
    following = finish_and_start_next(enter, rubber, [])
    deal = rubber.deals.get(number=6)
    p = f"deal{deal.pk}-"
    taps = {"level": "6", "strain": "D", "doubling": "", "declarer": "N", "result": "-1"}
    body = {f"{p}{k}": v for k, v in {**taps, "honours": "NS150", "version": 1}.items()}
    client.force_login(north)
    client.cookies["django_language"] = language
    with unchanged():
        html = client.post(f"/deals/{deal.pk}/correct", body).content.decode()
    question, button = {
        "en": (
            "This correction reopens rubber 1: rubber 2, not yet started, will be removed.",
            "Save and remove rubber 2",
        ),
        "it": (
            "Questa correzione riapre il rubber 1: il rubber 2, non ancora iniziato, sarà "
            "eliminato.",
            "Salva ed elimina il rubber 2",
        ),
    }[language]
    assert question in html and button in html
    assert 'name="withdraw_next" value="2"' in html
    assert f'name="{p}result" value="-1"' in html.replace(" checked", "")  # the taps kept
    # Another number than the one asked about (a stale page) asks again; the one asked saves.
    with unchanged():
        client.post(f"/deals/{deal.pk}/correct", {**body, "withdraw_next": "3"})
    response = client.post(f"/deals/{deal.pk}/correct", {**body, "withdraw_next": "2"})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert (deal.version, deal.tricks) == (2, 11)
    assert not Rubber.objects.filter(pk=following.pk).exists()
    rubber.refresh_from_db()
    assert rubber.status == "in_play"
