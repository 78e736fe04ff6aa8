"""Template filters for what players read in their own language (docs/i18n.md).

``{% load scoring_i18n %}``, then ``{{ item|explain }}`` for a scoresheet item's sentence
(``{{ item|explain:player_names }}`` names the players of a two-player game),
``{{ deal.contract|contract }}`` for a contract ("4♠", "3SA" in Italian) and
``{{ amount|money:club.currency }}`` for an amount of money ("€12.50", "12,50 €"),
``{{ seat|seat }}`` for a seat letter ("W", "O" in Italian), ``{{ side|side }}`` for a side
("EW", "EO" in Italian) and ``{{ hundreds|signed }}`` for a score with a true minus ("−3", as the
pad writes it; ``|signed:"+"`` gives "+3" too).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import pgettext

from scoring.rules.items import Item
from scoring.rules.two_player import PlayerItem
from scoring.shared.i18n import contract_display, explain_item

register = template.Library()

#: Symbols of the currencies clubs use; any other code is shown as the code ("CHF 12.50").
SYMBOLS = {"EUR": "€", "GBP": "£", "USD": "$"}


@register.filter
def explain(item: Item | PlayerItem, names: Any = None) -> str:
    """``{{ item|explain }}``, or ``{{ item|explain:player_names }}`` to name the two players
    (player 0's and player 1's names) in a two-player item's sentence."""
    return explain_item(item, list(names) if names else None)


@register.filter
def seat(value: Any) -> str:
    """A seat letter as the pad shows it: N, E, S, W (N, E, S, O in Italian)."""
    text = "" if value is None else str(value)
    return pgettext("seat", text) if text in ("N", "E", "S", "W") else text


@register.filter
def side(value: Any) -> str:
    """A side as the explanations name it: NS, EW (NS, EO in Italian)."""
    text = "" if value is None else str(value)
    return pgettext("side", text) if text in ("NS", "EW") else text


@register.filter
def contract(value: str) -> str:
    """A contract as players read it: suits as symbols, NT as "SA" in Italian ("4♠", "3SAX")."""
    return contract_display(value)


@register.filter
def signed(value: Any, plus: str = "") -> str:
    """An integer score as the pad writes it: a true minus sign (U+2212), not a hyphen; with
    `plus` ("+"), a positive one says so. Anything else is shown as it is."""
    if value is None or value == "":
        return ""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if number < 0:
        return f"\u2212{-number}"
    return f"{plus}{number}" if number > 0 else "0"


@register.filter
def money(amount: Any, currency: str = "") -> str:
    """The amount with two decimals and the currency, as the active language writes them."""
    if amount is None or amount == "":
        return ""
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        return str(amount)
    sign = "-" if value < 0 else ""
    code = (currency or "").upper()
    symbol = SYMBOLS.get(code, code)
    digits = number_format(abs(value), decimal_pos=2, use_l10n=True, force_grouping=True)
    if not symbol:
        return sign + digits
    if symbol == code:
        pattern = pgettext("money with a currency code", "{code} {amount}")
        return sign + pattern.format(code=code, amount=digits)
    pattern = pgettext("money with a currency symbol", "{symbol}{amount}")
    return sign + pattern.format(symbol=symbol, amount=digits)
