"""Changes at a table (issue 18): a player added or removed from the next rubber, an early
leaver substituted, or the table's rubber closed for a leaver and the room re-planned.

Each change counts from the next rubber at the table (RULES 6: the rotation is re-planned from
there); deals already entered never change, and every change is kept as a `TableChange` (who
left, who came, who made it). The locks are taken in `games.sessions.seating`'s order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player, Session, Table, TableChange, TableSeat
from scoring.rules.seating import MAX_AT_TABLE, MIN_AT_TABLE, plan_tables
from scoring.shared.errors import Conflict

from ..models import Rubber
from ..push import hooks as push_hooks
from .seating import (
    active_seats_by_table,
    check_free,
    find_newcomer,
    lock_open_session,
    lock_players,
    lock_rubber_in_play,
    lock_running_session,
    next_position,
    next_rubber_number,
    queue_refresh,
    refuse,
    reopened_for_corrections,
    seat_player,
    seated_elsewhere,
    two_player_tables_refusal,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def table_add_player(*, table: Table, player: Player) -> TableSeat:
    """A late arrival joins a table; the rotation is re-planned from the next rubber."""
    session = table.session
    if session.is_closed:
        raise Conflict(_("The session is closed."))
    if session.is_reopened:
        raise Conflict(reopened_for_corrections())
    if session.is_two_player:
        raise ValidationError({"player": [two_player_tables_refusal()]})
    if player.club_id != session.club_id:
        raise ValidationError({"player": [_("This player is not a player of this club.")]})
    with transaction.atomic():
        # The session first, as a close takes it, and its status as it is now (the caller's
        # copy may predate a close); then this table's seats alone (`of`: the models' ordering
        # joins the table and the session, which would lock them FOR UPDATE too).
        lock_open_session(session)
        seats = list(table.seats.select_for_update(of=("self",)))
        lock_players([player.pk])
        if session.status == Session.Status.RUNNING and (
            busy := seated_elsewhere([player.pk], session_id=session.pk, date=session.date)
        ):
            raise ValidationError({"player": busy})
        if sum(s.active for s in seats) >= MAX_AT_TABLE:
            raise ValidationError({"player": [_("A table seats at most six players (RULES 6.2).")]})
        existing = TableSeat.objects.filter(session=session, player=player).first()
        if existing and existing.active:
            raise ValidationError(
                {
                    "player": [
                        _("%(name)s already sits at table %(number)d.")
                        % {"name": player.name, "number": existing.table.number}
                    ]
                }
            )
        position = max((s.position for s in seats), default=-1) + 1
        try:
            if existing:
                existing.table = table
                existing.position = position
                existing.active = True
                existing.save(update_fields=["table", "position", "active"])
                return existing
            return TableSeat.objects.create(
                session=session, table=table, player=player, position=position
            )
        except IntegrityError as err:
            raise Conflict(_("Someone changed this table at the same time; try again.")) from err


def table_remove_player(*, table: Table, player: Player) -> None:
    """An early leaver leaves after the current rubber; nothing already played changes.

    The rubber in play keeps its seats (the player finishes it or the director closes it);
    the rotation is re-planned from the next rubber without them.
    """
    if table.session.is_closed:
        raise Conflict(_("The session is closed."))
    if table.session.is_reopened:
        raise Conflict(reopened_for_corrections())
    if table.session.is_two_player:
        raise ValidationError({"player": [two_player_tables_refusal()]})
    with transaction.atomic():
        lock_open_session(table.session)  # as table_add_player
        seat = (
            table.seats.select_for_update(of=("self",)).filter(player=player, active=True).first()
        )
        if seat is None:
            raise ValidationError(
                {"player": [_("%(name)s does not sit at this table.") % {"name": player.name}]}
            )
        if table.seats.filter(active=True).count() <= MIN_AT_TABLE:
            raise ValidationError(
                {"player": [_("A table needs at least four players (RULES 6.2); add one first.")]}
            )
        seat.active = False
        seat.save(update_fields=["active"])


SEAT_FIELDS = {"N": "north_id", "E": "east_id", "S": "south_id", "W": "west_id"}


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


def _in_play_seated(session: Session) -> set[int]:
    """The players seated (N, E, S, W) in a rubber in play: they cannot move before it ends."""
    seated: set[int] = set()
    for rubber in Rubber.objects.filter(session=session).in_play():
        seated.update(rubber.seat_ids.values())
    return seated


def replan_for_leaver(*, table: Table, leaver: Player) -> Replan:
    """The re-planning of the room when `leaver` leaves `table` and its rubber closes.

    The count left is planned by `plan_tables` (the one planning answer): when it
    cannot be seated the answer is a refusal. When the room still has players enough for as
    many tables, a player who is free now (waiting at a table of five or six, not seated in its
    rubber in play) moves in, and the table plays on at once; otherwise the table breaks up and
    its players join the smallest other tables from their next rubbers (at most six a table).
    """
    session = table.session
    by_table = active_seats_by_table(session)
    here = [s for s in by_table.get(table.pk, []) if s.player_id != leaver.pk]
    others = {pk: seats for pk, seats in by_table.items() if pk != table.pk and seats}
    remaining = sum(len(s) for s in others.values()) + len(here)
    answer = plan_tables(count=remaining, kind=session.kind, movement=session.movement)
    if not answer.sizes:
        return Replan(remaining, refusal=_unseatable(remaining, answer.reason))
    if len(here) >= MIN_AT_TABLE:
        return Replan(remaining)
    if remaining >= MIN_AT_TABLE * (len(others) + 1):
        return _move_in(table, here, others, remaining)
    sizes = {pk: len(seats) for pk, seats in others.items()}
    numbers = {pk: seats[0].table.number for pk, seats in others.items()}
    moves = []
    for seat in here:
        target = min(sizes, key=lambda pk: (sizes[pk], numbers[pk]))
        sizes[target] += 1
        moves.append(Move(seat.player, table.number, numbers[target]))
    return Replan(remaining, moves=moves, dissolved=True)


def _unseatable(remaining: int, reason: str) -> str:
    """Why the room left by a leaver cannot be seated (the planning answer's `reason`)."""
    if reason == "fixed":
        return ngettext(
            "%(count)d player would remain: fixed partnerships need exactly four at every "
            "table. Substitute a player instead.",
            "%(count)d players would remain: fixed partnerships need exactly four at every "
            "table. Substitute a player instead.",
            remaining,
        ) % {"count": remaining}
    return ngettext(
        "%(count)d player would remain: the room cannot be seated at tables of four to "
        "six (RULES 6.2). Substitute a player instead.",
        "%(count)d players would remain: the room cannot be seated at tables of four to "
        "six (RULES 6.2). Substitute a player instead.",
        remaining,
    ) % {"count": remaining}


def _move_in(
    table: Table, here: list[TableSeat], others: dict[int, list[TableSeat]], remaining: int
) -> Replan:
    """Players free now (waiting at the largest other tables, not seated in their rubber in
    play) move to `table` until it seats four; a refusal when too few are free."""
    busy = _in_play_seated(table.session)
    needed = MIN_AT_TABLE - len(here)
    moves: list[Move] = []
    donors = sorted(others.values(), key=lambda s: (-len(s), s[0].table.number))
    for seats in donors:
        spare = len(seats) - MIN_AT_TABLE
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


def _seat_of_leaver(table: Table, leaver: Player) -> TableSeat:
    seat = table.seats.select_for_update(of=("self",)).filter(player=leaver, active=True).first()
    if seat is None:
        raise refuse("leaver", _("%(name)s does not sit at this table.") % {"name": leaver.name})
    return seat


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
        raise refuse("leaver", two_player_tables_refusal())
    with transaction.atomic():
        session = lock_running_session(session)
        rubber = lock_rubber_in_play(table)
        seat = _seat_of_leaver(table, leaver)
        newcomer = find_newcomer(
            session=session, player=substitute, name=new_name, field_name="substitute"
        )
        check_free(session, [newcomer], "substitute")
        position = seat.position
        seat.active = False
        seat.position = next_position(table)
        seat.save(update_fields=["active", "position"])
        seat_player(session, table, newcomer, position)
        from_rubber = next_rubber_number(rubber, table)
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
        raise refuse("leaver", two_player_tables_refusal())
    with transaction.atomic():
        session = lock_running_session(session)
        rubber = lock_rubber_in_play(table)
        # The other tables' rubbers too: one ending now would seat its next rubber with a
        # player this re-planning moves away (who waits there now, and is free only so).
        for other in session.tables.exclude(pk=table.pk).order_by("number"):
            lock_rubber_in_play(other)
        _seat_of_leaver(table, leaver)
        table = Table.objects.select_related("session").get(pk=table.pk)
        plan = replan_for_leaver(table=table, leaver=leaver)
        if plan.refusal:
            raise refuse("leaver", plan.refusal)
        # The other tables' rubbers in play keep their seats: the movers are free (waiting) or
        # join their new table from its next rubber.
        TableSeat.objects.filter(session=session, player=leaver).update(
            active=False, position=next_position(table)
        )
        push_hooks.changed_session(session.pk)  # an update sends no signal
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
                from_rubber=next_rubber_number(None, table),
                closed_rubber=closed,
                by=by,
            )
        ]
        changes += _seat_movers(session, plan.moves, by)
        if not plan.dissolved:
            Rubber.objects.start_next(
                table=Table.objects.select_related("session").get(pk=table.pk)
            )
    queue_refresh(session.pk)
    return changes


def _seat_movers(session: Session, moves: list[Move], by: User | None) -> list[TableChange]:
    """Each mover joins their new table from its next rubber, kept as a `TableChange`."""
    tables = {t.number: t for t in session.tables.all()}
    changes = []
    for move in moves:
        target = tables[move.to_table]
        seat_player(session, target, move.player, next_position(target))
        changes.append(
            TableChange.objects.create(
                session=session,
                table=target,
                kind=TableChange.Kind.MOVE,
                player=move.player,
                from_rubber=next_rubber_number(
                    Rubber.objects.filter(table=target).in_play().first(), target
                ),
                by=by,
            )
        )
    return changes
