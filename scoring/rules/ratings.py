"""Ratings of rubber players: OpenSkill's Plackett–Luce model replayed over ended matches.

Plain values in and out (no Django): a pool's matches, each with its two teams (the two
partnerships, or the two players of a two-player game) and the teams' totals as the pad shows
them (RULES 2, 5, 7: above and below the line, bonuses included). docs/ratings.md has the rules
in words; these functions are their one implementation:

- The team with more points ranks first; equal totals are a draw (equal ranks).
- Matches are replayed by the time they ended, then by id; a match with no end time comes last.
- Everyone starts from the model's defaults (mu 25, sigma 25/3; beta 25/6, tau 25/300), with
  no other options. The rating shown is the ordinal, mu - 3 sigma.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

WON, LOST, DRAWN = "won", "lost", "drawn"


@dataclass(frozen=True)
class Match:
    """One ended match: ``teams[i]`` (player ids) scored ``totals[i]`` points."""

    key: int
    ended_at: datetime.datetime | None
    teams: tuple[tuple[int, ...], tuple[int, ...]]
    totals: tuple[int, int]


@dataclass(frozen=True)
class Step:
    """A player's rating just after a match (``position``: its place in the replay, from 0)."""

    match: int
    position: int
    player: int
    outcome: str
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class Rating:
    """A player's rating after every match they played, with their record."""

    player: int
    mu: float
    sigma: float
    ordinal: float
    matches: int
    won: int
    lost: int
    drawn: int


def replay_order(matches: Iterable[Match]) -> list[Match]:
    """The matches in the order they are rated: by end time, then by key (none last)."""
    far = datetime.datetime.max.replace(tzinfo=datetime.UTC)
    return sorted(matches, key=lambda m: (m.ended_at is None, m.ended_at or far, m.key))


def ranks(totals: tuple[int, int]) -> list[float]:
    """Plackett–Luce ranks of the two teams (1 first): more points first, equal a draw."""
    if totals[0] == totals[1]:
        return [1, 1]
    return [1, 2] if totals[0] > totals[1] else [2, 1]


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma (low while the model is unsure of a player)."""
    return mu - 3 * sigma


def _outcome(totals: tuple[int, int], team: int) -> str:
    mine, theirs = totals[team], totals[1 - team]
    return DRAWN if mine == theirs else WON if mine > theirs else LOST


def replay(matches: Sequence[Match]) -> tuple[list[Rating], list[Step]]:
    """Rate a pool's matches in ``replay_order`` from the initial ratings; return every
    player's final rating (highest ordinal first, then player id) and each player's rating
    after each of their matches (in replay order)."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    record: dict[int, dict[str, int]] = {}
    steps: list[Step] = []
    for position, match in enumerate(replay_order(matches)):
        teams = [[current.get(pid, model.rating()) for pid in team] for team in match.teams]
        rated = model.rate(teams, ranks=ranks(match.totals))
        for side, (team, ratings) in enumerate(zip(match.teams, rated, strict=True)):
            outcome = _outcome(match.totals, side)
            for pid, rating in zip(team, ratings, strict=True):
                current[pid] = rating
                tally = record.setdefault(pid, {WON: 0, LOST: 0, DRAWN: 0})
                tally[outcome] += 1
                steps.append(
                    Step(
                        match.key,
                        position,
                        pid,
                        outcome,
                        rating.mu,
                        rating.sigma,
                        ordinal(rating.mu, rating.sigma),
                    )
                )
    final = [
        Rating(
            player=pid,
            mu=rating.mu,
            sigma=rating.sigma,
            ordinal=ordinal(rating.mu, rating.sigma),
            matches=sum(record[pid].values()),
            won=record[pid][WON],
            lost=record[pid][LOST],
            drawn=record[pid][DRAWN],
        )
        for pid, rating in current.items()
    ]
    final.sort(key=lambda r: (-r.ordinal, r.player))
    return final, steps
