"""Late arrivals at a running session (issue 18): where they can sit (`arrival_plan`, in words
by `arrival_text`) and seating them (`session_add_arrivals`): a new table of their own, or a
cut-in at tables with room, from the next rubber there (RULES 6.2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player, Session, Table, TableChange, TableSeat
from scoring.rules.seating import MAX_AT_TABLE, plan_tables

from ..models import Rubber
from .seating import (
    active_seats_by_table,
    check_free,
    find_newcomer,
    lock_rubber_in_play,
    lock_running_session,
    next_position,
    next_rubber_number,
    refuse,
    seat_player,
    two_player_tables_refusal,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class ArrivalPlan:
    """Where late arrivals can sit (`plan_tables` for their count): a new table of
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
    answer = plan_tables(count=count, kind=session.kind, movement=session.movement)
    cut_in: list[int] = []
    if count and not session.is_two_player and session.movement != Session.Movement.FIXED:
        sizes = {
            seats[0].table.number: len(seats)
            for seats in active_seats_by_table(session).values()
            if seats
        }
        for _arrival in range(count):
            room = [n for n, size in sizes.items() if size < MAX_AT_TABLE]
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
    "table": as many as `plan_tables` seats, its first rubber starting at once), or
    cutting in at tables with room (`mode` "cut_in": at `table_number`, or spread over the
    smallest tables as `arrival_plan` suggests), from the next rubber there (RULES 6.2). An
    empty `mode` takes the suggestion. New names become players of the club."""
    with transaction.atomic():
        session = lock_running_session(session)
        arrivals = list(players)
        for name in names:
            arrivals.append(
                find_newcomer(session=session, player=None, name=name, field_name="names")
            )
        if len({p.pk for p in arrivals}) != len(arrivals):
            raise refuse("players", _("A player is listed twice."))
        for player in arrivals:
            if player.club_id != session.club_id:
                raise refuse("players", _("This player is not a player of this club."))
        plan = arrival_plan(session=session, count=len(arrivals))
        mode = mode or plan.suggested
        if plan.refusal:
            raise refuse("players", plan.refusal)
        check_free(session, arrivals, "players")
        if mode == "table":
            return _new_tables(session, arrivals, plan, by)
        if mode != "cut_in":
            raise refuse("mode", _("Choose a new table or a cut-in."))
        return _cut_in(session, arrivals, plan, table_number, by)


def _new_tables(
    session: Session, arrivals: list[Player], plan: ArrivalPlan, by: User | None
) -> list[TableChange]:
    if not plan.new_tables:
        raise refuse(
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
            seat_player(session, table, player, position)
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
        raise refuse("mode", two_player_tables_refusal())
    if session.movement == Session.Movement.FIXED:
        raise refuse("mode", _("Fixed partnerships need exactly four players at every table."))
    if table_number is None and not plan.cut_in:
        raise refuse(
            "mode", _("There is no room for them: the tables would seat more than six (RULES 6.2).")
        )
    tables = {t.number: t for t in session.tables.all()}
    if table_number is not None:
        table = tables.get(table_number)
        if table is None:
            raise refuse("table", _("There is no table %(number)d.") % {"number": table_number})
        targets = [table_number] * len(arrivals)
        seated = TableSeat.objects.filter(table=table, active=True).count()
        if seated + len(arrivals) > MAX_AT_TABLE:
            raise refuse("table", _("A table seats at most six players (RULES 6.2)."))
    else:
        targets = plan.cut_in
    changes = []
    for player, number in zip(arrivals, targets, strict=True):
        table = tables[number]
        # As for a substitute: a rubber ending now seats its next one after this change.
        in_play = lock_rubber_in_play(table)
        list(table.seats.select_for_update(of=("self",)))
        seat_player(session, table, player, next_position(table))
        changes.append(
            TableChange.objects.create(
                session=session,
                table=table,
                kind=TableChange.Kind.ARRIVE,
                player=player,
                from_rubber=next_rubber_number(in_play, table),
                by=by,
            )
        )
    return changes
