"""Reading the stored standings for the API and the pages: a constant, small number of queries.

Nothing here computes a score; it shapes the rows the refresh stored (scoring.standings.services).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Count, Exists, F, Max, OuterRef, Q
from django.http import Http404
from django.utils.translation import gettext

from clubs.models import Player, Session
from clubs.permissions import check_club_id_readable
from games import sheets
from scoring.rules.ranking import (
    CutOutcome,
    Entry,
    Placing,
    cut_order,
    place_label,
    rank_entries,
    shared,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

from .cuts import recorded_cuts
from .models import RubberResult, SessionPayment, SessionStanding, SessionStandingsState
from .ratings import BRIDGE, POOLS, pool_of


@dataclass(frozen=True)
class Freshness:
    """When the rows were computed, and whether a change is still waiting to be counted."""

    computed_at: datetime.datetime | None
    stale: bool


def session_freshness(session: Session) -> Freshness:
    state = SessionStandingsState.objects.filter(session_id=session.pk).first()
    if state is None:
        # Never computed: a session that has not started, or whose first refresh is pending.
        return Freshness(None, session.status != Session.Status.PLANNED)
    return Freshness(state.computed_at, state.stale)


def _tied(row: SessionStanding) -> int:
    """Ended matches with equal totals, annotated by ``SessionStandingQuerySet.for_session``."""
    return int(getattr(row, "tied", 0))


def _player_row(
    row: SessionStanding, tied: set[int], table_tied: set[tuple[int | None, int]]
) -> dict[str, Any]:
    return {
        "player": row.player_id,
        "name": row.player.name,
        "rank": row.rank,
        "place_shared": row.rank in tied,
        "place": place_label(row.rank, row.rank in tied),
        "left_early": bool(getattr(row, "left_early", False)),
        "table": row.table_number,
        "table_rank": row.table_rank,
        "table_place": place_label(
            row.table_rank, (row.table_number, row.table_rank) in table_tied
        ),
        "rubbers": row.rubbers,
        "won": row.won,
        "lost": row.rubbers - row.won - _tied(row),
        "tied": _tied(row),
        "points": row.points,
        "net": row.net,
        "hundreds": row.hundreds,
        "money": row.money,
        "running": None
        if row.running_hundreds is None
        else {"points": row.running_points, "hundreds": row.running_hundreds},
    }


def session_standings(session: Session) -> dict[str, Any]:
    """The room, each table and the prizes (RULES 4.3, 6.3), as stored. Two queries.

    Shared places read "=2" (``place``, ``table_place``, a prize's ``place``); a player who
    played no deal has none (``rank`` null) and is listed last; ``left_early`` marks a player
    who gave up their seat (RULES 6.3)."""
    freshness = session_freshness(session)
    rows = list(SessionStanding.objects.for_session(session.pk))
    tied = shared(row.rank for row in rows)
    table_ranks = Counter((row.table_number, row.table_rank) for row in rows if row.table_rank)
    table_tied = {pair for pair, count in table_ranks.items() if count > 1}
    choice_tied = shared(row.prize_choice for row in rows)
    players = [_player_row(row, tied, table_tied) for row in rows]
    tables: dict[int, dict[str, Any]] = {}
    for row, data in zip(rows, players, strict=True):
        if row.table_number is None:
            continue
        table = tables.setdefault(
            row.table_number,
            {"number": row.table_number, "winner": None, "winners": [], "players": []},
        )
        table["players"].append(data)
        if row.prize_choice is not None:
            table["winners"].append(row.player_id)
    for table in tables.values():
        # A shared first place leaves the table's winner to a cut (RULES 6.3): none yet.
        table["winner"] = table["winners"][0] if len(table["winners"]) == 1 else None
        table["players"].sort(
            key=lambda p: (p["table_rank"] is None, p["table_rank"] or 0, p["player"])
        )
    return {
        "session": session.pk,
        "computed_at": freshness.computed_at,
        "stale": freshness.stale,
        "ranking": _ranking_of(session),
        "stake_per_hundred": session.stake_per_hundred,
        "players": players,
        "tables": [tables[n] for n in sorted(tables)],
        "prizes": _prizes(session, rows, choice_tied),
    }


def _prizes(
    session: Session, rows: list[SessionStanding], choice_tied: set[int]
) -> list[dict[str, Any]]:
    """The prizes in the order they are chosen (RULES 6.3): by choice, and winners sharing one
    in the order the director's recorded cuts give (``cut``: won, lost or undecided; None when
    the choice is not shared). The cuts cost a query only when a choice is shared."""
    cuts = recorded_cuts(session.pk) if choice_tied else {}
    by_player = {r.player_id: r for r in rows}
    holders: dict[int, list[int]] = {}
    for r in sorted(rows, key=lambda r: (r.table_number or 0, r.player_id)):
        if r.prize_choice is not None:
            holders.setdefault(r.prize_choice, []).append(r.player_id)
    prizes = []
    for choice in sorted(holders):
        shared_choice = choice in choice_tied
        order: list[tuple[int, CutOutcome | None]] = (
            list(cut_order(holders[choice], cuts.get(choice, {})))
            if shared_choice
            else [(holders[choice][0], None)]
        )
        names = [by_player[player].player.name for player, _outcome in order]
        undecided = [name for name, (_p, o) in zip(names, order, strict=True) if o == "undecided"]
        for index, (player, outcome) in enumerate(order):
            r = by_player[player]
            prizes.append(
                {
                    "choice": choice,
                    "place": place_label(choice, shared_choice),
                    "shared": shared_choice,
                    "cut": outcome,
                    "table": r.table_number,
                    "player": player,
                    "name": r.player.name,
                    # Who chooses this prize before and after them (a shared choice): the
                    # prize list says it in words, never by name order.
                    "before": names[:index] if outcome != "undecided" else [],
                    "after": names[index + 1 :] if outcome != "undecided" else [],
                    "sharing": [n for n in undecided if n != r.player.name]
                    if outcome == "undecided"
                    else [],
                }
            )
    return prizes


def _ranking_of(session: Session) -> str:
    ranking = (session.rules or {}).get("pivot_ranking", "net")
    return ranking if ranking in ("net", "gross") else "net"


def session_settlement(session: Session) -> dict[str, Any]:
    """Who pays whom (RULES 4.2), as stored by the refresh. Two queries."""
    freshness = session_freshness(session)
    payments = SessionPayment.objects.filter(session_id=session.pk).select_related("payer", "payee")
    return {
        "session": session.pk,
        "computed_at": freshness.computed_at,
        "stale": freshness.stale,
        "stake_per_hundred": session.stake_per_hundred,
        "payments": [
            {
                "from": p.payer_id,
                "from_name": p.payer.name,
                "to": p.payee_id,
                "to_name": p.payee.name,
                "amount": p.amount,
            }
            for p in payments
        ],
    }


#: The ladders a club keeps apart (issue 18), the ratings' pools (docs/ratings.md): four-player
#: bridge, rubber and Chicago together, and each two-player game of RULES 7 on its own.
LADDERS = POOLS


def leaderboard_version(slug: str) -> tuple[Any, ...] | None:
    """The club's (id, public) and its leaderboard's version (scoring/shared/cache.py): the club's
    creation time and its ``LeaderboardRevision`` (the count of changes and the time of the
    latest; none before the first). None if there is no such club. One query, in SQL as
    ``Club.objects.visibility`` (the ORM cost more to compile than to run)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.id, c.public, c.created_at, r.revision, r.revised_at FROM clubs_club c"
            " LEFT JOIN scoring_leaderboardrevision r ON r.club_id = c.id WHERE c.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def leaderboard_version_for_reader(user: User | AnonymousUser, slug: str) -> tuple[Any, ...]:
    """`leaderboard_version` if the user may read the club (clubs.policy), else Http404: one
    query for a public club, as the cached leaderboard needs."""
    found = leaderboard_version(slug)
    if found is None:
        raise Http404("No such club.")
    check_club_id_readable(user, found[0], public=found[1])
    return found


def ladder_kinds(ladder: str) -> tuple[str, ...]:
    """The session kinds whose standings a ladder sums."""
    return sheets.FOUR_PLAYER if ladder == BRIDGE else (ladder,)


def club_leaderboard(
    club_id: int,
    slug: str,
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    *,
    kind: str = BRIDGE,
) -> dict[str, Any]:
    """Players over the club's sessions of one ladder (``kind``: ``LADDERS``) in
    ``[start, end]`` (all time without dates). Two queries.

    Summed from the stored session standings of the ladder's sessions only: a hundred of Bridge
    for Two is not a hundred of rubber bridge. Ranked by hundreds, then net points, equal
    figures sharing a rank. The club by its id and slug: the API reads no Club row
    (``leaderboard_version``).
    """
    kinds = ladder_kinds(kind)
    freshness = _freshness(club_id, kinds, start, end)
    rows = list(
        SessionStanding.objects.in_period(club_id, start, end)
        .filter(session__kind__in=kinds)
        .leaderboard()
    )
    entries = [
        Entry(
            player=r["player_id"],
            table=None,
            rubbers=r["total_rubbers"],
            points=0,
            net=r["total_net"],
            hundreds=r["total_hundreds"],
        )
        for r in rows
    ]
    placed = {p.player: p for p in rank_entries(entries, "net")}
    return {
        "club": slug,
        "kind": kind,
        "from": start,
        "to": end,
        "computed_at": freshness["computed_at"],
        "stale": bool(freshness["stale"]),
        "players": [_leaderboard_player(r, placed[r["player_id"]]) for r in rows],
    }


def _freshness(
    club_id: int, kinds: tuple[str, ...], start: datetime.date | None, end: datetime.date | None
) -> dict[str, Any]:
    """When the ladder's sessions in ``[start, end]`` were last computed, and how many are
    stale (one query)."""
    states = SessionStandingsState.objects.filter(session__club_id=club_id, session__kind__in=kinds)
    if start is not None:
        states = states.filter(session__date__gte=start)
    if end is not None:
        states = states.filter(session__date__lte=end)
    return states.aggregate(computed_at=Max("computed_at"), stale=Count("pk", filter=Q(stale=True)))


def _leaderboard_player(r: dict[str, Any], placing: Placing) -> dict[str, Any]:
    """A leaderboard row: the player's summed standings and their place."""
    return {
        "player": r["player_id"],
        "name": r["player__name"],
        "rank": placing.rank,
        "place_shared": placing.tied,
        "place": placing.place,
        "sessions": r["sessions"],
        "rubbers": r["total_rubbers"],
        "won": r["total_won"],
        "lost": r["total_rubbers"] - r["total_won"] - r["total_tied"],
        "tied": r["total_tied"],
        "hundreds": r["total_hundreds"],
        "net": r["total_net"],
        "money": r["total_money"] or Decimal("0.00"),
    }


@dataclass(frozen=True)
class HistoryPoint:
    date: datetime.date
    session: int
    hundreds: int
    cumulative: int


def player_history(player: Player) -> dict[str, Any]:
    """A player's sessions (oldest first) with the running total of their back score, and their
    rubbers; each game's apart (``games``: one per ladder played, ``LADDERS`` order), as the
    leaderboards keep them: a Misery match's hundreds are not a rubber bridge's. ``points``:
    the running total of the first. Two queries."""
    # Another player of the session holds the same rank: the place is shared ("=1"), as the
    # standings write it.
    same_rank = SessionStanding.objects.filter(
        session_id=OuterRef("session_id"), rank=OuterRef("rank")
    ).exclude(player_id=OuterRef("player_id"))
    standings = list(
        SessionStanding.objects.filter(player=player)
        .select_related("session")
        .annotate(place_shared=Exists(same_rank))
        .order_by("date", "session_id")
    )
    for row in standings:
        row.place = place_label(row.rank, row.place_shared)  # type: ignore[attr-defined]
    rubbers = list(
        RubberResult.objects.filter(player=player)
        .annotate(table_id=F("rubber__table_id"), kind=F("rubber__kind"))
        .order_by("-date", "-session_id", "table_number", "rubber_number")
    )
    games = []
    for ladder in LADDERS:
        mine = [row for row in standings if pool_of(row.session.kind) == ladder]
        if not mine:
            continue
        points = list(cumulative(mine))
        games.append(
            {
                "ladder": ladder,
                "label": _ladder_label(ladder),
                "sessions": list(zip(mine, points, strict=True)),
                "rubbers": [r for r in rubbers if pool_of(r.kind) == ladder],
                "points": points,
            }
        )
    return {
        "games": games,
        "sessions": games[0]["sessions"] if games else [],
        "rubbers": games[0]["rubbers"] if games else [],
        "points": games[0]["points"] if games else [],
    }


def _game_label(kind: str) -> str:
    return str(Session.Kind(kind).label) if kind in Session.Kind.values else kind


def _ladder_label(ladder: str) -> str:
    """A ladder's name on the pages: four-player bridge, or the two-player game's name."""
    if ladder == BRIDGE:
        return gettext("Bridge (rubber and Chicago)")
    return _game_label(ladder)


def cumulative(standings: Iterable[SessionStanding]) -> Iterable[HistoryPoint]:
    total = 0
    for row in standings:
        total += row.hundreds
        yield HistoryPoint(row.date, row.session_id, row.hundreds, total)


# --- the player's page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Partnership:
    """Ended rubbers a player played with one partner, and how they went."""

    player: int
    name: str
    played: int
    won: int
    lost: int
    drawn: int


def partnerships(
    mine: dict[int, tuple[str, bool, int]], others: Iterable[tuple[int, int, str, str]]
) -> list[Partnership]:
    """Tally the partners of a player from their rubbers (``mine``: rubber → side, won, net) and
    the other players' rows of those rubbers (rubber, player, name, side); most played first.
    A rubber with equal totals (net 0) is drawn (RULES 2.5)."""
    tally: dict[int, dict[str, Any]] = {}
    for rubber_id, pid, name, side in others:
        if rubber_id not in mine or mine[rubber_id][0] != side:
            continue
        _, won, net = mine[rubber_id]
        row = tally.setdefault(pid, {"name": name, "played": 0, "won": 0, "lost": 0, "drawn": 0})
        row["played"] += 1
        row["won" if won else "drawn" if net == 0 else "lost"] += 1
    found = [Partnership(player=pid, **row) for pid, row in tally.items()]
    return sorted(found, key=lambda p: (-p.played, -p.won, p.name, p.player))


def best_and_worst(found: list[Partnership]) -> tuple[Partnership | None, Partnership | None]:
    """The partner the player won most rubbers with, and the one they lost most with (ties: the
    fewer of the other outcome, then the name)."""
    winning = [p for p in found if p.won]
    losing = [p for p in found if p.lost]
    best = min(winning, key=lambda p: (-p.won, p.lost, p.name, p.player), default=None)
    worst = min(losing, key=lambda p: (-p.lost, p.won, p.name, p.player), default=None)
    return best, worst


@dataclass(frozen=True)
class MoneyPoint:
    date: datetime.date
    session: int
    money: Decimal
    cumulative: Decimal


RECENT_RUBBERS = 10


def player_page(player: Player) -> dict[str, Any]:
    """What the player's page shows apart from the ratings: sessions played, rubbers won, lost
    and drawn, hundreds and money over time, partnerships, the latest rubbers. Three queries."""
    standings = list(
        SessionStanding.objects.filter(player=player, rubbers__gt=0).order_by("date", "session_id")
    )
    results = list(
        RubberResult.objects.filter(player=player)
        # The page links each table it names, and says which game each rubber was.
        .annotate(table_id=F("rubber__table_id"), kind=F("rubber__kind"))
        .order_by("-date", "-session_id", "-table_number", "-rubber_number")
    )
    for result in results:
        result.game = _game_label(result.kind)  # type: ignore[attr-defined]
    ended = [r for r in results if not r.provisional]
    mine = {r.rubber_id: (r.side, r.won, r.net) for r in ended}
    others = (
        RubberResult.objects.filter(
            rubber_id__in=RubberResult.objects.filter(player=player, provisional=False).values(
                "rubber_id"
            )
        )
        .exclude(player=player)
        .order_by()
        .values_list("rubber_id", "player_id", "player__name", "side")
    )
    partners = partnerships(mine, others)
    best, worst = best_and_worst(partners)
    money, total = [], Decimal("0.00")
    for row in standings:
        total += row.money
        money.append(MoneyPoint(row.date, row.session_id, row.money, total))
    won = sum(1 for r in ended if r.won)
    drawn = sum(1 for r in ended if not r.won and r.net == 0)
    return {
        "sessions": len(standings),
        "rubbers": len(ended),
        "won": won,
        "drawn": drawn,
        "lost": len(ended) - won - drawn,
        "hundreds": list(cumulative(standings)),
        "money": money,
        "partners": partners,
        "best": best,
        "worst": worst,
        "recent": results[:RECENT_RUBBERS],
    }
