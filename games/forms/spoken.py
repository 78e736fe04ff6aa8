"""The entry buttons' spoken names: what a screen reader says for each button of a deal's
form, in words, where the button shows a glyph or a letter ("♠" is "spades", "=" is "made
exactly", "N" is "North"). `spoken(field, value)` answers "" for a button whose label is
already words (templates/games/_choices.html then lets the label speak)."""

from __future__ import annotations

from django.utils.translation import ngettext, pgettext, pgettext_lazy

LEVEL_WORDS = {
    "1": pgettext_lazy("spoken", "one"),
    "2": pgettext_lazy("spoken", "two"),
    "3": pgettext_lazy("spoken", "three"),
    "4": pgettext_lazy("spoken", "four"),
    "5": pgettext_lazy("spoken", "five"),
    "6": pgettext_lazy("spoken", "six"),
    "7": pgettext_lazy("spoken", "seven"),
}
STRAIN_WORDS = {
    "C": pgettext_lazy("spoken", "clubs"),
    "D": pgettext_lazy("spoken", "diamonds"),
    "H": pgettext_lazy("spoken", "hearts"),
    "S": pgettext_lazy("spoken", "spades"),
    "NT": pgettext_lazy("spoken", "no trumps"),
}
DOUBLING_WORDS = {
    "": pgettext_lazy("spoken", "undoubled"),
    "X": pgettext_lazy("spoken", "doubled"),
    "XX": pgettext_lazy("spoken", "redoubled"),
}
SEAT_WORDS = {
    "N": pgettext_lazy("spoken", "declarer North"),
    "E": pgettext_lazy("spoken", "declarer East"),
    "S": pgettext_lazy("spoken", "declarer South"),
    "W": pgettext_lazy("spoken", "declarer West"),
}
WORDS = {
    "level": LEVEL_WORDS,
    "strain": STRAIN_WORDS,
    "doubling": DOUBLING_WORDS,
    "doubled": DOUBLING_WORDS,
}


def _result(value: str) -> str:
    try:
        n = int(value)
    except ValueError:
        return ""
    if n == 0:
        return pgettext("spoken", "made exactly")
    if n < 0:
        return ngettext("down %(n)s trick", "down %(n)s tricks", -n) % {"n": -n}
    return ngettext("made, %(n)s overtrick", "made, %(n)s overtricks", n) % {"n": n}


def spoken(field: str, value: object) -> str:
    """The words for the button of `value` in the deal form's `field`, or ""."""
    value = "" if value is None else str(value)
    if field == "result":
        return _result(value)
    if field == "declarer":
        return str(SEAT_WORDS.get(value, ""))
    words = WORDS.get(field, {}).get(value)
    return str(words) if words is not None else ""


__all__ = ["spoken"]
