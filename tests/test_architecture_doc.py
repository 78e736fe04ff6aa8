"""docs/architecture.md tells the truth (issue 27): its "What lives where" row of `games/` names
the packages and modules that exist, its list of import-linter contracts is `.importlinter`'s,
the write policy it names is the one the verbs ask, and the "Add a two-player game" recipe
counts its own steps."""

from __future__ import annotations

import configparser
import inspect
import re

from games import permissions
from games.models import Deal, Rubber
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
GAMES = ROOT / "games"


def _games_row() -> str:
    """What the row says `games/` holds (its second cell)."""
    (row,) = [line for line in DOC.splitlines() if line.startswith("| `games/` |")]
    return row.split(" | ")[1]


def _section(title: str) -> str:
    start = DOC.index(title)
    ends = [i for i in (DOC.find("\n## ", start + 1), DOC.find("\n### ", start + 1)) if i > 0]
    return DOC[start : min(ends)]


def test_the_games_row_names_every_package_of_games_and_nothing_that_is_not_there():
    row = _games_row()
    named = set(re.findall(r"`([\w/]+(?:\.py|/))`", row))
    packages = {
        f"{path.parent.relative_to(GAMES).as_posix()}/"
        for path in GAMES.rglob("__init__.py")
        if path.parent != GAMES and not {"migrations", "management"} & set(path.parts)
    }
    assert packages - {"templatetags/"} <= named, packages - named
    files = {path.relative_to(GAMES).as_posix() for path in GAMES.rglob("*.py")}
    names = {path.name for path in GAMES.rglob("*.py")}
    missing = [
        name
        for name in named
        if not (name.endswith("/") and (GAMES / name / "__init__.py").exists())
        and name not in files
        and name not in names
    ]
    assert missing == []


def test_the_games_row_names_the_one_write_policy_the_verbs_ask():
    row = _games_row()
    assert "`permissions.py` (the one write policy" in row
    for name in re.findall(r"`(may_\w+)`", row):
        assert callable(getattr(permissions, name)), name
    for verb in (
        Rubber.record_deal,
        Deal.correct,
        Deal.delete_last,
        Deal.confirm,
        Deal.dispute,
        Deal.rule,
    ):
        actor = inspect.signature(verb).parameters["actor"]
        assert actor.kind is inspect.Parameter.KEYWORD_ONLY, verb
        assert actor.default is inspect.Parameter.empty, verb


def test_the_docs_list_every_import_linter_contract():
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    contracts = {
        name.removeprefix("importlinter:contract:")
        for name in config.sections()
        if name.startswith("importlinter:contract:")
    }
    listed = set(re.findall(r"^- `([\w-]+)`:", DOC, re.MULTILINE))
    assert listed == contracts


def test_the_two_player_recipe_counts_its_steps():
    recipe = _section("### Add a two-player game")
    steps = re.findall(r"^(\d)\. ", recipe, re.MULTILINE)
    assert steps == [str(n) for n in range(1, len(steps) + 1)]
    stated = re.search(r"That is (\d+) files", recipe)
    assert stated is not None and int(stated.group(1)) == len(steps)
    # The files it names for a game's own summary and pad are the ones the registry reads.
    assert "`games/summaries.py`" in recipe and "`games/layouts.py`" in recipe
    assert "PADS" not in recipe
    for test in re.findall(r"\(`(test_\w+)`\)", recipe):
        assert f"def {test}(" in (ROOT / "tests/games/test_made_up_game.py").read_text(), test
