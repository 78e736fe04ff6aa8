"""Rubbers and deals (DESIGN.md: games/).

The scoresheet is never stored: it is the scoring engine applied to the ordered deals
(RULES 8.2). Deals change only through `Rubber.record_deal`, `Deal.correct`,
`Deal.delete_last` (the last deal of a match in play, entered by mistake) and
`Rubber.close_unfinished`; every change is kept by django-simple-history.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext, npgettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from clubs.models import Membership, Player, Session, Table
from clubs.policy import may_direct
from scoring.rules import (
    Contract,
    DealInput,
    Honours,
    HouseRules,
    ScoringError,
    Side,
)
from scoring.rules.rotation import plan
from scoring.rules.round_robin import pairing
from scoring.shared.errors import Conflict as Conflict
from scoring.shared.hooks import results_changed
from scoring.shared.i18n import contract_display, strain_display

from . import sheets
from .rotation import table_history, table_pairs
from .sheets import Sheet

#: How a phone holding the table's code is named in the history of the deal it writes ("table
#: 1 (code), seat S", games.views), for the write under way: the record that write creates gets
#: it in its change reason, in the same save. Editing "the latest record" afterwards could land
#: on a record someone else wrote meanwhile, or twice on one (an outside probe saw both).
_CHANGE_NOTE: ContextVar[str] = ContextVar("games_change_note", default="")


@contextmanager
def change_note(note: str) -> Iterator[None]:
    """Within the block, the history records a deal's writes create carry `note`."""
    token = _CHANGE_NOTE.set(note)
    try:
        yield
    finally:
        _CHANGE_NOTE.reset(token)


def _reason(reason: str) -> str:
    note = _CHANGE_NOTE.get()
    return f"{reason} · {note}" if note else reason


if TYPE_CHECKING:
    from django.contrib.auth.models import User

SEATS = ("N", "E", "S", "W")
SEAT_FIELDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
#: The largest id a row can have (a 64-bit key).
MAX_ID = 2**63 - 1
SEAT_SIDE = {"N": Side.NS, "S": Side.NS, "E": Side.EW, "W": Side.EW}


class NumberGap(Conflict):
    """A deal whose number is not the rubber's next one (RULES 8.1), `expected` (a deal before it
    was deleted meanwhile, say): the offline queue offers to record it as that one."""

    def __init__(self, message: str, *, expected: int) -> None:
        super().__init__(message)
        self.expected = expected


class EntryCheck(TypedDict):
    """What `RubberQuerySet.for_entry` reads with the rubber, as attributes of it: the type
    checker sees them on `WithAnnotations[Rubber, EntryCheck]` (django-stubs-ext)."""

    club_public: bool
    viewer_role: str | None
    viewer_player_id: int | None
    #: The session was reopened for corrections (`Session.is_reopened`; 0 or 1 in SQLite).
    session_reopened: bool


def lock_session(session_id: int) -> Session | None:
    """Lock a session's row (`FOR NO KEY UPDATE`, so rows that reference it are still inserted)
    and read it as it is now, for a write that depends on its status. Taken first, before any
    rubber or deal, as `session_close` takes it (docs/rules.md, "Lock order of every deal
    write")."""
    return Session.objects.select_for_update(no_key=True).filter(pk=session_id).first()


def _lock_session_of(rubber_id: int) -> Session | None:
    """`lock_session` for the session of this rubber, in one query."""
    session_of = Rubber.objects.filter(pk=rubber_id).values("session_id")
    return Session.objects.select_for_update(no_key=True).filter(pk__in=session_of).first()


def _closed_meanwhile(session_id: int) -> bool:
    """The session is closed now. A four-player entry locks its rubber, not the session, and
    reads the session with it as it was when the statement began: when the close it waited for
    closed or withdrew the rubber, this says why (a refusal's wording; the close's lock on the
    rubber is what keeps the entry out)."""
    return Session.objects.filter(pk=session_id, status=Session.Status.CLOSED).exists()


def closed_session() -> str:
    """Why a write to a closed session is refused (409)."""
    return gettext("The session is closed: its results are final.")


def reopened_for_director() -> str:
    """Why a player's or a table-code phone's write to a reopened session is refused."""
    return gettext(
        "This session was reopened for the director's corrections only: show the director "
        "what you want changed."
    )


def check_reopened_writer(session: Session, user: User | None) -> None:
    """A session reopened for corrections (`Session.is_reopened`) takes its directors' writes
    only: a player's, or a table-code phone's (no user), raises Conflict. Every deal write asks
    it under its locks, with the session as it is then, so neither a caller that forgot the
    check nor a reopen landing after it lets a closed night be rewritten (docs/security.md,
    issue 26)."""
    if not session.is_reopened:
        return
    if user is not None and may_direct(
        Membership.objects.filter(club_id=session.club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    ):
        return
    raise Conflict(reopened_for_director())


class RubberQuerySet(models.QuerySet["Rubber"]):
    def with_deals(self) -> RubberQuerySet:
        """With the table, session, club and deals; the players are read by `fetch_players`
        (joining all four made PostgreSQL spend ~15 ms planning each 10-table join, and a
        prefetch per seat costs four queries; docs/benchmarks.md, HTTP)."""
        deals = Deal.objects.select_related("entered_by", "confirmed_by").order_by("number")
        return self.select_related("table", "session__club").prefetch_related(
            models.Prefetch("deals", queryset=deals)
        )

    def for_entry(self, pk: int, user_id: int) -> Rubber | None:
        """The rubber, with `club_public`, the user's `viewer_role` in its club, their
        `viewer_player_id` there (None when not a member) and whether its session is
        `session_reopened` (typed by `EntryCheck`): what entry
        checks, in one query, in SQL because compiling the three ORM queries cost more than
        running them (docs/benchmarks.md, HTTP)."""
        if pk > MAX_ID:  # the ORM answers no row for an id out of range; SQLite would raise
            return None
        # Subqueries rather than joins: PostgreSQL planned the five-table join in ~0.5 ms on the
        # benchmark's machine, this in ~0.2.
        found = Rubber.objects.raw(
            "SELECT r.*,"
            " (SELECT c.public FROM clubs_club c WHERE c.id = s.club_id) AS club_public,"
            " (SELECT m.role FROM clubs_membership m"
            "  WHERE m.club_id = s.club_id AND m.user_id = %s) AS viewer_role,"
            " (SELECT p.id FROM clubs_player p"
            "  WHERE p.club_id = s.club_id AND p.user_id = %s) AS viewer_player_id,"
            " (s.status = %s AND s.closed_at IS NOT NULL) AS session_reopened"
            " FROM games_rubber r JOIN clubs_session s ON s.id = r.session_id WHERE r.id = %s",
            [user_id, user_id, Session.Status.RUNNING.value, pk],
        )
        return next(iter(found), None)

    def answer_state(self, pk: int) -> tuple[Any, ...] | None:
        """The rubber's club (id, public) and what its API answer is made of apart from names:
        status, start, end, number, table, session, seats, sitting out, a count that every
        change of its deals raises (twice the sum of their versions, which a new deal and a
        correction raise, plus the confirmed ones: a confirmation adds 1, a correction that
        clears one still adds 1 in all), and the time of the latest write to its deals. None if
        there is no such rubber. In SQL: this is all a cached answer reads, and compiling it with
        the ORM cost more than running it (docs/benchmarks.md).

        The times (to the microsecond) tell one incarnation of the database from another. A
        database created again (a test run) or restored from a dump hands out the same ids and
        versions again, and the cache, which outlives it, must not answer one database's deals
        for the other's (their ids are what a client corrects): a rubber or a deal written since
        has another time.

        Deleting the last deal (`Deal.delete_last`) takes its share off the count (at least 2),
        so every phone holding a pad with that deal gets the new one on its next poll. The state
        may then be one seen before (the deal's entry was the latest write): the deals are then
        exactly those of that state, and an answer kept for it is right. Otherwise the latest
        surviving write fixes the time and only deletes have followed it, each lowering the
        count: two different sets of deals never share a state
        (tests/games/test_delete_deal.py).

        Then what a pad's live part shows besides (its ETag, games.views.rubber_live): the
        session's status and last close (closed, reopened), whether opponents confirm (the
        session's setting and the club's, `Session.asks_confirmation`), whether table codes are
        on and the table's code (a phone whose code was regenerated or turned off loses its
        entry form). Last, the club's language (a pad's live part speaks it: `state[-1]`)."""
        if pk > MAX_ID:  # as in for_entry
            return None
        with connection.cursor() as cursor:
            # The table's code by a subquery, not a join of four tables: quicker to plan (as
            # for_entry). Reading the session's columns costs ~0.1 ms more planning than the
            # club alone did (PostgreSQL, measured for issue 17).
            cursor.execute(
                "SELECT c.id, c.public, r.status, r.started_at, r.ended_at, r.number,"
                " r.table_id, r.session_id, r.north_id, r.east_id, r.south_id, r.west_id,"
                " r.sitting_out, (SELECT 2 * SUM(d.version) + COUNT(d.confirmed_by_id)"
                "  FROM games_deal d WHERE d.rubber_id = r.id),"
                " (SELECT MAX(d.updated_at) FROM games_deal d WHERE d.rubber_id = r.id),"
                " s.status, s.closed_at, s.confirm_entries, c.confirm_entries, s.table_codes,"
                " (SELECT t.code FROM clubs_table t WHERE t.id = r.table_id),"
                " c.language"
                " FROM games_rubber r JOIN clubs_session s ON s.id = r.session_id"
                " JOIN clubs_club c ON c.id = s.club_id"
                " WHERE r.id = %s",
                [pk],
            )
            row = cursor.fetchone()
        return None if row is None else tuple(row)

    def in_play(self) -> RubberQuerySet:
        return self.filter(status=Rubber.Status.IN_PLAY)

    def start_next(self, *, table: Table) -> Rubber | None:
        """Seat the next rubber (or Chicago) at a table by the rotation (RULES 6); at tables of two,
        start every next match whose two players are free (`start_ready_matches`)."""
        if table.session.is_two_player:
            return self.start_ready_matches(session=table.session).get(table.pk)
        history = table_history(table)
        players = [p.pk for p in table.present_players()]
        seating = plan(players, 1, movement=table.session.movement, history=history)[0]
        seats = seating.seats
        return Rubber.objects.create(
            session_id=table.session_id,
            table=table,
            number=seating.rubber,
            north_id=seats["N"],
            east_id=seats["E"],
            south_id=seats["S"],
            west_id=seats["W"],
            sitting_out=list(seating.sitting_out),
            rules=table.session.rules,
            kind=table.session.kind,
        )

    def start_ready_matches(self, *, session: Session) -> dict[int, Rubber]:
        """Start the next match at every table of two that has none in play, when both of its
        players are free; return the matches started, by table id.

        The match numbered r at table t seats the pair of round r of the round robin
        (`scoring.rules.round_robin.pairing`, the circle method over the tables as first set).
        A table whose next pair includes a player still playing at another table waits; when that
        match ends, this runs again and starts it. Player 0 sits at N, player 1 at E.
        """
        # Two tables ending at once must not each see the other still playing and both wait:
        # the session lock makes the second wait for the first and then see it ended.
        Session.objects.select_for_update(no_key=True).filter(pk=session.pk).first()
        tables = list(session.tables.order_by("number"))
        first = table_pairs(session)
        in_play = list(Rubber.objects.filter(session=session).in_play())
        busy = {pid for rubber in in_play for pid in rubber.seat_ids.values()}
        playing = {rubber.table_id for rubber in in_play}
        last = {
            row["table_id"]: row["last"]
            for row in Rubber.objects.filter(session=session)
            .values("table_id")
            .annotate(last=models.Max("number"))
        }
        started: dict[int, Rubber] = {}
        for table in tables:
            if table.pk in playing:
                continue
            number = last.get(table.pk, 0) + 1
            zero, one = pairing(first, number, table.number)
            if zero in busy or one in busy:
                continue
            started[table.pk] = Rubber.objects.create(
                session=session,
                table=table,
                number=number,
                kind=session.kind,
                north_id=zero,
                east_id=one,
                rules=session.rules,
            )
            busy.update((zero, one))
        return started


class Rubber(models.Model):
    class Status(models.TextChoices):
        IN_PLAY = "in_play", _("In play")
        COMPLETE = "complete", _("Complete")
        UNFINISHED = "unfinished", _("Unfinished")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rubbers")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rubbers")
    number = models.PositiveSmallIntegerField(help_text="The rubber's number at its table.")
    kind = models.CharField(
        max_length=20,
        choices=Session.Kind.choices,
        default=Session.Kind.RUBBER,
        help_text="The game, copied from the session: a rubber, a Chicago or a two-player match.",
    )
    north = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", help_text="N, or player 0 of two."
    )
    east = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", help_text="E, or player 1 of two."
    )
    south = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    west = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    sitting_out = models.JSONField(default=list, blank=True, help_text="Player ids sitting out.")
    rules = models.JSONField(default=dict, help_text="The house rules this rubber is scored under.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PLAY)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = RubberQuerySet.as_manager()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_rubber_number"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="in_play"),
                name="one_rubber_in_play_per_table",
            ),
            # Four seats for the four-player games, two (N, E) for the games of RULES 7.
            models.CheckConstraint(
                condition=(
                    Q(kind__in=sheets.FOUR_PLAYER, south__isnull=False, west__isnull=False)
                    | Q(kind__in=sheets.TWO_PLAYER, south__isnull=True, west__isnull=True)
                ),
                name="rubber_seats_match_kind",
            ),
        ]
        indexes = [models.Index(fields=["session", "status"])]

    def __str__(self) -> str:
        return f"Rubber {self.number}, {self.table}"

    def get_absolute_url(self) -> str:
        return reverse("games:rubber", args=[self.pk])

    # --- reading -------------------------------------------------------------------------------

    @property
    def is_two_player(self) -> bool:
        return sheets.is_two_player(self.kind)

    @property
    def seats(self) -> dict[str, Player]:
        """The players by seat; a two-player match has N (player 0) and E (player 1)."""
        if self.is_two_player:
            return {"N": self.north, "E": self.east}
        assert self.south is not None and self.west is not None
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}

    @property
    def seat_ids(self) -> dict[str, int]:
        if self.is_two_player:
            return {"N": self.north_id, "E": self.east_id}
        assert self.south_id is not None and self.west_id is not None
        return {
            "N": self.north_id,
            "E": self.east_id,
            "S": self.south_id,
            "W": self.west_id,
        }

    @property
    def players(self) -> list[Player]:
        """Player 0 and player 1 of a two-player match (the engine's numbering)."""
        return [self.north, self.east]

    def seat_of(self, player_id: int | None) -> str | None:
        """The seat of the player with this id in this rubber, or None."""
        for seat, seated_id in self.seat_ids.items():
            if seated_id == player_id:
                return seat
        return None

    def house_rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules)

    def ordered_deals(self) -> list[Deal]:
        return sorted(self.deals.all(), key=lambda d: d.number)

    def fetch_players(self) -> None:
        """Read the seated players in one query (`with_deals` does not join them)."""
        found = Player.objects.in_bulk(list(self.seat_ids.values()))
        for seat, player_id in self.seat_ids.items():
            setattr(self, SEAT_FIELDS[seat], found[player_id])

    def _keep_deals(self, deals: list[Deal]) -> None:
        """Hold `deals` as this instance's prefetched deals, exactly as `prefetch_related`
        stores them, so the rubber as just written is read back without a query."""
        kept = self.deals.all()
        kept._result_cache = deals
        kept._prefetch_done = True  # type: ignore[attr-defined]  # real; missing from the stubs
        self._prefetched_objects_cache = {"deals": kept}

    def scoresheet(self, deals: Sequence[Deal] | None = None) -> Sheet:
        """The scoresheet of this match's game, derived from the ordered deals (RULES 8.2)."""
        deals = self.ordered_deals() if deals is None else deals
        return sheets.score(
            self.kind,
            deals,
            closed=self.status == self.Status.UNFINISHED,
            options=self.house_rules(),
        )

    def unfinished_sheet(self, deals: Sequence[Deal] | None = None) -> Sheet:
        """The sheet this rubber would keep if play stopped now (RULES 2.6): what closing the
        session will record for it."""
        deals = self.ordered_deals() if deals is None else deals
        return sheets.score(self.kind, deals, closed=True, options=self.house_rules())

    def running_totals(self, deals: Sequence[Deal] | None = None) -> list[tuple[int, int, int]]:
        """(deal number, NS/player 0 total, EW/player 1 total) after each deal, each from the
        engine's own sheet of the deals so far (end bonuses appear on the last line only)."""
        deals = self.ordered_deals() if deals is None else deals
        rules = self.house_rules()
        totals = []
        for n, deal in enumerate(deals, start=1):
            closed = self.status == self.Status.UNFINISHED and n == len(deals)
            sheet = sheets.score(self.kind, deals[:n], closed=closed, options=rules)
            totals.append((deal.number, *sheet.result.totals))
        return totals

    # --- writing -------------------------------------------------------------------------------

    def record_deal(
        self,
        *,
        number: int,
        contract: str | None = None,
        declarer: str | None = None,
        tricks: int | None = None,
        honours_side: str | None = None,
        honours_points: int | None = None,
        data: dict[str, Any] | None = None,
        entered_by: User | None,
        seat: str | None = None,
        phone: str = "",
    ) -> tuple[Deal, bool]:
        """Record deal `number` of this rubber; return (deal, created).

        A retry of the same deal is harmless (created False, nothing changes); other content for
        an existing number, a gap in the numbering, a finished rubber or a closed session raise
        `Conflict` (RULES 8.1). Impossible results raise `ScoringError` naming the rule.
        When the deal completes the rubber the next rubber starts, seated by the rotation.
        A two-player match takes its deal as `data`, the game's fields (RULES 7.x).
        `seat` is the seat it is entered from ("" for a director who does not sit in the rubber;
        None: the seat of `entered_by`'s player, one query) and `phone` the table-code phone that
        entered it (games.codes): the other side confirms it (`Deal.confirm`).
        The deal's `rubber` is then the rubber as written, with its table, session and deals
        (read under the lock), so an answer built from it costs no further read of them.
        """
        fields = DealFields.build(
            kind=self.kind,
            data=data,
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            honours_side=honours_side,
            honours_points=honours_points,
        )
        with transaction.atomic():
            if self.is_two_player:
                # The end of a match may start matches at other tables (the round robin locks
                # the session): take that lock first, in the order session_close takes it.
                lock_session(self.session_id)
            # Lock the rubber row only (not the joined session: that serialised every write of the
            # evening and deadlocked with corrections), and without its key, so new rows that
            # reference it (deals, the next rubber) never wait on it (docs/standings.md).
            rubber = (
                Rubber.objects.select_for_update(of=("self",), no_key=True)
                .select_related("session", "table")
                .filter(pk=self.pk)
                .first()
            )
            if rubber is None:
                if _closed_meanwhile(self.session_id):
                    # Withdrawn, empty, by the close this entry waited for.
                    raise Conflict(closed_session())
                # Withdrawn, empty, by a correction that reopened the rubber before it, which
                # held this lock while it checked that it was empty (docs/rules.md).
                raise Conflict(
                    gettext(
                        "This rubber no longer exists: a correction reopened the rubber before it "
                        "at this table. Reload the table and enter the deal there."
                    )
                )
            check_reopened_writer(rubber.session, entered_by)
            # With who entered them: the answer shows the rubber as written (games/api.py).
            deals = list(rubber.deals.select_related("entered_by").order_by("number"))
            existing = next((d for d in deals if d.number == number), None)
            if existing is not None:
                if existing.fields() == fields:
                    rubber._keep_deals(deals)
                    return existing, False
                raise Conflict(
                    gettext(
                        "Deal %(number)s of this rubber is already recorded as %(summary)s; "
                        "correct it instead (PATCH with its version)."
                    )
                    % {"number": number, "summary": existing.summary()}
                )
            rubber._check_open_for_entry()
            expected = len(deals) + 1
            if number != expected:
                raise NumberGap(
                    gettext("The next deal of this rubber is number %(expected)s, not %(number)s.")
                    % {"expected": expected, "number": number},
                    expected=expected,
                )
            deal = Deal(rubber=rubber, number=number, entered_by=entered_by, **fields.as_kwargs())
            deal._written(rubber, entered_by, seat, phone)
            sheet = rubber._rescore([*deals, deal])
            deal._note(_reason("entered"), entered_by)
            deal.save()
            rubber._apply_completion(sheet)
        _queue_refresh(rubber.session_id)
        rubber._keep_deals([*deals, deal])
        # This instance as written too (no query): its status, and its deals.
        self.status, self.ended_at = rubber.status, rubber.ended_at
        self._keep_deals(rubber.ordered_deals())
        return deal, True

    def close_unfinished(self) -> None:
        """Close a rubber still in play when play stops (RULES 2.6, RULES 8.4)."""
        with transaction.atomic():
            locked = Rubber.objects.select_for_update(no_key=True).get(pk=self.pk)
            if locked.status != self.Status.IN_PLAY:
                return
            locked.status = self.Status.UNFINISHED
            locked.ended_at = timezone.now()
            locked.save(update_fields=["status", "ended_at"])
        _queue_refresh(self.session_id)
        self.status, self.ended_at = locked.status, locked.ended_at

    def _check_open_for_entry(self) -> None:
        if self.session.status == Session.Status.CLOSED:
            raise Conflict(closed_session())
        if self.session.status != Session.Status.RUNNING:
            raise Conflict(gettext("The session has not started yet."))
        if self.status == self.Status.COMPLETE and sheets.game(self.kind).engine_refuses_after_end:
            return  # the engine refuses a deal after the target with its rule (RULES 7.4)
        if self.status != self.Status.IN_PLAY:
            if _closed_meanwhile(self.session_id):
                # Closed unfinished by the close this entry waited for: the session was read
                # with the rubber, before that close committed, so it is read again to say so.
                raise Conflict(closed_session())
            raise Conflict(
                gettext(
                    "Rubber %(number)s is %(status)s: a deal after the end of a rubber belongs "
                    "to the next rubber (RULES 8.1)."
                )
                % {"number": self.number, "status": str(self.get_status_display()).lower()}
            )

    def _rescore(self, deals: Sequence[Deal]) -> Sheet:
        """Score the rubber with these deals; errors name the deal's own field."""
        try:
            return sheets.score(self.kind, deals, closed=False, options=self.house_rules())
        except ScoringError as err:
            if err.field.startswith("deals["):
                err.field = err.field.split(".", 1)[1] if "." in err.field else "number"
            raise

    def _rescore_for_correction(
        self,
        deals: list[Deal],
        nxt: Rubber | None,
        *,
        move_next_deals: bool = False,
        changed_by: User | None = None,
    ) -> Sheet:
        """Re-score this rubber with a corrected deal among `deals` (RULES 8.2).

        `nxt` is the next rubber at the table, locked by the caller (or None). When the
        correction reopens this rubber, an empty `nxt` is withdrawn; one that holds deals is never
        deleted: the correction is refused naming them, unless `move_next_deals` (a director's
        explicit choice) moves them into this rubber (docs/rules.md: corrections that reopen a
        rubber).
        """
        sheet = self._rescore_or_conflict(deals)
        if self.status == self.Status.IN_PLAY and sheet.complete:
            self._apply_completion(sheet)
            return sheet
        if self._settle_stopped(sheet, nxt):
            return sheet
        if self.status != self.Status.COMPLETE or sheet.complete or nxt is None:
            return sheet
        held = list(nxt.deals.order_by("number"))
        if held and not move_next_deals:
            raise Conflict(_reopen_refusal(self, nxt, held))
        if nxt.status != self.Status.IN_PLAY:
            # Closed with the session (an empty one) or finished: not ours to withdraw.
            raise Conflict(
                gettext(
                    "This correction reopens rubber %(number)s, but rubber %(next)s at this table "
                    "is %(status)s."
                )
                % {
                    "number": self.number,
                    "next": nxt.number,
                    "status": str(nxt.get_status_display()).lower(),
                }
            )
        if held:
            if nxt.seat_ids != self.seat_ids:
                raise Conflict(
                    gettext(
                        "The deals of rubber %(next)s cannot be moved into rubber %(number)s: "
                        "the players sat in other seats."
                    )
                    % {"number": self.number, "next": nxt.number}
                )
            sheet = self._rescore_or_conflict([*deals, *held])
        for number, moved in enumerate(held, start=len(deals) + 1):
            moved.rubber, moved.number = self, number
            moved.version += 1
            moved._note("moved", changed_by)
            moved.save()
        # The next rubber holds nothing now, and its lock kept entries out: withdraw it.
        nxt.delete()
        self.status = self.Status.IN_PLAY
        self.ended_at = None
        self.save(update_fields=["status", "ended_at"])
        self._apply_completion(sheet)
        return sheet

    def _settle_stopped(self, sheet: Sheet, nxt: Rubber | None) -> bool:
        """A corrected rubber whose table has stopped playing it keeps the status its deals give
        (docs/api.md, "Reopening"); no rubber starts. True when the status was settled here.

        - Unfinished (closed by RULES 2.6 or left by a player) and now complete at its last
          deal: it was won, so it is complete; the table's later rubbers are untouched.
        - Complete, no longer complete, and no rubber after it at its table (the empty one was
          withdrawn when the session closed; a reopened session starts none): play stopped there,
          so it is unfinished and scored by RULES 2.6. A table of two keeps the round robin's
          rules (its next match may simply not have started).
        """
        if self.status == self.Status.UNFINISHED and sheet.complete:
            self.status = self.Status.COMPLETE
        elif (
            self.status == self.Status.COMPLETE
            and not sheet.complete
            and nxt is None
            and not self.is_two_player
        ):
            self.status = self.Status.UNFINISHED
        else:
            return False
        self.save(update_fields=["status"])
        return True

    def _rescore_or_conflict(self, deals: list[Deal]) -> Sheet:
        try:
            return self._rescore(deals)
        except ScoringError as err:
            if err.rule in ("RULES 2.4", "RULES 8.1") or (
                err.rule in ("RULES 5", "RULES 7.3", "RULES 7.4") and err.field == "number"
            ):
                raise Conflict(
                    gettext(
                        "This correction would end the rubber before its last deal; the later "
                        "deals would belong to the next rubber. Correct those deals first."
                    )
                ) from err
            raise

    def _apply_completion(self, sheet: Sheet) -> Rubber | None:
        """When the scoresheet says the match is over, finish it and seat the next one."""
        if not sheet.complete or self.status != self.Status.IN_PLAY:
            return None
        self.status = self.Status.COMPLETE
        self.ended_at = timezone.now()
        self.save(update_fields=["status", "ended_at"])
        return Rubber.objects.start_next(table=self.table)

    def _writer_seat(self, user: User | None, seat: str | None) -> str:
        """The seat a write comes from: `seat` when the caller knows it, else the seat of the
        user's player in this rubber ("" when they do not sit in it)."""
        if seat is not None:
            return seat if seat in self.seat_ids else ""
        if user is None:
            return ""
        player_id = (
            Player.objects.filter(pk__in=self.seat_ids.values(), user_id=user.pk)
            .values_list("pk", flat=True)
            .first()
        )
        return self.seat_of(player_id) or ""

    def next_rubber(self) -> Rubber | None:
        return (
            Rubber.objects.filter(table_id=self.table_id, number=self.number + 1).only("id").first()
        )


@dataclass(frozen=True)
class DealFields:
    """The facts of one deal as entered, normalised (validated by the scoring engine).

    A four-player deal (rubber, Chicago) has a contract, a declaring seat, tricks and honours;
    a two-player deal (RULES 7) has only `data`, the game's own JSON as the engine reads it.
    """

    contract: str
    declarer: str
    tricks: int | None
    honours_side: str
    honours_points: int | None
    data: dict[str, Any] | None = None

    @classmethod
    def build(
        cls,
        *,
        kind: str = sheets.RUBBER,
        contract: str | None = None,
        declarer: str | None = None,
        tricks: int | None = None,
        honours_side: str | None = None,
        honours_points: int | None = None,
        data: dict[str, Any] | None = None,
    ) -> DealFields:
        if sheets.is_two_player(kind):
            return cls("", "", None, "", None, sheets.normalise(kind, data))
        if data is not None:
            raise ScoringError("data", "only a two-player deal has game data", None)
        parsed = Contract.parse(contract or "")
        declarer = (declarer or "").upper()
        if declarer and declarer not in SEATS:
            raise ScoringError(
                "declarer", "{value!r} is not a seat (N, E, S or W)", None, value=declarer
            )
        fields = cls(
            contract=str(parsed),
            declarer=declarer,
            tricks=tricks,
            honours_side=(honours_side or "").upper(),
            honours_points=honours_points,
        )
        fields.as_input()  # validates the combination (RULES 1, 3.6)
        return fields

    def as_input(self) -> DealInput:
        honours = None
        if self.honours_side or self.honours_points is not None:
            if not self.honours_side:
                raise ScoringError("honours.side", "is required with the points", "RULES 3.6")
            # Unchecked here: Honours refuses missing points itself (RULES 3.6).
            points: Any = self.honours_points
            honours = Honours(Side.parse(self.honours_side, "honours.side"), points)
        return DealInput.create(
            self.contract,
            SEAT_SIDE[self.declarer] if self.declarer else None,
            self.tricks,
            honours,
        )

    def as_kwargs(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "declarer": self.declarer,
            "tricks": self.tricks,
            "honours_side": self.honours_side,
            "honours_points": self.honours_points,
            "data": self.data,
        }


class Deal(models.Model):
    class HonoursSide(models.TextChoices):
        NONE = "", "None"
        NS = "NS", "NS"
        EW = "EW", "EW"

    rubber = models.ForeignKey(Rubber, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    contract = models.CharField(max_length=6, help_text="1C … 7NTXX or pass")
    declarer = models.CharField(max_length=1, blank=True, help_text="N, E, S or W; blank on a pass")
    tricks = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Tricks won by the declaring side"
    )
    honours_side = models.CharField(
        max_length=2, blank=True, choices=HonoursSide.choices, default=HonoursSide.NONE
    )
    honours_points = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(
        null=True,
        blank=True,
        help_text="A two-player deal (RULES 7) as the engine reads it; null on a four-player deal.",
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    written_seat = models.CharField(
        max_length=1,
        blank=True,
        choices=[(seat, seat) for seat in SEATS],
        default="",
        help_text="The seat of whoever last wrote the deal's content (its entry or a correction): "
        "a seated player or a phone holding the table's code. Blank for a director who does not "
        "sit in the rubber. The other side confirms it (Session.asks_confirmation).",
    )
    written_phone = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The phone (its table-code id, games.codes) that last wrote the content; blank "
        "for a signed-in writer.",
    )
    entered_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(default=1)
    confirmed_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    disputed = models.BooleanField(
        default=False, help_text="An opponent disputes the deal: the director checks it."
    )
    ruled = models.BooleanField(
        default=False,
        help_text="A director ruled that the disputed deal stands as recorded (Deal.rule): it is "
        "settled, as a confirmation settles it. A correction clears it. The history keeps who.",
    )

    history = HistoricalRecords()
    # Who made a change and why: read by django-simple-history from the instance on save().
    _history_user: User
    _change_reason: str

    class Meta:
        ordering = ["rubber", "number"]
        constraints = [
            models.UniqueConstraint(fields=["rubber", "number"], name="unique_deal_number"),
            models.CheckConstraint(
                condition=Q(tricks__isnull=True) | Q(tricks__range=(0, 13)),
                name="tricks_0_to_13",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_from_1"),
            models.CheckConstraint(
                condition=(
                    Q(
                        data__isnull=True,
                        contract="pass",
                        declarer="",
                        tricks__isnull=True,
                        honours_side="",
                    )
                    | (
                        Q(data__isnull=True)
                        & ~Q(contract__in=["pass", ""])
                        & Q(declarer__in=SEATS)
                        & Q(tricks__isnull=False)
                    )
                    | Q(
                        data__isnull=False,
                        contract="",
                        declarer="",
                        tricks__isnull=True,
                        honours_side="",
                    )
                ),
                name="deal_is_four_player_or_two_player",
            ),
            models.CheckConstraint(
                condition=Q(honours_side="", honours_points__isnull=True)
                | (Q(honours_side__in=["NS", "EW"]) & Q(honours_points__in=[100, 150])),
                name="honours_side_and_points_together",
            ),
            # A ruling settles a dispute: a deal is never both (Deal.rule, Deal.dispute).
            models.CheckConstraint(
                condition=~Q(ruled=True, disputed=True), name="deal_ruled_is_not_disputed"
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number}: {self.summary()}"

    def get_absolute_url(self) -> str:
        return reverse("games:rubber", args=[self.rubber_id]) + f"#deal-{self.number}"

    def fields(self) -> DealFields:
        return DealFields(
            contract=self.contract,
            declarer=self.declarer,
            tricks=self.tricks,
            honours_side=self.honours_side,
            honours_points=self.honours_points,
            data=self.data,
        )

    def as_input(self) -> DealInput:
        return self.fields().as_input()

    @property
    def settled(self) -> bool:
        """Nothing more to check: an opponent confirmed it, or a director ruled that it stands
        (what the console's list and the close's warning leave out)."""
        return self.confirmed_by_id is not None or self.ruled

    @property
    def result(self) -> str:
        """The result as a pad shows it: "=", "+1", "−2" (or "" for a pass)."""
        if self.data is not None:
            return _two_player_result(self.data)
        if self.contract == "pass" or self.tricks is None:
            return ""
        over = self.tricks - (Contract.parse(self.contract).level + 6)
        return "=" if over == 0 else (f"+{over}" if over > 0 else f"−{-over}")

    def summary(self, names: Sequence[str] | None = None) -> str:
        """The deal in a few words, in the active language: "4S by N, 10 tricks". A two-player
        deal names its players with ``names`` (player 0's and player 1's): "♣ by Bea, 8 tricks";
        without, it numbers them as the engine does ("by player 1")."""
        if self.data is not None:
            return _two_player_summary(self.data, names)
        if self.contract == "pass":
            return pgettext("deal summary", "passed out")
        tricks = self.tricks or 0
        parts = [
            npgettext(
                "deal summary",
                "%(contract)s by %(declarer)s, %(count)s trick",
                "%(contract)s by %(declarer)s, %(count)s tricks",
                tricks,
            )
            % {
                "contract": contract_display(self.contract),
                # The seat letter as the pad shows it (W is O in Italian).
                "declarer": pgettext("seat", self.declarer) if self.declarer else "",
                "count": self.tricks,
            }
        ]
        if self.honours_side:
            parts.append(
                pgettext("deal summary", "honours %(points)s to %(side)s")
                % {"points": self.honours_points, "side": pgettext("side", self.honours_side)}
            )
        return ", ".join(parts)

    def correct(
        self,
        *,
        version: int,
        changed_by: User | None,
        move_next_deals: bool = False,
        seat: str | None = None,
        phone: str = "",
        **changes: Any,
    ) -> Deal:
        """Correct this deal; the whole rubber is re-scored from its deals (RULES 8.2).

        A stale `version` raises Conflict. `changes` replace the fields they name; the others
        keep their stored values (for a two-player deal, the game's fields in `data` one by one;
        docs/api.md). When the correction moves the rubber's end, the rubbers after it are
        handled explicitly: an empty next rubber is withdrawn and this one reopened; if the next
        rubber already has deals the correction is refused with a Conflict naming them (nothing
        a player was told is saved is ever deleted), unless `move_next_deals` (a director's
        choice) moves them into this rubber; if deals would fall after the new end it is refused
        too (docs/rules.md: corrections that reopen a rubber).
        The writer's `seat` and `phone` are as `Rubber.record_deal` takes them: the corrected deal
        is theirs now, and the other side confirms it.
        """
        allowed = {"contract", "declarer", "tricks", "honours_side", "honours_points", "data"}
        unknown = set(changes) - allowed
        if unknown:
            raise ScoringError(sorted(unknown)[0], "cannot be changed", None)
        kind, session_id = (
            Rubber.objects.filter(pk=self.rubber_id).values_list("kind", "session_id").get()
        )
        with transaction.atomic():
            # The session first, whatever the game, as session_close, session_reopen and the
            # changes at the tables take it: a correction and a close are serialised, so the
            # correction lands before the close (which, and whose standings refresh, see it) or
            # finds the session closed (docs/rules.md, "Lock order of every deal write").
            session = lock_session(session_id)
            # Then the same order as record_deal: the rubber, then (when this one is complete)
            # the next rubber at its table, which an entry into it locks too, then the deal.
            # Each `of=("self",)`: the model's ordering joins the table and the session, and a
            # lock without it would take their rows too, after the rubber: the reverse of a
            # close's order, which deadlocked the two.
            rubber = (
                Rubber.objects.select_for_update(of=("self",), no_key=True)
                .select_related("session", "table")
                .filter(pk=self.rubber_id)
                .first()
            )
            nxt = None
            if rubber is not None and rubber.status == Rubber.Status.COMPLETE:
                nxt = (
                    Rubber.objects.select_for_update(of=("self",), no_key=True)
                    .filter(table_id=rubber.table_id, number=rubber.number + 1)
                    .first()
                )
            deal = (
                Deal.objects.select_for_update(of=("self",), no_key=True).filter(pk=self.pk).first()
            )
            if deal is None:
                raise self._gone()
            rubber, session = self._check_as_read(deal, rubber, session, version)
            check_reopened_writer(session, changed_by)
            current = deal.fields().as_kwargs()
            if sheets.is_two_player(kind):
                # A two-player correction sends the game's fields to change (RULES 7.x): each
                # replaces the stored one, null removes it; a pass drops the stored declarer and
                # tricks (not those sent: the engine judges them).
                sent = changes.get("data") or {}
                data = dict(deal.data or {})
                if sent.get("contract") == "pass":
                    data.pop("declarer", None)
                    data.pop("tricks", None)
                data.update(sent)
                data = {name: value for name, value in data.items() if value is not None}
                current = {"data": data}
            elif str(changes.get("contract", "")).strip().lower() == "pass":
                # A deal corrected to a pass loses its declarer, tricks and honours unless given.
                current.update(declarer="", tricks=None, honours_side="", honours_points=None)
            if not sheets.is_two_player(kind):
                current.update(changes)
            fields = DealFields.build(kind=kind, **current)
            if fields == deal.fields():
                return deal
            deals = list(rubber.deals.order_by("number"))
            for i, other in enumerate(deals):
                if other.pk == deal.pk:
                    deals[i] = deal
            for name, value in fields.as_kwargs().items():
                setattr(deal, name, value)
            rubber._rescore_for_correction(
                deals, nxt, move_next_deals=move_next_deals, changed_by=changed_by
            )
            deal.version += 1
            # A confirmation, a dispute or a ruling was of the old content. A player's
            # correction is confirmed by the writer's opponents; a director's is the ruling
            # itself: it settles the deal, disputed or awaiting, for both sides (issue 29).
            deal.confirmed_by = None
            deal.disputed = False
            deal.ruled = (
                changed_by is not None
                and session.asks_confirmation
                and session.club.is_director(changed_by)
            )
            deal._written(rubber, changed_by, seat, phone)
            deal._note(_reason("correction"), changed_by)
            deal.save()
        _queue_refresh(rubber.session_id)
        self._refresh()
        return deal

    def _refresh(self) -> None:
        """This instance as stored after a write, unless a delete came right after the write's
        commit (`delete_last`): then it stays as written (the write itself was acknowledged)."""
        with suppress(Deal.DoesNotExist):
            self.refresh_from_db()

    def _check_as_read(
        self, deal: Deal, rubber: Rubber | None, session: Session | None, version: int
    ) -> tuple[Rubber, Session]:
        """Under a write's locks (`correct`, `delete_last`): the deal (`deal`, as locked) is
        still in its rubber, at the `version` the player read, in a running session; else
        Conflict in words. The rubber and the session, as locked."""
        if rubber is None or deal.rubber_id != rubber.pk:
            # Moved into the rubber before it by a director while this request waited.
            raise Conflict(
                gettext("Deal %(number)s was moved by a director; reload and try again.")
                % {"number": self.number}
            )
        if deal.version != version:
            raise Conflict(
                gettext(
                    "Deal %(number)s was changed by someone else (version %(current)s, you "
                    "sent %(sent)s); reload and try again."
                )
                % {"number": deal.number, "current": deal.version, "sent": version}
            )
        if session is None or session.status == Session.Status.CLOSED:
            raise Conflict(closed_session())
        return rubber, session

    def _gone(self) -> Conflict:
        """A write that waited for its locks behind the delete of this deal (`delete_last`)."""
        return Conflict(gettext("Deal %(number)s was deleted.") % {"number": self.number})

    def delete_refusal(
        self, rubber: Rubber, session: Session, last_number: int, *, director: bool = False
    ) -> str | None:
        """Why this deal may not be deleted now, in words with the rule, or None (docs/rules.md,
        §8 decision 7): only the last deal (`last_number`) of a match in play while its session
        runs. The pad asks this to offer "Delete deal N"; `delete_last` asks it again under its
        locks. A deal that finished its match is corrected instead: a correction reopens a
        rubber under the rules that keep the next rubber's deals (decision 5), which a delete
        would bypass. A deal the other side confirmed or disputed, or the director ruled on, is
        the director's to delete (`director`): the side that entered it could otherwise make an
        agreed or disputed deal vanish with the version it read before (an outside probe)."""
        if session.status == Session.Status.CLOSED:
            return closed_session()
        if not director and (self.confirmed_by_id is not None or self.ruled):
            return gettext(
                "Deal %(number)s is settled (confirmed or ruled on): only a director deletes it "
                "now."
            ) % {"number": self.number}
        if not director and self.disputed:
            return gettext(
                "Deal %(number)s is disputed: the director corrects it, rules on it or deletes it."
            ) % {"number": self.number}
        if self.number != last_number:
            return gettext(
                "Only the last deal of a rubber can be deleted, and deal %(last)s comes after "
                "deal %(number)s: correct deal %(number)s instead."
            ) % {"number": self.number, "last": last_number}
        if rubber.status == Rubber.Status.COMPLETE:
            return gettext("Deal %(number)s finished the rubber: correct it instead.") % {
                "number": self.number
            }
        if rubber.status != Rubber.Status.IN_PLAY or session.status != Session.Status.RUNNING:
            return gettext(
                "Rubber %(number)s is no longer in play: its deals can be corrected, not deleted."
            ) % {"number": rubber.number}
        return None

    def delete_last(
        self,
        *,
        version: int,
        deleted_by: User | None,
        seat: str | None = None,
        phone: str = "",
        director: bool = False,
    ) -> None:
        """Delete this deal, the last of its match, entered by mistake (docs/rules.md, §8
        decision 7). The match is scored from the deals left, so the next deal takes the freed
        number and is played at that number's vulnerability (RULES 2.3, RULES 5).

        A stale `version` (the deal changed since the player saw it) or any `delete_refusal`
        raises Conflict. The lock order is every deal write's: the session, the rubber, then the
        deal. An entry locks the same rubber row before it reads the deals, so an entry of the
        next deal and this delete serialise: the entry lands first and this is refused (no
        longer the last deal), or this lands first and the entry, whose number is now past the
        next one, is refused as any gap is. Never both, and never a gap.
        django-simple-history keeps a "-" record with the reason "deleted", who deleted it
        (`deleted_by`, the request's user otherwise) and the seat and table-code `phone` it was
        deleted from (as `record_deal` takes them).
        """
        with transaction.atomic():
            # The session first, as a correction and a close take it: a delete lands before a
            # close or finds the session closed.
            session = _lock_session_of(self.rubber_id)
            # Each `of=("self",)`: the models' ordering joins the table and the session (see
            # `correct`). The deal in full FOR UPDATE, since it is deleted.
            rubber = (
                Rubber.objects.select_for_update(of=("self",), no_key=True)
                .filter(pk=self.rubber_id)
                .first()
            )
            deal = Deal.objects.select_for_update(of=("self",)).filter(pk=self.pk).first()
            if deal is None:
                raise self._gone()
            rubber, session = self._check_as_read(deal, rubber, session, version)
            check_reopened_writer(session, deleted_by)
            last = rubber.deals.aggregate(last=models.Max("number"))["last"]
            refusal = deal.delete_refusal(rubber, session, last, director=director)
            if refusal is not None:
                raise Conflict(refusal)
            # Kept by the "-" history record: who deleted it and from where, as a correction's
            # record keeps who corrected it.
            deal._written(rubber, deleted_by, seat, phone)
            deal._note(_reason("deleted"), deleted_by)
            deal.delete()
        _queue_refresh(session.pk)

    def confirm(self, *, by: Player, user: User | None = None, version: int | None = None) -> Deal:
        """An opponent of the side that wrote the deal confirms it (Session.asks_confirmation).

        `by` must sit in the rubber on the other side from the seat that last wrote the deal
        (`written_seat`: a player or a table-code phone; when a director outside the rubber wrote
        it, any seated player may confirm). Confirming twice, or a deal a director ruled on, is
        harmless. With `version` (the one the player saw), a deal corrected since is not
        confirmed: Conflict.
        """
        with transaction.atomic():
            # The session first, as a correction and a close take it: a closed session's deals
            # take no confirmation, even one sent as it closed.
            _lock_session_of(self.rubber_id)
            deal = Deal.objects.select_for_update().filter(pk=self.pk).first()
            if deal is None:
                raise self._gone()
            deal._check_seen(version, confirming=True)
            rubber = Rubber.objects.select_related("session__club").get(pk=deal.rubber_id)
            if rubber.session.status == Session.Status.CLOSED:
                raise Conflict(closed_session())
            check_reopened_writer(rubber.session, user)
            if not rubber.session.asks_confirmation:
                raise Conflict(gettext("This club does not ask opponents to confirm entries."))
            seat = rubber.seat_of(by.pk)
            if seat is None:
                raise Conflict(gettext("%(name)s does not sit in this rubber.") % {"name": by.name})
            if not deal.confirmable_from(seat):
                raise Conflict(
                    gettext(
                        "A deal is confirmed by a player of the other side from the one who "
                        "entered it."
                    )
                )
            if deal.settled:
                return deal
            deal.confirmed_by = by
            deal.disputed = False
            deal._note(_reason("confirmed"), user)
            deal.save(update_fields=["confirmed_by", "disputed", "updated_at"])
        self._refresh()
        return deal

    def _written(self, rubber: Rubber, user: User | None, seat: str | None, phone: str) -> None:
        """Where the content being written comes from: the seat (`Rubber._writer_seat`) and the
        table-code phone (games.codes); the other side confirms it (`confirmable_from`)."""
        self.written_seat = rubber._writer_seat(user, seat)
        self.written_phone = phone

    def _note(self, reason: str, user: User | None) -> None:
        """What the history record of the next save or delete says: why, and who (none for a
        table-code phone, which the reason names)."""
        self._change_reason = reason
        if user is not None:
            self._history_user = user

    def confirmable_from(self, seat: str) -> bool:
        """Whether the player in `seat` may confirm or dispute the deal's content: they sit on
        the other side from the seat that last wrote it (`written_seat`: its entry or a
        correction, by a seated player or a phone holding the table's code); anyone seated when a
        director outside the rubber wrote it."""
        writer = self.written_seat
        return not writer or SEAT_SIDE[writer] != SEAT_SIDE[seat]

    def _check_seen(self, version: int | None, *, confirming: bool) -> None:
        """A confirmation or dispute is of the content the player saw (`version`, when given)."""
        if version is None or version == self.version:
            return
        words = {"number": self.number, "summary": self.summary()}
        if confirming:
            message = gettext(
                "Deal %(number)s was just corrected: it is now %(summary)s. Check it before "
                "you confirm it."
            )
        else:
            message = gettext(
                "Deal %(number)s was just corrected: it is now %(summary)s. Check it before "
                "you dispute it."
            )
        raise Conflict(message % words)

    def dispute(self, *, user: User | None = None, version: int | None = None) -> Deal:
        """An opponent disputes the deal (Session.asks_confirmation): it is flagged for the
        director, who corrects it or rules that it stands (`rule`). A settled deal (confirmed,
        or ruled on) takes no dispute. The history keeps who disputed. With
        `version`, a deal corrected since is not disputed: Conflict. A closed session's deals
        are final: Conflict."""
        with transaction.atomic():
            session = _lock_session_of(self.rubber_id)  # as `confirm`
            if session is None or session.status == Session.Status.CLOSED:
                raise Conflict(closed_session())
            check_reopened_writer(session, user)
            deal = Deal.objects.select_for_update().filter(pk=self.pk).first()
            if deal is None:
                raise self._gone()
            deal._check_seen(version, confirming=False)
            if deal.disputed or deal.settled:
                return deal
            deal.disputed = True
            deal._note(_reason("disputed"), user)
            deal.save(update_fields=["disputed", "updated_at"])
        self._refresh()
        return deal

    def rule(self, *, by: User | None, version: int) -> Deal:
        """A director rules that a disputed deal stands as recorded: the dispute is cleared and
        the deal is settled (`ruled`), as an opponent's confirmation settles it; a correction
        clears the ruling. The caller checks that `by` directs the club (games.views.rule_deal,
        games.api.DealRule); the history keeps who ruled (reason "ruled").

        Of the deal as the director saw it (`version`): one corrected since is not ruled on
        (Conflict, saying what it is now). A closed session's deals are final: Conflict. A deal
        that is not disputed has nothing to rule on: Conflict, except one already ruled on (a
        retry is harmless)."""
        with transaction.atomic():
            # The session first, then the deal, as `confirm`, `dispute` and a correction take
            # them: a ruling and a close, or a ruling and a correction, are serialised.
            session = _lock_session_of(self.rubber_id)
            if session is None or session.status == Session.Status.CLOSED:
                raise Conflict(closed_session())
            deal = (
                Deal.objects.select_for_update(of=("self",), no_key=True).filter(pk=self.pk).first()
            )
            if deal is None:  # deleted while this waited for its locks (`delete_last`)
                raise self._gone()
            if deal.version != version:
                raise Conflict(
                    gettext(
                        "Deal %(number)s was corrected since you saw it: it is now %(summary)s. "
                        "Nothing was ruled: check it again."
                    )
                    % {"number": deal.number, "summary": deal.summary()}
                )
            if deal.ruled:
                return deal
            if not deal.disputed:
                raise Conflict(
                    gettext("Deal %(number)s is not disputed: there is nothing to rule on.")
                    % {"number": deal.number}
                )
            deal.disputed = False
            deal.ruled = True
            deal._note("ruled", by)
            deal.save(update_fields=["disputed", "ruled", "updated_at"])
        self._refresh()
        return deal


#: The declarations of Misery Bridge other than "ordinary" (RULES 7.2), as a summary names them.
DECLARATION_NAMES = {
    "eight": pgettext_lazy("deal summary", "eight"),
    "misery": pgettext_lazy("deal summary", "misery"),
}


def _two_player_summary(data: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """A two-player deal in a few words, in the active language, for the history, the deal list
    and conflict messages; by the players' names when ``names`` are given."""
    if "tricks" in data and isinstance(data["tricks"], list):
        return pgettext("deal summary", "tricks %(first)s–%(second)s") % {
            "first": data["tricks"][0],
            "second": data["tricks"][1],
        }
    if "contract" in data:
        if data["contract"] == "pass":
            return pgettext("deal summary", "passed")
        played, player = contract_display(data["contract"]), data.get("declarer")
    else:
        played, player = strain_display(str(data.get("strain"))), data.get("declarer")
    tricks = data.get("tricks")
    count = tricks if isinstance(tricks, int) else 0
    if names and player in (0, 1):
        # The four-player sentence, with the declarer's name for the seat.
        text = npgettext(
            "deal summary",
            "%(contract)s by %(declarer)s, %(count)s trick",
            "%(contract)s by %(declarer)s, %(count)s tricks",
            count,
        ) % {"contract": played, "declarer": names[player], "count": tricks}
    else:
        text = npgettext(
            "deal summary",
            "%(played)s by player %(player)s, %(count)s trick",
            "%(played)s by player %(player)s, %(count)s tricks",
            count,
        ) % {"played": played, "player": _counted(player), "count": tricks}
    declaration = data.get("declaration", "ordinary")
    if declaration in DECLARATION_NAMES:
        # Translators: a two-player declaration ("misery"), then the deal it was made on.
        text = pgettext("deal summary", "%(declaration)s %(deal)s") % {
            "declaration": DECLARATION_NAMES[declaration],
            "deal": text,
        }
    parts = [text]
    if data.get("doubled"):
        parts.append(pgettext("deal summary", "doubled"))
    if data.get("honours"):
        holder = data["honours"]["player"]
        if names and holder in (0, 1):
            parts.append(
                pgettext("deal summary", "honours %(points)s to %(side)s")
                % {"points": data["honours"]["points"], "side": names[holder]}
            )
        else:
            parts.append(
                pgettext("deal summary", "honours %(points)s to player %(player)s")
                % {"points": data["honours"]["points"], "player": _counted(holder)}
            )
    return ", ".join(parts)


def _counted(player: Any) -> Any:
    """A player with no name known, as people count: the engine's player 0 is "player 1"."""
    return player + 1 if player in (0, 1) else player


def _two_player_result(data: dict[str, Any]) -> str:
    if isinstance(data.get("tricks"), list):
        return f"{data['tricks'][0]}–{data['tricks'][1]}"
    if data.get("tricks") is None:
        return ""
    return str(data["tricks"])


def _reopen_refusal(rubber: Rubber, nxt: Rubber, held: list[Deal]) -> str:
    """Why a correction that would reopen `rubber` is refused: `nxt` holds `held`."""
    listed = "; ".join(
        pgettext("a deal in a list", "deal %(number)s (%(summary)s)")
        % {"number": d.number, "summary": d.summary()}
        for d in held
    )
    return ngettext(
        "This correction would reopen rubber %(number)s, but rubber %(next)s at this table "
        "already holds %(deals)s, which stays saved. Correct that deal first, or a director may "
        "move it into rubber %(number)s (move_next_deals).",
        "This correction would reopen rubber %(number)s, but rubber %(next)s at this table "
        "already holds %(deals)s, which stay saved. Correct those deals first, or a director "
        "may move them into rubber %(number)s (move_next_deals).",
        len(held),
    ) % {"number": rubber.number, "next": nxt.number, "deals": listed}


def _queue_refresh(session_id: int) -> None:
    """Standings refresh after a committed deal write (DESIGN.md: how a result flows, 4)."""
    results_changed.send(sender=Deal, session_id=session_id)
