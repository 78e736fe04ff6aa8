"""Who may sit where, and the locks taken before seating anyone: the checks and writes shared by
the session's lifecycle, its table changes and its arrivals.

Locks, always in this order: the session row (room changes one at a time), then the table's
rubber in play (the lock `Rubber.record_deal` takes, so a deal entered at the same moment is
either in before the change or recorded after it, never lost), then the seats and players.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Player, Session, Table, TableSeat
from clubs.services import player_create
from scoring.shared.errors import Conflict
from scoring.shared.hooks import results_changed

from ..models import Rubber


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


def seated_in_running(player_ids: Sequence[int], *, club_id: int) -> list[TableSeat]:
    """The seats these players hold at a table of a running session of the club, of any day:
    what planning warns of before seating them (issue 31). A session of
    tonight holds them (starting another is refused, `seated_elsewhere`); one left running from
    an earlier day does not, but most likely should be closed (`Session.left_running`)."""
    seats = TableSeat.objects.filter(
        player_id__in=player_ids,
        active=True,
        session__club_id=club_id,
        session__status=Session.Status.RUNNING,
        session__closed_at__isnull=True,
    )
    return list(
        seats.select_related("player", "session", "table").order_by("player__name", "session__date")
    )


def left_running_seats(player_ids: Sequence[int], *, session: Session) -> list[TableSeat]:
    """The seats these players still hold in a session of another day left running (not
    closed): starting `session` asks first (issue 31), naming each (`left_running_sentence`).
    A session of the same day holds them outright (`seated_elsewhere`)."""
    return [
        seat
        for seat in seated_in_running(player_ids, club_id=session.club_id)
        if seat.session_id != session.pk and seat.session.date != session.date
    ]


def left_running_sentence(seat: TableSeat) -> str:
    return _(
        "%(name)s still sits at table %(number)d of the session of %(date)s, left running: "
        "close that session first, or start anyway (the session's history keeps it)."
    ) % {
        "name": seat.player.name,
        "number": seat.table.number,
        "date": date_format(seat.session.date),
    }


def lock_players(player_ids: Sequence[int]) -> None:
    list(Player.objects.select_for_update().filter(pk__in=player_ids).order_by("pk"))


def lock_open_session(session: Session) -> None:
    """Lock the session's row (no key) and refuse a change if it is closed or reopened now."""
    locked = Session.objects.select_for_update(no_key=True, of=("self",)).get(pk=session.pk)
    if locked.is_closed:
        raise Conflict(_("The session is closed."))
    if locked.is_reopened:
        raise Conflict(reopened_for_corrections())


def reopened_for_corrections() -> str:
    """A reopened session takes corrections only: its tables, seats and rubbers stay as played."""
    return _(
        "This session was reopened for corrections only: its tables and players do not change."
    )


def two_player_tables_refusal() -> str:
    return _("The tables of a two-player session keep their pairs for the round robin (RULES 7).")


def queue_refresh(session_id: int) -> None:
    results_changed.send(sender=Session, session_id=session_id)


def active_seats_by_table(session: Session) -> dict[int, list[TableSeat]]:
    seats: dict[int, list[TableSeat]] = {}
    for seat in (
        TableSeat.objects.filter(session=session, active=True)
        .select_related("player", "table")
        .order_by("table__number", "position")
    ):
        seats.setdefault(seat.table_id, []).append(seat)
    return seats


def _check_running(session: Session) -> None:
    if session.status != Session.Status.RUNNING:
        raise Conflict(
            _("Changes at the tables are made while the session runs; this one is %(status)s.")
            % {"status": str(session.get_status_display()).lower()}
        )
    if session.is_reopened:
        raise Conflict(reopened_for_corrections())


def lock_running_session(session: Session) -> Session:
    locked = (
        Session.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club")
        .get(pk=session.pk)
    )
    _check_running(locked)
    return locked


def lock_rubber_in_play(table: Table) -> Rubber | None:
    """Lock the table's rubber in play, as `Rubber.record_deal` does. A deal finishing it at this
    moment starts the next rubber: read again until the rubber locked is the one in play."""
    in_play = Rubber.objects.filter(table=table).in_play()
    while True:
        rubber = in_play.select_for_update(no_key=True, of=("self",)).first()
        now = in_play.values_list("pk", flat=True).first()
        if now == (rubber.pk if rubber else None):
            return rubber


def refuse(field_name: str, message: str) -> ValidationError:
    return ValidationError({field_name: [message]})


def find_newcomer(*, session: Session, player: Player | None, name: str, field_name: str) -> Player:
    """The player who comes to a table: one of the club's, or a new one typed by name (added to
    the club, in this transaction: a refusal later leaves no new player behind)."""
    name = (name or "").strip()
    if player is not None and name:
        raise refuse(field_name, _("Choose a player or type a new name, not both."))
    if player is None and not name:
        raise refuse(field_name, _("Choose a player or type a new name."))
    if player is None:
        try:
            return player_create(club=session.club, name=name)
        except ValidationError as err:
            raise refuse(field_name, " ".join(err.messages)) from err
    if player.club_id != session.club_id:
        raise refuse(field_name, _("This player is not a player of this club."))
    return player


def check_free(session: Session, players: Sequence[Player], field_name: str) -> None:
    """Each newcomer sits nowhere in this session now, nor in another running one (issue 18)."""
    lock_players([p.pk for p in players])
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
    errors += seated_elsewhere([p.pk for p in players], session_id=session.pk, date=session.date)
    if errors:
        raise ValidationError({field_name: errors})


def next_position(table: Table) -> int:
    last = TableSeat.objects.filter(table=table).order_by("-position").first()
    return 0 if last is None else last.position + 1


def seat_player(session: Session, table: Table, player: Player, position: int) -> TableSeat:
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


def next_rubber_number(rubber: Rubber | None, table: Table) -> int:
    if rubber is not None:
        return rubber.number + 1
    last = table.rubbers.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1
