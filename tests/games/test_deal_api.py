"""Entering deals through the API (API.md: Rubbers and deals; RULES 8.1, 8.2)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from games.models import Deal, Rubber
from games.sessions import lifecycle
from tests.conftest import unchanged
from tests.games.conftest import SIX_DEALS, seated_user

SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def _sides(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**d, "declarer": SIDE[d["declarer"]]} if "declarer" in d else d for d in deals]


def cli_rubbers(*rubbers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`python -m scoring rubber` on the same deals (seats become sides), one JSON line each."""
    lines = "\n".join(json.dumps({"deals": _sides(deals)}) for deals in rubbers)
    out = subprocess.run(
        [sys.executable, "-m", "scoring", "rubber"],
        input=lines + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def post(api: Any, rubber: Any, number: int, deal: dict[str, Any], seat: str = "N") -> Any:
    api.force_authenticate(seated_user(rubber, seat))
    url = f"/api/v1/rubbers/{rubber.pk}/deals/"
    return api.post(url, {"number": number, **deal}, format="json")


def test_a_whole_rubber_deal_by_deal_matches_the_command_line(api, rubber):
    expected_sheets = cli_rubbers(*(SIX_DEALS[:n] for n in range(1, 7)))
    for number, deal in enumerate(SIX_DEALS, start=1):
        response = post(api, rubber, number, deal)
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["number"] == number
        assert body["version"] == 1
        assert body["rubber"]["scoresheet"] == expected_sheets[number - 1]
    assert body["rubber"]["status"] == "complete"
    assert body["rubber"]["scoresheet"]["winner"] == "NS"
    assert body["next_rubber"] is not None
    next_rubber = Rubber.objects.get(pk=body["next_rubber"])
    assert next_rubber.number == 2
    assert next_rubber.status == Rubber.Status.IN_PLAY
    assert next_rubber.seat_ids != rubber.seat_ids  # the pivot rotation moved three players


def test_get_rubber_has_the_api_fields_and_explanations(api, rubber, enter):
    enter(SIX_DEALS[:2])
    body = api.get(f"/api/v1/rubbers/{rubber.pk}/").json()
    assert {"id", "session", "table", "number", "seats", "status", "scoresheet"} <= set(body)
    assert set(body["seats"]) == {"N", "E", "S", "W"}
    sheet = body["scoresheet"]
    for key in (
        "NS",
        "EW",
        "games",
        "vulnerable",
        "rubber_complete",
        "winner",
        "rubber_bonus",
        "unfinished_bonus",
        "net",
        "back_score_hundreds",
        "points_leader",
    ):
        assert key in sheet
    assert sheet["EW"]["below"][0]["explanation"].startswith("4♠ made")
    assert sheet["vulnerable"] == {"NS": False, "EW": True}


def test_a_retried_post_changes_nothing(api, rubber):
    first = post(api, rubber, 1, SIX_DEALS[0])
    again = post(api, rubber, 1, SIX_DEALS[0])
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert Deal.objects.filter(rubber=rubber).count() == 1
    assert Deal.history.filter(rubber_id=rubber.pk).count() == 1


def test_a_retry_of_the_deal_that_ended_the_rubber_still_names_the_next_rubber(api, rubber, enter):
    last = enter(SIX_DEALS)
    again = post(api, rubber, 6, SIX_DEALS[5])
    assert again.status_code == 200
    assert again.json()["next_rubber"] == last.json()["next_rubber"]


def test_different_content_for_an_existing_number_is_a_conflict(api, rubber):
    post(api, rubber, 1, SIX_DEALS[0])
    response = post(api, rubber, 1, {"contract": "3H", "declarer": "N", "tricks": 9})
    assert response.status_code == 409
    assert "already recorded" in response.json()["detail"]


def test_a_gap_in_the_numbering_is_a_conflict(api, rubber):
    response = post(api, rubber, 3, SIX_DEALS[0])
    assert response.status_code == 409
    assert "number 1" in response.json()["detail"]


def test_a_deal_for_a_finished_rubber_is_a_conflict(api, rubber, enter):
    enter(SIX_DEALS)
    response = post(api, rubber, 7, SIX_DEALS[0])
    assert response.status_code == 409
    assert "RULES 8.1" in response.json()["detail"]


def test_a_deal_in_a_closed_session_is_a_conflict(api, rubber, running_session, enter):
    enter(SIX_DEALS[:1])
    lifecycle.session_close(session=running_session)
    response = post(api, rubber, 2, SIX_DEALS[1])
    assert response.status_code == 409
    assert "closed" in response.json()["detail"]


@pytest.mark.parametrize(
    ("deal", "field", "rule"),
    [
        ({"contract": "4S", "declarer": "N", "tricks": 14}, "tricks", "RULES 1"),
        ({"contract": "4S", "declarer": "N", "tricks": -1}, "tricks", "RULES 1"),
        (
            {
                "contract": "3NT",
                "declarer": "N",
                "tricks": 9,
                "honours": {"side": "NS", "points": 100},
            },
            "honours.points",
            "RULES 3.6",
        ),
        ({"contract": "pass", "honours": {"side": "NS", "points": 150}}, "honours", "RULES 3.8"),
        ({"contract": "pass", "declarer": "N"}, "declarer", "RULES 3.8"),
        ({"contract": "pass", "tricks": 7}, "tricks", "RULES 3.8"),
        ({"contract": "8S", "declarer": "N", "tricks": 9}, "contract", "RULES 1"),
        ({"contract": "4S", "tricks": 10}, "declarer", "RULES 1"),
        ({"contract": "4S", "declarer": "N"}, "tricks", "RULES 1"),
        ({"contract": "4S", "declarer": "X", "tricks": 10}, "declarer", None),
        (
            {
                "contract": "4S",
                "declarer": "N",
                "tricks": 10,
                "honours": {"side": "NW", "points": 100},
            },
            "honours.side",
            "RULES 1",
        ),
        (
            {
                "contract": "4S",
                "declarer": "N",
                "tricks": 10,
                "honours": {"side": "NS", "points": 120},
            },
            "honours.points",
            "RULES 3.6",
        ),
    ],
)
def test_an_impossible_result_is_refused_naming_the_rule(api, rubber, deal, field, rule):
    response = post(api, rubber, 1, deal)
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert field in errors, errors
    if rule:
        assert rule in errors[field][0]
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"number": 0, "contract": "4S"},
        {"number": "x"},
        {"number": 1, "tricks": "ten"},
        {"number": 1, "contract": "4S", "declarer": "N", "tricks": 10, "honours": "lots"},
        [],
    ],
)
def test_malformed_input_is_a_400_never_a_500(api, rubber, payload):
    api.force_authenticate(seated_user(rubber, "N"))
    with unchanged():
        response = api.post(f"/api/v1/rubbers/{rubber.pk}/deals/", payload, format="json")
    assert response.status_code == 400
    assert "errors" in response.json()


def test_a_deal_write_queues_a_standings_refresh_after_commit(
    api, rubber, monkeypatch, django_capture_on_commit_callbacks
):
    calls: list[int] = []
    monkeypatch.setattr("scoring.standings.queueing.queue_session_refresh", calls.append)
    post(api, rubber, 1, SIX_DEALS[0])
    assert calls == [rubber.session_id]
    post(api, rubber, 1, SIX_DEALS[0])  # a retry changes nothing: no refresh
    assert calls == [rubber.session_id]


def test_unknown_rubber_is_404(api, north):
    api.force_authenticate(north)
    assert api.get("/api/v1/rubbers/999999/").status_code == 404
    with unchanged():
        assert api.post("/api/v1/rubbers/999999/deals/", {}, format="json").status_code == 404


def test_the_schema_documents_every_status(api):
    response = api.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    post_codes = set(paths["/api/v1/rubbers/{id}/deals/"]["post"]["responses"])
    assert {"200", "201", "400", "401", "403", "404", "409"} <= post_codes
    patch_codes = set(paths["/api/v1/deals/{id}/"]["patch"]["responses"])
    assert {"200", "400", "401", "403", "404", "409"} <= patch_codes
    assert "/api/v1/deals/{id}/history" in paths
    assert "/api/v1/deals/{id}/confirm" in paths


@pytest.mark.parametrize(
    ("deal", "field", "rule"),
    [
        (
            {"contract": "7NT", "declarer": "N", "tricks": 13,
             "honours": {"side": "EW", "points": 150}},
            "honours",
            "RULES 3.7",
        ),
        (
            {"contract": "1S", "declarer": "E", "tricks": 0,
             "honours": {"side": "EW", "points": 150}},
            "honours",
            "RULES 3.7",
        ),
        ({"contract": "pass", "declarer": "N"}, "declarer", "RULES 3.8"),
    ],
)  # fmt: skip
def test_rules_3_7_and_3_8_refused_through_the_api(api, rubber, deal, field, rule):
    response = post(api, rubber, 1, deal)
    assert response.status_code == 400, response.json()
    (message,) = response.json()["errors"][field]
    assert rule in message
    assert not Deal.objects.filter(rubber=rubber).exists()


def test_rules_3_8_a_pass_with_null_declarer_is_accepted(api, rubber):
    response = post(api, rubber, 1, {"contract": "pass", "declarer": None, "tricks": None})
    assert response.status_code == 201, response.json()


def test_rules_2_3_nobody_is_vulnerable_in_a_rubber_closed_unfinished(api, rubber, enter, director):
    enter(SIX_DEALS[:3])  # a game each: both vulnerable while the rubber is in play
    url = f"/api/v1/rubbers/{rubber.pk}/"
    assert api.get(url).json()["scoresheet"]["vulnerable"] == {"NS": True, "EW": True}
    api.force_authenticate(director)
    assert api.post(f"/api/v1/sessions/{rubber.session_id}/close").status_code == 200
    body = api.get(url).json()
    assert body["status"] == "unfinished"
    assert body["scoresheet"]["vulnerable"] == {"NS": False, "EW": False}
    assert body["scoresheet"]["deals"][2]["vulnerable"] == {"NS": False, "EW": True}


def test_rules_2_3_a_completed_rubber_reports_the_next_deals_vulnerability(api, rubber, enter):
    body = enter(SIX_DEALS).json()
    sheet = body["rubber"]["scoresheet"]
    assert sheet["rubber_complete"] is True
    assert sheet["vulnerable"] == {"NS": False, "EW": False}
    assert sheet == cli_rubbers(SIX_DEALS, SIX_DEALS[:1])[0]
    assert api.get(f"/api/v1/rubbers/{rubber.pk}/").json()["scoresheet"] == sheet


def test_a_rubber_withdrawn_between_the_apis_two_reads_answers_as_a_missing_one(
    api, rubber, monkeypatch
):
    """GET reads the rubber's version, then the rubber with its deals: a rubber with no deal
    withdrawn in between (a close, a leaver's move) answers what it answers a moment later."""
    from games import api as games_api

    read_version = games_api.rubber_version_for_reader

    def withdrawn_meanwhile(user, pk):
        version = read_version(user, pk)
        Rubber.objects.filter(pk=pk).delete()
        return version

    monkeypatch.setattr(games_api, "rubber_version_for_reader", withdrawn_meanwhile)
    raced = api.get(f"/api/v1/rubbers/{rubber.pk}/")
    monkeypatch.undo()
    missing = api.get(f"/api/v1/rubbers/{rubber.pk}/")
    assert missing.status_code == 404
    assert (raced.status_code, raced.content) == (missing.status_code, missing.content)
