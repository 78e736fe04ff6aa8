"""The `games` template tags: what a template asks the game registry (games/templatetags)."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from games import registry


def render(text: str, **context: object) -> str:
    return Template("{% load games %}" + text).render(Context(context))


def test_a_kind_gives_its_games_pages():
    assert render("{% with p=kind|game %}{{ p.early_leaver }}{% endwith %}", kind="rubber") == (
        "True"
    )
    assert render("{% with p=kind|game %}{{ p.early_leaver }}{% endwith %}", kind="misery") == (
        "False"
    )


def test_say_fills_the_games_sentence_escaping_the_values_only():
    words = registry.pages("bridge_for_two").words
    html = render("{% say w.title game=name number=3 %}", w=words, name="<b>Bridge</b>")
    assert html == "&lt;b&gt;Bridge&lt;/b&gt;, match 3"
    with translation.override("it"):
        assert render("{% say w.next %}", w=registry.pages("chicago").words) == str(
            registry.pages("chicago").words.next
        )


def test_a_seat_button_names_the_seat_where_the_game_has_seats():
    rubber, misery = registry.pages("rubber"), registry.pages("misery")
    shown = '<span aria-hidden="true">{}</span><span class="sr-only">{}</span>'
    # Seen as the pad writes the seat, heard in words (issue 29).
    assert render("{% seat_button p 'W' 'Ann' %}", p=rubber) == shown.format("W · Ann", "West, Ann")
    assert render("{% seat_button p 'W' 'Ann' %}", p=misery) == "Ann"
    with translation.override("it"):
        assert render("{% seat_button p 'W' 'Ann' %}", p=rubber) == shown.format(
            "O · Ann", "Ovest, Ann"
        )
