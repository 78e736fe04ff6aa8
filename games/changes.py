"""Changes at the tables of a running session (issue 18): an early leaver, a late arrival.

Each change counts from the next rubber at the table (RULES 6: the rotation is re-planned from
there); deals already entered never change, and every change is kept as a `TableChange` (who
left, who came, who made it). Keyword-only functions in one transaction, raising
`ValidationError` (bad input, 400 with field messages) or `scoring.shared.errors.Conflict` (409),
as `games.services` does.

Locks, always in this order: the session row (room changes one at a time), then the table's
rubber in play (the lock `Rubber.record_deal` takes, so a deal entered at the same moment is
either in before the change or recorded after it, never lost), then the seats and players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player, Session, Table, TableChange, TableSeat

from . import services
from .models import Rubber

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SEAT_FIELDS = {"N": "north_id", "E": "east_id", "S": "south_id", "W": "west_id"}


# --- reading -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A player moved from one table to another by a re-planning (from their next rubber)."""

    player: Player
    from_table: int
    to_table: int


@dataclass(frozen=True)
class Replan:
    """What closing a table's rubber for an early leaver does to the room (RULES 6.2): the table
    keeps going with a player moved in (`moves` into it), or it breaks up and its players join
    the other tables (`dissolved`). `refusal` says why the room cannot be re-planned."""

    remaining: int
    moves: list[Move] = field(default_factory=list)
    dissolved: bool = False
    refusal: str = ""


def _active_by_table(session: Session) -> dict[int, list[TableSeat]]:
    seats: dict[int, list[TableSeat]] = {}
    for seat in (
        TableSeat.objects.filter(session=session, active=True)
        .select_related("player", "table")
        .order_by("table__number", "position")
    ):
        seats.setdefault(seat.table_id, []).append(seat)
    return seats


def _in_play_seated(session: Session) -> set[int]:
    """The players seated (N, E, S, W) in a rubber in play: they cannot move before it ends."""
    seated: set[int] = set()
    for rubber in Rubber.objects.filter(session=session).in_play():
        seated.update(rubber.seat_ids.values())
    return seated


def replan_for_leaver(*, table: Table, leaver: Player) -> Replan:
    """The re-planning of the room when `leaver` leaves `table` and its rubber closes.

    The count left is planned by `services.plan_tables` (the one planning answer): when it
    cannot be seated the answer is a refusal. When the room still has players enough for as
    many tables, a player who is free now (waiting at a table of five or six, not seated in its
    rubber in play) moves in, and the table plays on at once; otherwise the table breaks up and
    its players join the smallest other tables from their next rubbers (at most six a table).
    """
    session = table.session
    by_table = _active_by_table(session)
    here = [s for s in by_table.get(table.pk, []) if s.player_id != leaver.pk]
    others = {pk: seats for pk, seats in by_table.items() if pk != table.pk and seats}
    remaining = sum(len(s) for s in others.values()) + len(here)
    answer = services.plan_tables(count=remaining, kind=session.kind, movement=session.movement)
    if not answer.sizes and answer.reason == "fixed":
        return Replan(
            remaining,
            refusal=ngettext(
                "%(count)d player would remain: fixed partnerships need exactly four at every "
                "table. Substitute a player instead.",
                "%(count)d players would remain: fixed partnerships need exactly four at every "
                "table. Substitute a player instead.",
                remaining,
            )
            % {"count": remaining},
        )
    if not answer.sizes:
        return Replan(
            remaining,
            refusal=ngettext(
                "%(count)d player would remain: the room cannot be seated at tables of four to "
                "six (RULES 6.2). Substitute a player instead.",
                "%(count)d players would remain: the room cannot be seated at tables of four to "
                "six (RULES 6.2). Substitute a player instead.",
                remaining,
            )
            % {"count": remaining},
        )
    tables = len(others) + 1
    if len(here) >= services.MIN_AT_TABLE:
        return Replan(remaining)
    if remaining >= services.MIN_AT_TABLE * tables:
        busy = _in_play_seated(session)
        needed = services.MIN_AT_TABLE - len(here)
        moves: list[Move] = []
        donors = sorted(others.values(), key=lambda s: (-len(s), s[0].table.number))
        for seats in donors:
            spare = len(seats) - services.MIN_AT_TABLE
            for seat in reversed(seats):
                if len(moves) == needed or spare <= 0:
                    break
                if seat.player_id not in busy:
                    moves.append(Move(seat.player, seat.table.number, table.number))
                    spare -= 1
        if len(moves) < needed:
            return Replan(
                remaining,
                refusal=_(
                    "Nobody at the larger tables is free to move to table %(number)d now (all "
                    "are playing a rubber): substitute a player, or try again when one sits out."
                )
                % {"number": table.number},
            )
        return Replan(remaining, moves=moves)
    sizes = {pk: len(seats) for pk, seats in others.items()}
    numbers = {pk: seats[0].table.number for pk, seats in others.items()}
    moves = []
    for seat in here:
        target = min(sizes, key=lambda pk: (sizes[pk], numbers[pk]))
        sizes[target] += 1
        moves.append(Move(seat.player, table.number, numbers[target]))
    return Replan(remaining, moves=moves, dissolved=True)


@dataclass(frozen=True)
class ArrivalPlan:
    """Where late arrivals can sit (`services.plan_tables` for their count): a new table of
    them (`new_tables`, its sizes), a cut-in at tables with room (`cut_in`, table numbers, one
    per arrival), or neither (`refusal`)."""

    count: int
    new_tables: list[int]
    cut_in: list[int]
    suggested: str
    refusal: str = ""


def arrival_plan(*, session: Session, count: int) -> ArrivalPlan:
    """The suggestion for `count` late arrivals: their own table(s) when the one planning
    function seats them, else a cut-in at the smallest tables (RULES 6.2, at most six a table;
    not with fixed partnerships, nor at tables of two)."""
    answer = services.plan_tables(count=count, kind=session.kind, movement=session.movement)
    cut_in: list[int] = []
    if count and not session.is_two_player and session.movement != Session.Movement.FIXED:
        sizes = {
            seats[0].table.number: len(seats)
            for seats in _active_by_table(session).values()
            if seats
        }
        for _arrival in range(count):
            room = [n for n, size in sizes.items() if size < services.MAX_AT_TABLE]
            if not room:
                cut_in = []
                break
            target = min(room, key=lambda n: (sizes[n], n))
            sizes[target] += 1
            cut_in.append(target)
    if answer.sizes:
        return ArrivalPlan(count, answer.sizes, cut_in, "table")
    if cut_in:
        return ArrivalPlan(count, [], cut_in, "cut_in")
    if count == 0:
        refusal = _("Choose the players who arrived, or type their names.")
    elif session.is_two_player:
        refusal = _("A two-player session seats arrivals in pairs, at a new table of two.")
    elif session.movement == Session.Movement.FIXED:
        refusal = _("Fixed partnerships seat arrivals four at a time, at a new table.")
    else:
        refusal = _("There is no room for them: every table already seats six (RULES 6.2).")
    return ArrivalPlan(count, [], [], "", refusal)


def arrival_text(plan: ArrivalPlan) -> str:
    """The suggestion in words, the same for the page's hint and its refusal."""
    if plan.refusal:
        return plan.refusal
    cut_in = ", ".join(str(n) for n in plan.cut_in)
    if plan.suggested == "table":
        text = ngettext(
            "%(count)d arrival: a new table of %(sizes)s.",
            "%(count)d arrivals: a new table of %(sizes)s.",
            plan.count,
        ) % {"count": plan.count, "sizes": " + ".join(str(s) for s in plan.new_tables)}
        if cut_in:
            text += " " + _("Or cut in at table %(tables)s.") % {"tables": cut_in}
        return text
    return ngettext(
        "%(count)d arrival: cut in at table %(tables)s from the next rubber (RULES 6.2).",
        "%(count)d arrivals: cut in at tables %(tables)s from the next rubber (RULES 6.2).",
        plan.count,
    ) % {"count": plan.count, "tables": cut_in}


# --- writing -----------------------------------------------------------------------------------


def _check_running(session: Session) -> None:
    if session.status != Session.Status.RUNNING:
        raise services._conflict(
            _("Changes at the tables are made while the session runs; this one is %(status)s.")
            % {"status": str(session.get_status_display()).lower()}
        )
    if session.is_reopened:
        raise services._conflict(services.reopened_for_corrections())


def _lock_session(session: Session) -> Session:
    locked = (
        Session.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club")
        .get(pk=session.pk)
    )
    _check_running(locked)
    return locked


def _lock_rubber_in_play(table: Table) -> Rubber | None:
    """Lock the table's rubber in play, as `Rubber.record_deal` does. A deal finishing it at this
    moment starts the next rubber: read again until the rubber locked is the one in play."""
    in_play = Rubber.objects.filter(table=table).in_play()
    while True:
        rubber = in_play.select_for_update(no_key=True, of=("self",)).first()
        now = in_play.values_list("pk", flat=True).first()
        if now == (rubber.pk if rubber else None):
            return rubber


def _refuse(field_name: str, message: str) -> ValidationError:
    return ValidationError({field_name: [message]})


def _seat_of_leaver(table: Table, leaver: Player) -> TableSeat:
    seat = table.seats.select_for_update(of=("self",)).filter(player=leaver, active=True).first()
    if seat is None:
        raise _refuse("leaver", _("%(name)s does not sit at this table.") % {"name": leaver.name})
    return seat


def _newcomer(*, session: Session, player: Player | None, name: str, field_name: str) -> Player:
    """The player who comes to a table: one of the club's, or a new one typed by name (added to
    the club, in this transaction: a refusal later leaves no new player behind)."""
    name = (name or "").strip()
    if player is not None and name:
        raise _refuse(field_name, _("Choose a player or type a new name, not both."))
    if player is None and not name:
        raise _refuse(field_name, _("Choose a player or type a new name."))
    if player is None:
        try:
            return services.player_create(club=session.club, name=name)
        except ValidationError as err:
            raise _refuse(field_name, " ".join(err.messages)) from err
    if player.club_id != session.club_id:
        raise _refuse(field_name, _("This player is not a player of this club."))
    return player


def _check_free(session: Session, players: Sequence[Player], field_name: str) -> None:
    """Each newcomer sits nowhere in this session now, nor in another running one (issue 18)."""
    services._lock_players([p.pk for p in players])
    here = {
        seat.player_id: seat
        for seat in TableSeat.objects.filter(
            session=session, player__in=players, active=True
        ).select_related("table")
    }
    errors = [
        _("%(name)s already sits at table %(number)d.")
        % {"name": p.name, "number": here[p.pk].table.number}
        for p in players
        if p.pk in here
    ]
    errors += services.seated_elsewhere(
        [p.pk for p in players], session_id=session.pk, date=session.date
    )
    if errors:
        raise ValidationError({field_name: errors})


def _next_position(table: Table) -> int:
    last = TableSeat.objects.filter(table=table).order_by("-position").first()
    return 0 if last is None else last.position + 1


def _seat(session: Session, table: Table, player: Player, position: int) -> TableSeat:
    """Seat `player` at `table`: their row of this session (one per player, kept when they
    left) moves there, or a new one."""
    seat = TableSeat.objects.filter(session=session, player=player).first()
    if seat is None:
        return TableSeat.objects.create(
            session=session, table=table, player=player, position=position
        )
    seat.table, seat.position, seat.active = table, position, True
    seat.save(update_fields=["table", "position", "active"])
    return seat


def _next_number(rubber: Rubber | None, table: Table) -> int:
    if rubber is not None:
        return rubber.number + 1
    last = table.rubbers.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def table_substitute(
    *,
    table: Table,
    leaver: Player,
    substitute: Player | None = None,
    new_name: str = "",
    by: User | None = None,
) -> TableChange:
    """An early leaver is replaced (issue 18): the substitute (a club player sitting in no
    running session, or a new player typed by name) takes the leaver's place in the order of
    precedence, so the rotation goes on round them (RULES 6). From the next rubber; at once when
    the rubber in play has no deal yet (its seat passes to the substitute)."""
    session = table.session
    if session.is_two_player:
        raise _refuse("leaver", services._two_player_tables())
    with transaction.atomic():
        session = _lock_session(session)
        rubber = _lock_rubber_in_play(table)
        seat = _seat_of_leaver(table, leaver)
        newcomer = _newcomer(
            session=session, player=substitute, name=new_name, field_name="substitute"
        )
        _check_free(session, [newcomer], "substitute")
        position = seat.position
        seat.active = False
        seat.position = _next_position(table)
        seat.save(update_fields=["active", "position"])
        _seat(session, table, newcomer, position)
        from_rubber = _next_number(rubber, table)
        if rubber is not None and not rubber.deals.exists():
            _substitute_in(rubber, leaver.pk, newcomer.pk)
            from_rubber = rubber.number
        return TableChange.objects.create(
            session=session,
            table=table,
            kind=TableChange.Kind.SUBSTITUTE,
            player=newcomer,
            replaced=leaver,
            from_rubber=from_rubber,
            by=by,
        )


def _substitute_in(rubber: Rubber, leaver_id: int, newcomer_id: int) -> None:
    """The substitute takes the leaver's seat (or wait) in a rubber with no deal yet."""
    changed = []
    for seat, player_id in rubber.seat_ids.items():
        if player_id == leaver_id:
            setattr(rubber, SEAT_FIELDS[seat], newcomer_id)
            changed.append(SEAT_FIELDS[seat].removesuffix("_id"))
    if leaver_id in rubber.sitting_out:
        rubber.sitting_out = [newcomer_id if p == leaver_id else p for p in rubber.sitting_out]
        changed.append("sitting_out")
    if changed:
        rubber.save(update_fields=changed)


def table_leave_and_replan(
    *, table: Table, leaver: Player, by: User | None = None
) -> list[TableChange]:
    """An early leaver at a table of four, with nobody to replace them (issue 18): the table's
    rubber in play closes now as unfinished (RULES 2.6; withdrawn when it has no deal) and the
    room's players are re-planned from the next rubber (`replan_for_leaver`). Refused, with
    nothing changed, when the room cannot be seated."""
    session = table.session
    if session.is_two_player:
        raise _refuse("leaver", services._two_player_tables())
    with transaction.atomic():
        session = _lock_session(session)
        rubber = _lock_rubber_in_play(table)
        # The other tables' rubbers too: one ending now would seat its next rubber with a
        # player this re-planning moves away (who waits there now, and is free only so).
        for other in session.tables.exclude(pk=table.pk).order_by("number"):
            _lock_rubber_in_play(other)
        _seat_of_leaver(table, leaver)
        table = Table.objects.select_related("session").get(pk=table.pk)
        plan = replan_for_leaver(table=table, leaver=leaver)
        if plan.refusal:
            raise _refuse("leaver", plan.refusal)
        # The other tables' rubbers in play keep their seats: the movers are free (waiting) or
        # join their new table from its next rubber.
        TableSeat.objects.filter(session=session, player=leaver).update(
            active=False, position=_next_position(table)
        )
        closed = None
        if rubber is not None:
            closed = rubber.number
            if rubber.deals.exists():
                rubber.close_unfinished()
            else:
                Rubber.objects.filter(pk=rubber.pk).delete()
        changes = [
            TableChange.objects.create(
                session=session,
                table=table,
                kind=TableChange.Kind.REPLAN,
                replaced=leaver,
                from_rubber=_next_number(None, table),
                closed_rubber=closed,
                by=by,
            )
        ]
        tables = {t.number: t for t in session.tables.all()}
        for move in plan.moves:
            target = tables[move.to_table]
            _seat(session, target, move.player, _next_position(target))
            changes.append(
                TableChange.objects.create(
                    session=session,
                    table=target,
                    kind=TableChange.Kind.MOVE,
                    player=move.player,
                    from_rubber=_next_number(
                        Rubber.objects.filter(table=target).in_play().first(), target
                    ),
                    by=by,
                )
            )
        if not plan.dissolved:
            Rubber.objects.start_next(
                table=Table.objects.select_related("session").get(pk=table.pk)
            )
    services._queue_refresh(session.pk)
    return changes


def session_add_arrivals(
    *,
    session: Session,
    players: Sequence[Player] = (),
    names: Sequence[str] = (),
    mode: str = "",
    table_number: int | None = None,
    by: User | None = None,
) -> list[TableChange]:
    """Late arrivals join a running session (issue 18): at a new table of their own (`mode`
    "table": as many as `services.plan_tables` seats, its first rubber starting at once), or
    cutting in at tables with room (`mode` "cut_in": at `table_number`, or spread over the
    smallest tables as `arrival_plan` suggests), from the next rubber there (RULES 6.2). An
    empty `mode` takes the suggestion. New names become players of the club."""
    with transaction.atomic():
        session = _lock_session(session)
        arrivals = list(players)
        for name in names:
            arrivals.append(_newcomer(session=session, player=None, name=name, field_name="names"))
        if len({p.pk for p in arrivals}) != len(arrivals):
            raise _refuse("players", _("A player is listed twice."))
        for player in arrivals:
            if player.club_id != session.club_id:
                raise _refuse("players", _("This player is not a player of this club."))
        plan = arrival_plan(session=session, count=len(arrivals))
        mode = mode or plan.suggested
        if plan.refusal:
            raise _refuse("players", plan.refusal)
        _check_free(session, arrivals, "players")
        if mode == "table":
            return _new_tables(session, arrivals, plan, by)
        if mode != "cut_in":
            raise _refuse("mode", _("Choose a new table or a cut-in."))
        return _cut_in(session, arrivals, plan, table_number, by)


def _new_tables(
    session: Session, arrivals: list[Player], plan: ArrivalPlan, by: User | None
) -> list[TableChange]:
    if not plan.new_tables:
        raise _refuse(
            "mode",
            ngettext(
                "%(count)d arrival cannot make a table of their own: %(reason)s",
                "%(count)d arrivals cannot make a table of their own: %(reason)s",
                plan.count,
            )
            % {"count": plan.count, "reason": arrival_text(plan)},
        )
    last = session.tables.order_by("-number").values_list("number", flat=True).first() or 0
    changes, start = [], 0
    for offset, size in enumerate(plan.new_tables, start=1):
        table = Table.objects.create(session=session, number=last + offset)
        for position, player in enumerate(arrivals[start : start + size]):
            _seat(session, table, player, position)
            changes.append(
                TableChange.objects.create(
                    session=session,
                    table=table,
                    kind=TableChange.Kind.NEW_TABLE,
                    player=player,
                    from_rubber=1,
                    by=by,
                )
            )
        start += size
        table = Table.objects.select_related("session").get(pk=table.pk)
        if not session.is_two_player:
            Rubber.objects.start_next(table=table)
    if session.is_two_player:
        Rubber.objects.start_ready_matches(session=session)
    return changes


def _cut_in(
    session: Session,
    arrivals: list[Player],
    plan: ArrivalPlan,
    table_number: int | None,
    by: User | None,
) -> list[TableChange]:

    if session.is_two_player:
        raise _refuse("mode", services._two_player_tables())
    if session.movement == Session.Movement.FIXED:
        raise _refuse("mode", _("Fixed partnerships need exactly four players at every table."))
    if table_number is None and not plan.cut_in:
        raise _refuse(
            "mode", _("There is no room for them: the tables would seat more than six (RULES 6.2).")
        )
    tables = {t.number: t for t in session.tables.all()}
    if table_number is not None:
        table = tables.get(table_number)
        if table is None:
            raise _refuse("table", _("There is no table %(number)d.") % {"number": table_number})
        targets = [table_number] * len(arrivals)
        seated = TableSeat.objects.filter(table=table, active=True).count()
        if seated + len(arrivals) > services.MAX_AT_TABLE:
            raise _refuse("table", _("A table seats at most six players (RULES 6.2)."))
    else:
        targets = plan.cut_in
    changes = []
    for player, number in zip(arrivals, targets, strict=True):
        table = tables[number]
        # As for a substitute: a rubber ending now seats its next one after this change.
        in_play = _lock_rubber_in_play(table)
        list(table.seats.select_for_update(of=("self",)))
        _seat(session, table, player, _next_position(table))
        changes.append(
            TableChange.objects.create(
                session=session,
                table=table,
                kind=TableChange.Kind.ARRIVE,
                player=player,
                from_rubber=_next_number(in_play, table),
                by=by,
            )
        )
    return changes
