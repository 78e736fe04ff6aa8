"""No new place switches on the kind of game outside the registry (issue 27).

The registry modules (games/registry.py, games/summaries.py, games/sheets.py, the `games`
template tags and the engine's scoring/rules/games.py) say what each game is and how its pages
speak of it; everything else asks them. A place that still switches on the kind itself
(`is_two_player`, `layout == ...`, `kind == ...`, `.kind in ...`, a template's
`{% if two_player %}`) is listed in tests/games/kind_switches.txt, one "path: line text" per
place, matched by its text and not by its line number. The list may only shrink: a new place
fails this test, which prints it; a place gone from the code must leave the list, and the list
may not grow past `CEILING` (lower it when you remove places).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from scoring.rules.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = Path(__file__).with_name("kind_switches.txt")

#: The places the list held when it was written; lower it as the list shrinks, never raise it.
CEILING = 42

#: The registry's own modules: switching on the kind is their job.
REGISTRY = {
    "games/registry.py",
    "games/summaries.py",
    "games/sheets.py",
    "games/templatetags/games.py",
    "scoring/rules/games.py",
}

#: The games' codes as an enum names them (`Session.Kind.MISERY`): a `kind == X.Kind.ARRIVE` of
#: another enum (a table change's kind) is no game's.
CODES = "|".join(code.upper() for code in GAMES)

#: A switch on the kind in Python or a template.
SWITCH = re.compile(
    r"""\bis_two_player\b"""
    r"""|\blayout\s*(?:==|!=)"""
    rf"""|\bkind\s*(?:==|!=)(?!\s*[\w.]*Kind\.(?!(?:{CODES})\b))"""
    r"""|\.kind\s+(?:not\s+)?in\b"""
    r"""|\{%\s*(?:el)?if\b[^%]*\btwo_player\b"""
)


def _sources() -> list[Path]:
    python = [
        path
        for package in ("clubs", "games", "scoring", "config")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    return sorted([*python, *(ROOT / "templates").rglob("*.html")])


def places() -> Counter[str]:
    """Every switch on the kind outside the registry, as "path: line text"."""
    found: Counter[str] = Counter()
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        if name in REGISTRY:
            continue
        for line in path.read_text().splitlines():
            if SWITCH.search(line):
                found[f"{name}: {line.strip()}"] += 1
    return found


def allowed() -> Counter[str]:
    lines = ALLOWED.read_text().splitlines()
    return Counter(line for line in lines if line.strip() and not line.startswith("#"))


def test_no_new_place_switches_on_the_kind():
    new = places() - allowed()
    assert not new, (
        "these places switch on the kind of game: ask the registry instead "
        "(games/registry.py: `pages(kind)`, its `GameWords`, `summarise`; in a template "
        "`{% load games %}`, docs/architecture.md):\n" + "\n".join(sorted(new.elements()))
    )


def test_the_list_of_places_only_shrinks():
    gone = allowed() - places()
    assert not gone, "no longer in the code: remove from tests/games/kind_switches.txt:\n" + (
        "\n".join(sorted(gone.elements()))
    )
    assert sum(allowed().values()) <= CEILING


def test_the_docs_count_the_places_and_no_game_page_template_is_among_them():
    listed = allowed()
    doc = (ROOT / "docs" / "architecture.md").read_text()
    stated = re.search(r"in the (\d+) places listed in `tests/games/kind_switches.txt`", doc)
    assert stated is not None and int(stated.group(1)) == sum(listed.values())
    templates = {place.split(":")[0] for place in listed if place.startswith("templates/")}
    assert templates <= {"templates/scoring/leaderboard.html"}


def test_the_guard_sees_a_new_switch():
    # The pattern catches each shape the issue names, and not a kind merely shown.
    for line in (
        "if rubber.is_two_player:",
        '{% if pad.layout == "chicago" %}',
        'if session.kind == "misery":',
        "if rubber.kind in TWO_PLAYER:",
        "{% elif two_player and pad.finished %}",
        "if session.kind == Session.Kind.MISERY:",
    ):
        assert SWITCH.search(line), line
    for line in (
        '<div data-kind="{{ rubber.kind }}">',
        "kind = KINDS.get(record.kind)",
        "elif self.kind == self.Kind.ARRIVE:",
    ):
        assert not SWITCH.search(line), line
