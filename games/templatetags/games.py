"""What a template asks the game registry (games/registry.py), instead of comparing the kind.

``{% load games %}``, then:

- ``{{ rubber.kind|game }}``: the game's `GamePages` (``{% with pages=rubber.kind|game %}``,
  then ``pages.words.next``, ``pages.rotation_template``, ``pages.early_leaver``, ...);
- ``{% say pages.words.in_play number=r.number %}``: one of the game's sentences with its
  placeholders filled, the values escaped as ``{% blocktranslate %}`` escapes them;
- ``{% seat_button pages seat player.name %}``: a seat's button on a table-code page;
- ``{% deal_fields form %}``: the deal's buttons (games/_deal_fields.html), an unbound form's
  rendered once per process (games.pad.rendered);
- ``{% choices form.level %}``: one field's buttons (games/_choices.html), kept per process per
  what they show (games.pad.rendered);
- ``{% table_card %}``: a table's card on the console (clubs/_table_card.html with ``t``), kept
  per what it shows (games.pad.rendered).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext, pgettext_lazy

from .. import display
from ..forms.spoken import spoken as spoken_words
from ..pad.rendered import choice_buttons as _choice_buttons
from ..pad.rendered import deal_fields as _deal_fields
from ..pad.rendered import table_card as _table_card
from ..registry import GamePages, pages

register = template.Library()

#: A seat's button as a screen reader says it: %(seat)s in words, and the player's %(name)s.
_SPOKEN_SEAT = pgettext_lazy("spoken", "%(seat)s, %(name)s")


@register.filter
def game(kind: str) -> GamePages:
    """The registered game `kind`'s pages (KeyError for a kind the registry does not know)."""
    return pages(kind)


@register.simple_tag
def say(words: Any, **values: Any) -> SafeString:
    """`words` in the active language with `values` filled in, each escaped; the sentence
    itself is the translator's, as ``{% blocktranslate %}`` leaves it."""
    escaped = {name: conditional_escape(value) for name, value in values.items()}
    # The values are escaped above; the sentence is the translation catalogue's.
    return mark_safe(str(words) % escaped)  # noqa: S308  # nosec B308 B703


@register.simple_tag
def seat_button(game_pages: GamePages, seat: str, name: str) -> SafeString:
    """A seat's button on the table-code and hand-over pages: the seat as the pad writes it
    and the player's name, or only the name where the game names its two players."""
    shown = say(game_pages.words.seat_button, seat=pgettext("seat", seat), name=name)
    if game_pages.named_players:
        return shown
    # Spoken as words: "North, Clara Cole", not "N dot Clara Cole".
    heard = say(_SPOKEN_SEAT, seat=display.SEAT_NAMES[seat], name=name)
    return format_html(
        '<span aria-hidden="true">{}</span><span class="sr-only">{}</span>', shown, heard
    )


@register.simple_tag
def deal_fields(form: Any) -> SafeString:
    """The deal's buttons of `form` (games/_deal_fields.html); an unbound form's kept."""
    return _deal_fields(form, "games/_deal_fields.html")


@register.simple_tag
def choices(field: Any) -> SafeString:
    """A field's buttons (games/_choices.html), kept per what they show (games.pad.rendered)."""
    return _choice_buttons(field)


@register.simple_tag(takes_context=True)
def table_card(context: Any) -> SafeString:
    """The card of the table ``t`` in `context` (clubs/_table_card.html), kept."""
    return _table_card(context)


@register.simple_tag
def live_poll_ms() -> int:
    """How often a live page asks whether it changed while it hears no push (settings)."""
    from django.conf import settings

    return int(settings.LIVE_POLL_MS)


@register.simple_tag
def spoken_choice(field: Any, value: Any) -> str:
    """``{% spoken_choice field radio.data.value as words %}``: an entry button's name in
    words, or ""; a declarer's with who sits there ("declarer North, Clara Cole")."""
    words = spoken_words(field.name, value)
    names = getattr(field.form, "seat_names", None) or {}
    name = names.get(str(value)) if field.name == "declarer" else None
    return f"{words}, {name}" if words and name else words
