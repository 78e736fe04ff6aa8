"""export_club / import_club restore a club exactly (docs/operations.md: "Moving a club").

A club night with a finished rubber, a correction (version 2, with history), a confirmation,
a closed session and a planned one is exported, deleted and imported: every row compares equal
by natural keys (a second export equals the first) and the recomputed standings equal the
originals.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from clubs.models import Club, Session
from clubs.services import session_close
from clubs.transfer import club_export, club_restore_standings
from scoring.models import RubberResult, SessionPayment, SessionStanding
from tests.security.conftest import World, build_world

SIX_DEALS: list[dict[str, Any]] = [
    {"contract": "2H", "declarer": "N", "tricks": 9},
    {"contract": "4S", "declarer": "E", "tricks": 10, "honours_side": "EW", "honours_points": 100},
    {"contract": "3NT", "declarer": "S", "tricks": 9},
    {"contract": "pass", "declarer": None, "tricks": None},
    {"contract": "4HX", "declarer": "W", "tricks": 8},
    {"contract": "6D", "declarer": "N", "tricks": 12, "honours_side": "NS", "honours_points": 150},
]


def _play(world: World) -> None:
    rubber = world.rubber
    director = world.users["director"]
    for number, deal in enumerate(SIX_DEALS[1:], start=2):
        rubber.record_deal(number=number, entered_by=world.users["seated"], **deal)
    first = rubber.deals.get(number=1)
    first.correct(version=1, changed_by=director, tricks=10)
    east = world.players["east"]
    rubber.deals.get(number=2).confirm(by=east, user=east.user)
    nxt = rubber.next_rubber()
    assert nxt is not None
    nxt.record_deal(number=1, contract="1NT", declarer="E", tricks=8, entered_by=east.user)
    session_close(session=world.running)
    club_restore_standings(club=world.club)


def _standings(slug: str) -> dict[str, list[tuple[Any, ...]]]:
    club = Club.objects.get(slug=slug)
    return {
        "standings": sorted(
            SessionStanding.objects.filter(session__club=club).values_list(
                "session__date",
                "player__name",
                "rank",
                "rubbers",
                "won",
                "points",
                "hundreds",
                "money",
                "table_number",
                "prize_choice",
            )
        ),
        "results": sorted(
            RubberResult.objects.filter(session__club=club).values_list(
                "rubber__number",
                "player__name",
                "seat",
                "status",
                "points",
                "net",
                "hundreds",
                "won",
                "money",
            )
        ),
        "payments": sorted(
            SessionPayment.objects.filter(session__club=club).values_list(
                "position", "payer__name", "payee__name", "amount"
            )
        ),
    }


def _export(slug: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("export_club", slug, stdout=out)
    return json.loads(out.getvalue())


def _delete(club: Club) -> None:
    Session.objects.filter(club=club).delete()
    club.delete()


@pytest.mark.django_db
def test_a_club_round_trips_exactly(director: Any, tmp_path: Any) -> None:
    world = build_world(director)
    _play(world)
    before = _export("riverside")
    standings = _standings("riverside")
    assert standings["standings"] and standings["results"]
    assert any(d["version"] == 2 for d in before["deals"])
    assert any(d["confirmed_by"] == "East" for d in before["deals"])
    assert len(before["deal_history"]) > len(before["deals"])
    path = tmp_path / "club.json"
    path.write_text(json.dumps(before))

    _delete(world.club)
    assert not Club.objects.filter(slug="riverside").exists()
    out = io.StringIO()
    call_command("import_club", str(path), stdout=out)
    assert "riverside" in out.getvalue()

    after = _export("riverside")
    for section in before:
        assert after[section] == before[section], section
    assert _standings("riverside") == standings
    # Logins are linked again by username: North still enters at the restored table.
    restored = Club.objects.get(slug="riverside")
    north = get_user_model().objects.get(username="north")
    assert restored.players.get(name="North").user == north
    assert restored.is_director(director)


@pytest.mark.django_db
def test_an_import_creates_missing_logins_without_a_usable_password(director: Any) -> None:
    world = build_world(director)
    data = club_export(club=world.club)
    _delete(world.club)
    get_user_model().objects.filter(username="mate").delete()
    from clubs.transfer import club_import

    club = club_import(data=data)
    mate = club.players.get(name="Mate").user
    assert mate.username == "mate" and not mate.has_usable_password()


@pytest.mark.django_db
def test_an_import_never_overwrites_an_existing_club(director: Any, tmp_path: Any) -> None:
    world = build_world(director)
    path = tmp_path / "club.json"
    path.write_text(json.dumps(club_export(club=world.club)))
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_club", str(path))
    with pytest.raises(CommandError, match="No club"):
        call_command("export_club", "nowhere")
