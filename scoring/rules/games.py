"""The game registry: one entry per game Backscore scores (RULES 2, 5, 7).

An entry (`Game`) says everything the rest of the code asks of a game: its code (the value stored
in `Session.kind` and `Rubber.kind`), its name, its seats (four players in two pairs, or two
players), its rule section, how its input is read (`python -m scoring <command>`), how a match's
recorded deals are scored (`score`, the figures every game has: `Result`), and, for a two-player
game, a deal's canonical JSON (`normalise`). The models, forms, sheets, CLI and views look a game
up here (`game(kind)`) instead of switching on its code; the Django side adds its templates and
forms by code (games/registry.py). Standard library only, like the rest of `scoring.rules`.

Adding a game: an engine module (its deal, parser and scorer), one `register(Game(...))` here, and
its templates in games/registry.py (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.rules.chicago import score_chicago
from scoring.rules.contract import Side
from scoring.rules.deal import DealInput
from scoring.rules.errors import ScoringError
from scoring.rules.options import HouseRules
from scoring.rules.reading import check_keys, read_closed, read_deals, read_options
from scoring.rules.rubber import hundreds, score_rubber
from scoring.rules.rubber_totals import rubber_totals_keys
from scoring.rules.two_player import (
    DrawDiscardDeal,
    TwoPlayerDeal,
    draw_discard_deals_from_json,
    score_bridge_for_two,
    score_draw_discard,
    score_misery,
    turnover_from_json,
    two_player_deals_from_json,
)

__all__ = [
    "GAMES",
    "DealLike",
    "Game",
    "Result",
    "Scored",
    "game",
    "kinds",
    "register",
]


def gettext_noop(text: str) -> str:
    """Marks a game's name for `makemessages`; the Django side translates it (`gettext_lazy`)."""
    return text


class DealLike(Protocol):
    """What scoring reads from a recorded deal: a four-player deal's fields (`as_input()`) or a
    two-player deal's JSON (`data`)."""

    data: Any

    def as_input(self) -> DealInput: ...


@dataclass(frozen=True)
class Result:
    """The figures every game has, per place (0 is NS or player 0, 1 is EW or player 1): totals,
    net, hundreds (0 without a back score) and who won (`winner`, None while open or on a tie)."""

    totals: tuple[int, int]
    net: tuple[int, int]
    hundreds: tuple[int, int]
    winner: int | None


@dataclass(frozen=True)
class Scored:
    """A match scored: the engine's own object (`score.to_dict()` is the CLI's JSON; None for a
    Turnover game before its result), whether the match is over and its `Result`."""

    score: Any
    complete: bool
    result: Result


#: A match's recorded deals, in order → its score (`closed`: play stopped for good, RULES 8.4).
Scorer = Callable[[Sequence[DealLike], bool, HouseRules], Scored]
#: A four-player match's deals as their `DealInput.key`s, in order → its `Result` alone: the
#: figures `Scorer` gives, without the sheet a page shows (the standings' rebuild replays every
#: match of a federation this way).
KeyScorer = Callable[[Sequence[int], bool, HouseRules], Result]
#: `python -m scoring <command>`: one JSON object in, one JSON object out (or a ScoringError).
Command = Callable[[Mapping[str, Any]], dict[str, Any]]
#: A two-player deal as entered → its canonical JSON, checked by the engine.
Normaliser = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Game:
    code: str
    #: English; marked with `gettext_noop` and translated by the Django side.
    label: str
    #: 4: two pairs (N–S against E–W, five or six at a table sit out in turn, RULES 6);
    #: 2: player 0 (seated at N) against player 1 (at E), RULES 7.
    seats: int
    #: The RULES.md section that defines the game ("RULES 7.1").
    rule: str
    #: Its margin becomes a back score in hundreds (RULES 4.1).
    back_score: bool
    #: The CLI's subcommand and its handler.
    command: str
    run: Command
    score: Scorer
    #: Two-player games: a deal's JSON made canonical. Four-player deals are model fields.
    normalise: Normaliser | None = None
    #: A deal after the match's end is the engine's to refuse, citing the game's own rule (a race
    #: to a target, RULES 7.4), not a deal for the next match (RULES 8.1).
    engine_refuses_after_end: bool = False
    #: The `Result` from the deals' keys, where the game has such a path (equal to `score`'s).
    result_of_keys: KeyScorer | None = None

    @property
    def two_player(self) -> bool:
        return self.seats == 2


#: Code → entry, in the order the games are offered (the first is the default).
GAMES: dict[str, Game] = {}


def register(entry: Game) -> Game:
    """Add a game (its code and command must be new)."""
    if entry.code in GAMES or any(g.command == entry.command for g in GAMES.values()):
        raise ValueError(f"game {entry.code!r} or command {entry.command!r} already registered")
    GAMES[entry.code] = entry
    return entry


def game(kind: str) -> Game:
    """The entry of `kind`; a kind nobody registered is refused."""
    try:
        return GAMES[kind]
    except KeyError:
        raise ScoringError(
            "kind", "{value!r} is not a game Backscore scores", None, value=kind
        ) from None


def kinds(*, seats: int | None = None) -> tuple[str, ...]:
    """The codes of the registered games, all or those with so many seats."""
    return tuple(code for code, g in GAMES.items() if seats is None or g.seats == seats)


def _pair(values: Mapping[Side, int]) -> tuple[int, int]:
    return (values[Side.NS], values[Side.EW])


def _leader(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def _margin(totals: tuple[int, int]) -> tuple[int, int]:
    return (totals[0] - totals[1], totals[1] - totals[0])


# --- Rubber bridge (RULES 2, 3, 4) -------------------------------------------------------------


def _rubber_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"deals": [{"contract", "declarer", "tricks", "honours"?}, ...], "closed"?: false,
    "options"?: {}, "preset"?: "acbl"}``."""
    check_keys(data, {"deals", "closed", "options", "preset"})
    options = read_options(data)
    closed = read_closed(data)
    return score_rubber(read_deals(data), closed=closed, options=options).to_dict()


def _four_player_scored(sheet: Any, complete: bool) -> Scored:
    """A rubber's or a Chicago's sheet as the registry's `Scored`: both keep totals, net points,
    back score in hundreds and a points leader by side (RULES 2.5, 5)."""
    leader = sheet.points_leader
    return Scored(
        sheet,
        complete,
        Result(
            _pair(sheet.totals),
            _pair(sheet.net),
            _pair(sheet.back_score_hundreds),
            None if leader is None else leader.ordinal,
        ),
    )


def _score_rubber(deals: Sequence[DealLike], closed: bool, options: HouseRules) -> Scored:
    rubber = score_rubber([d.as_input() for d in deals], closed=closed, options=options)
    return _four_player_scored(rubber, rubber.rubber_complete)


def _rubber_result(keys: Sequence[int], closed: bool, options: HouseRules) -> Result:
    """`_score_rubber(...).result` from the deals' keys: the same replay (RULES 2, 8.2) without
    its items (`rubber_totals_keys`), with totals, net, hundreds (RULES 4.1) and the points
    leader (RULES 2.5) read off its totals."""
    ns, ew = rubber_totals_keys(keys, closed=closed, options=options)
    back = hundreds(ns - ew)
    return Result((ns, ew), (ns - ew, ew - ns), (back, -back), _leader((ns, ew)))


register(
    Game(
        code="rubber",
        label=gettext_noop("Rubber bridge"),
        seats=4,
        rule="RULES 2",
        back_score=True,
        command="rubber",
        run=_rubber_command,
        score=_score_rubber,
        result_of_keys=_rubber_result,
    )
)


# --- Chicago (RULES 5) ---------------------------------------------------------------------------


def _chicago_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"deals": [...], "options"?: {}, "preset"?: "acbl"}``; passed-out deals included."""
    check_keys(data, {"deals", "options", "preset"})
    options = read_options(data)
    return score_chicago(read_deals(data), options=options).to_dict()


def _score_chicago(deals: Sequence[DealLike], closed: bool, options: HouseRules) -> Scored:
    chicago = score_chicago([d.as_input() for d in deals], options=options)
    return _four_player_scored(chicago, chicago.complete)


register(
    Game(
        code="chicago",
        label=gettext_noop("Chicago"),
        seats=4,
        rule="RULES 5",
        back_score=True,
        command="chicago",
        run=_chicago_command,
        score=_score_chicago,
    )
)


# --- Bridge for Two (RULES 7.1) and Misery Bridge (RULES 7.2) -----------------------------------


def _two_player_command(*, misery: bool) -> Command:
    scorer = score_misery if misery else score_bridge_for_two

    def command(data: Mapping[str, Any]) -> dict[str, Any]:
        """RULES 7.1: ``{"deals": [{"declarer": 0|1, "strain", "doubled"?: 0|1, "tricks",
        "honours"?: {"player", "points"}}], "closed"?: false, "options"?: {}, "preset"?}``;
        RULES 7.2 (Misery): each deal with ``"declaration": "ordinary"|"eight"|"misery"`` and
        no doubling."""
        check_keys(data, {"deals", "closed", "options", "preset"})
        options = read_options(data)
        deals = two_player_deals_from_json(data.get("deals"), misery=misery)
        return scorer(deals, closed=read_closed(data), options=options).to_dict()

    return command


def _two_player_scorer(*, misery: bool) -> Scorer:
    scorer = score_misery if misery else score_bridge_for_two

    def score(deals: Sequence[DealLike], closed: bool, options: HouseRules) -> Scored:
        parsed = two_player_deals_from_json([d.data for d in deals], misery=misery)
        match = scorer(parsed, closed=closed, options=options)
        return Scored(
            match,
            match.rubber_complete,
            Result(match.totals, match.net, match.back_score_hundreds, match.points_leader),
        )

    return score


def _normalise_bridge_for_two(data: Mapping[str, Any]) -> dict[str, Any]:
    return TwoPlayerDeal.from_dict(data).to_dict()


def _normalise_misery(data: Mapping[str, Any]) -> dict[str, Any]:
    canonical = TwoPlayerDeal.from_dict(data, misery=True).to_dict()
    canonical.setdefault("declaration", "ordinary")
    return canonical


register(
    Game(
        code="bridge_for_two",
        label=gettext_noop("Bridge for Two"),
        seats=2,
        rule="RULES 7.1",
        back_score=True,
        command="bridge-for-two",
        run=_two_player_command(misery=False),
        score=_two_player_scorer(misery=False),
        normalise=_normalise_bridge_for_two,
    )
)
register(
    Game(
        code="misery",
        label=gettext_noop("Misery Bridge"),
        seats=2,
        rule="RULES 7.2",
        back_score=True,
        command="misery",
        run=_two_player_command(misery=True),
        score=_two_player_scorer(misery=True),
        normalise=_normalise_misery,
    )
)


# --- Turnover Bridge (RULES 7.3) ----------------------------------------------------------------


def _turnover_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """RULES 7.3: ``{"tricks": [t0, t1]}``."""
    return turnover_from_json(data).to_dict()


def _score_turnover(deals: Sequence[DealLike], closed: bool, options: HouseRules) -> Scored:
    raw = [d.data for d in deals]
    if len(raw) > 1:
        raise ScoringError(f"deals[{len(raw) - 1}]", "a Turnover game has one result", "RULES 7.3")
    if not raw:
        return Scored(None, False, Result((0, 0), (0, 0), (0, 0), None))
    try:
        result = turnover_from_json(raw[0])
    except ScoringError as error:
        raise error.within("deals[0]") from None
    tricks = (result.tricks[0], result.tricks[1])
    return Scored(result, True, Result(tricks, _margin(tricks), (0, 0), result.winner))


def _normalise_turnover(data: Mapping[str, Any]) -> dict[str, Any]:
    return {"tricks": list(turnover_from_json(data).tricks)}


register(
    Game(
        code="turnover",
        label=gettext_noop("Turnover Bridge"),
        seats=2,
        rule="RULES 7.3",
        back_score=False,
        command="turnover",
        run=_turnover_command,
        score=_score_turnover,
        normalise=_normalise_turnover,
    )
)


# --- Draw and Discard Bridge (RULES 7.4) --------------------------------------------------------


def _draw_discard_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """RULES 7.4: ``{"target"?: 500, "deals": [{"declarer": 0|1, "contract": "4S"|"pass",
    "tricks"}], "options"?: {}, "preset"?}``."""
    check_keys(data, {"target", "deals", "options", "preset"})
    options = read_options(data)
    deals = draw_discard_deals_from_json(data.get("deals"))
    return score_draw_discard(deals, target=data.get("target"), options=options).to_dict()


def _score_draw_discard(deals: Sequence[DealLike], closed: bool, options: HouseRules) -> Scored:
    played = score_draw_discard(
        draw_discard_deals_from_json([d.data for d in deals]), options=options
    )
    scores = (played.scores[0], played.scores[1])
    # The first to the target wins; a game stopped short is won on points (as RULES 2.5).
    winner = played.winner if played.finished else _leader(scores)
    return Scored(played, played.finished, Result(scores, _margin(scores), (0, 0), winner))


def _normalise_draw_discard(data: Mapping[str, Any]) -> dict[str, Any]:
    return DrawDiscardDeal.from_dict(data).to_dict()


register(
    Game(
        code="draw_discard",
        label=gettext_noop("Draw and Discard Bridge"),
        seats=2,
        rule="RULES 7.4",
        back_score=False,
        command="draw-discard",
        run=_draw_discard_command,
        score=_score_draw_discard,
        normalise=_normalise_draw_discard,
        engine_refuses_after_end=True,
    )
)
