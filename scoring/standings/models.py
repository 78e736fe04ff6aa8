"""Standings and worker bookkeeping (the Django side of scoring/; the laws live in rules/).

Standings are derived rows: the refresh task (``scoring.standings.tasks.refresh_session_standings``)
replaces them from the deals, so they are never edited by hand. docs/standings.md explains the
refresh, its coalescing and what counts.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any, ClassVar

from django.db import models
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from clubs.models import Club, Player, Session, TableSeat

from .ledger import AccountEntry
from .managers import RefreshStateQuerySet
from .outbox import ResultsMail

__all__ = [
    "AccountEntry",
    "ClubRatingsState",
    "LeaderboardRevision",
    "PlayerRating",
    "RatingStep",
    "ResultsMail",
    "RubberResult",
    "SessionPayment",
    "SessionStanding",
    "SessionStandingsState",
    "WorkerHeartbeat",
]


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task (shown by /healthz)."""

    name = models.CharField(max_length=50, unique=True, default="default")
    beat_at = models.DateTimeField(default=timezone.now)
    count = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class RefreshState(models.Model):
    """The freshness of rows derived from the deals, and their refresh bookkeeping.

    ``dirty`` counts the changes asked for (bumped by every write); ``computed_dirty`` is the
    count the stored rows reflect. ``pending_since`` is set while a refresh is queued and not yet
    started: writes that find it set do not queue another (coalescing, docs/standings.md).
    """

    stale = models.BooleanField(default=True)
    dirty = models.PositiveBigIntegerField(default=0)
    computed_dirty = models.PositiveBigIntegerField(default=0)
    requested_at = models.DateTimeField(null=True, blank=True)
    pending_since = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    objects = RefreshStateQuerySet.as_manager()

    #: Fields that storing a computation empties (``RefreshStateQuerySet.mark_computed``).
    reset_when_computed: ClassVar[tuple[str, ...]] = ()

    class Meta:
        abstract = True


class SessionStandingsState(RefreshState):
    """The freshness of one session's standings (``RefreshState``).

    ``rebuild_queued_at`` is set when a full rebuild queues the session and cleared when any
    computation of it is stored or fails (a failure is reported where it happens): still set
    long after, the rebuild's chunk died (the sweeper then refreshes the session,
    docs/standings.md).
    """

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, primary_key=True, related_name="standings_state"
    )
    rebuild_queued_at = models.DateTimeField(null=True, blank=True)

    reset_when_computed = ("rebuild_queued_at",)

    class Meta:
        indexes = [
            # The sweeper looks for stale sessions nobody has queued, and for sessions a rebuild
            # queued that no computation has stored since.
            models.Index(fields=["pending_since"], condition=Q(stale=True), name="stale_state"),
            models.Index(
                fields=["rebuild_queued_at"],
                condition=Q(rebuild_queued_at__isnull=False),
                name="rebuild_queued",
            ),
        ]

    def __str__(self) -> str:
        return f"Standings of session {self.session_id} ({'stale' if self.stale else 'fresh'})"


class ClubRatingsState(RefreshState):
    """The freshness of one club's ratings, every pool (``RefreshState``; docs/ratings.md).

    Bumped when a standings refresh changes the results of ended rubbers, which the ratings are
    replayed from.
    """

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, primary_key=True, related_name="ratings_state"
    )

    class Meta:
        indexes = [
            models.Index(
                fields=["pending_since"], condition=Q(stale=True), name="stale_ratings_state"
            ),
        ]

    def __str__(self) -> str:
        return f"Ratings of club {self.club_id} ({'stale' if self.stale else 'fresh'})"


class PlayerRating(models.Model):
    """A player's rating in one pool after every rated match (docs/ratings.md): the last of their
    ``RatingStep`` rows, with the counts. Derived rows, replaced by the ratings refresh."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    pool = models.CharField(max_length=20, help_text="bridge, or a two-player game kind.")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3 sigma: the rating shown.")
    matches = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    lost = models.PositiveIntegerField()
    drawn = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "pool"], name="one_rating_per_pool"),
        ]
        indexes = [models.Index(fields=["club", "pool", "-ordinal"])]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.pool}: {self.ordinal:.2f}"


class RatingStep(models.Model):
    """A player's rating just after one rated match (the player page's chart)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    pool = models.CharField(max_length=20)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_steps")
    rubber = models.ForeignKey("games.Rubber", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(help_text="The match's place in the pool's replay.")
    ended_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=5, help_text="won, lost or drawn.")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player", "pool", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rubber", "player"], name="one_step_per_rubber"),
        ]
        indexes = [models.Index(fields=["club", "pool"]), models.Index(fields=["player", "pool"])]

    def __str__(self) -> str:
        return f"{self.player_id} after rubber {self.rubber_id}: {self.ordinal:.2f}"


# The foreign keys of the rows the standings' refresh and rebuild derive from the deals
# (``RubberResult``, ``SessionStanding``, ``SessionPayment``): no constraint in the database
# (``db_constraint=False``) and no index of their own (``db_index=False``) where a composite
# index of the model starts with the column. Django still cascades deletes (``on_delete`` is
# Django's, never the database's), and a computation stores rows only while it holds the lock of
# the session's ``SessionStandingsState`` row, which deleting the session deletes first
# (``apps._forget_state``), so no row outlives its session. Checking ~112,000 rows' ten foreign
# keys at the commit of the rebuild and keeping their single-column indexes was most of
# PostgreSQL's work in it (docs/benchmarks.md, "Issue 33: the nightly rebuild in bulk").


class RubberResult(models.Model):
    """One player's result in one rubber, as the engine scored it (RULES 4.1).

    ``provisional`` marks a rubber still in play: it is shown with its running score and counts
    in no total, rank or money until it ends (docs/standings.md).
    """

    # Derived rows, rewritten by the nightly rebuild: no foreign-key constraint in the database
    # and no index a composite one below already starts with (above, docs/standings.md).
    rubber = models.ForeignKey(
        "games.Rubber",
        on_delete=models.CASCADE,
        related_name="results",
        db_constraint=False,
        db_index=False,
    )
    session = models.ForeignKey(
        Session,
        on_delete=models.CASCADE,
        related_name="rubber_results",
        db_constraint=False,
        db_index=False,
    )
    # No index: the ratings replay reads a club's results through its sessions (``ratings``).
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rubber_results",
        db_constraint=False,
        db_index=False,
    )
    date = models.DateField(help_text="The session's date (kept here for the history queries).")
    table_number = models.PositiveSmallIntegerField()
    rubber_number = models.PositiveSmallIntegerField()
    seat = models.CharField(max_length=1)
    side = models.CharField(max_length=2)
    status = models.CharField(max_length=12)
    provisional = models.BooleanField(default=False)
    deals = models.PositiveSmallIntegerField(default=0)
    points = models.IntegerField(help_text="The side's total (above + below, bonuses included).")
    net = models.IntegerField(help_text="The side's total minus the other side's.")
    hundreds = models.IntegerField()
    won = models.BooleanField(help_text="The side won on points (RULES 2.5).")
    money = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0.00"))

    class Meta:
        ordering = ["session", "table_number", "rubber_number", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["rubber", "player"], name="one_result_per_rubber"),
        ]
        indexes = [
            models.Index(fields=["session", "player"]),
            models.Index(fields=["player", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in rubber {self.rubber_id}: {self.hundreds:+d}"


def _ties() -> Coalesce:
    """A standing's ended matches that were tied (equal totals: no winner, RULES 8.3, 7.3)."""
    ties = (
        RubberResult.objects.filter(
            session_id=OuterRef("session_id"),
            player_id=OuterRef("player_id"),
            provisional=False,
            net=0,
        )
        .order_by()
        .values("player_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(ties), 0)


def _left_early() -> Exists:
    """The player left the session early (RULES 6.3): their seat was given up (a substitute took
    it, or the room was re-planned without them) and they were not seated again. Read with the
    row, so a change at a table shows at once, whether or not it changed a result."""
    return Exists(
        TableSeat.objects.filter(
            session_id=OuterRef("session_id"), player_id=OuterRef("player_id"), active=False
        )
    )


class SessionStandingQuerySet(models.QuerySet["SessionStanding"]):
    def for_session(self, session_id: int) -> SessionStandingQuerySet:
        return (
            self.filter(session_id=session_id)
            .annotate(tied=_ties(), left_early=_left_early())
            .select_related("player")
            .order_by(F("rank").asc(nulls_last=True), "player_id")
        )

    def in_period(
        self, club_id: int, start: datetime.date | None, end: datetime.date | None
    ) -> SessionStandingQuerySet:
        rows = self.filter(club_id=club_id)
        if start is not None:
            rows = rows.filter(date__gte=start)
        if end is not None:
            rows = rows.filter(date__lte=end)
        return rows

    def leaderboard(self) -> models.QuerySet[Any]:
        """One row per player: sessions played, rubbers, won, hundreds and money, best first.

        Only sessions where the player finished a rubber count as played.
        """
        return (
            self.values("player_id", "player__name")
            .annotate(
                sessions=Count("id", filter=Q(rubbers__gt=0)),
                total_rubbers=Coalesce(Sum("rubbers"), 0),
                total_won=Coalesce(Sum("won"), 0),
                total_tied=Coalesce(Sum(_ties()), 0),
                total_hundreds=Coalesce(Sum("hundreds"), 0),
                total_net=Coalesce(Sum("net"), 0),
                total_money=Sum("money"),
            )
            .filter(sessions__gt=0)
            .order_by("-total_hundreds", "-total_net", "player_id")
        )


class SessionStanding(models.Model):
    """One player's standing in one session: totals of ended rubbers, rank, table and prize."""

    session = models.ForeignKey(
        Session,
        on_delete=models.CASCADE,
        related_name="standings",
        db_constraint=False,
        db_index=False,
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="standings",
        db_constraint=False,
        db_index=False,
    )
    date = models.DateField(help_text="The session's date (kept here for the leaderboard).")
    rank = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Place in the room; none for a player who played no deal."
    )
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    prize_choice = models.PositiveSmallIntegerField(null=True, blank=True)
    rubbers = models.PositiveSmallIntegerField(default=0)
    won = models.PositiveSmallIntegerField(default=0)
    points = models.IntegerField(default=0, help_text="Gross: the sum of the side's totals.")
    net = models.IntegerField(default=0)
    hundreds = models.IntegerField(default=0)
    money = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal("0.00"))
    running_points = models.IntegerField(null=True, blank=True)
    running_hundreds = models.IntegerField(null=True, blank=True)

    objects = SessionStandingQuerySet.as_manager()

    class Meta:
        ordering = ["session", F("rank").asc(nulls_last=True), "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="one_standing_per_session"),
        ]
        indexes = [
            models.Index(fields=["club", "date", "player"]),
            models.Index(fields=["player", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in session {self.session_id}: #{self.rank or '-'}"


class SessionPayment(models.Model):
    """One payment of a session's settlement (RULES 4.2), in the order settle() gave it."""

    session = models.ForeignKey(
        Session,
        on_delete=models.CASCADE,
        related_name="payments",
        db_constraint=False,
        db_index=False,
    )
    position = models.PositiveSmallIntegerField()
    # No index of their own: payments are read by session; only a player's deletion (rare)
    # looks them up by player, and the rebuild wrote both indexes for every payment.
    payer = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    payee = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    amount = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="one_payment_per_place"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.payer_id} pays {self.payee_id} {self.amount}"


class LeaderboardRevision(models.Model):
    """The version of a club's cached leaderboard (scoring/shared/cache.py): ``revision`` counts the
    changes of its sessions' standings (a write marking one stale, a refresh storing rows), each
    raised in the transaction that makes the change (``revise_leaderboards``), and ``revised_at``
    is the time of the latest, which tells one incarnation of the database from another."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True, related_name="+")
    revision = models.PositiveBigIntegerField(default=0)
    revised_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Leaderboard of club {self.club_id}, revision {self.revision}"
