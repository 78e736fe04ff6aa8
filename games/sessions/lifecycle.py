"""A session's lifecycle: plan it (`session_create`), re-seat it while planned, start it, close
it, reopen it for corrections, or delete it while planned. Each changes the session's state under
its row's lock, and the history keeps who did it (django-simple-history)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Session, TableSeat
from scoring.shared import hooks
from scoring.shared.errors import Conflict

from ..models import Deal, Rubber
from .planning import check_date, check_tables, seat_tables, tables_with_players
from .seating import (
    left_running_seats,
    left_running_sentence,
    lock_players,
    queue_refresh,
    seated_elsewhere,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
    Its date is from 1 January 1900 to a year from today (`check_date`)."""
    check_date(date)
    check_tables(club=club, kind=kind, movement=movement, tables=tables)
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
        seat_tables(session, tables)
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
            raise Conflict(
                _("Only a planned session can be re-seated; this one is %(status)s.")
                % {"status": str(locked.get_status_display()).lower()}
            )
        if tables is None:
            tables = [t.present_players() for t in tables_with_players(locked)]
        kind = locked.kind if kind is None else kind
        movement = locked.movement if movement is None else movement
        if date is not None:
            check_date(date)
        check_tables(club=locked.club, kind=kind, movement=movement, tables=tables)
        locked.kind, locked.movement = kind, movement
        if date is not None:
            locked.date = date
        if stake_per_hundred is not None:
            locked.stake_per_hundred = stake_per_hundred
        _record(locked, "reseated", by)
        locked.save(update_fields=["kind", "movement", "date", "stake_per_hundred"])
        locked.tables.all().delete()  # their seats go with them; a planned session has no rubber
        seat_tables(locked, tables)
    session.refresh_from_db()
    return session


#: The change reason of a start that went ahead with players still seated in a session of another
#: day left running: their ids follow ("started · also seated: 3,8"; the session's page names them).
STARTED_ANYWAY = "started · also seated: "


def session_start(*, session: Session, by: User | None = None, anyway: bool = False) -> Session:
    """Start a planned session: every table gets its first rubber, seated by the rotation.

    Never a silent double seating (issue 31): a player seated in another running session of the
    same day is refused outright, and one still seated in a session of another day left running
    (most likely forgotten) is refused unless the director said to start `anyway`; the history
    then names them (`STARTED_ANYWAY`). Either refusal is a `ValidationError` on `tables`
    naming each player, the table and the other session."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.PLANNED:
            raise Conflict(
                _("The session is already %(status)s.")
                % {"status": locked.get_status_display().lower()}
            )
        player_ids = list(
            TableSeat.objects.filter(session=locked, active=True).values_list(
                "player_id", flat=True
            )
        )
        lock_players(player_ids)
        if busy := seated_elsewhere(player_ids, session_id=locked.pk, date=locked.date):
            raise ValidationError({"tables": busy})
        left = left_running_seats(player_ids, session=locked)
        if left and not anyway:
            raise ValidationError({"tables": [left_running_sentence(seat) for seat in left]})
        locked.status = Session.Status.RUNNING
        locked.started_at = timezone.now()
        ids = sorted({seat.player_id for seat in left})
        _record(locked, STARTED_ANYWAY + ",".join(map(str, ids)) if ids else "started", by)
        locked.save(update_fields=["status", "started_at"])
        for table in locked.tables.prefetch_related("seats__player"):
            Rubber.objects.start_next(table=table)
    queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def session_close(*, session: Session, by: User | None = None) -> Session:
    """Close a session: rubbers still in play close as unfinished (RULES 2.6, 8.4).

    A reopened session (`session_reopen`) closes the same way; the standings are recomputed
    (queued, as every close). The night's money posts to the season accounts in the same
    transaction (`hooks.session_closed`; RULES 4.4, a changed night as a reversal and a new
    posting), and each player with an address is mailed their night once per close (the count in
    `closes`; `scoring.standings.results_mail`). The history keeps who closed it and when."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status == Session.Status.CLOSED:
            raise Conflict(_("The session is already closed."))
        if locked.status == Session.Status.PLANNED:
            raise Conflict(_("The session has not started; delete it instead of closing it."))
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
        stood = _stand_as_recorded(locked, by)
        locked.status = Session.Status.CLOSED
        locked.closed_at = timezone.now()
        locked.closes += 1
        _record(locked, f"closed · {stood} deals stand as recorded" if stood else "closed", by)
        locked.save(update_fields=["status", "closed_at", "closes"])
        # The night's money to the season accounts (RULES 4.4) and each player's mail of this
        # close, under this close's lock.
        hooks.session_closed.send(sender=Session, session_id=locked.pk, close=locked.closes)
    queue_refresh(locked.pk)
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
            raise Conflict(
                _("Only a closed session can be reopened; this one is %(status)s.")
                % {"status": str(locked.get_status_display()).lower()}
            )
        locked.status = Session.Status.RUNNING
        _record(locked, "reopened", by)
        locked.save(update_fields=["status"])
    queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def _stand_as_recorded(session: Session, by: User | None) -> int:
    """Closing a session that asks for confirmation: its deals still awaiting or disputed stand
    as recorded (the director was told which and closed anyway), each settled (`ruled`) with a
    history record saying so ("stood at close"), so a closed session lists nothing awaiting.
    Under the close's lock on the session, after its rubbers: a correction, a confirmation or a
    dispute takes the session first, so none lands in between. How many."""
    if not session.asks_confirmation:
        return 0
    waiting = Deal.objects.select_for_update(of=("self",), no_key=True).filter(
        rubber__session=session, confirmed_by__isnull=True, ruled=False
    )
    count = 0
    for deal in waiting.order_by("pk"):
        deal.disputed, deal.ruled = False, True
        deal._note("stood at close", by)
        deal.save(update_fields=["disputed", "ruled", "updated_at"])
        count += 1
    return count


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
            raise Conflict(_("Only a planned session can be deleted; this one has started."))
        locked.delete()
