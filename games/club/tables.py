"""A session's tables as the console and the table cards show them: who sits there, the rubber
in play and its latest deal, the rotation ahead (RULES 6) or, for a closed session, what was
played; at a table of two, whom each player meets next (RULES 7)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import segno
from django.db.models import Count, Prefetch, QuerySet, prefetch_related_objects
from django.http import HttpRequest
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from clubs.models import Player, Session, Table, TableSeat, is_prefetched
from games import registry, rotation
from games.club_api import table_queryset
from games.display import two_player_order
from games.models import Deal, Rubber
from games.sessions.ahead import round_robin_opponents, table_rotation
from games.sessions.pages import reverse_or_none

#: Rubbers shown ahead on the console and the table cards.
AHEAD_ON_CONSOLE = 3


AHEAD_ON_CARDS = 6


@dataclass
class SeatingView:
    """One rubber's seating with names, for templates."""

    rubber: int
    seats: list[tuple[str, str]]
    sitting_out: list[str]
    current: bool = False


@dataclass
class TableView:
    table: Table
    players: list[Player]
    current_rubber: Any
    current_rubber_url: str | None
    rotation: list[SeatingView] = field(default_factory=list)
    rubbers: list[Rubber] = field(default_factory=list)
    #: The latest deal of the rubber in play, in words (the console shows new deals live).
    last_deal: str | None = None
    #: The table's code and its QR (inline SVG), shown to the director only (issue 17).
    code_url: str | None = None
    qr: str | None = None
    #: At a table of two: whom each player of the match in play meets next, and where.
    next_opponents: list[NextOpponent] = field(default_factory=list)
    #: The key its card is kept under on the console, when its card facts say it
    #: (games.club.cards); None: kept by what the view holds (games.pad.rendered.card_key).
    card_key: str | None = None


@dataclass
class NextOpponent:
    """A player of a two-player match and their next opponent in the round robin (RULES 7)."""

    name: str
    opponent: str
    table: int


def _played_rubbers(session: Session) -> dict[int, list[Rubber]]:
    """Every rubber of the session by table id, in order, with its players and deal count."""
    rubbers = (
        Rubber.objects.filter(session=session)
        .select_related("north", "east", "south", "west")
        .annotate(deal_count=Count("deals"))
        .order_by("number")
    )
    found: dict[int, list[Rubber]] = {}
    for rubber in rubbers:
        found.setdefault(rubber.table_id, []).append(rubber)
    return found


def _who_played(rubbers: list[Rubber]) -> list[Player]:
    """The players of the rubbers with at least one deal, in the order they first sat."""
    seen: dict[int, Player] = {}
    for rubber in rubbers:
        if getattr(rubber, "deal_count", 0):
            for player in rubber.seats.values():
                seen.setdefault(player.pk, player)
    return list(seen.values())


def with_codes(request: HttpRequest, session: Session, tables: list[TableView]) -> None:
    """The table codes of a session that takes them, for its director's cards: the short URL
    and its QR code, drawn by segno as inline SVG (no network, no image request). A planned
    session's cards carry them already (the code is fixed at planning and printed ahead; it
    opens the table only once the session starts: `Session.codes_open`); a running one's while
    it takes codes; not a closed one's, nor one reopened for corrections."""
    planned = session.status == Session.Status.PLANNED
    if not (session.codes_open or (session.table_codes and planned)):
        return
    for view in tables:
        path = reverse_or_none("games:table_code", view.table.code)
        if path is None:
            return
        view.code_url = request.build_absolute_uri(path)
        qr = segno.make(view.code_url, error="m")
        # segno's SVG is only a viewBox and path data: the encoded URL never appears in the
        # markup (tests/games/test_table_codes.py renders a hostile host), so it is safe as is.
        view.qr = mark_safe(qr.svg_inline(omitsize=True, border=2))  # noqa: S308  # nosec B308 B703


def two_seats(seats: dict[str, int]) -> list[tuple[str, int]]:
    """The two players of a match in the pad's stable order (games.display.two_player_order)."""
    return [(seat, seats[seat]) for seat in two_player_order(seats)]


def seating_views(
    seatings: list[Any], names: dict[int, str], current: int | None, *, two_player: bool = False
) -> list[Any]:
    return [
        SeatingView(
            rubber=s.rubber,
            seats=[
                (seat, names.get(pid, "?"))
                for seat, pid in (two_seats(s.seats) if two_player else s.seats.items())
            ],
            sitting_out=[names.get(pid, "?") for pid in s.sitting_out],
            current=s.rubber == current,
        )
        for s in seatings
    ]


def table_views(
    session: Session,
    *,
    ahead: int,
    full_history: bool = False,
    names: dict[int, str] | None = None,
) -> list[TableView]:
    """Each table with its players, the rubber in play and the rotation ahead (RULES 6).

    Uses the session's prefetched tables when ``console_sessions`` read them.
    """
    if names is None:
        names = dict(Player.objects.filter(club_id=session.club_id).values_list("pk", "name"))
    if is_prefetched(session, "tables"):
        tables = list(session.tables.all())
    else:
        tables = list(table_queryset().filter(session=session).select_related("session"))
    if session.is_closed or session.is_reopened:
        return _played_views(session, tables)
    views = []
    upcoming: dict[int, dict[int, Any]] = {}
    if session.is_two_player:
        numbers = {r.number + 1 for t in tables for r in getattr(t, "rubbers_in_play", [])}
        upcoming = round_robin_opponents(session=session, rounds=sorted(numbers))
    for table in tables:
        in_play = getattr(table, "rubbers_in_play", [])
        rubber = in_play[0] if in_play else None
        seatings = table_rotation(table=table, ahead=ahead)
        if full_history:
            seatings = rotation.table_history(table)[:-1] + seatings
        views.append(
            TableView(
                table=table,
                players=table.present_players(),
                current_rubber=rubber,
                current_rubber_url=reverse_or_none("games:rubber", rubber.pk) if rubber else None,
                rotation=seating_views(
                    seatings,
                    names,
                    rubber.number if rubber else None,
                    two_player=session.is_two_player,
                ),
                last_deal=_last_deal(table, names),
                next_opponents=_next_opponents(rubber, upcoming, names),
            )
        )
    return views


def _played_views(session: Session, tables: list[Table]) -> list[TableView]:
    """A closed session shows what happened: every rubber, and who actually played; so does a
    session reopened for corrections, whose rubbers' pads are where deals are corrected."""
    played = _played_rubbers(session)
    return [
        TableView(
            table=table,
            players=_who_played(played.get(table.pk, [])),
            current_rubber=None,
            current_rubber_url=None,
            rubbers=played.get(table.pk, []),
        )
        for table in tables
    ]


def _last_deal(table: Table, names: dict[int, str]) -> str | None:
    """The latest deal of the table's rubber in play, in words (None before its first deal, or
    when its last deal was not read with it: `tables_with_rubbers` reads it)."""
    live = getattr(table, "rubbers_in_play", None) or []
    deals = getattr(live[0], "last_deals", None) if live else None
    if not deals:
        return None
    return _("Deal %(number)s: %(deal)s") % {
        "number": deals[-1].number,
        # The two players' names, for a game that names them (`registry.names_for`).
        "deal": registry.pages(live[0].kind).deal_words(
            deals[-1], [names.get(live[0].north_id, "?"), names.get(live[0].east_id, "?")]
        ),
    }


def _next_opponents(
    rubber: Rubber | None, upcoming: dict[int, dict[int, Any]], names: dict[int, str]
) -> list[NextOpponent]:
    """Whom the two players of the match in play meet in the next round (RULES 7): one line
    when they meet each other again."""
    after = upcoming.get(rubber.number + 1) if rubber is not None else None
    if rubber is None or not after:
        return []
    found = []
    pairs: set[frozenset[int]] = set()
    for _seat, pid in two_seats(rubber.seat_ids):
        opponent, table = after[pid]
        if frozenset((pid, opponent)) in pairs:
            continue  # the two play each other again: one line says it
        pairs.add(frozenset((pid, opponent)))
        found.append(NextOpponent(names.get(pid, "?"), names.get(opponent, "?"), table))
    return found


def tables_with_rubbers() -> QuerySet[Table]:
    """Tables with their seats and every rubber in order: what ``table_views`` reads, in a
    fixed number of queries however many tables there are, once `with_rubbers_in_play` has
    picked the rubbers in play of the tables read."""
    return Table.objects.order_by("number").prefetch_related(
        Prefetch("seats", queryset=TableSeat.objects.select_related("player")),
        Prefetch("rubbers", queryset=Rubber.objects.order_by("number"), to_attr="rubbers_in_order"),
    )


def with_rubbers_in_play(tables: Iterable[Table]) -> None:
    """Each of `tables` (read by `tables_with_rubbers`) with its rubbers in play, as
    `table_queryset` reads them, taken from its rubbers in order (not read a second time), and
    their last deal (`last_deals`, one at most: the console shows no other, and reading all of a
    room's deals was most of its render), in one query."""
    in_play: list[Rubber] = []
    for table in tables:
        ordered = getattr(table, "rubbers_in_order", [])
        rubbers = [r for r in ordered if r.status == Rubber.Status.IN_PLAY]
        table.rubbers_in_play = rubbers  # type: ignore[attr-defined]
        in_play += rubbers
    last = Deal.objects.order_by("-number")
    prefetch_related_objects(in_play, Prefetch("deals", queryset=last[:1], to_attr="last_deals"))
