"""Corrections re-score the rubber and keep every change (RULES 8.2; API.md PATCH, history)."""

from __future__ import annotations

from typing import Any

from games.models import Deal, Rubber
from games.sessions import lifecycle
from scoring.rules import DealInput, Honours, Side, score_rubber
from tests.conftest import unchanged
from tests.games.conftest import SIX_DEALS, seated_user


def patch(api: Any, deal: Deal, user: Any, **data: Any) -> Any:
    api.force_authenticate(user)
    return api.patch(f"/api/v1/deals/{deal.pk}/", data, format="json")


def _engine(deals: list[dict[str, Any]]) -> dict[str, Any]:
    side = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    inputs = []
    for d in deals:
        honours = d.get("honours")
        inputs.append(
            DealInput.create(
                d["contract"],
                side[d["declarer"]] if "declarer" in d else None,
                d.get("tricks"),
                None if honours is None else Honours(Side(honours["side"]), honours["points"]),
            )
        )
    return score_rubber(inputs).to_dict()


def test_correcting_deal_2_of_6_rescores_the_rubber(api, rubber, enter, north):
    enter(SIX_DEALS[:5])
    deal = rubber.deals.get(number=2)
    response = patch(api, deal, north, version=1, tricks=9)  # 4S by E down one, not made
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["version"] == 2
    corrected = [*SIX_DEALS[:1], {**SIX_DEALS[1], "tricks": 9}, *SIX_DEALS[2:5]]
    assert body["rubber"]["scoresheet"] == _engine(corrected)
    assert body["rubber"]["scoresheet"]["games"] == {"NS": 1, "EW": 0}


def test_a_stale_version_is_a_conflict(api, rubber, enter, north):
    enter(SIX_DEALS[:2])
    deal = rubber.deals.get(number=2)
    assert patch(api, deal, north, version=1, tricks=11).status_code == 200
    response = patch(api, deal, north, version=1, tricks=9)
    assert response.status_code == 409
    assert "version 2" in response.json()["detail"]


def test_a_correction_with_an_impossible_result_is_a_400(api, rubber, enter, north):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    response = patch(api, deal, north, version=1, tricks=14)
    assert response.status_code == 400
    assert "RULES 1" in response.json()["errors"]["tricks"][0]
    assert patch(api, deal, north, tricks=9).status_code == 400  # version is required


def test_correcting_to_a_pass_clears_declarer_and_tricks(api, rubber, enter, north):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    response = patch(api, deal, north, version=1, contract="pass")
    assert response.status_code == 200, response.json()
    assert response.json()["declarer"] == ""
    assert response.json()["tricks"] is None


def test_history_shows_who_when_before_and_after(api, rubber, enter, north, director):
    enter(SIX_DEALS[:2])
    deal = rubber.deals.get(number=2)
    patch(api, deal, director, version=1, tricks=11)
    api.force_authenticate(None)
    entries = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    assert [e["kind"] for e in entries] == ["entered", "changed"]
    # Shown as the club knows them, never by login (API.md): North's player, the director.
    assert (entries[0]["user"], entries[0]["player"]) == ("North", rubber.north_id)
    assert entries[0]["before"] is None
    assert (entries[1]["user"], entries[1]["player"]) == ("Director", None)
    assert entries[1]["before"]["tricks"] == 10
    assert entries[1]["after"]["tricks"] == 11
    assert {"field": "tricks", "before": 10, "after": 11} in entries[1]["changes"]
    assert entries[1]["at"] >= entries[0]["at"]


def test_a_correction_that_reopens_the_rubber_withdraws_the_empty_next_one(
    api, rubber, enter, north
):
    last = enter(SIX_DEALS).json()
    next_id = last["next_rubber"]
    deal = rubber.deals.get(number=6)
    response = patch(api, deal, north, version=1, tricks=11)  # 6D down one: no second game
    assert response.status_code == 200, response.json()
    assert response.json()["rubber"]["status"] == "in_play"
    assert response.json()["next_rubber"] is None
    assert not Rubber.objects.filter(pk=next_id).exists()


def test_a_correction_that_reopens_a_rubber_whose_next_has_deals_is_refused(
    api, rubber, enter, north
):
    last = enter(SIX_DEALS).json()
    next_rubber = Rubber.objects.get(pk=last["next_rubber"])
    enter(SIX_DEALS[:1], target=next_rubber)
    deal = rubber.deals.get(number=6)
    response = patch(api, deal, north, version=1, tricks=11)
    assert response.status_code == 409
    assert "already holds deal 1" in response.json()["detail"]
    deal.refresh_from_db()
    assert deal.version == 1


def test_a_correction_that_would_end_the_rubber_early_is_refused(api, rubber, enter, north):
    enter(SIX_DEALS[:5])
    deal = rubber.deals.get(number=1)
    # 2H made becomes 4H made: NS would win a game at deal 1 and the rubber at deal 3.
    response = patch(api, deal, north, version=1, contract="4H", tricks=10)
    assert response.status_code == 409
    assert "Correct those deals first" in response.json()["detail"]


def test_a_correction_in_a_closed_session_is_refused(api, rubber, enter, running_session, north):
    enter(SIX_DEALS[:1])
    lifecycle.session_close(session=running_session)
    deal = rubber.deals.get(number=1)
    assert patch(api, deal, north, version=1, tricks=8).status_code == 409


def test_the_apis_refusals_speak_the_clients_language(api, rubber, enter, club, north):
    """A 403 of the API says why in the language the client asks for (Accept-Language), as
    every other answer of the API does (docs/i18n.md)."""
    club.confirm_entries = True
    club.save()
    enter(SIX_DEALS[:1])  # entered by North
    deal = rubber.deals.get(number=1)
    api.force_authenticate(seated_user(rubber, "S"))
    with unchanged():
        partner = api.post(f"/api/v1/deals/{deal.pk}/confirm", HTTP_ACCEPT_LANGUAGE="it")
    assert partner.status_code == 403
    assert partner.json()["detail"] == (
        "Una smazzata è confermata da un giocatore della linea avversaria."
    )
    english = api.post(f"/api/v1/deals/{deal.pk}/confirm", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "A deal is confirmed by a player of the other side."


def test_confirmation_by_an_opponent(api, rubber, enter, club, north):
    club.confirm_entries = True
    club.save()
    enter(SIX_DEALS[:1])  # entered by North
    deal = rubber.deals.get(number=1)
    api.force_authenticate(seated_user(rubber, "S"))
    with unchanged():
        assert api.post(f"/api/v1/deals/{deal.pk}/confirm").status_code == 403  # partner
    api.force_authenticate(seated_user(rubber, "E"))
    response = api.post(f"/api/v1/deals/{deal.pk}/confirm")
    assert response.status_code == 200
    assert response.json()["confirmed_by"] == rubber.east_id
    assert api.post(f"/api/v1/deals/{deal.pk}/confirm").status_code == 200  # harmless twice
    # A correction asks for a new confirmation.
    patch(api, deal, north, version=1, tricks=8)
    deal.refresh_from_db()
    assert deal.confirmed_by is None


def test_an_api_confirmation_of_a_version_corrected_since_is_refused(
    api, rubber, enter, club, north
):
    """Confirm with the `version` read (as the page's Confirm sends it): a deal corrected since
    is not confirmed (409 saying what it is now); bad versions are 400s naming the field."""
    club.confirm_entries = True
    club.save()
    enter(SIX_DEALS[:1])  # entered by North
    deal = rubber.deals.get(number=1)
    patch(api, deal, north, version=1, tricks=8)
    api.force_authenticate(seated_user(rubber, "E"))
    url = f"/api/v1/deals/{deal.pk}/confirm"
    with unchanged():
        stale = api.post(url, {"version": 1}, format="json")
        assert stale.status_code == 409
        assert "Deal 1 was just corrected" in stale.json()["detail"]
        for bad in ("two", 0, -1, 2**40, [2], None):
            answer = api.post(url, {"version": bad}, format="json")
            assert answer.status_code == 400, bad
            assert "version" in answer.json()["errors"]
        assert api.post(url, [2], format="json").status_code == 400
    answer = api.post(url, {"version": 2}, format="json")
    assert answer.status_code == 200
    assert answer.json()["confirmed_by"] == rubber.east_id


def test_confirmation_is_refused_when_the_club_does_not_ask_for_it(api, rubber, enter):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    api.force_authenticate(seated_user(rubber, "E"))
    with unchanged():
        assert api.post(f"/api/v1/deals/{deal.pk}/confirm").status_code == 409


def test_an_unknown_field_is_a_400_naming_it_and_changes_nothing(api, rubber, enter, north):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    response = patch(api, deal, north, version=1, trick=9)  # a typo for "tricks"
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["trick"]
    deal.refresh_from_db()
    assert (deal.version, deal.tricks) == (1, 9)
