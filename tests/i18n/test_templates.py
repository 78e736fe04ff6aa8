"""Every word a template shows is inside a translation tag (docs/i18n.md).

A template's text nodes and its user-visible attributes (title, placeholder, aria-label, alt,
the value of a button) may hold template variables, numbers, punctuation and symbols (♠, →,
·); any word outside ``{% translate %}`` / ``{% blocktranslate %}`` fails this test, unless it
is one of the few names in ``ALLOWED``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: Names that read the same in every language.
ALLOWED = {"Backscore", "API"}
VISIBLE_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}

TRANSLATED = re.compile(
    r"{%\s*blocktrans(?:late)?\b.*?{%\s*endblocktrans(?:late)?\s*%}"
    r"|{%\s*trans(?:late)?\s+(?:\"[^\"]*\"|'[^']*').*?%}",
    re.DOTALL,
)
COMMENT = re.compile(r"{#.*?#}|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.DOTALL)
VARIABLE = re.compile(r"{{.*?}}", re.DOTALL)
TAG = re.compile(r"{%.*?%}", re.DOTALL)
WORD = re.compile(r"[^\W\d_]{1,}")


def untranslated_words(text: str) -> list[str]:
    return [word for word in WORD.findall(text) if word not in ALLOWED]


class TextFinder(HTMLParser):
    """Collects the visible text of a template whose template syntax has been blanked out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        values = dict(attrs)
        for name, value in attrs:
            visible = name in VISIBLE_ATTRIBUTES or (
                name == "value"
                and (tag == "button" or values.get("type") in ("submit", "button", "reset"))
            )
            if visible and value and untranslated_words(value):
                self.found.append((self.getpos()[0], f"{tag}[{name}]={value!r}"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and untranslated_words(data):
            self.found.append((self.getpos()[0], data.strip()))


def blank(match: re.Match[str]) -> str:
    """Template syntax replaced by as many newlines as it spanned, so line numbers hold."""
    return "\n" * match.group(0).count("\n")


def untranslated_text(source: str) -> list[tuple[int, str]]:
    for pattern in (COMMENT, TRANSLATED, VARIABLE, TAG):
        source = pattern.sub(blank, source)
    finder = TextFinder()
    finder.feed(source)
    finder.close()
    return finder.found


def all_templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", all_templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_template_has_no_text_outside_translation_tags(path: Path) -> None:
    found = untranslated_text(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{path}:{line}: {text}" for line, text in found)


@pytest.mark.parametrize(
    "source",
    [
        "<p>Hello</p>",
        "<button>{% translate 'Go' %}</button> or stay",
        '<span title="Provisional">{{ x }}</span>',
        '<input type="submit" value="Send">',
        "<p>{% blocktranslate %}Deal {{ n }}{% endblocktranslate %} of {{ total }}</p>",
    ],
)
def test_the_check_catches_untranslated_text(source: str) -> None:
    assert untranslated_text(source)


@pytest.mark.parametrize(
    "source",
    [
        "<p>{% translate 'Hello' %}</p>",
        "<h1>{{ club.name }} · Backscore</h1>",
        '<span title="{% translate \'Provisional\' %}">{{ x|default:"—" }}</span>',
        "<td>♠ 4 → 10 (#3)</td>",
        "<p>{% blocktranslate count n=k %}{{ n }} deal{% plural %}{{ n }} deals"
        "{% endblocktranslate %}</p>",
        "{# a note #}<script>const label = 'not shown';</script>",
        '<input type="hidden" name="next" value="here">',
    ],
)
def test_the_check_lets_translated_text_and_symbols_through(source: str) -> None:
    assert not untranslated_text(source)
