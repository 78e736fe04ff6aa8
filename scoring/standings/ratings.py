"""Club ratings: replay a club's ended rubbers through the rating model and store the result.

The model and the replay are ``scoring.rules.ratings`` (plain values, OpenSkill); this module
reads the matches from the stored results, keeps the derived rows (``PlayerRating``,
``RatingStep``) and reads them back for the API and the pages. docs/ratings.md has the rules.

A correction anywhere recomputes the club's pools from their first match: the simplest way to
replay "from that rubber on" that is always right (the rows before it come out the same); only
the rows that differ are written. The replay costs about half a millisecond a match on the
development machine (10,000 rubbers: about five seconds, off the request path); resuming from
the stored steps before the earliest changed rubber would be the next step if clubs grow so big.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from clubs.models import Club
from games import sheets
from games.models import Deal
from scoring.rules.ranking import competition_ranks, place_label, shared
from scoring.rules.ratings import Match, replay

from .models import ClubRatingsState, PlayerRating, RatingStep, RubberResult, SessionStandingsState

logger = logging.getLogger(__name__)

BRIDGE = "bridge"
#: The pools a club's players are rated in: four-player bridge (rubber and Chicago together),
#: and each two-player game on its own.
POOLS = (BRIDGE, *sheets.TWO_PLAYER)

_BATCH = 500
_RATING_FIELDS = ("pool", "player_id", "mu", "sigma", "ordinal", "matches", "won", "lost", "drawn")
_STEP_FIELDS = (
    "pool",
    "player_id",
    "rubber_id",
    "position",
    "ended_at",
    "outcome",
    "mu",
    "sigma",
    "ordinal",
)


def pool_of(kind: str) -> str:
    """The pool a game of ``kind`` is rated in."""
    return BRIDGE if kind in sheets.FOUR_PLAYER else kind


@dataclass
class ComputedRatings:
    """A club's ratings as freshly computed: rows in the order of ``_RATING_FIELDS`` and
    ``_STEP_FIELDS``."""

    ratings: list[tuple[Any, ...]]
    steps: list[tuple[Any, ...]]


def club_matches(club_id: int) -> dict[str, list[Match]]:
    """The club's rated matches by pool: ended rubbers (complete, or closed unfinished) with at
    least one deal that was not passed out, their teams and totals as the refresh stored them.
    Two queries."""
    passed = Q(contract="pass") | Q(data__contract="pass")  # four-player / RULES 7.4
    played = set(
        Deal.objects.filter(rubber__session__club_id=club_id)
        .annotate(played=Case(When(passed, then=Value(False)), default=Value(True)))
        .filter(played=True)
        .order_by()
        .values_list("rubber_id", flat=True)
        .distinct()
    )
    rubbers: dict[int, dict[str, Any]] = {}
    rows = (
        # Through the club's sessions: the results' index starts with the session.
        RubberResult.objects.filter(session__club_id=club_id, provisional=False)
        .order_by()
        .values_list("rubber_id", "rubber__kind", "rubber__ended_at", "side", "player_id", "points")
    )
    for rubber_id, kind, ended_at, side, player_id, points in rows:
        if rubber_id not in played:
            continue
        rubber = rubbers.setdefault(
            rubber_id, {"kind": kind, "ended_at": ended_at, "NS": [], "EW": [], "totals": {}}
        )
        rubber[side].append(player_id)
        rubber["totals"][side] = points
    matches: dict[str, list[Match]] = {}
    for rubber_id, r in rubbers.items():
        if not (r["NS"] and r["EW"]):
            continue
        matches.setdefault(pool_of(r["kind"]), []).append(
            Match(
                key=rubber_id,
                ended_at=r["ended_at"],
                teams=(tuple(sorted(r["NS"])), tuple(sorted(r["EW"]))),
                totals=(r["totals"]["NS"], r["totals"]["EW"]),
            )
        )
    return matches


def ratings_compute(*, club_id: int) -> ComputedRatings:
    """Every pool of the club replayed from the initial ratings."""
    computed = ComputedRatings([], [])
    for pool, matches in sorted(club_matches(club_id).items()):
        final, steps = replay(matches)
        ended = {m.key: m.ended_at for m in matches}
        computed.ratings += [
            (pool, r.player, r.mu, r.sigma, r.ordinal, r.matches, r.won, r.lost, r.drawn)
            for r in final
        ]
        computed.steps += [
            (
                pool,
                s.player,
                s.match,
                s.position,
                ended[s.match],
                s.outcome,
                s.mu,
                s.sigma,
                s.ordinal,
            )
            for s in steps
        ]
    return computed


def ratings_refresh(*, club_id: int) -> bool:
    """Recompute a club's ratings and store them if they differ; True if rows were written.

    The standings refresh's protocol (scoring.standings.services): release the claim, remember
    the change count, compute, then under the lock of the state row store, unless a refresh that
    saw more changes already has. Idempotent.
    """
    states = ClubRatingsState.objects
    seen = states.release_claims([club_id])
    if club_id not in seen:
        if not Club.objects.filter(pk=club_id).exists():
            return False
        states.bulk_create([ClubRatingsState(club_id=club_id)], ignore_conflicts=True)
        seen[club_id] = 0
    computed = ratings_compute(club_id=club_id)
    with transaction.atomic():
        if club_id not in states.mark_computed(seen, timezone.now()):
            return False  # overtaken: a later computation stored its rows
        ratings_written = _store(PlayerRating, _RATING_FIELDS, 2, club_id, computed.ratings)
        steps_written = _store(RatingStep, _STEP_FIELDS, 3, club_id, computed.steps)
    written = ratings_written or steps_written
    if written:
        logger.info("Ratings of club %s refreshed", club_id)
    return written


def _store(
    model: Any, fields: tuple[str, ...], key: int, club_id: int, rows: list[tuple[Any, ...]]
) -> bool:
    """Make the club's stored rows of ``model`` equal ``rows`` (in the order of ``fields``, the
    first ``key`` of them unique): delete the rows that differ, insert the missing ones, leave
    the rest. A new rubber at the end of the replay adds a few rows; a correction early in it
    rewrites the rows after it. True if anything was written."""
    stored: dict[tuple[Any, ...], tuple[int, tuple[Any, ...]]] = {}
    for pk, *row in model.objects.filter(club_id=club_id).order_by().values_list("pk", *fields):
        stored[tuple(row[:key])] = (pk, tuple(row))
    wanted = {tuple(row[:key]): tuple(row) for row in rows}
    gone = [pk for k, (pk, row) in stored.items() if wanted.get(k) != row]
    new = [row for k, row in wanted.items() if k not in stored or stored[k][1] != row]
    for start in range(0, len(gone), _BATCH):
        model.objects.filter(pk__in=gone[start : start + _BATCH]).delete()
    model.objects.bulk_create(
        [model(club_id=club_id, **dict(zip(fields, row, strict=True))) for row in new],
        batch_size=_BATCH,
    )
    return bool(gone or new)


# --- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingsFreshness:
    computed_at: datetime.datetime | None
    stale: bool


def ratings_freshness(club_id: int) -> RatingsFreshness:
    """When the club's ratings were computed, and whether a change is still to be counted: the
    ratings' own refresh is pending, or a session's standings (which feed them) are. Two
    queries."""
    state = ClubRatingsState.objects.filter(pk=club_id).values_list("computed_at", "stale").first()
    results_pending = SessionStandingsState.objects.filter(
        session__club_id=club_id, stale=True
    ).exists()
    if state is None:
        return RatingsFreshness(None, results_pending)
    return RatingsFreshness(state[0], state[1] or results_pending)


def club_ratings(club_id: int, pool: str) -> dict[str, Any]:
    """The pool's ratings, highest ordinal first, each with its `place`: equal ratings share it
    ("=2") and are listed by player id, never by name (as the standings, RULES 6.3). Three
    queries."""
    freshness = ratings_freshness(club_id)
    rows = list(
        PlayerRating.objects.filter(club_id=club_id, pool=pool)
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )
    # Equal ratings by player id (the query's order holds for exactly equal floats; this, for
    # ratings equal but for the replay's last bits).
    rows.sort(key=lambda r: (_rating_key(r), r.player_id))
    ranks = competition_ranks([_rating_key(r) for r in rows])
    tied = shared(ranks)
    return {
        "pool": pool,
        "stale": freshness.stale,
        "computed_at": freshness.computed_at,
        "ratings": [
            {
                "place": place_label(rank, rank in tied),
                "player": r.player_id,
                "name": r.player.name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "matches": r.matches,
                "won": r.won,
                "lost": r.lost,
                "drawn": r.drawn,
            }
            for rank, r in zip(ranks, rows, strict=True)
        ],
    }


def _rating_key(rating: PlayerRating) -> float:
    """Best first when sorted ascending: the rating (`ordinal`) to 9 decimals, far below what
    any page or export rounds to and far above the replay's float noise, so two partners with
    one history are equal."""
    return -round(rating.ordinal, 9)


def player_ratings(player_id: int) -> list[dict[str, Any]]:
    """A player's rating in each pool they are rated in (bridge first) with its history: the
    rating after each of their matches, oldest first. Two queries."""
    current = {r.pool: r for r in PlayerRating.objects.filter(player_id=player_id).order_by("pool")}
    steps: dict[str, list[RatingStep]] = {}
    for step in (
        RatingStep.objects.filter(player_id=player_id)
        .annotate(match_date=F("rubber__session__date"))
        .order_by("pool", "position")
    ):
        steps.setdefault(step.pool, []).append(step)
    return [
        {"pool": pool, "rating": current[pool], "steps": steps.get(pool, [])}
        for pool in _pool_order(current)
    ]


def _pool_order(pools: Iterable[str]) -> list[str]:
    return sorted(pools, key=lambda p: (POOLS.index(p) if p in POOLS else len(POOLS), p))
