"""A deal of a match, and the writes of one deal (correct, delete, confirm, dispute, rule).

Below the rubber (games.models.rubber), whose entry makes deals: a deal reaches its rubbers
through its own key (`_rubbers`), so this module names no Rubber and the two import no circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any, TypeAlias

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player, Session
from scoring.rules import Contract, DealInput, ScoringError
from scoring.shared.errors import Conflict

from ..permissions import (
    Actor,
    check_confirm,
    check_correct,
    check_delete,
    check_dispute,
    check_rule,
)
from ..summaries import summarise
from .constraints import deal_constraints
from .history import RubberHistory
from .locks import check_reopened_writer, closed_session, lock_session, noted, queue_refresh
from .summary import two_player_result
from .values import DISPUTE_NOTE_MAX, SEAT_SIDE, SEATS, DealFields, DisputeReason, RubberStatus

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: A rubber as a deal's writes read it (games.models.rubber.Rubber, reached by `_rubbers`).
RubberRow: TypeAlias = Any


def _rubbers() -> models.QuerySet[Any]:
    """The rubbers, through the deal's key to them (a plain queryset of Rubber)."""
    return Deal.rubber.get_queryset()


def _confirming_player(rubber: RubberRow, actor: Actor) -> Player:
    """Who confirms: the actor's player, or for a table-code phone the player in the seat it
    holds (in this rubber as locked); a seat nobody sits in is refused."""
    if actor.player is not None and not actor.by_code:
        return actor.player
    player = Player.objects.filter(pk=rubber.seat_ids.get(actor.seat or "", 0)).first()
    if player is None:
        raise Conflict(
            gettext(
                "A deal is confirmed by a player of the other side from the one who entered it."
            )
        )
    return player


def lock_session_of(rubber_id: int) -> Session | None:
    """`lock_session` for the session of this rubber, in one query."""
    session_of = _rubbers().filter(pk=rubber_id).values("session_id")
    return Session.objects.select_for_update(no_key=True).filter(pk__in=session_of).first()


class Deal(models.Model):
    class HonoursSide(models.TextChoices):
        NONE = "", "None"
        NS = "NS", "NS"
        EW = "EW", "EW"

    rubber = models.ForeignKey("games.Rubber", on_delete=models.CASCADE, related_name="deals")
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
    dispute_reason = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=DisputeReason.choices,
        help_text="What the last dispute was about (Deal.dispute); kept once it is settled.",
    )
    dispute_note = models.CharField(
        max_length=DISPUTE_NOTE_MAX,
        blank=True,
        default="",
        help_text="The disputing player's own words, if any.",
    )
    ruled = models.BooleanField(
        default=False,
        help_text="A director ruled that the disputed deal stands as recorded (Deal.rule): it is "
        "settled, as a confirmation settles it. A correction clears it. The history keeps who.",
    )

    history = RubberHistory(no_db_index=["rubber"])
    # Who made a change and why: read by django-simple-history from the instance on save().
    _history_user: User
    _change_reason: str

    class Meta:
        ordering = ["rubber", "number"]
        constraints = deal_constraints()

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
    def awaits_confirmation(self) -> bool:
        """Neither settled nor disputed: the other side has still to confirm or dispute it,
        where the session asks (what the pad offers to confirm and a hand-over is for; a deal
        recorded before confirmation was asked stands, `ruled`)."""
        return not self.settled and not self.disputed

    @property
    def result(self) -> str:
        """The result as a pad shows it: "=", "+1", "−2" (or "" for a pass)."""
        if self.data is not None:
            return two_player_result(self.data)
        if self.contract == "pass" or self.tricks is None:
            return ""
        over = self.tricks - (Contract.parse(self.contract).level + 6)
        return "=" if over == 0 else (f"+{over}" if over > 0 else f"−{-over}")

    def summary(self, names: Sequence[str] | None = None) -> str:
        """The deal in a few words, in the active language, as its game says it
        (games/summaries.py): "4S by N, 10 tricks". A two-player deal names its players with
        ``names`` (player 0's and player 1's): "♣ by Bea, 8 tricks"; without, it numbers them
        as the engine does ("by player 1"). Reads ``self.rubber.kind``: a deal read through its
        rubber (``rubber.deals``) has it without a query."""
        return summarise(self.rubber.kind, self, names)

    def correct(
        self,
        *,
        version: int,
        actor: Actor,
        move_next_deals: bool = False,
        withdraw_next: int | None = None,
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
        too (docs/rules.md: corrections that reopen a rubber). The pages ask before an empty
        next rubber is withdrawn: `withdraw_next`, the number agreed (0: none yet).
        `actor` is who corrects it (games.permissions.check_correct; moving deals is a
        director's), with the seat and phone `Rubber.record_deal` takes from it: the corrected deal
        is theirs now, and the other side confirms it.
        Long because its checks under the locks read in order, as docs/rules.md gives them.
        """
        check_correct(actor, move_next_deals=move_next_deals)
        changed_by = actor.user
        allowed = {"contract", "declarer", "tricks", "honours_side", "honours_points", "data"}
        unknown = set(changes) - allowed
        if unknown:
            raise ScoringError(sorted(unknown)[0], "cannot be changed", None)
        kind, session_id = (
            _rubbers().filter(pk=self.rubber_id).values_list("kind", "session_id").get()
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
                _rubbers()
                .select_for_update(of=("self",), no_key=True)
                .select_related("session", "table")
                .filter(pk=self.rubber_id)
                .first()
            )
            nxt = None
            if rubber is not None and rubber.status == RubberStatus.COMPLETE:
                nxt = (
                    _rubbers()
                    .select_for_update(of=("self",), no_key=True)
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
            fields = deal.fields().corrected(kind, changes)
            if fields == deal.fields():
                return deal
            deals = list(rubber.deals.order_by("number"))
            for i, other in enumerate(deals):
                if other.pk == deal.pk:
                    deals[i] = deal
            for name, value in fields.as_kwargs().items():
                setattr(deal, name, value)
            rubber._rescore_for_correction(
                deals,
                nxt,
                move_next_deals=move_next_deals,
                changed_by=changed_by,
                withdraw_next=withdraw_next,
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
            deal._written(rubber, changed_by, actor.seat or "", actor.phone)
            deal._note(noted("correction"), changed_by)
            deal.save()
        queue_refresh(rubber.session_id)
        self._refresh()
        return deal

    def _refresh(self) -> None:
        """This instance as stored after a write, unless a delete came right after the write's
        commit (`delete_last`): then it stays as written (the write itself was acknowledged)."""
        with suppress(Deal.DoesNotExist):
            self.refresh_from_db()

    def _check_as_read(
        self, deal: Deal, rubber: RubberRow | None, session: Session | None, version: int
    ) -> tuple[RubberRow, Session]:
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
        self, rubber: RubberRow, session: Session, last_number: int, *, director: bool = False
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
        if rubber.status == RubberStatus.COMPLETE:
            return gettext("Deal %(number)s finished the rubber: correct it instead.") % {
                "number": self.number
            }
        if rubber.status != RubberStatus.IN_PLAY or session.status != Session.Status.RUNNING:
            return gettext(
                "Rubber %(number)s is no longer in play: its deals can be corrected, not deleted."
            ) % {"number": rubber.number}
        return None

    def delete_last(
        self,
        *,
        version: int,
        actor: Actor,
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
        (the `actor`'s user, the request's otherwise) and the seat and table-code phone it was
        deleted from (as `record_deal` takes them). Who may delete: `check_delete`; a settled or
        disputed deal is a director's to delete (`delete_refusal`).
        """
        check_delete(actor)
        deleted_by = actor.user
        director = actor.is_director or actor.server
        with transaction.atomic():
            # The session first, as a correction and a close take it: a delete lands before a
            # close or finds the session closed.
            session = lock_session_of(self.rubber_id)
            # Each `of=("self",)`: the models' ordering joins the table and the session (see
            # `correct`). The deal in full FOR UPDATE, since it is deleted.
            rubber = (
                _rubbers()
                .select_for_update(of=("self",), no_key=True)
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
            deal._written(rubber, deleted_by, actor.seat or "", actor.phone)
            deal._note(noted("deleted"), deleted_by)
            deal.delete()
        queue_refresh(session.pk)

    def confirm(self, *, actor: Actor, version: int | None = None) -> Deal:
        """An opponent of the side that wrote the deal confirms it (Session.asks_confirmation).

        The `actor`'s player (a table-code phone's: the player in its seat) must sit in the
        rubber (`check_confirm`, then again under the lock) on the other side from the seat that
        last wrote the deal (`written_seat`: a player or a table-code phone; when a director
        outside the rubber wrote it, any seated player may confirm). Confirming twice, or a deal
        a director ruled on, is harmless. With `version` (the one the player saw), a deal
        corrected since is not confirmed: Conflict.
        """
        check_confirm(actor, self)
        user = actor.user
        with transaction.atomic():
            # The session first, as a correction and a close take it: a closed session's deals
            # take no confirmation, even one sent as it closed.
            lock_session_of(self.rubber_id)
            deal = Deal.objects.select_for_update().filter(pk=self.pk).first()
            if deal is None:
                raise self._gone()
            deal._check_seen(version, confirming=True)
            rubber = _rubbers().select_related("session__club").get(pk=deal.rubber_id)
            if rubber.session.status == Session.Status.CLOSED:
                raise Conflict(closed_session())
            check_reopened_writer(rubber.session, user)
            if not rubber.session.asks_confirmation:
                raise Conflict(gettext("This club does not ask opponents to confirm entries."))
            by = _confirming_player(rubber, actor)
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
            deal._note(noted("confirmed"), user)
            deal.save(update_fields=["confirmed_by", "disputed", "updated_at"])
        self._refresh()
        return deal

    def _written(self, rubber: RubberRow, user: User | None, seat: str | None, phone: str) -> None:
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

    def dispute(
        self,
        *,
        actor: Actor,
        version: int | None = None,
        reason: str = DisputeReason.OTHER,
        note: str = "",
    ) -> Deal:
        """An opponent disputes the deal (Session.asks_confirmation), saying why (`reason`, a
        `DisputeReason`, and their own words, `note`): it is flagged for the director, who
        corrects it or rules that it stands (`rule`). A settled deal (confirmed, or ruled on)
        takes no dispute. The history keeps who disputed and why. With `version`, a deal
        corrected since is not disputed: Conflict. A closed session's deals are final:
        Conflict. Who may dispute: the other side (`check_dispute`)."""
        check_dispute(actor, self)
        if reason not in DisputeReason.values:
            raise ScoringError(
                "reason", "is not one of {choices}", None, choices=DisputeReason.values
            )
        if len(note := note.strip()) > DISPUTE_NOTE_MAX:
            raise ScoringError(
                "note", "is longer than {most} characters", None, most=DISPUTE_NOTE_MAX
            )
        user = actor.user
        with transaction.atomic():
            session = lock_session_of(self.rubber_id)  # as `confirm`
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
            deal.dispute_reason, deal.dispute_note = reason, note
            deal._note(noted("disputed"), user)
            deal.save(update_fields=["disputed", "dispute_reason", "dispute_note", "updated_at"])
        self._refresh()
        return deal

    def rule(self, *, actor: Actor, version: int) -> Deal:
        """A director rules that a disputed deal stands as recorded: the dispute is cleared and
        the deal is settled (`ruled`), as an opponent's confirmation settles it; a correction
        clears the ruling. The `actor` directs the club (`check_rule`); the history keeps who
        ruled (reason "ruled").

        Of the deal as the director saw it (`version`): one corrected since is not ruled on
        (Conflict, saying what it is now). A closed session's deals are final: Conflict. A deal
        that is not disputed has nothing to rule on: Conflict, except one already ruled on (a
        retry is harmless)."""
        check_rule(actor)
        by = actor.user
        with transaction.atomic():
            # The session first, then the deal, as `confirm`, `dispute` and a correction take
            # them: a ruling and a close, or a ruling and a correction, are serialised.
            session = lock_session_of(self.rubber_id)
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


def deals_prefetch() -> models.Prefetch[Any]:
    """A rubber's deals as its pages read them (`RubberQuerySet.with_deals`, `fetch_deals`)."""
    deals = Deal.objects.select_related("entered_by", "confirmed_by").order_by("number")
    return models.Prefetch("deals", queryset=deals)
