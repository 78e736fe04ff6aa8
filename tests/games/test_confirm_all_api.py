""" "Confirm all" in the API (issue 29): `POST /api/v1/rubbers/{id}/confirm-all` confirms the
deals awaiting the player at once, each as the version they read, with the page's semantics:
all or none, disputes left per deal, only the other side."""

from __future__ import annotations

from clubs.models import Session
from games.models import Deal
from tests.conftest import unchanged
from tests.factories import acting
from tests.games.test_dispute_reasons import two_deals


def url(rubber):
    return f"/api/v1/rubbers/{rubber.pk}/confirm-all"


def seen(*deals):
    return {"deals": [{"id": deal.pk, "version": deal.version} for deal in deals]}


def test_the_other_side_confirms_every_deal_it_read(
    api, client, running_session, director, east, django_assert_max_num_queries
):
    rubber, first, second = two_deals(client, running_session, director)
    api.force_authenticate(east)
    with django_assert_max_num_queries(30):
        answer = api.post(url(rubber), seen(first, second), format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["confirmed"] == 2
    assert [deal["number"] for deal in body["deals"]] == [1, 2]
    assert {deal["confirmed_by"] for deal in body["deals"]} == {rubber.east.pk}
    assert set(Deal.objects.filter(rubber=rubber).values_list("confirmed_by", flat=True)) == {
        rubber.east.pk
    }


def test_the_writing_side_and_bad_bodies_change_nothing(
    api, client, running_session, director, south, east
):
    rubber, first, second = two_deals(client, running_session, director)
    api.force_authenticate(south)  # North's partner
    with unchanged():
        assert api.post(url(rubber), seen(first, second), format="json").status_code == 403
    api.force_authenticate(director)  # not seated: refused before the body is read
    with unchanged():
        assert api.post(url(rubber), {"deals": "all"}, format="json").status_code == 403
    api.force_authenticate(east)
    with unchanged():
        empty = api.post(url(rubber), {"deals": []}, format="json")
        assert empty.status_code == 400 and "deals" in empty.json()["errors"]
        bad = api.post(url(rubber), {"deals": [{"id": first.pk, "version": 0}]}, format="json")
        assert bad.status_code == 400 and "deals" in bad.json()["errors"]
        extra = api.post(url(rubber), {**seen(first), "all": True}, format="json")
        assert extra.status_code == 400
        # A deal not of this rubber: the list is out of date, nothing is confirmed.
        assert (
            api.post(
                url(rubber), {"deals": [{"id": 10**9, "version": 1}]}, format="json"
            ).status_code
            == 409
        )


def test_a_dispute_stays_and_a_deal_corrected_since_refuses_the_whole(
    api, client, running_session, director, east
):
    rubber, first, second = two_deals(client, running_session, director)
    api.force_authenticate(east)
    disputed = api.post(
        f"/api/v1/deals/{first.pk}/dispute", {"version": 1, "reason": "contract"}, format="json"
    )
    assert disputed.status_code == 200
    second.correct(version=1, actor=acting(rubber, rubber.north.user), tricks=8)
    listed = {"deals": [{"id": first.pk, "version": 1}, {"id": second.pk, "version": 1}]}
    with unchanged():
        stale = api.post(url(rubber), listed, format="json")
    assert stale.status_code == 409
    assert "was just corrected" in stale.json()["detail"]
    listed["deals"][1]["version"] = 2
    answer = api.post(url(rubber), listed, format="json")
    assert answer.status_code == 200
    assert answer.json()["confirmed"] == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.disputed and first.confirmed_by is None  # the dispute stays the director's
    assert second.confirmed_by == rubber.east


def test_a_closed_session_confirms_nothing(api, client, running_session, director, east):
    rubber, first, second = two_deals(client, running_session, director)
    Session.objects.filter(pk=running_session.pk).update(status=Session.Status.CLOSED)
    api.force_authenticate(east)
    with unchanged():
        assert api.post(url(rubber), seen(first, second), format="json").status_code == 409


def test_it_is_in_the_schema(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/rubbers/{id}/confirm-all"]["post"]
    assert set(operation["responses"]) == {"200", "400", "401", "403", "404", "409"}
