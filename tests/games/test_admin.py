"""The Django admin shows deals and rubbers but never changes them: a deal changes only through
Deal.correct and friends, and goes only as its rubber's last (Deal.delete_last), each locked,
rescored and noted in the history (docs/rules.md)."""

from __future__ import annotations

from games.models import Deal


def test_the_admin_neither_changes_reverts_nor_deletes_a_deal(admin_client, rubber, enter):
    enter(
        [
            {"contract": "2H", "declarer": "N", "tricks": 8},
            {"contract": "3NT", "declarer": "E", "tricks": 9},
        ]
    )
    first = rubber.deals.get(number=1)
    assert first.correct(version=1, changed_by=None, tricks=9).version == 2
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
