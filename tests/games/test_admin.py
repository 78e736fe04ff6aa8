"""The Django admin shows deals and rubbers but never changes them: a deal changes only through
Deal.correct and friends, and goes only as its rubber's last (Deal.delete_last), each locked,
rescored and noted in the history (docs/rules.md)."""

from __future__ import annotations

from games.models import Deal, Rubber
from tests.factories import acting


def test_the_admin_neither_changes_reverts_nor_deletes_a_deal(admin_client, rubber, enter):
    enter(
        [
            {"contract": "2H", "declarer": "N", "tricks": 8},
            {"contract": "3NT", "declarer": "E", "tricks": 9},
        ]
    )
    first = rubber.deals.get(number=1)
    assert first.correct(version=1, tricks=9, actor=acting(first, None)).version == 2
    base = f"/admin/games/deal/{first.pk}"
    page = admin_client.get(f"{base}/change/")
    assert page.status_code == 200  # shown, read-only
    assert b'name="_save"' not in page.content
    assert admin_client.post(f"{base}/change/", {"tricks": 13}).status_code == 403
    assert admin_client.get(f"{base}/delete/").status_code == 403
    assert admin_client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
    changelist = admin_client.post(
        "/admin/games/deal/",
        {"action": "delete_selected", "_selected_action": [first.pk], "post": "yes"},
    )
    assert changelist.status_code in (200, 302)
    old = first.history.order_by("history_id").first()
    assert admin_client.get(f"{base}/history/{old.history_id}/").status_code == 200
    revert = admin_client.post(f"{base}/history/{old.history_id}/", {"_save": "Revert"})
    assert revert.status_code == 403
    rubber_page = f"/admin/games/rubber/{rubber.pk}/delete/"
    assert admin_client.post(rubber_page, {"post": "yes"}).status_code == 403
    first.refresh_from_db()
    assert (first.tricks, first.version) == (9, 2)
    assert Deal.objects.filter(rubber=rubber).count() == 2


def test_the_admin_does_not_change_a_rubber(admin_client, rubber, enter, club):
    """A rubber's players, table and number are what its deals were scored and noted under: the
    admin shows it and its deals, and a posted change is refused like a deal's."""
    from tests.conftest import unchanged
    from tests.factories import add_player

    enter([{"contract": "2H", "declarer": "N", "tricks": 8}])
    stranger = add_player(club, "Stranger")
    base = f"/admin/games/rubber/{rubber.pk}/change/"
    page = admin_client.get(base)
    assert page.status_code == 200  # shown, read-only
    assert b'name="_save"' not in page.content
    deal = rubber.deals.get()
    with unchanged(Rubber, Deal):
        changed = admin_client.post(
            base,
            {
                "session": rubber.session_id,
                "table": rubber.table_id,
                "number": 7,
                "north": stranger.pk,
                "east": rubber.east_id,
                "south": rubber.south_id,
                "west": rubber.west_id,
                "sitting_out": "[]",
                "deals-TOTAL_FORMS": "1",
                "deals-INITIAL_FORMS": "1",
                "deals-MIN_NUM_FORMS": "0",
                "deals-MAX_NUM_FORMS": "1000",
                "deals-0-id": deal.pk,
                "deals-0-rubber": rubber.pk,
                "_save": "Save",
            },
        )
        assert changed.status_code == 403


def test_the_admin_never_reverts_a_session_to_an_old_version(admin_client, running_session):
    """The session's history is shown, never posted back: an old version saved from it would
    undo a close or a start past the services (SIMPLE_HISTORY_REVERT_DISABLED only hides the
    button)."""
    from clubs.models import Session
    from tests.conftest import unchanged

    session = running_session
    session.status = Session.Status.CLOSED
    session.save()
    planned = session.history.order_by("history_id").first()
    assert planned.status == Session.Status.PLANNED
    page = f"/admin/clubs/session/{session.pk}/history/{planned.history_id}/"
    assert admin_client.get(page).status_code == 200
    with unchanged(Session):
        revert = admin_client.post(
            page,
            {
                "club": session.club_id,
                "date": str(session.date),
                "kind": session.kind,
                "movement": session.movement,
                "stake_per_hundred": str(session.stake_per_hundred),
                "tables-TOTAL_FORMS": "0",
                "tables-INITIAL_FORMS": "0",
                "tables-MIN_NUM_FORMS": "0",
                "tables-MAX_NUM_FORMS": "1000",
                "_save": "Revert",
            },
        )
        assert revert.status_code == 403
