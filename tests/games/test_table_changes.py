"""Changes at the table (issue 18): an early leaver at a table of four (a substitute, or the
table's rubber closed unfinished, RULES 2.6, and the room re-planned, RULES 6.2), a late arrival
at full tables (a new table, or a cut-in, RULES 6.2). Each counts from the next rubber; deals
already entered never change; every change is kept; a refused change changes nothing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Player, Session, Table, TableChange, TableSeat
from games.models import Conflict, Deal, Rubber
from games.sessions import arrivals, table_changes
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db

GAME = {"contract": "4S", "declarer": "N", "tricks": 10}


def state(session: Session) -> Any:
    """Everything a change at the tables may touch, to compare before and after a refusal."""
    return (
        sorted(
            TableSeat.objects.filter(session=session).values_list(
                "player_id", "table_id", "position", "active"
            )
        ),
        sorted(
            Rubber.objects.filter(session=session).values_list(
                "pk", "number", "status", "north_id", "east_id", "south_id", "west_id"
            )
        ),
        sorted(Deal.objects.filter(rubber__session=session).values_list("pk", "version")),
        list(Table.objects.filter(session=session).values_list("pk", "number")),
        TableChange.objects.count(),
        Player.objects.count(),
        Session.objects.get(pk=session.pk).status,
    )


def table(session: Session, number: int = 1) -> Table:
    return Table.objects.select_related("session").get(session=session, number=number)


def in_play(session: Session, number: int = 1) -> Rubber:
    return Rubber.objects.get(table__session=session, table__number=number, status="in_play")


# --- an early leaver at a table of four: a substitute ------------------------------------------


def test_a_substitute_takes_the_seat_at_once_when_no_deal_was_played(
    running_session: Session, table_of_four: dict[str, Player], director: Any
) -> None:
    ann = add_player(running_session.club, "Ann")
    rubber = in_play(running_session)
    change = table_changes.table_substitute(
        table=table(running_session), leaver=table_of_four["east"], substitute=ann, by=director
    )
    rubber.refresh_from_db()
    assert rubber.east_id == ann.pk  # the rubber had no deal: Ann plays it
    assert [p.name for p in table(running_session).present_players()] == [
        "North",
        "Ann",
        "South",
        "West",
    ]
    assert (change.kind, change.player, change.replaced, change.by) == (
        "substitute",
        ann,
        table_of_four["east"],
        director,
    )
    assert change.from_rubber == rubber.number


def test_a_substitute_comes_from_the_next_rubber_and_the_deals_stay(
    running_session: Session, table_of_four: dict[str, Player], director: Any
) -> None:
    rubber = in_play(running_session)
    rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
    change = table_changes.table_substitute(
        table=table(running_session),
        leaver=table_of_four["east"],
        new_name="Zoe",
        by=director,
    )
    zoe = Player.objects.get(club=running_session.club, name="Zoe")
    rubber.refresh_from_db()
    assert rubber.east_id == table_of_four["east"].pk  # the rubber in play keeps its seats
    assert change.from_rubber == rubber.number + 1
    rubber.record_deal(number=2, **GAME, actor=acting(rubber, director))  # NS win the rubber
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.COMPLETE
    assert [d.number for d in rubber.ordered_deals()] == [1, 2]
    nxt = in_play(running_session)
    assert zoe.pk in nxt.seat_ids.values()
    assert table_of_four["east"].pk not in nxt.seat_ids.values()


@pytest.mark.parametrize(
    ("who", "name", "message"),
    [
        ("north", "", "already sits at table 1"),
        (None, "", "Choose a player or type a new name."),
        ("ann", "Zed", "not both"),
        (None, "North", "already a player of this club"),
    ],
)
def test_a_refused_substitute_changes_nothing(
    running_session: Session,
    table_of_four: dict[str, Player],
    who: str | None,
    name: str,
    message: str,
) -> None:
    players = {**table_of_four, "ann": add_player(running_session.club, "Ann")}
    before = state(running_session)
    with pytest.raises(ValidationError) as err:
        table_changes.table_substitute(
            table=table(running_session),
            leaver=table_of_four["east"],
            substitute=players[who] if who else None,
            new_name=name,
        )
    assert message in " ".join(err.value.message_dict["substitute"])
    assert state(running_session) == before


def test_a_substitute_seated_in_another_running_session_is_refused_naming_it(
    running_session: Session, table_of_four: dict[str, Player]
) -> None:
    club = running_session.club
    other = [add_player(club, n) for n in ("Kim", "Lou", "Max", "Ned")]
    make_session(club, [other])
    before = state(running_session)
    with pytest.raises(ValidationError) as err:
        table_changes.table_substitute(
            table=table(running_session), leaver=table_of_four["east"], substitute=other[0]
        )
    assert "Kim already sits at table 1 of the running session of" in str(err.value)
    assert state(running_session) == before


def test_a_leaver_who_does_not_sit_there_or_a_closed_session_is_refused(
    running_session: Session, table_of_four: dict[str, Player]
) -> None:
    ann, bob = (add_player(running_session.club, n) for n in ("Ann", "Bob"))
    before = state(running_session)
    with pytest.raises(ValidationError, match="Ann does not sit at this table"):
        table_changes.table_substitute(table=table(running_session), leaver=ann, substitute=bob)
    assert state(running_session) == before
    Session.objects.filter(pk=running_session.pk).update(status=Session.Status.CLOSED)
    before = state(running_session)
    with pytest.raises(Conflict, match="this one is closed"):
        table_changes.table_substitute(
            table=table(running_session), leaver=table_of_four["east"], substitute=bob
        )
    assert state(running_session) == before


# --- an early leaver: close the rubber unfinished and re-plan the room -------------------------


@pytest.fixture
def room(club: Any) -> Session:
    """Two tables: one of five (A1..A5), one of four (B1..B4); rubbers in play at both."""
    five = [add_player(club, f"A{i}") for i in range(1, 6)]
    four = [add_player(club, f"B{i}") for i in range(1, 5)]
    return make_session(club, [five, four])


def test_closing_for_a_leaver_keeps_the_deals_and_moves_the_waiting_player_in(
    room: Session, director: Any
) -> None:
    rubber = in_play(room, 2)
    rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
    waiting = Player.objects.get(pk=in_play(room, 1).sitting_out[0])
    leaver = rubber.south
    made = table_changes.table_leave_and_replan(table=table(room, 2), leaver=leaver, by=director)
    rubber.refresh_from_db()
    # RULES 2.6: NS have the only game: 300 more when the rubber stops (120 + 300).
    assert rubber.status == Rubber.Status.UNFINISHED
    assert rubber.scoresheet().result.totals == (420, 0)
    assert [d.number for d in rubber.ordered_deals()] == [1]
    nxt = in_play(room, 2)
    assert nxt.number == rubber.number + 1
    assert waiting.pk in nxt.seat_ids.values() and leaver.pk not in nxt.seat_ids.values()
    assert [(c.kind, c.replaced, c.player, c.closed_rubber) for c in made] == [
        ("replan", leaver, None, rubber.number),
        ("move", None, waiting, None),
    ]
    assert len(table(room, 1).present_players()) == 4


def test_a_table_that_cannot_keep_four_breaks_up_into_the_others(club: Any) -> None:
    tables = [[add_player(club, f"{t}{i}") for i in range(1, 5)] for t in "ABC"]
    session = make_session(club, tables)
    leaver = tables[2][0]
    table_changes.table_leave_and_replan(table=table(session, 3), leaver=leaver)
    assert not Rubber.objects.filter(table=table(session, 3)).exists()  # no deal: withdrawn
    assert table(session, 3).present_players() == []
    sizes = sorted(len(table(session, n).present_players()) for n in (1, 2))
    assert sizes == [5, 6]
    # The rubbers in play at the other tables keep their seats; the newcomers wait for the next.
    assert all(len(in_play(session, n).seat_ids) == 4 for n in (1, 2))


def test_a_broken_up_table_still_shows_on_every_page(
    club: Any, director: Any, director_client: Any
) -> None:
    tables = [[add_player(club, f"{t}{i}") for i in range(1, 5)] for t in "ABC"]
    session = make_session(club, tables)
    in_play(session, 3).record_deal(number=1, **GAME, actor=acting(in_play(session, 3), director))
    table_changes.table_leave_and_replan(table=table(session, 3), leaver=tables[2][0])
    for url in (
        "/clubs/riverside/console/",
        f"/clubs/riverside/sessions/{session.pk}/",
        f"/clubs/riverside/sessions/{session.pk}/cards/",
        f"/api/v1/sessions/{session.pk}/tables/3/rotation",
        f"/api/v1/sessions/{session.pk}/",
    ):
        assert director_client.get(url).status_code == 200, url
    html = director_client.get(f"/clubs/riverside/sessions/{session.pk}/").content.decode()
    assert "rubber 1 closed unfinished (RULES 2.6)" in html


def test_closing_for_a_leaver_is_refused_when_the_room_cannot_be_seated(
    club: Any, director: Any
) -> None:
    tables = [[add_player(club, f"{t}{i}") for i in range(1, 5)] for t in "AB"]
    session = make_session(club, tables)
    in_play(session, 2).record_deal(number=1, **GAME, actor=acting(in_play(session, 2), director))
    before = state(session)
    with pytest.raises(ValidationError) as err:
        table_changes.table_leave_and_replan(table=table(session, 2), leaver=tables[1][0])
    assert "7 players would remain" in str(err.value)
    assert state(session) == before


def test_the_replan_preview_says_who_moves(room: Session) -> None:
    leaver = in_play(room, 2).north
    plan = table_changes.replan_for_leaver(table=table(room, 2), leaver=leaver)
    assert plan.remaining == 8 and not plan.dissolved and not plan.refusal
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(1, 2)]


# --- late arrivals ------------------------------------------------------------------------------


def test_four_arrivals_make_a_new_table_that_starts_at_once(
    running_session: Session, director: Any
) -> None:
    club = running_session.club
    late = [add_player(club, n) for n in ("Kim", "Lou", "Max")]
    plan = arrivals.arrival_plan(session=running_session, count=4)
    assert (plan.suggested, plan.new_tables, plan.cut_in) == ("table", [4], [])
    made = arrivals.session_add_arrivals(
        session=running_session, players=late, names=["Ned"], by=director
    )
    assert {c.kind for c in made} == {"new_table"} and len(made) == 4
    rubber = in_play(running_session, 2)
    assert rubber.number == 1
    assert {p.name for p in rubber.seats.values()} == {"Kim", "Lou", "Max", "Ned"}


def test_one_arrival_cuts_in_from_the_next_rubber(
    running_session: Session, director: Any, table_of_four: dict[str, Player]
) -> None:
    ann = add_player(running_session.club, "Ann")
    plan = arrivals.arrival_plan(session=running_session, count=1)
    assert (plan.suggested, plan.new_tables, plan.cut_in) == ("cut_in", [], [1])
    rubber = in_play(running_session)
    [change] = arrivals.session_add_arrivals(session=running_session, players=[ann], by=director)
    assert (change.kind, change.from_rubber) == ("arrive", rubber.number + 1)
    rubber.refresh_from_db()
    assert ann.pk not in rubber.seat_ids.values()  # the rubber in play keeps its four
    rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
    rubber.record_deal(number=2, **GAME, actor=acting(rubber, director))
    nxt = in_play(running_session)
    assert ann.pk in nxt.seat_ids.values()  # RULES 6.2: a newcomer comes in at once
    assert len(nxt.sitting_out) == 1


def test_two_arrivals_at_a_two_player_session_make_a_table_of_two(club: Any) -> None:
    pair = [add_player(club, n) for n in ("Ann", "Bob")]
    session = make_session(club, [pair], kind="bridge_for_two")
    late = [add_player(club, n) for n in ("Cy", "Di")]
    arrivals.session_add_arrivals(session=session, players=late)
    rubber = in_play(session, 2)
    assert {rubber.north_id, rubber.east_id} == {p.pk for p in late}


@pytest.mark.parametrize(
    ("count", "mode", "message"),
    [
        (0, "", "Choose the players who arrived"),
        (1, "table", "cannot make a table of their own"),
        (3, "cut_in", "seats at most six"),
    ],
)
def test_refused_arrivals_change_nothing(
    running_session: Session, count: int, mode: str, message: str
) -> None:
    club = running_session.club
    late = [add_player(club, f"Late {i}") for i in range(count)]
    before = state(running_session)
    with pytest.raises(ValidationError) as err:
        arrivals.session_add_arrivals(
            session=running_session,
            players=late,
            names=["New One"] if count == 3 else [],
            mode=mode,
            table_number=1 if mode == "cut_in" else None,
        )
    assert message in str(err.value)
    assert state(running_session) == before


def test_an_arrival_already_playing_elsewhere_is_refused_naming_the_session(
    running_session: Session,
) -> None:
    club = running_session.club
    other = [add_player(club, n) for n in ("Kim", "Lou", "Max", "Ned")]
    make_session(club, [other], date=running_session.date)
    before = state(running_session)
    with pytest.raises(ValidationError) as err:
        arrivals.session_add_arrivals(session=running_session, players=[other[1]])
    assert "Lou already sits at table 1 of the running session of" in str(err.value)
    assert state(running_session) == before


def test_fixed_partnerships_take_arrivals_only_as_a_new_table(club: Any) -> None:
    four = [add_player(club, f"F{i}") for i in range(4)]
    session = make_session(club, [four], movement="fixed", date=datetime.date(2026, 12, 1))
    plan = arrivals.arrival_plan(session=session, count=1)
    assert plan.refusal and not plan.cut_in
    assert arrivals.arrival_plan(session=session, count=4).new_tables == [4]


# --- the pages ----------------------------------------------------------------------------------


@pytest.fixture
def director_client(director: Any) -> Any:
    from django.test import Client

    client = Client()
    client.force_login(director)
    return client


def leaver_url(session: Session, number: int = 1) -> str:
    return f"/clubs/riverside/sessions/{session.pk}/tables/{number}/leaver/"


def test_the_console_links_each_table_of_a_running_session_to_its_leaver_page(
    director_client: Any, running_session: Session
) -> None:
    html = director_client.get("/clubs/riverside/console/").content.decode()
    assert leaver_url(running_session) in html
    assert f"/clubs/riverside/sessions/{running_session.pk}/arrivals/" in html


def test_the_leaver_page_shows_the_figures_the_rubber_would_keep(
    director_client: Any, room: Session, director: Any
) -> None:
    rubber = in_play(room, 2)
    rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
    html = director_client.get(leaver_url(room, 2)).content.decode()
    assert "RULES 2.6" in html
    # NS now 120; closed unfinished they keep 420 (300 for the only game, RULES 2.6).
    ns = html.split('data-side="ns"')[1].split("</tr>")[0]
    assert ">120<" in ns and ">420<" in ns
    assert "moves from table 1 to table 2" in html
    assert in_play(room, 2).pk == rubber.pk  # a GET changes nothing


def test_the_leaver_page_substitutes_and_the_session_lists_the_change(
    director_client: Any, running_session: Session, table_of_four: dict[str, Player]
) -> None:
    answer = director_client.post(
        leaver_url(running_session),
        {"leaver": table_of_four["west"].pk, "new_name": "Zoe", "substitute_now": ""},
    )
    assert answer.status_code == 302
    assert "Zoe" in {p.name for p in table(running_session).present_players()}
    html = director_client.get(f"/clubs/riverside/sessions/{running_session.pk}/").content
    assert "Zoe replaces West at table 1 from rubber 1." in html.decode()


def test_a_refused_substitute_answers_400_with_the_field_message_and_changes_nothing(
    director_client: Any, running_session: Session, table_of_four: dict[str, Player]
) -> None:
    before = state(running_session)
    answer = director_client.post(
        leaver_url(running_session), {"leaver": table_of_four["west"].pk, "substitute_now": ""}
    )
    assert answer.status_code == 400
    assert "Choose a player or type a new name." in answer.content.decode()
    assert state(running_session) == before


def test_the_replan_button_closes_and_replans(
    director_client: Any, room: Session, director: Any
) -> None:
    leaver = in_play(room, 2).west
    answer = director_client.post(leaver_url(room, 2), {"leaver": leaver.pk, "replan": ""})
    assert answer.status_code == 302
    assert leaver not in table(room, 2).present_players()
    assert len(table(room, 2).present_players()) == 4


def test_arrivals_page_hint_and_post(
    director_client: Any, running_session: Session, director: Any
) -> None:
    club = running_session.club
    late = [add_player(club, n) for n in ("Kim", "Lou")]
    url = f"/clubs/riverside/sessions/{running_session.pk}/arrivals/"
    hint = director_client.get(
        url + "suggest/", {"players": [p.pk for p in late], "names": "Max\nNed"}
    ).content.decode()
    assert "4 arrivals: a new table of 4." in hint
    answer = director_client.post(
        url, {"players": [p.pk for p in late], "names": "Max\nNed", "mode": "table"}
    )
    assert answer.status_code == 302
    assert {p.name for p in table(running_session, 2).present_players()} == {
        "Kim",
        "Lou",
        "Max",
        "Ned",
    }
    [change] = TableChange.objects.filter(player__name="Kim")
    assert change.by == director


def test_a_refused_arrival_answers_400_and_changes_nothing(
    director_client: Any, running_session: Session
) -> None:
    kim = add_player(running_session.club, "Kim")
    before = state(running_session)
    answer = director_client.post(
        f"/clubs/riverside/sessions/{running_session.pk}/arrivals/",
        {"players": [kim.pk], "mode": "table"},
    )
    assert answer.status_code == 400
    assert "cannot make a table of their own" in answer.content.decode()
    assert state(running_session) == before


@pytest.mark.parametrize("who", ["anonymous", "outsider", "player"])
def test_only_the_director_reaches_the_change_pages_and_nothing_changes(
    who: str, running_session: Session, outsider: Any, north: Any, table_of_four: Any
) -> None:
    from django.test import Client

    client = Client()
    if who != "anonymous":
        client.force_login({"outsider": outsider, "player": north}[who])
    before = state(running_session)
    for url, data in [
        (leaver_url(running_session), {"leaver": table_of_four["west"].pk, "new_name": "Zed"}),
        (f"/clubs/riverside/sessions/{running_session.pk}/arrivals/", {"names": "Zed"}),
    ]:
        answer = client.post(url, data)
        if who == "anonymous":
            assert answer.status_code == 302
            assert "/accounts/login/" in answer["Location"]
        else:
            assert answer.status_code in (403, 404)
    assert state(running_session) == before


def test_the_change_pages_are_missing_for_a_closed_session(
    director_client: Any, running_session: Session
) -> None:
    Session.objects.filter(pk=running_session.pk).update(status=Session.Status.CLOSED)
    assert director_client.get(leaver_url(running_session)).status_code == 404
    url = f"/clubs/riverside/sessions/{running_session.pk}/arrivals/"
    assert director_client.get(url).status_code == 404


# --- the API ------------------------------------------------------------------------------------


@pytest.fixture
def director_api(director: Any) -> Any:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(director)
    return client


def test_the_api_substitutes_and_answers_the_change(
    director_api: Any, running_session: Session, table_of_four: dict[str, Player]
) -> None:
    url = f"/api/v1/sessions/{running_session.pk}/tables/1/substitute"
    answer = director_api.post(url, {"leaver": table_of_four["west"].pk, "name": "Zoe"}, "json")
    assert answer.status_code == 200, answer.json()
    zoe = Player.objects.get(name="Zoe")
    body = answer.json()
    assert {k: body[k] for k in ("kind", "table", "player", "replaced", "from_rubber")} == {
        "kind": "substitute",
        "table": 1,
        "player": zoe.pk,
        "replaced": table_of_four["west"].pk,
        "from_rubber": 1,
    }
    session = director_api.get(f"/api/v1/sessions/{running_session.pk}/").json()
    assert zoe.pk in session["tables"][0]["players"]


def test_the_api_refuses_with_field_messages_and_changes_nothing(
    director_api: Any, running_session: Session, table_of_four: dict[str, Player]
) -> None:
    base = f"/api/v1/sessions/{running_session.pk}"
    before = state(running_session)
    cases = [
        (f"{base}/tables/1/substitute", {"leaver": table_of_four["west"].pk}, "substitute"),
        (f"{base}/tables/1/substitute", {"leaver": 10**9, "name": "Zoe"}, "leaver"),
        (f"{base}/tables/1/leave", {"leaver": table_of_four["west"].pk}, "leaver"),
        (f"{base}/arrivals", {"players": [table_of_four["north"].pk]}, "players"),
        (f"{base}/arrivals", {"names": ["Zoe"], "mode": "table"}, "mode"),
        (f"{base}/arrivals", {"mode": "sideways"}, "mode"),
    ]
    for url, body, field_name in cases:
        answer = director_api.post(url, body, "json")
        assert answer.status_code == 400, (url, body, answer.content)
        assert list(answer.json()["errors"]) == [field_name], (url, body, answer.json())
    assert state(running_session) == before


def test_the_api_leave_and_arrivals(director_api: Any, room: Session) -> None:
    leaver = in_play(room, 2).east
    answer = director_api.post(
        f"/api/v1/sessions/{room.pk}/tables/2/leave", {"leaver": leaver.pk}, "json"
    )
    assert answer.status_code == 200, answer.json()
    assert [c["kind"] for c in answer.json()] == ["replan", "move"]
    answer = director_api.post(
        f"/api/v1/sessions/{room.pk}/arrivals", {"names": ["Kim", "Lou", "Max", "Ned"]}, "json"
    )
    assert answer.status_code == 201, answer.json()
    assert {c["table"] for c in answer.json()} == {3}
    assert in_play(room, 3).number == 1


def test_the_api_answers_409_once_the_session_is_closed(
    director_api: Any, running_session: Session, table_of_four: dict[str, Player]
) -> None:
    Session.objects.filter(pk=running_session.pk).update(status=Session.Status.CLOSED)
    before = state(running_session)
    answer = director_api.post(
        f"/api/v1/sessions/{running_session.pk}/arrivals", {"names": ["Zoe"]}, "json"
    )
    assert answer.status_code == 409
    assert state(running_session) == before


def test_fixed_partnerships_cannot_close_a_table_for_a_leaver(club: Any) -> None:
    tables = [[add_player(club, f"{t}{i}") for i in range(1, 5)] for t in "AB"]
    session = make_session(club, tables, movement="fixed")
    plan = table_changes.replan_for_leaver(table=table(session, 1), leaver=tables[0][0])
    assert "fixed partnerships need exactly four at every table" in plan.refusal


def test_the_admin_lists_the_changes_read_only(
    running_session: Session, table_of_four: dict[str, Player]
) -> None:
    from django.test import Client

    from tests.factories import UserFactory

    table_changes.table_substitute(
        table=table(running_session), leaver=table_of_four["east"], new_name="Zoe"
    )
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    page = client.get("/admin/clubs/tablechange/")
    assert page.status_code == 200 and "Zoe" in page.content.decode()
    assert client.get("/admin/clubs/tablechange/add/").status_code == 403


def test_a_name_longer_than_a_player_name_is_refused_everywhere_a_newcomer_is_typed(
    director_client: Any,
    director_api: Any,
    room: Session,
    running_session: Session,
    table_of_four: dict[str, Player],
) -> None:
    """A player's name has at most 80 characters (Player.name): arrivals and substitutes typed by
    name, on the pages and the API, are refused with the field's message and change nothing.
    PostgreSQL answered them with a 500 ("value too long for type character varying(80)") and
    SQLite stored them whole (an outside probe)."""
    long = "L" * 81
    base = f"/api/v1/sessions/{running_session.pk}"
    for session in (running_session, room):
        before = state(session)
        arrivals = f"/api/v1/sessions/{session.pk}/arrivals"
        answer = director_api.post(arrivals, {"names": [long, "Kim"], "mode": ""}, "json")
        assert answer.status_code == 400, answer.content
        assert "names" in answer.json()["errors"]
        page = director_client.post(
            f"/clubs/riverside/sessions/{session.pk}/arrivals/", {"names": f"{'Z' * 200}\nKim"}
        )
        assert page.status_code == 400
        assert "at most 80 characters (this one has 200)" in page.content.decode()
        assert state(session) == before
    before = state(running_session)
    west = table_of_four["west"].pk
    answer = director_api.post(
        f"{base}/tables/1/substitute", {"leaver": west, "name": long}, "json"
    )
    assert answer.status_code == 400 and "name" in answer.json()["errors"]
    page = director_client.post(
        leaver_url(running_session), {"leaver": west, "new_name": long, "substitute_now": ""}
    )
    assert page.status_code == 400 and "at most 80 characters" in page.content.decode()
    assert state(running_session) == before
    assert not Player.objects.filter(name__startswith="LLLL").exists()


def test_a_player_who_left_the_table_no_longer_corrects_its_deals(
    club: Any, director: Any, make_user: Any, director_api: Any
) -> None:
    """Sitting out of a rubber at your table (a table of five) you may correct it; once the
    director has taken you off the table (your seat inactive) you may not, on the API or the
    page (an outside probe corrected a deal after leaving)."""
    from rest_framework.test import APIClient

    five = [add_player(club, f"A{i}", user=make_user(f"a{i}")) for i in range(1, 6)]
    session = make_session(club, [five])
    rubber = in_play(session, 1)
    seated = {rubber.north_id, rubber.east_id, rubber.south_id, rubber.west_id}
    out = next(p for p in five if p.pk not in seated)
    deal = rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))[0]
    api = APIClient()
    api.force_authenticate(out.user)
    assert (
        api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 9}, "json").status_code
        == 200
    )
    TableSeat.objects.filter(session=session, player=out).update(active=False)
    deal.refresh_from_db()
    before = (deal.version, deal.tricks)
    answer = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": deal.version, "tricks": 11}, "json")
    assert answer.status_code == 403
    from django.test import Client

    page = Client()
    page.force_login(out.user)
    prefix = f"deal{deal.pk}"
    body = {f"{prefix}-version": deal.version, f"{prefix}-level": "pass"}
    assert page.post(f"/deals/{deal.pk}/correct", body).status_code == 403
    deal.refresh_from_db()
    assert (deal.version, deal.tricks) == before
