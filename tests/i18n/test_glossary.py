"""Italian as an Italian club speaks it (issue 30, docs/i18n.md "Words Italian players use").

No calque and no English bridge abbreviation, as a whole word, in any Italian ``msgstr`` of the
catalogue or in any Italian sentence the engine produces: the explanations of rubber, Chicago,
Bridge for Two, Misery, Turnover and Draw and Discard scoresheets (numbered and named players)
and the refusals of each game, for a broad seeded sample of deals.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import polib
import pytest
from django.utils import translation

from scoring.rules import ScoringError, score_rubber
from scoring.rules.chicago import score_chicago
from scoring.rules.contract import Contract, Honours, Side, Strain
from scoring.rules.deal import DealInput
from scoring.rules.options import HouseRules
from scoring.rules.two_player import (
    Declaration,
    DrawDiscardDeal,
    PlayerHonours,
    PlayerItem,
    TwoPlayerDeal,
    score_bridge_for_two,
    score_draw_discard,
    score_misery,
    score_turnover,
)
from scoring.shared.error_messages import error_line, error_sentence
from scoring.shared.i18n import explain_item, localize_explanations

from .conftest import PO

#: Two-player rubbers with the RULES 2.4 bonuses, where an unfinished part score scores too.
STANDARD = HouseRules(rubber_bonus_two_player="standard")

#: A word the catalogue must not use → what an Italian club says instead (docs/i18n.md).
BANNED: dict[str, str] = {
    "partita": "a game of a rubber is la manche",
    "partite": "games of a rubber are le manche",
    "gomma": "a rubber is il rubber",
    "gomme": "rubbers are i rubber",
    "ritorno": "the back score is il conto (in centinaia)",
    "bridge rubber": "the game is il rubber bridge",
    "trucchi": "tricks are le prese",
    "trucco": "a trick is la presa",
    "vanga": "spades are picche",
    "vanghe": "spades are picche",
    "vulnerabile": "vulnerable is in zona, not vulnerable in prima",
    "vulnerabili": "vulnerable is in zona, not vulnerable in prima",
    "vuln": "vulnerable is in zona",
    "vul": "vulnerable is in zona",
    "NT": "no trumps are SA (senza atout)",
    "EW": "East–West is EO",
    "W": "West is O",
    "RULES": "the rule book is cited as REGOLE",
}

#: "partita" for the whole contest of Turnover or Draw and Discard, which has no manche.
WHOLE_CONTEST = {
    "Game unfinished.",
    "a Turnover game has one result",
    "player {player} reached the target of {target} at deal {number}; the game is over",
    # The close page's words for the two games (games/registry.py).
    "A Turnover game ends with its one result (%(rule)s): one without it is withdrawn.",
    "Each game still in play closes as it stands: the player with more points wins it, and "
    "equal points are a tie (%(rule)s). A game without a deal is withdrawn.",
}


def _whole(words: list[str], flags: int = 0) -> re.Pattern[str]:
    longest_first = sorted(map(re.escape, words), key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(longest_first) + r")(?!\w)", flags)


#: Abbreviations in capitals (NT, EW, W, RULES) as written; words in any case ("Gomma").
_CAPITALS = _whole([word for word in BANNED if word.isupper()])
_WORDS = _whole([word for word in BANNED if not word.isupper()], re.IGNORECASE)
#: A value quoted as an API client sends it ('EW', 'NT') is code, not an Italian word; so are
#: HTML tags and placeholders.
_CODE = re.compile(r"'[A-Z]{1,2}'|<[^>]*>|%\([a-z_]+\)[sd]|\{[a-z_!]+\}")


def banned_words(text: str) -> list[str]:
    """The banned words of ``text``, whole words, sorted."""
    plain = _CODE.sub(" ", text)
    found = [m.group(1) for m in _CAPITALS.finditer(plain)]
    found += [m.group(1).lower() for m in _WORDS.finditer(plain)]
    return sorted(found)


def test_the_check_finds_a_word_as_a_whole_word_only() -> None:
    assert banned_words("Gomma incompiuta: 300 a EW (RULES 2.6)") == ["EW", "RULES", "gomma"]
    assert banned_words("ha dichiarato NT e vinto la Partita") == ["NT", "partita"]
    assert banned_words("Bridge a gomme, bridge rubber") == ["bridge rubber", "gomme"]
    assert banned_words("(NS+EO vuln.) W · Clara, vulnerabile") == ["W", "vuln", "vulnerabile"]
    assert banned_words("3NTX, Wanda, nell'API 'NS' o 'EW', %(rubbers)s, {rule}") == []
    assert banned_words("il rubber, la manche, in zona, 3SA, EO, REGOLE 2.6, rules") == []


def italian_catalogue() -> Iterator[tuple[polib.POEntry, str]]:
    for entry in polib.pofile(str(PO)):
        if entry.obsolete:
            continue
        texts = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for text in texts:
            yield entry, text


def test_no_italian_translation_uses_a_calque_or_an_english_abbreviation() -> None:
    wrong = []
    for entry, text in italian_catalogue():
        words = banned_words(text)
        if entry.msgid in WHOLE_CONTEST:
            words = [w for w in words if w != "partita"]
        wrong += [(word, BANNED[word], text) for word in words]
    assert wrong == []


# ---------------------------------------------------------------------------------------------
# What the engine says in Italian: a seeded sample of every game


def _grow(
    rng: random.Random, make: Callable[[random.Random], Any], score: Callable[[list[Any]], Any]
) -> tuple[list[Any], list[ScoringError]]:
    """Deals drawn at random and kept when the engine accepts them (refusals collected), until
    the game ends or 12 deals were tried; the scores after each accepted deal."""
    deals: list[Any] = []
    sheets: list[Any] = []
    refusals: list[ScoringError] = []
    for _ in range(12):
        try:
            deal = make(rng)
            sheets.append(score([*deals, deal]))
        except ScoringError as err:
            refusals.append(err)
            if "ended" in err.template or "over" in err.template:
                break
            continue
        deals.append(deal)
    return sheets, refusals


def _contract(rng: random.Random) -> str:
    strain = rng.choice(["C", "D", "H", "S", "NT"])
    return f"{rng.randint(1, 7)}{strain}{rng.choice(['', 'X', 'XX'])}"


def _rubber_deal(rng: random.Random) -> DealInput:
    if rng.random() < 0.05:
        return DealInput.create("pass")
    contract = _contract(rng)
    level = Contract.parse(contract).level or 1
    tricks = max(0, min(13, level + 6 + rng.randint(-3, 2)))
    honours = None
    if rng.random() < 0.3:
        honours = Honours(rng.choice([Side.NS, Side.EW]), rng.choice([100, 150]))
    return DealInput.create(contract, rng.choice(["NS", "EW"]), tricks, honours)


def _two_player_deal(misery: bool) -> Callable[[random.Random], TwoPlayerDeal]:
    def make(rng: random.Random) -> TwoPlayerDeal:
        declaration = Declaration.ORDINARY
        if misery:
            declaration = rng.choice(list(Declaration))
        strain = Strain.NT if declaration is Declaration.MISERY else rng.choice(list(Strain))
        honours = None
        if declaration is not Declaration.MISERY and rng.random() < 0.3:
            honours = PlayerHonours(rng.randint(0, 1), rng.choice([100, 150]))
        return TwoPlayerDeal(
            declarer=rng.randint(0, 1),
            strain=strain,
            tricks=rng.randint(0, 3) if declaration is Declaration.MISERY else rng.randint(4, 12),
            doubled=not misery and declaration is Declaration.ORDINARY and rng.random() < 0.3,
            honours=honours,
            declaration=declaration,
        )

    return make


def _draw_discard_deal(rng: random.Random) -> DrawDiscardDeal:
    if rng.random() < 0.1:
        return DrawDiscardDeal(Contract.parse("pass"))
    contract = Contract.parse(_contract(rng))
    return DrawDiscardDeal(contract, rng.randint(0, 1), rng.randint(3, 13))


def engine_sentences(seed: int) -> Iterator[tuple[str, Sequence[str] | None]]:
    """Every sheet of a seeded sample of each game, as ``to_dict()`` (and the two-player items
    with their players named), and every refusal met on the way. A closed rubber stops after a
    few deals, so that it ends unfinished (RULES 2.6)."""
    rng = random.Random(seed)
    games: list[tuple[Callable[[random.Random], Any], Callable[[list[Any]], Any]]] = [
        (_rubber_deal, lambda deals: score_rubber(deals)),
        (_rubber_deal, lambda deals: score_rubber(deals[:3], closed=True)),
        (_rubber_deal, lambda deals: score_chicago(deals[:4])),
        (_two_player_deal(False), lambda deals: score_bridge_for_two(deals)),
        (
            _two_player_deal(False),
            lambda deals: score_bridge_for_two(deals[:2], closed=True, options=STANDARD),
        ),
        (_two_player_deal(True), lambda deals: score_misery(deals)),
        (
            _two_player_deal(True),
            lambda deals: score_misery(deals[:2], closed=True, options=STANDARD),
        ),
        (_draw_discard_deal, lambda deals: score_draw_discard(deals, target=300)),
    ]
    for make, score in games:
        sheets, refusals = _grow(rng, make, score)
        for sheet in sheets[-1:] + sheets[:1]:
            yield sheet.to_dict(), None
            for item in _player_items(sheet):
                yield item, ("Ann", "Bea")
        for err in refusals:
            yield err, None
    for tricks in ((14, 3), (13, 13), (15, 10), (14, "x")):
        try:
            score_turnover(*tricks)  # type: ignore[arg-type]
        except ScoringError as err:
            yield err, None


def _player_items(sheet: Any) -> list[PlayerItem]:
    items = getattr(sheet, "items", None)
    if items is None:
        return []
    return [item for item in items if isinstance(item, PlayerItem)]


def italian_texts(thing: Any, names: Sequence[str] | None) -> list[str]:
    with translation.override("it"):
        if isinstance(thing, ScoringError):
            texts = [error_line(thing), error_sentence(thing)]
            if thing.template in WHOLE_CONTEST:
                return [re.sub(r"(?<!\w)partita(?!\w)", "…", text) for text in texts]
            return texts
        if isinstance(thing, PlayerItem):
            return [explain_item(thing, names)]
        return _explanations(localize_explanations(thing))


def _explanations(data: Any) -> list[str]:
    if isinstance(data, dict):
        own = [data["explanation"]] if "explanation" in data and "reason" in data else []
        return own + [text for value in data.values() for text in _explanations(value)]
    if isinstance(data, list):
        return [text for value in data for text in _explanations(value)]
    return []


@pytest.mark.parametrize("seed", range(12))
def test_no_italian_sentence_of_the_engine_uses_a_calque_or_an_english_abbreviation(
    seed: int,
) -> None:
    texts = [text for thing in engine_sentences(seed) for text in italian_texts(*thing)]
    assert len(texts) > 60
    wrong = sorted({(word, text) for text in texts for word in banned_words(text)})
    assert wrong == []


def test_the_sample_covers_every_reason_of_every_game() -> None:
    """The explanations checked above include every sentence of the engine's table."""
    from scoring.rules.explain import TEMPLATES

    seen: set[str] = set()
    for seed in range(12):
        for thing, _names in engine_sentences(seed):
            if isinstance(thing, PlayerItem):
                seen.add(thing.reason)
            elif isinstance(thing, dict):
                seen |= set(re.findall(r"'reason': '([a-z_]+)'", repr(thing)))
    assert seen == set(TEMPLATES) - {"_words"}


def test_a_misery_deal_refuses_honours_in_italian_citing_rules_7_2() -> None:
    """Issue 30, RULES 7.2: a misery deal scores no honours; the refusal says so in the reader's
    language, citing the section that says it."""
    with pytest.raises(ScoringError) as refused:
        TwoPlayerDeal(
            declarer=0,
            strain=Strain.NT,
            tricks=1,
            honours=PlayerHonours(1, 150),
            declaration=Declaration.MISERY,
        )
    assert str(refused.value) == "honours: a misery deal scores no honours (RULES 7.2)"
    with translation.override("it"):
        assert error_line(refused.value) == (
            "honours: in una smazzata di miseria gli onori non si contano (REGOLE 7.2)"
        )
