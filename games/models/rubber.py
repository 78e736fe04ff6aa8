"""A match at a table (a rubber, a Chicago or a two-player match) and its entry of deals.

The scoresheet is never stored: it is the scoring engine applied to the ordered deals
(RULES 8.2). Deals change only through `Rubber.record_deal`, `Deal.correct`,
`Deal.delete_last` (the last deal of a match in play, entered by mistake) and
`Rubber.close_unfinished`; every change is kept by django-simple-history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player, Session, Table
from scoring.rules import HouseRules, ScoringError
from scoring.rules.rotation import plan
from scoring.rules.round_robin import pairing
from scoring.shared.errors import Conflict

from .. import refusals, sheets
from ..permissions import Actor, check_enter
from ..rotation import table_history, table_pairs
from ..sheets import Sheet
from .confirming import confirm_deals
from .deal import Deal, deals_prefetch
from .locks import (
    check_reopened_writer,
    closed_meanwhile,
    closed_session,
    lock_session,
    noted,
    queue_refresh,
)
from .rows import deals_of, entry_check, insert_with_history, lock_for_entry
from .state import answer_state
from .summary import NextRubberToWithdraw, reopen_refusal
from .values import MAX_ID, SEAT_FIELDS, DealFields, NumberGap, RubberStatus

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class RubberQuerySet(models.QuerySet["Rubber"]):
    def with_deals(self) -> RubberQuerySet:
        """With the table, session, club and deals; the players are read by `fetch_players`
        (joining all four made PostgreSQL spend ~15 ms planning each 10-table join, and a
        prefetch per seat costs four queries; docs/benchmarks.md, HTTP)."""
        return self.select_related("table", "session__club").prefetch_related(deals_prefetch())

    def for_entry(self, pk: int, user_id: int) -> Rubber | None:
        """The rubber, with `club_public`, the user's `viewer_role` in its club, their
        `viewer_player_id` there (None when not a member) and whether its session is
        `session_reopened` (typed by `EntryCheck`): what entry
        checks, in one query, in SQL because compiling the three ORM queries cost more than
        running them (docs/benchmarks.md, HTTP)."""
        if pk > MAX_ID:  # the ORM answers no row for an id out of range; SQLite would raise
            return None
        found: Rubber | None = entry_check(Rubber, pk, user_id, Session.Status.RUNNING.value)
        return found

    def answer_state(self, pk: int) -> tuple[Any, ...] | None:
        """The rubber's club and what its API answer is made of (`state.answer_state`)."""
        return answer_state(pk)

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
    Status = RubberStatus

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
    #: Who sits out, as `fetch_players` read them (`out_players`).
    _out: list[Player] | None = None
    #: The sheet of the kept deals as the entry scored them under its lock (`record_deal`).
    _sheet: Sheet | None = None

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

    def fetch_deals(self) -> None:
        """Read the deals of a rubber read without them, as `with_deals` does (none if it did)."""
        if "deals" not in getattr(self, "_prefetched_objects_cache", {}):
            models.prefetch_related_objects([self], deals_prefetch())

    def fetch_players(self) -> None:
        """Read the seated players and those sitting out in one query (`with_deals` does not
        join them); none when the seated ones were read with the rubber (`record_deal`'s lock):
        `out_players` then reads who sits out when asked."""
        seats = [self._meta.get_field(SEAT_FIELDS[seat]) for seat in self.seat_ids]
        if all(field.is_cached(self) for field in seats):  # type: ignore[union-attr]
            return
        found = Player.objects.in_bulk([*self.seat_ids.values(), *self.sitting_out])
        for seat, player_id in self.seat_ids.items():
            setattr(self, SEAT_FIELDS[seat], found[player_id])
        self._out = [found[pk] for pk in self.sitting_out if pk in found]

    @property
    def out_players(self) -> list[Player]:
        """Who sits out this rubber, in the rotation's order (read by `fetch_players`)."""
        out = self._out
        if out is None:
            found = Player.objects.in_bulk(list(self.sitting_out))
            out = self._out = [found[pk] for pk in self.sitting_out if pk in found]
        return out

    def _keep_deals(self, deals: list[Deal]) -> None:
        """Hold `deals` as this instance's prefetched deals, exactly as `prefetch_related`
        stores them, so the rubber as just written is read back without a query."""
        kept = self.deals.all()
        kept._result_cache = deals
        kept._prefetch_done = True  # type: ignore[attr-defined]  # real; missing from the stubs
        self._prefetched_objects_cache = {"deals": kept}
        self._sheet = None

    def scoresheet(self, deals: Sequence[Deal] | None = None) -> Sheet:
        """The scoresheet of this match's game, derived from the ordered deals (RULES 8.2)."""
        if deals is None and self._sheet is not None and self.status != self.Status.UNFINISHED:
            return self._sheet  # scored with these deals, not closed, under the entry's lock
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

    def confirm_deals(self, *, actor: Actor, seen: dict[int, int]) -> int:
        """Confirm this rubber's deals in `seen` at once, all or none (`confirming`)."""
        return confirm_deals(self.pk, actor=actor, seen=seen)

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
        actor: Actor,
    ) -> tuple[Deal, bool]:
        """Record deal `number` of this rubber; return (deal, created).

        A retry of the same deal is harmless (created False, nothing changes); other content for
        an existing number, a gap in the numbering, a finished rubber or a closed session raise
        `Conflict` (RULES 8.1). Impossible results raise `ScoringError` naming the rule.
        When the deal completes the rubber the next rubber starts, seated by the rotation.
        A two-player match takes its deal as `data`, the game's fields (RULES 7.x).
        `actor` is who enters it, as the write policy has it (games.permissions: `check_enter`
        refuses anyone else, `NotAllowed`): its user (None for a table-code phone), the seat it is
        entered from (None for a director who does not sit in the rubber) and its table-code
        phone (games.codes); the other side confirms it (`Deal.confirm`).
        The deal's `rubber` is then the rubber as written, with its table, session and deals
        (read under the lock), so an answer built from it costs no further read of them.
        Long because the entry's checks under its lock read in order, as docs/rules.md gives them.
        """
        check_enter(actor)
        entered_by = actor.user
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
            # With its seated players, joined, for the answer (no read after the write); in SQL
            # built once (games/models/rows.py).
            rubber = lock_for_entry(Rubber, self.pk)
            if rubber is None:
                if closed_meanwhile(self.session_id):
                    # Withdrawn, empty, by the close this entry waited for.
                    raise Conflict(closed_session())
                # Withdrawn, empty, by a correction that reopened the rubber before it, which
                # held this lock while it checked that it was empty (docs/rules.md).
                raise Conflict(refusals.gone(self.kind))
            check_reopened_writer(rubber.session, entered_by)
            # Read as rows made into deals (games/models/rows.py); who entered them is named by
            # their ids (games/api.py).
            deals = deals_of(Deal, rubber)
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
            deal._written(rubber, entered_by, actor.seat or "", actor.phone)
            sheet = rubber._rescore([*deals, deal])
            deal._note(noted("entered"), entered_by)
            insert_with_history(deal)  # the deal and its history in one statement
            rubber._apply_completion(sheet)
        queue_refresh(rubber.session_id)
        rubber._keep_deals([*deals, deal])
        rubber._sheet = sheet  # the answer's scoresheet (games/api.py) is not scored again
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
        queue_refresh(self.session_id)
        self.status, self.ended_at = locked.status, locked.ended_at

    def _check_open_for_entry(self) -> None:
        if self.session.status == Session.Status.CLOSED:
            raise Conflict(closed_session())
        if self.session.status != Session.Status.RUNNING:
            raise Conflict(gettext("The session has not started yet."))
        if self.status == self.Status.COMPLETE and sheets.game(self.kind).engine_refuses_after_end:
            return  # the engine refuses a deal after the target with its rule (RULES 7.4)
        if self.status != self.Status.IN_PLAY:
            if closed_meanwhile(self.session_id):
                # Closed unfinished by the close this entry waited for: the session was read
                # with the rubber, before that close committed, so it is read again to say so.
                raise Conflict(closed_session())
            status = str(self.get_status_display()).lower()
            raise Conflict(refusals.after_end(self.kind, self.number, status))

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
        withdraw_next: int | None = None,
    ) -> Sheet:
        """Re-score this rubber with a corrected deal among `deals` (RULES 8.2).

        `nxt` is the next rubber at the table, locked by the caller (or None). When the
        correction reopens this rubber, an empty `nxt` is withdrawn; one that holds deals is never
        deleted: the correction is refused naming them, unless `move_next_deals` (a director's
        explicit choice) moves them into this rubber (docs/rules.md: corrections that reopen a
        rubber). A `withdraw_next` other than None withdraws only the empty rubber of that number
        (a page's agreement; else `NextRubberToWithdraw`). Long because each case of
        docs/rules.md is one step here, in that order.
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
            raise Conflict(
                reopen_refusal(self.number, nxt.number, [(d.number, d.summary()) for d in held])
            )
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
        if not held and withdraw_next not in (None, nxt.number):
            raise NextRubberToWithdraw(self.number, nxt.number)
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
