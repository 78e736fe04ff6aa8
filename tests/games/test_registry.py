"""The game registry (issue 16): every game has all its parts, and a game is added in one place.

A game is one engine module, one entry in `scoring.rules.games` and its pages in
games/registry.py (docs/architecture.md, "The game registry"); no code compares a kind with a
game's code (tests/games/test_kind_guard.py keeps the other switches on the kind from growing).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import polib
import pytest
from django.template.loader import get_template
from django.utils import translation

from clubs.models import Session
from games import registry, sheets
from games.forms import TwoPlayerFields
from games.models import Deal, DealFields, Rubber
from scoring.rules import HouseRules, ScoringError
from scoring.rules.cli import main
from scoring.rules.games import GAMES, DealLike, Game, Result, Scored, register

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = (ROOT / "docs" / "rules.md").read_text()
PO = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po"
KINDS = list(GAMES)


def test_the_games_are_the_six_of_rules_2_5_and_7():
    assert KINDS == ["rubber", "chicago", "bridge_for_two", "misery", "turnover", "draw_discard"]
    assert [GAMES[k].seats for k in KINDS] == [4, 4, 2, 2, 2, 2]


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_its_engine_parts(kind):
    game = GAMES[kind]
    assert game.code == kind
    assert callable(game.run) and callable(game.score)
    assert game.seats in (2, 4)
    # A two-player deal is JSON the engine makes canonical; a four-player deal is model fields.
    assert (game.normalise is not None) == game.two_player
    # Its rule section is the one docs/rules.md (the account of RULES.md) gives it.
    section = game.rule.removeprefix("RULES ")
    assert re.search(rf"§{re.escape(section)}\b", RULES_DOC), game.rule


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_its_pages(kind):
    page = registry.pages(kind)
    assert callable(page.pad_builder)
    get_template(page.pad_template)
    get_template(page.entry_template)
    # Two-player games enter their own fields; four-player games the contract taps.
    assert isinstance(page.entry, TwoPlayerFields) == GAMES[kind].two_player
    assert set(registry.PAGES) == set(GAMES)
    # Its words, summary and the templates of its rotation and card.
    assert isinstance(page.words, registry.GameWords) and callable(page.summary)
    get_template(page.rotation_template)
    get_template(page.card_template)
    assert page.named_players == page.own_leaderboard == GAMES[kind].two_player


#: Deals of each game, as stored: a four-player deal's fields, a two-player deal's JSON.
SAMPLE_DEALS = [
    ("rubber", {"contract": "4S", "declarer": "N", "tricks": 10}),
    (
        "rubber",
        {
            "contract": "3NTX",
            "declarer": "W",
            "tricks": 8,
            "honours_side": "EW",
            "honours_points": 150,
        },
    ),
    ("chicago", {"contract": "pass"}),
    (
        "bridge_for_two",
        {
            "data": {
                "declarer": 0,
                "strain": "S",
                "tricks": 8,
                "doubled": 1,
                "honours": {"player": 1, "points": 100},
            }
        },
    ),
    ("bridge_for_two", {"data": {"declarer": 1, "strain": "C", "tricks": 1, "doubled": 0}}),
    (
        "misery",
        {
            "data": {
                "declarer": 1,
                "strain": "NT",
                "tricks": 3,
                "doubled": 0,
                "declaration": "misery",
            }
        },
    ),
    (
        "misery",
        {"data": {"declarer": 0, "strain": "H", "tricks": 9, "doubled": 0, "declaration": "eight"}},
    ),
    ("turnover", {"data": {"tricks": [14, 12]}}),
    ("draw_discard", {"data": {"contract": "3H", "declarer": 0, "tricks": 9, "doubled": 1}}),
    ("draw_discard", {"data": {"contract": "pass"}}),
]


@pytest.mark.parametrize(("kind", "fields"), SAMPLE_DEALS)
@pytest.mark.parametrize("names", [None, ["Ann", "Bob"]])
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_deals_summary_is_its_games_own(kind, fields, names, language):
    # `Deal.summary` asks the game of the deal's rubber (games/summaries.py), with no guess.
    deal = Deal(rubber=Rubber(kind=kind), **fields)
    with translation.override(language):
        assert deal.summary(names) == registry.PAGES[kind].summary(deal, names)
        assert deal.summary(names) == registry.summarise(kind, deal, names)


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_is_a_command_a_choice_and_a_translated_name(kind):
    game = GAMES[kind]
    # The command is there: it reads the input and refuses it with the field it names.
    status, out, err = run_cli(game.command, '{"x": 1}')
    assert (status, out) == (2, "")
    assert err.startswith(("x: unknown field", "deals:", "tricks:")), err
    assert (kind, game.label) in [(value, str(label)) for value, label in Session.Kind.choices]
    assert (kind, game.label) in [(value, str(label)) for value, label in Rubber.kind.field.choices]
    entry = polib.pofile(str(PO)).find(game.label)
    assert entry is not None and entry.translated()


def test_the_choices_are_the_registry_in_its_order_rubber_first():
    assert [value for value, _label in Session.Kind.choices] == KINDS
    assert Session._meta.get_field("kind").default == "rubber"
    assert sheets.TWO_PLAYER == ("bridge_for_two", "misery", "turnover", "draw_discard")
    assert sheets.FOUR_PLAYER == ("rubber", "chicago")


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ScoringError, match="'whist' is not a game Backscore scores"):
        sheets.score("whist", [], closed=False, options=HouseRules())


# --- a game added in one place flows through -----------------------------------------------------


def _run_coin(data: Mapping[str, Any]) -> dict[str, Any]:
    heads = data.get("heads")
    if not isinstance(heads, list):
        raise ScoringError("heads", "expected a list of tosses")
    return {"heads": sum(1 for toss in heads if toss == 0), "tails": sum(1 for t in heads if t)}


def _score_coin(deals: Sequence[DealLike], closed: bool, options: HouseRules) -> Scored:
    tosses = [d.data["toss"] for d in deals]
    totals = (tosses.count(0), tosses.count(1))
    winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    return Scored(None, len(tosses) >= 3, Result(totals, (0, 0), (0, 0), winner))


def _normalise_coin(data: Mapping[str, Any]) -> dict[str, Any]:
    if data.get("toss") not in (0, 1):
        raise ScoringError("toss", "{value!r} is not 0 or 1", "RULES 9", value=data.get("toss"))
    return {"toss": data["toss"]}


COIN = Game(
    code="coin",
    label="Coin toss",
    seats=2,
    rule="RULES 9",
    back_score=False,
    command="coin",
    run=_run_coin,
    score=_score_coin,
    normalise=_normalise_coin,
)


@pytest.fixture
def coin() -> Iterator[Game]:
    register(COIN)
    try:
        yield COIN
    finally:
        del GAMES["coin"]


def run_cli(command: str, text: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        status = main([command], io.StringIO(text), stdout, stderr)
    except SystemExit as exit_:  # argparse refusing an unknown command
        status = int(exit_.code or 0)
    return status, stdout.getvalue(), stderr.getvalue()


def test_a_game_registered_in_one_place_is_a_command(coin):
    assert run_cli("coin", '{"heads": [0, 1, 0]}') == (0, '{\n  "heads": 2,\n  "tails": 1\n}\n', "")
    assert run_cli("coin", '{"heads": 3}') == (2, "", "heads: expected a list of tosses\n")


def test_a_game_not_registered_is_no_command(capsys):
    status, _out, _err = run_cli("coin", "{}")
    assert status == 2 and "invalid choice: 'coin'" in capsys.readouterr().err


def test_a_game_registered_in_one_place_is_scored_and_its_deals_checked(coin):
    class Deal:
        def __init__(self, toss: int) -> None:
            self.data = {"toss": toss}

    sheet = sheets.score("coin", [Deal(1), Deal(1), Deal(0)], closed=False, options=HouseRules())
    assert (sheet.complete, sheet.result.totals, sheet.result.winner) == (True, (1, 2), 1)
    assert not sheet.has_back_score
    assert sheets.is_two_player("coin")
    assert DealFields.build(kind="coin", data={"toss": 1}).data == {"toss": 1}
    with pytest.raises(ScoringError) as refused:
        DealFields.build(kind="coin", data={"toss": 2})
    assert (refused.value.field, refused.value.rule) == ("toss", "RULES 9")


def test_a_game_is_registered_once(coin):
    with pytest.raises(ValueError, match="already registered"):
        register(COIN)
    assert list(GAMES) == [*KINDS, "coin"]


def test_pages_are_given_to_registered_games_only():
    with pytest.raises(ScoringError):
        registry.register_pages("coin", registry.pages("turnover"))
    assert "coin" not in registry.PAGES


# --- nobody else switches on the kind ------------------------------------------------------------

#: A comparison of a kind with a game's code: `kind == "chicago"`, `kind in ("misery", …)`,
#: `kind == sheets.TURNOVER`, `kind in (Session.Kind.MISERY, …)`.
CODES = "|".join([*GAMES, *(code.upper() for code in GAMES)])
SWITCH = re.compile(rf"""kind\s*(?:==|!=|in\s*[(\[])\s*(?:["']|[\w.]*\.)(?:{CODES})\b""")


def test_no_code_or_template_switches_on_a_games_code():
    sources = [
        *sorted((ROOT / "games").glob("*.py")),
        *sorted((ROOT / "clubs").glob("*.py")),
        *sorted(path for path in (ROOT / "scoring").rglob("*.py") if path.name != "games.py"),
        *sorted((ROOT / "templates").rglob("*.html")),
    ]
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sources
        for match in SWITCH.finditer(path.read_text())
    ]
    assert not found, "ask the registry (scoring.rules.games, games/registry.py):\n" + "\n".join(
        found
    )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", ["en", "it"])
def test_every_game_says_what_closing_does_to_it_in_both_languages(kind, language):
    """The close page's sentence is the game's own (issue 30): it cites the rule that scores a
    match stopped (the engine's own section for its unfinished bonuses where it has them) and
    formats with the house rules' figures, translated."""
    from django.utils import translation

    from scoring.rules.explain import SECTIONS

    closing = registry.pages(kind).closing
    book = "RULES" if language == "en" else "REGOLE"
    with translation.override(language):
        sentence = closing.sentence(HouseRules())
        row = closing.row_words()
    assert f"({book} " in row or f" {book} " in sentence
    assert closing.rule.removeprefix("RULES") in sentence
    if closing.bonuses is not None:
        game_bonus, _ = closing.bonuses(HouseRules())
        assert str(game_bonus) in sentence
        unfinished = "two_player_unfinished_game" if GAMES[kind].two_player else "unfinished_game"
        assert closing.rule == SECTIONS[unfinished]
    if language == "it":
        assert "RULES" not in sentence + row
