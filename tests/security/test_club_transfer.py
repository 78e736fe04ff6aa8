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
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club, Session
from games.sessions.lifecycle import session_close
from games.transfer import club_export, club_restore_standings
from scoring.standings.models import RubberResult, SessionPayment, SessionStanding
from tests.factories import ClubFactory, acting
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
        rubber.record_deal(number=number, **deal, actor=acting(rubber, world.users["seated"]))
    first = rubber.deals.get(number=1)
    first.correct(version=1, tricks=10, actor=acting(first, director))
    east = world.players["east"]
    rubber.deals.get(number=2).confirm(
        actor=acting(rubber.deals.get(number=2), east.user, player=east)
    )
    nxt = rubber.next_rubber()
    assert nxt is not None
    nxt.record_deal(number=1, contract="1NT", declarer="E", tricks=8, actor=acting(nxt, east.user))
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
    call_command("import_club", str(path), "--link-existing-logins", stdout=out)
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
    from games.transfer import club_import

    club = club_import(data=data, link_existing_logins=True)
    mate = club.players.get(name="Mate").user
    assert mate.username == "mate" and not mate.has_usable_password()


@pytest.mark.django_db
def test_an_import_never_overwrites_an_existing_club(director: Any, tmp_path: Any) -> None:
    world = build_world(director)
    path = tmp_path / "club.json"
    path.write_text(json.dumps(club_export(club=world.club)))
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_club", str(path), "--link-existing-logins")
    with pytest.raises(CommandError, match="No club"):
        call_command("export_club", "nowhere")


# --- hostile or invalid files (issue 14, item 8) -------------------------------------------------


def _stranger_file(world: World) -> dict[str, Any]:
    """The world's club as another site's export: a new slug and logins this site lacks."""
    data = club_export(club=world.club)
    data["club"]["slug"] = "newclub"

    def rename(name: str | None) -> str | None:
        return None if name is None else f"imported-{name}"

    for section, fields in {
        "memberships": ("user",),
        "players": ("user",),
        "sessions": ("created_by",),
        "deals": ("entered_by",),
        "deal_history": ("entered_by", "history_user"),
    }.items():
        for row in data[section]:
            for field in fields:
                row[field] = rename(row[field])
    return data


def _counts() -> dict[str, int]:
    from clubs.models import Membership, Player
    from games.models import Deal

    return {
        "clubs": Club.objects.count(),
        "logins": get_user_model().objects.count(),
        "memberships": Membership.objects.count(),
        "players": Player.objects.count(),
        "sessions": Session.objects.count(),
        "deals": Deal.objects.count(),
        "history": Deal.history.model.objects.count(),
        "standings": SessionStanding.objects.count(),
    }


def _import(data: dict[str, Any], tmp_path: Any, *flags: str) -> str:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("import_club", str(path), *flags, stdout=out)
    return out.getvalue()


def _refused(data: dict[str, Any], tmp_path: Any, *flags: str) -> str:
    before = _counts()
    with pytest.raises(CommandError) as refusal:
        _import(data, tmp_path, *flags)
    assert _counts() == before
    return str(refusal.value)


@pytest.mark.django_db
def test_a_file_from_another_site_imports_without_linking_anyone(
    director: Any, tmp_path: Any
) -> None:
    world = build_world(director)
    assert "newclub" in _import(_stranger_file(world), tmp_path)
    club = Club.objects.get(slug="newclub")
    assert club.players.get(name="North").user.username == "imported-north"
    assert not club.memberships.filter(user__in=world.users.values()).exists()


@pytest.mark.django_db
def test_a_slug_no_url_can_hold_is_refused(director: Any, tmp_path: Any) -> None:
    data = _stranger_file(build_world(director))
    data["club"]["slug"] = "bad slug/.."
    message = _refused(data, tmp_path)
    assert "club: slug:" in message and "nothing was written" in message
    assert Client().get("/").status_code == 200


@pytest.mark.django_db
def test_unknown_house_rules_are_refused(director: Any, tmp_path: Any) -> None:
    data = _stranger_file(build_world(director))
    data["club"]["rules_overrides"] = {"free_points": 500}
    data["sessions"][0]["rules"] = {"nope": True}
    message = _refused(data, tmp_path)
    assert "club: options.free_points" in message
    assert "sessions[0]: options.nope" in message
    assert APIClient().get("/api/v1/clubs/").status_code == 200


@pytest.mark.django_db
def test_an_impossible_contract_writes_nothing_and_a_fixed_file_then_imports(
    director: Any, tmp_path: Any
) -> None:
    """Before: the club, its players and deals were committed, the standings crashed, and the
    retry was refused because the slug was taken."""
    data = _stranger_file(build_world(director))
    good = data["deals"][0]["contract"]
    data["deals"][0]["contract"] = "8NT"
    message = _refused(data, tmp_path)
    assert "deals[0]: contract" in message and "deal_history" not in message
    data["deals"][0]["contract"] = good
    assert "newclub" in _import(data, tmp_path)


@pytest.mark.django_db
def test_a_deal_after_the_end_of_a_rubber_is_refused_by_the_engine(
    director: Any, tmp_path: Any
) -> None:
    world = build_world(director)
    _play(world)
    data = _stranger_file(world)
    last = max(
        (d for d in data["deals"] if d["rubber"] == data["deals"][0]["rubber"]),
        key=lambda d: d["number"],
    )
    extra = {**last, "number": last["number"] + 1}
    data["deals"].append(extra)
    message = _refused(data, tmp_path)
    assert "belongs to the next rubber" in message


@pytest.mark.django_db
def test_an_existing_login_is_linked_only_with_the_flag(director: Any, tmp_path: Any) -> None:
    """Before: a membership naming any login on the site made that person a director."""
    world = build_world(director)
    victim = world.users["outsider"]
    data = _stranger_file(world)
    data["memberships"].append({"user": victim.username, "role": "director"})
    message = _refused(data, tmp_path)
    assert "logins that already exist on this site: outsider" in message
    assert not victim.memberships.exists()

    _import(data, tmp_path, "--link-existing-logins")
    assert Club.objects.get(slug="newclub").is_director(victim)


@pytest.mark.django_db
def test_a_refusal_lists_every_bad_row(director: Any, tmp_path: Any) -> None:
    data = _stranger_file(build_world(director))
    data["players"][0]["name"] = ""
    data["sessions"][0]["kind"] = "poker"
    data["seats"][0]["player"] = "Nobody"
    data["memberships"][0]["role"] = "king"
    message = _refused(data, tmp_path)
    for where in ("players[0]: name", "sessions[0]: kind", "seats[0]: player", "memberships[0]"):
        assert where in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text", ["[]", '{"format": "backscore.club/1"}', '{"format": "backscore.club/1", "club": 3}']
)
def test_a_malformed_file_is_refused_not_a_crash(tmp_path: Any, text: str) -> None:
    path = tmp_path / "club.json"
    path.write_text(text)
    before = _counts()
    with pytest.raises(CommandError, match=r"refused|Not a Backscore"):
        call_command("import_club", str(path))
    assert _counts() == before


# --- bad rows already in the database do not break the site for everyone ------------------------


@pytest.mark.django_db
def test_a_stored_club_with_a_bad_slug_does_not_break_the_home_page(director: Any) -> None:
    build_world(director, public=True)
    ClubFactory(slug="bad slug/..", name="Broken")
    response = Client().get("/")
    assert response.status_code == 200
    assert "Riverside" in response.content.decode() or "riverside" in response.content.decode()
    assert "Broken" not in response.content.decode()


@pytest.mark.django_db
def test_a_stored_club_with_unknown_rules_does_not_break_the_club_list(director: Any) -> None:
    build_world(director, public=True)
    ClubFactory(slug="broken", name="Broken", rules_overrides={"free_points": 500})
    response = APIClient().get("/api/v1/clubs/")
    assert response.status_code == 200
    rules = {c["slug"]: c["rules"] for c in response.json()}
    assert rules["broken"] == {} and rules["riverside"]


@pytest.mark.django_db
def test_duplicate_rows_are_named(director: Any, tmp_path: Any) -> None:
    data = _stranger_file(build_world(director))
    data["memberships"].append(dict(data["memberships"][0]))
    data["seats"].append({**data["seats"][0], "position": 99})
    message = _refused(data, tmp_path)
    assert f"memberships[{len(data['memberships']) - 1}]: user:" in message
    assert f"seats[{len(data['seats']) - 1}]: player: sits at two tables" in message


@pytest.mark.django_db
def test_a_row_only_the_database_refuses_still_writes_nothing(director: Any, tmp_path: Any) -> None:
    """The checks are not the last line: a row the database refuses (here a second rubber in
    play at one table) rolls the whole import back and is reported, not a crash."""
    world = build_world(director)
    data = _stranger_file(world)
    in_play = next(r for r in data["rubbers"] if r["status"] == "in_play")
    data["rubbers"].append({**in_play, "number": in_play["number"] + 5})
    assert "a second rubber in play at its table" in _refused(data, tmp_path)


@pytest.mark.django_db
def test_any_database_error_while_writing_is_a_refusal_and_rolls_back(
    director: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    """Issue 14 probe item 4: the last-resort guard. Any database error during the write (here
    the standings step raising DataError, as a NUL byte did on PostgreSQL) ends in the clear
    refusal with everything rolled back, never a traceback."""
    from django.db import DataError

    data = _stranger_file(build_world(director))

    def broken(**_kwargs: Any) -> None:
        raise DataError("A string literal cannot contain NUL (0x00) characters.")

    monkeypatch.setattr("games.transfer.importing.club_restore_standings", broken)
    message = _refused(data, tmp_path)
    assert "the database refused a row" in message and "NUL" in message


def _in_play(data: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in data["rubbers"] if r["status"] == "in_play")


def _drop_seats_of_in_play(data: dict[str, Any]) -> None:
    r = _in_play(data)
    data["seats"] = [
        s for s in data["seats"] if (s["session"], s["table"]) != (r["session"], r["table"])
    ]


def _del(row: dict[str, Any], field: str) -> None:
    del row[field]


#: The probe's hostile files (issue 14 probe items 2, 3, 4): each was accepted and then broke a
#: page for everyone, or crashed the command with a traceback. Each is now refused at check time
#: with a line naming its row.
HOSTILE = {
    "created_at in year 0 after UTC": (
        lambda d: d["club"].update(created_at="0001-01-01T00:00:00+14:00"),
        "club: created_at: 0001-01-01T00:00:00+14:00 is outside the years 1900–9998",
    ),
    "ended_at in year 0": (
        lambda d: d["rubbers"][0].update(ended_at="0001-01-01T00:00:00+14:00"),
        "rubbers[0]: ended_at:",
    ),
    "entered_at in year 10000 after UTC": (
        lambda d: d["deals"][0].update(entered_at="9999-12-31T23:00:00-14:00"),
        "deals[0]: entered_at: 9999-12-31T23:00:00-14:00 is outside",
    ),
    "a running table with no seats": (
        _drop_seats_of_in_play,
        "in play, but not seated at its table",
    ),
    "rubber number 0": (
        lambda d: _in_play(d).update(number=0),
        "number: a rubber number starts at 1",
    ),
    "one player in two seats": (
        lambda d: d["rubbers"][0].update(east=d["rubbers"][0]["north"]),
        "rubbers[0]: north: a player has two places in this rubber",
    ),
    "NUL in a player name": (
        lambda d: d["players"][0].update(name=d["players"][0]["name"] + "\x00"),
        "players[0]: a text contains a NUL character",
    ),
    "history rubber unknown": (
        lambda d: d["deal_history"][0].update(rubber=[9, 9, 9]),
        "deal_history[0]: rubber: [9, 9, 9] is not its deal's rubber",
    ),
    "history rubber null": (
        lambda d: d["deal_history"][0].update(rubber=None),
        "deal_history[0]: rubber: None is not its deal's rubber",
    ),
    "history rubber missing": (
        lambda d: _del(d["deal_history"][0], "rubber"),
        "deal_history[0]: missing field 'rubber'",
    ),
    "a deal without updated_at": (
        lambda d: _del(d["deals"][0], "updated_at"),
        "deals[0]: updated_at: missing",
    ),
    "a deal number as a string": (
        lambda d: d["deals"][0].update(number=str(d["deals"][0]["number"])),
        "deals[0]: number: '1' is not a whole number",
    ),
    "a rubber number as a string": (
        lambda d: d["rubbers"][0].update(number="1"),
        "rubbers[0]: number: '1' is not a whole number",
    ),
    "a duplicate history row": (
        lambda d: d["deal_history"].append(dict(d["deal_history"][0])),
        ": id: appears twice",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_file_is_refused_at_check_time(director: Any, tmp_path: Any, case: str) -> None:
    data = _stranger_file(build_world(director))
    mutate, line = HOSTILE[case]
    mutate(data)
    message = _refused(data, tmp_path)
    assert line in message
    assert "the database refused a row" not in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{"format": "backscore.club/1", "players": [{"name": Infinity}]}', "Infinity"),
        ('{"format": "backscore.club/1", "x": NaN}', "NaN"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_an_unparseable_file_is_one_clear_line(tmp_path: Any, text: str, line: str) -> None:
    """Before: OverflowError (Infinity in an integer field) and RecursionError tracebacks."""
    path = tmp_path / "club.json"
    path.write_text(text)
    before = _counts()
    with pytest.raises(CommandError, match=f"Cannot read .*{line}"):
        call_command("import_club", str(path))
    assert _counts() == before
