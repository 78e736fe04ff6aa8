"""The scoring engine's refusals in the reader's language (docs/i18n.md).

The engine (``scoring.rules``) stays free of Django: it raises
``ScoringError(field, template, rule, **params)`` with an English ``str.format`` template and
its figures. This module is the edge that translates them:

- ``MARKED`` lists every template raised by the engine and by the Django side (``games``),
  marked for ``makemessages`` with the context "refusal"; a test reads the raise sites and fails
  when one is missing here.
- ``localize_error(err)``: the message in the active language, figures filled in (an unknown
  template, or no translation, gives the English ``err.message``).
- ``error_line(err)``: ``str(err)`` in the active language, ``"field: message (RULES x)"``.
- ``error_sentence(err)``: the message as a form shows it beside a field: a message with no
  subject ("is required") gets the field's name first, and the rule follows.

Field names (``deals[3].tricks``) are not translated; a "RULES x" citation names the rule book
in the reader's language (``localize_rule``: "REGOLE 3.6" in Italian), its section as it is.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext, pgettext_lazy

from scoring.rules.errors import ScoringError
from scoring.rules.explain import rule_reference

__all__ = [
    "FIELD_NAMES",
    "MARKED",
    "error_line",
    "error_sentence",
    "localize_error",
    "localize_rule",
]

#: Every refusal template, word for word as raised, marked for translation.
MARKED: tuple[Promise, ...] = (
    # scoring/rules/contract.py, deal.py: a deal and its contract (RULES 1, 3.6, 3.7, 3.8)
    pgettext_lazy("refusal", "{value!r} is not a side (NS or EW)"),
    pgettext_lazy("refusal", "level {level!r} is not a number"),
    pgettext_lazy("refusal", "level {level} is not between 1 and 7"),
    pgettext_lazy("refusal", "{value!r} is not a strain"),
    pgettext_lazy("refusal", "{value!r} is not a doubling"),
    pgettext_lazy("refusal", "{value!r} is not a contract"),
    pgettext_lazy("refusal", "{value!r} is not a contract (like 4S, 3NTX, 6HXX or pass)"),
    pgettext_lazy("refusal", "{value!r} is not 100 or 150"),
    pgettext_lazy("refusal", "no honours on a passed-out deal"),
    pgettext_lazy("refusal", "at no trumps only the four aces count (150)"),
    pgettext_lazy(
        "refusal",
        "{side} took {tricks} tricks, but the side holding these honours takes at least {minimum}",
    ),
    pgettext_lazy("refusal", "expected an object {side, points}"),
    pgettext_lazy("refusal", "unknown field"),
    pgettext_lazy("refusal", "is required"),
    pgettext_lazy("refusal", "{value!r} is not a whole number"),
    pgettext_lazy("refusal", "{tricks} is not between 0 and 13"),
    pgettext_lazy("refusal", "{value!r} is not true or false"),
    pgettext_lazy("refusal", "a passed-out deal has no tricks"),
    pgettext_lazy("refusal", "a passed-out deal has no declarer"),
    pgettext_lazy("refusal", "{value!r} is not a deal key"),
    pgettext_lazy("refusal", "{value!r} is not NS or EW"),
    pgettext_lazy("refusal", "{value!r} is not honours"),
    pgettext_lazy("refusal", "expected an object {contract, declarer, tricks, honours}"),
    # scoring/rules/rubber.py, chicago.py (RULES 5, 8.1)
    pgettext_lazy("refusal", "{value!r} is not a deal"),
    pgettext_lazy(
        "refusal", "the rubber ended at deal {number}; this deal belongs to the next rubber"
    ),
    pgettext_lazy("refusal", "{number} is not between 1 and 4"),
    pgettext_lazy("refusal", "the Chicago ended after four counted deals"),
    pgettext_lazy("refusal", "honours do not count here (chicago_honours off)"),
    # scoring/rules/options.py: house rules
    pgettext_lazy("refusal", "{value!r} is not a positive whole number"),
    pgettext_lazy("refusal", "expected an object of option: value"),
    pgettext_lazy("refusal", "unknown option (known: {known})"),
    pgettext_lazy("refusal", "unknown preset {name!r} (known: {known})"),
    pgettext_lazy("refusal", "{value!r} is not {first!r} or {second!r}"),
    # scoring/rules/rotation.py, round_robin.py: seating (RULES 6, 7)
    pgettext_lazy("refusal", "rubbers are numbered from 1, not {rubber}"),
    pgettext_lazy("refusal", "needs exactly the seats N, E, S, W, not {seats}"),
    pgettext_lazy("refusal", "needs four different players, not {players}"),
    pgettext_lazy("refusal", "a player waits at most once and not while seated"),
    pgettext_lazy("refusal", "a table holds at most six players"),
    pgettext_lazy("refusal", "a table holds four to six players, not {count}"),
    pgettext_lazy("refusal", "each player can be listed only once"),
    pgettext_lazy("refusal", "must be zero or more, not {count}"),
    pgettext_lazy("refusal", "must be one of {movements}, not {movement!r}"),
    pgettext_lazy("refusal", "fixed partnerships need exactly four players"),
    pgettext_lazy("refusal", "rubber {after} follows rubber {before}; must be numbered in order"),
    pgettext_lazy("refusal", "a round robin needs at least one table"),
    pgettext_lazy("refusal", "{table} is not a table of this session"),
    pgettext_lazy("refusal", "rounds are numbered from 1, not {number}"),
    # scoring/rules/settlement.py (RULES 4.2)
    pgettext_lazy("refusal", "must be a finite Decimal of zero or more, not {value!r}"),
    pgettext_lazy("refusal", "must be a whole number, not {value!r}"),
    pgettext_lazy("refusal", "must sum to zero, but they sum to {total:+d}"),
    # scoring/rules/two_player/: the two-player games (RULES 7)
    pgettext_lazy("refusal", "{value!r} is not a player (0 or 1)"),
    pgettext_lazy("refusal", "{value!r} is not a strain (C, D, H, S or NT)"),
    pgettext_lazy("refusal", "{value!r} is not 0 or 1"),
    pgettext_lazy("refusal", "expected an object {{{fields}}}"),
    pgettext_lazy("refusal", "unknown field in honours (expected {fields})"),
    pgettext_lazy("refusal", "unknown field in a Turnover result (expected {fields})"),
    pgettext_lazy("refusal", "unknown field in a deal (expected {fields})"),
    pgettext_lazy("refusal", "expected a list of deals"),
    pgettext_lazy("refusal", "{value!r} is not ordinary, eight or misery"),
    pgettext_lazy("refusal", "there is no doubling in Misery Bridge"),
    pgettext_lazy("refusal", "misery is played at no trumps (NT)"),
    pgettext_lazy("refusal", "a misery deal scores no honours"),
    pgettext_lazy("refusal", "{value!r} is not a two-player deal"),
    pgettext_lazy("refusal", "{value!r} is not house rules"),
    pgettext_lazy("refusal", "{value!r} is a Misery Bridge declaration (RULES 7.2)"),
    pgettext_lazy(
        "refusal",
        "{first}–{second} is not a Turnover result: 14 against 0–12 (play stopped at 14), "
        "or all 26 tricks played out",
    ),
    pgettext_lazy(
        "refusal",
        "player {player} took {tricks} tricks, but the player holding these honours "
        "takes at least {minimum}",
    ),
    pgettext_lazy("refusal", "{value!r} is not a pair [t0, t1]"),
    pgettext_lazy("refusal", "{value!r} is not a Draw and Discard deal"),
    pgettext_lazy(
        "refusal",
        "player {player} reached the target of {target} at deal {number}; the game is over",
    ),
    # games/models/, games/sheets.py: the Django side's own checks
    pgettext_lazy("refusal", "only a two-player deal has game data"),
    pgettext_lazy("refusal", "{value!r} is not a seat (N, E, S or W)"),
    pgettext_lazy("refusal", "is required with the points"),
    pgettext_lazy("refusal", "cannot be changed"),
    pgettext_lazy("refusal", "expected an object with the deal's fields"),
    pgettext_lazy("refusal", "{value!r} is not a two-player game"),
    pgettext_lazy("refusal", "a Turnover game has one result"),
    pgettext_lazy("refusal", "{value!r} is not a game Backscore scores"),
    pgettext_lazy("refusal", "is not one of {choices}"),
    pgettext_lazy("refusal", "is longer than {most} characters"),
)

#: The engine's fields as a form names them before a message with no subject ("is required").
FIELD_NAMES: dict[str, Promise] = {
    "contract": pgettext_lazy("refusal field", "Contract"),
    "declarer": pgettext_lazy("refusal field", "Declarer"),
    "tricks": pgettext_lazy("refusal field", "Tricks"),
    "strain": pgettext_lazy("refusal field", "Strain"),
    "doubled": pgettext_lazy("refusal field", "Doubled"),
    "declaration": pgettext_lazy("refusal field", "Declaration"),
    "honours.side": pgettext_lazy("refusal field", "Honours side"),
    "honours.points": pgettext_lazy("refusal field", "Honours points"),
    "honours.player": pgettext_lazy("refusal field", "Honours player"),
}


def localize_error(err: ScoringError) -> str:
    """The refusal's message in the active language, its figures filled in."""
    text = pgettext("refusal", err.template)
    if not err.params:
        return text
    params = dict(err.params)
    if params.get("side") in ("NS", "EW"):
        # A side the engine names ("EW took 2 tricks"), as the explanations name it ("EO").
        params["side"] = pgettext("side", str(params["side"]))
    return text.format(**params)


def localize_rule(rule: str) -> str:
    """A RULES.md citation ("RULES 3.6") with the rule book named in the active language."""
    return rule_reference(rule, {"rules": pgettext("rule book", "RULES")})


def error_line(err: ScoringError) -> str:
    """``str(err)`` in the active language: ``"deals[3].tricks: … (RULES 1)"``."""
    message = localize_error(err)
    text = f"{err.field}: {message}" if err.field else message
    return f"{text} ({localize_rule(err.rule)})" if err.rule else text


def error_sentence(err: ScoringError) -> str:
    """The refusal as a form shows it: "Tricks is required (RULES 1)"."""
    message = localize_error(err)
    if err.template.startswith("is "):
        name = FIELD_NAMES.get(err.field)
        subject = (
            str(name)
            if name is not None
            else err.field.replace("_", " ").replace(".", " ").capitalize()
        )
        # Translators: a field's name, then a message with no subject ("is required").
        message = pgettext("refusal", "{field} {message}").format(field=subject, message=message)
    return f"{message} ({localize_rule(err.rule)})" if err.rule else message
