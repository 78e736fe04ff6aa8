"""Workflows of sessions and their tables: planning, starting, closing, seating the rubbers
(CONVENTIONS.md rule 4). Club, player and invitation workflows live in `clubs.services` and are
re-exported here for the pages; the pure table planning lives in `scoring.rules.seating`.

Each function is keyword-only, runs in one transaction and raises `ValidationError` (bad input,
HTTP 400 with field messages) or `scoring.shared.errors.Conflict` (a state conflict, HTTP 409).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import (
    TWO_PLAYER_KINDS,
    Club,
    Player,
    Session,
    Table,
    TableSeat,
)
from clubs.services import club_create as club_create
from clubs.services import invitation_accept as invitation_accept
from clubs.services import invitation_decline as invitation_decline
from clubs.services import membership_set_role as membership_set_role
from clubs.services import player_create as player_create
from scoring.rules.rotation import plan
from scoring.rules.round_robin import pairing
from scoring.rules.seating import MAX_AT_TABLE as MAX_AT_TABLE
from scoring.rules.seating import MIN_AT_TABLE as MIN_AT_TABLE
from scoring.rules.seating import TablePlan as TablePlan
from scoring.rules.seating import plan_tables as plan_tables
from scoring.rules.seating import suggest_tables as suggest_tables
from scoring.shared.errors import Conflict
from scoring.shared.hooks import results_changed

from .models import Rubber
from .rotation import Pairing, table_history, table_pairs

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def seated_elsewhere(
    player_ids: Sequence[int], *, session_id: int, date: datetime.date
) -> list[str]:
    """Why each of these players cannot be seated: they already sit in another session of the
    same day that is running (one player, one table at a time; issue 18). One sentence per
    player, naming the session by its date and table. A session of another day left running
    (not closed) does not hold its players. Callers lock the players' rows first when they go on to
    seat them, so two sessions cannot take the same player at once.

    A planned session may name them (planning ahead); starting it is refused while they sit
    elsewhere.
    """
    seats = (
        TableSeat.objects.filter(
            player_id__in=player_ids,
            active=True,
            session__status=Session.Status.RUNNING,
            # A session reopened for corrections seats nobody (`session_reopen`).
            session__closed_at__isnull=True,
            session__date=date,
        )
        .exclude(session_id=session_id)
        .select_related("player", "session", "table")
        .order_by("player__name")
    )
    return [
        _(
            "%(name)s already sits at table %(number)d of the running session of %(date)s; "
            "remove them from that table first."
        )
        % {
            "name": seat.player.name,
            "number": seat.table.number,
            "date": date_format(seat.session.date),
        }
        for seat in seats
    ]


#: The first day a session may have: clubs enter the sessions of old score sheets, none older
#: (as a club file's dates, `games.transfer.SANE_YEARS`).
EARLIEST_DATE = datetime.date(1900, 1, 1)


def latest_date() -> datetime.date:
    """The last day a session may be planned for: a year from today (the club's time)."""
    today = timezone.localdate()
    try:
        return today.replace(year=today.year + 1)
    except ValueError:  # 29 February
        return today.replace(year=today.year + 1, day=28)


def _check_date(date: datetime.date) -> None:
    """A session's date: from `EARLIEST_DATE` (old sessions entered later) to a year from today
    (planning ahead). Year 1 or 9999 is a slip, or hostile: `ValidationError` on `date`."""
    latest = latest_date()
    if not EARLIEST_DATE <= date <= latest:
        raise ValidationError(
            {
                "date": [
                    _("Choose a date from %(earliest)s to %(latest)s (a year from today).")
                    % {"earliest": date_format(EARLIEST_DATE), "latest": date_format(latest)}
                ]
            }
        )


def _lock_players(player_ids: Sequence[int]) -> None:
    list(Player.objects.select_for_update().filter(pk__in=player_ids).order_by("pk"))


def session_create(
    *,
    club: Club,
    date: datetime.date,
    kind: str = Session.Kind.RUBBER,
    movement: str = Session.Movement.PIVOT,
    stake_per_hundred: Decimal | None = None,
    tables: Sequence[Sequence[Player]],
    created_by: User | None = None,
) -> Session:
    """Plan a session: tables of 4–6 players in order of precedence (RULES 6.2), or tables of
    exactly two for the two-player games (RULES 7), whose opponents rotate by a round robin.
    Its date is from 1 January 1900 to a year from today (`_check_date`)."""
    _check_date(date)
    _check_tables(club=club, kind=kind, movement=movement, tables=tables)
    stake = club.default_stake if stake_per_hundred is None else stake_per_hundred
    with transaction.atomic():
        session = Session.objects.create(
            club=club,
            date=date,
            kind=kind,
            movement=movement,
            stake_per_hundred=stake,
            rules=club.house_rules().to_dict(),
            table_codes=club.table_codes,
            created_by=created_by,
        )
        _seat_tables(session, tables)
    return session


def session_reseat(
    *,
    session: Session,
    tables: Sequence[Sequence[Player]] | None = None,
    date: datetime.date | None = None,
    kind: str | None = None,
    movement: str | None = None,
    stake_per_hundred: Decimal | None = None,
    by: User | None = None,
) -> Session:
    """Re-seat a planned session (issue 18): its tables, and any of its date, game, movement and
    stake, replaced with the same validation as `session_create` (what is not given is kept;
    the kept tables are checked again against a new game or movement). Like a planned session,
    it may name players sitting in a running session: starting it refuses them
    (`seated_elsewhere`).

    The session's row is locked as `session_start` locks it, so a re-seat and a start are
    serialised: a session that started meanwhile is refused with `Conflict` and nothing changes.
    The tables are new (and so are their codes); the history keeps who re-seated it.
    """
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.PLANNED:
            raise _conflict(
                _("Only a planned session can be re-seated; this one is %(status)s.")
                % {"status": str(locked.get_status_display()).lower()}
            )
        if tables is None:
            tables = [t.present_players() for t in _tables_with_players(locked)]
        kind = locked.kind if kind is None else kind
        movement = locked.movement if movement is None else movement
        if date is not None:
            _check_date(date)
        _check_tables(club=locked.club, kind=kind, movement=movement, tables=tables)
        locked.kind, locked.movement = kind, movement
        if date is not None:
            locked.date = date
        if stake_per_hundred is not None:
            locked.stake_per_hundred = stake_per_hundred
        _record(locked, "reseated", by)
        locked.save(update_fields=["kind", "movement", "date", "stake_per_hundred"])
        locked.tables.all().delete()  # their seats go with them; a planned session has no rubber
        _seat_tables(locked, tables)
    session.refresh_from_db()
    return session


def _tables_with_players(session: Session) -> list[Table]:
    """The session's tables in order, with their seats and players (for `present_players`)."""
    return list(session.tables.order_by("number").prefetch_related("seats__player"))


def _seat_tables(session: Session, tables: Sequence[Sequence[Player]]) -> None:
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=number)
        TableSeat.objects.bulk_create(
            TableSeat(session=session, table=table, player=player, position=position)
            for position, player in enumerate(players)
        )


def _check_tables(
    *, club: Club, kind: str, movement: str, tables: Sequence[Sequence[Player]]
) -> None:
    """The tables a session may be planned with (RULES 6.2, RULES 7), or `ValidationError`
    on `tables` and `movement` naming every problem."""
    errors: dict[str, list[str]] = {}
    two_player = kind in TWO_PLAYER_KINDS
    if not tables:
        errors["tables"] = ["A session needs at least one table."]
    seen: dict[int, int] = {}
    for number, players in enumerate(tables, start=1):
        if two_player and len(players) != 2:
            errors.setdefault("tables", []).append(
                _(
                    "Table %(number)d has %(count)d players; a two-player game seats "
                    "exactly two (RULES 7)."
                )
                % {"number": number, "count": len(players)}
            )
        elif not two_player and not MIN_AT_TABLE <= len(players) <= MAX_AT_TABLE:
            errors.setdefault("tables", []).append(
                f"Table {number} has {len(players)} players; a table seats 4 to 6 (RULES 6.2)."
            )
        for player in players:
            if player.club_id != club.pk:
                errors.setdefault("tables", []).append(
                    f"Player {player.pk} is not a player of this club."
                )
            if player.pk in seen:
                errors.setdefault("tables", []).append(
                    _(
                        "%(name)s is at table %(first)d and table %(second)d; "
                        "a player sits at one table."
                    )
                    % {"name": player.name, "first": seen[player.pk], "second": number}
                )
            seen[player.pk] = number
    if (
        not two_player
        and movement == Session.Movement.FIXED
        and any(len(p) != MIN_AT_TABLE for p in tables)
    ):
        errors.setdefault("movement", []).append(
            _("Fixed partnerships need exactly four players at every table.")
        )
    if errors:
        raise ValidationError(errors)


def session_start(*, session: Session, by: User | None = None) -> Session:
    """Start a planned session: every table gets its first rubber, seated by the rotation."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.PLANNED:
            raise _conflict(
                _("The session is already %(status)s.")
                % {"status": locked.get_status_display().lower()}
            )
        player_ids = list(
            TableSeat.objects.filter(session=locked, active=True).values_list(
                "player_id", flat=True
            )
        )
        _lock_players(player_ids)
        if busy := seated_elsewhere(player_ids, session_id=locked.pk, date=locked.date):
            raise _conflict(" ".join(busy))
        locked.status = Session.Status.RUNNING
        locked.started_at = timezone.now()
        _record(locked, "started", by)
        locked.save(update_fields=["status", "started_at"])
        for table in locked.tables.prefetch_related("seats__player"):
            Rubber.objects.start_next(table=table)
    _queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def session_close(*, session: Session, by: User | None = None) -> Session:
    """Close a session: rubbers still in play close as unfinished (RULES 2.6, 8.4).

    A reopened session (`session_reopen`) closes the same way; the standings are recomputed
    (queued, as every close). The history keeps who closed it and when."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status == Session.Status.CLOSED:
            raise _conflict(_("The session is already closed."))
        if locked.status == Session.Status.PLANNED:
            raise _conflict(_("The session has not started; delete it instead of closing it."))
        # Lock the rubbers in play, close them, then look again until none is in play: a
        # four-player entry locks its rubber, not the session, so one that held a rubber when
        # this listed them may have finished it and seated the next one, which that list (read
        # before the entry committed) does not hold. Every later entry waits for these locks
        # and finds the session closed.
        in_play = Rubber.objects.filter(session=locked).in_play()
        while in_play.exists():
            for rubber in in_play.select_for_update(of=("self",), no_key=True).order_by("pk"):
                if rubber.deals.exists():
                    rubber.close_unfinished()
                else:
                    # A rubber with no deal was never played: it is withdrawn, not scored.
                    rubber.delete()
        locked.status = Session.Status.CLOSED
        locked.closed_at = timezone.now()
        _record(locked, "closed", by)
        locked.save(update_fields=["status", "closed_at"])
    _queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def session_reopen(*, session: Session, by: User | None = None) -> Session:
    """Reopen a closed session for corrections (issue 18; docs/api.md, "Reopening").

    The session runs again, so that its director can correct deals (RULES 8.2); nothing else
    changes. The corrections are the director's alone: its players' writes and its table codes
    stay dead (`Session.is_playing`, `games.models.check_reopened_writer`; docs/security.md).
    The rubbers closed unfinished by RULES 2.6 stay as played (unfinished, their figures from
    their deals), and no rubber starts: a corrected deal re-scores its own rubber
    (`games.models.Deal.correct`). `closed_at` keeps the last close until the session closes
    again, which recomputes the standings. The history keeps who reopened it and when
    (`Session.history`).

    The session's row is locked as `session_close` locks it, so a reopen and a close (or two
    reopens) at the same time are serialised: the second sees the first's outcome and answers
    409 if there is nothing left to do.
    """
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.CLOSED:
            raise _conflict(
                _("Only a closed session can be reopened; this one is %(status)s.")
                % {"status": str(locked.get_status_display()).lower()}
            )
        locked.status = Session.Status.RUNNING
        _record(locked, "reopened", by)
        locked.save(update_fields=["status"])
    _queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def _record(session: Session, reason: str, by: User | None) -> None:
    """Who changed the session's state and why, for its history (django-simple-history)."""
    session._change_reason = reason
    if by is not None:
        session._history_user = by


def session_delete(*, session: Session) -> None:
    """Delete a planned session: nothing was played in it. A started one is kept (its results
    are facts); close it instead."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.PLANNED:
            raise _conflict(_("Only a planned session can be deleted; this one has started."))
        locked.delete()


def _two_player_rotation(table: Table, ahead: int) -> list[Any]:
    """The match in play (or the last one) at a table of two, then the next `ahead` pairings of
    the round robin (RULES 7; `scoring.rules.round_robin`)."""
    history = table_history(table)
    current = history[-1:]
    if table.session.status == Session.Status.CLOSED:
        return current
    pairs = table_pairs(table.session)
    last = history[-1].rubber if history else 0
    planned = []
    for number in range(last + 1, last + 1 + ahead):
        zero, one = pairing(pairs, number, table.number)
        planned.append(Pairing(number, {"N": zero, "E": one}))
    return current + planned


def round_robin_opponents(*, session: Session, rounds: Sequence[int]) -> dict[int, dict[int, Any]]:
    """Each player's opponent and table in each of ``rounds`` of a two-player session's round
    robin (RULES 7; `scoring.rules.round_robin`): ``{round: {player id: (opponent id, table
    number)}}``. One read of the tables as first set, none when the page prefetched them."""
    pairs = table_pairs(session)
    found: dict[int, dict[int, Any]] = {}
    for number in rounds:
        found[number] = {}
        for table_number in range(1, len(pairs) + 1):
            zero, one = pairing(pairs, number, table_number)
            found[number][zero] = (one, table_number)
            found[number][one] = (zero, table_number)
    return found


def table_rotation(*, table: Table, ahead: int = 3) -> list[Any]:
    """The rubbers in play and ahead at a table: the current one, then `ahead` planned ones."""
    if table.session.is_two_player:
        return _two_player_rotation(table, ahead)
    history = table_history(table)
    players = [p.pk for p in table.present_players()]
    session = table.session
    current = [s for s in history if s.rubber == history[-1].rubber] if history else []
    if session.status == Session.Status.CLOSED or len(players) < MIN_AT_TABLE:
        # Closed, or a table broken up for an early leaver (games.changes): nothing ahead.
        return current
    planned = plan(players, ahead, movement=session.movement, history=history)
    return current + planned


def reopened_for_corrections() -> str:
    """A reopened session takes corrections only: its tables, seats and rubbers stay as played."""
    return _(
        "This session was reopened for corrections only: its tables and players do not change."
    )


def table_add_player(*, table: Table, player: Player) -> TableSeat:
    """A late arrival joins a table; the rotation is re-planned from the next rubber."""
    session = table.session
    if session.is_closed:
        raise _conflict(_("The session is closed."))
    if session.is_reopened:
        raise _conflict(reopened_for_corrections())
    if session.is_two_player:
        raise ValidationError({"player": [_two_player_tables()]})
    if player.club_id != session.club_id:
        raise ValidationError({"player": [_("This player is not a player of this club.")]})
    with transaction.atomic():
        # The session first, as a close takes it, and its status as it is now (the caller's
        # copy may predate a close); then this table's seats alone (`of`: the models' ordering
        # joins the table and the session, which would lock them FOR UPDATE too).
        _lock_open_session(session)
        seats = list(table.seats.select_for_update(of=("self",)))
        _lock_players([player.pk])
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
            raise _conflict(_("Someone changed this table at the same time; try again.")) from err


def table_remove_player(*, table: Table, player: Player) -> None:
    """An early leaver leaves after the current rubber; nothing already played changes.

    The rubber in play keeps its seats (the player finishes it or the director closes it);
    the rotation is re-planned from the next rubber without them.
    """
    if table.session.is_closed:
        raise _conflict(_("The session is closed."))
    if table.session.is_reopened:
        raise _conflict(reopened_for_corrections())
    if table.session.is_two_player:
        raise ValidationError({"player": [_two_player_tables()]})
    with transaction.atomic():
        _lock_open_session(table.session)  # as table_add_player
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


def _lock_open_session(session: Session) -> None:
    """Lock the session's row (no key) and refuse a change if it is closed or reopened now."""
    locked = Session.objects.select_for_update(no_key=True, of=("self",)).get(pk=session.pk)
    if locked.is_closed:
        raise _conflict(_("The session is closed."))
    if locked.is_reopened:
        raise _conflict(reopened_for_corrections())


def _two_player_tables() -> str:
    return _("The tables of a two-player session keep their pairs for the round robin (RULES 7).")


def _conflict(message: str) -> Exception:
    return Conflict(message)


def _queue_refresh(session_id: int) -> None:
    results_changed.send(sender=Session, session_id=session_id)
