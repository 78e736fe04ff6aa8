"""The scoring engine's refusals speak the reader's language (docs/i18n.md: Refusals).

The engine raises `ScoringError(field, template, rule, **params)` with English templates; the
edge (`scoring.shared.error_messages`) translates them. These tests read every raise site, so a new
refusal fails here until it is marked and translated.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import pgettext

from scoring.shared.error_messages import FIELD_NAMES, MARKED
from tests.conftest import unchanged
from tests.i18n.conftest import ROOT

pytestmark = pytest.mark.django_db

#: Where refusals are raised: the engine and the Django side. The command line
#: (scoring/rules/cli.py, and scoring/rules/reading.py, which reads its input) prints English
#: one-liners by design and is left out.
SOURCES = ("scoring", "games", "clubs", "config")
LEFT_OUT = {Path("scoring/rules/cli.py"), Path("scoring/rules/reading.py")}
PLACEHOLDER = re.compile(r"{[a-z_]+(?:![rsa])?(?::[^{}]*)?}")


def raise_sites() -> list[tuple[str, ast.Call]]:
    sites = []
    for name in SOURCES:
        for path in sorted((ROOT / name).rglob("*.py")):
            if path.relative_to(ROOT) in LEFT_OUT:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Call) and (
                    getattr(node.func, "id", None) == "ScoringError"
                    or getattr(node.func, "attr", None) == "ScoringError"
                ):
                    sites.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return sites


def templates_raised() -> dict[str, set[str]]:
    """Each literal template raised, with the keyword params given with it."""
    found: dict[str, set[str]] = {}
    for _place, call in raise_sites():
        template = call.args[1]
        if isinstance(template, ast.Constant) and isinstance(template.value, str):
            found[template.value] = {k.arg for k in call.keywords if k.arg is not None}
    return found


def marked() -> set[str]:
    with translation.override(None):
        return {str(text) for text in MARKED}


def test_every_refusal_template_is_a_literal_string() -> None:
    """No f-string, no variable: the edge can only translate a template it can find."""
    wrong = []
    for place, call in raise_sites():
        if len(call.args) < 2:
            wrong.append(f"{place}: no template")
            continue
        template = call.args[1]
        rereaised = isinstance(template, ast.Attribute) and template.attr == "template"
        literal = isinstance(template, ast.Constant) and isinstance(template.value, str)
        if not (literal or rereaised):
            wrong.append(f"{place}: {ast.unparse(template)}")
    assert not wrong, "Give ScoringError a literal template and its params as keywords:\n" + (
        "\n".join(wrong)
    )


def test_every_refusal_template_is_marked_for_translation() -> None:
    raised = set(templates_raised())
    assert len(raised) > 60, "the scan found too few raise sites: is it still reading the code?"
    missing = sorted(raised - marked())
    stale = sorted(marked() - raised)
    assert not missing, f"add to scoring.shared.error_messages.MARKED and translate: {missing}"
    assert not stale, f"marked but raised nowhere; remove from MARKED: {stale}"


def test_every_template_gets_the_params_it_names() -> None:
    """A template's placeholders are exactly its keywords (none at all: used as it is)."""
    formatter = string.Formatter()
    wrong = []
    for template, params in templates_raised().items():
        if params:
            names = {name for _text, name, _spec, _conv in formatter.parse(template) if name}
            if names != params:
                wrong.append((template, sorted(params)))
        elif PLACEHOLDER.search(template):
            wrong.append((template, []))
    assert not wrong, wrong


def test_every_italian_refusal_formats_with_its_params(italian: None) -> None:
    for template, params in templates_raised().items():
        translated = pgettext("refusal", template)
        assert translated != template, f"not translated: {template!r}"
        if params:
            translated.format(**dict.fromkeys(params, 1))
    for name in FIELD_NAMES.values():
        assert str(name)


# --- what an Italian player reads -----------------------------------------------------------

NO_TRUMP_HONOURS_100 = {
    "contract": "3NT",
    "declarer": "S",
    "tricks": 9,
    "honours": {"side": "NS", "points": 100},
}


def enter(api: Any, rubber_id: int, deal: dict[str, Any], language: str) -> Any:
    """POST a deal to the API as a phone in `language` would (Accept-Language)."""
    return api.post(
        f"/api/v1/rubbers/{rubber_id}/deals/", deal, format="json", HTTP_ACCEPT_LANGUAGE=language
    )


@pytest.mark.parametrize(
    ("deal", "field", "message"),
    [
        (
            NO_TRUMP_HONOURS_100,
            "honours.points",
            "a senza atout contano solo i quattro assi (150) (REGOLE 3.6)",
        ),
        (
            {"contract": "4S", "declarer": "N", "tricks": 14},
            "tricks",
            "14 non è compreso tra 0 e 13 (REGOLE 1)",
        ),
        ({"contract": "4S", "tricks": 10}, "declarer", "campo obbligatorio (REGOLE 1)"),
        (
            {"contract": "9Z", "declarer": "N", "tricks": 10},
            "contract",
            "'9Z' non è un contratto (come 4S, 3NTX, 6HXX o pass) (REGOLE 1)",
        ),
        (
            {"contract": "4S", "declarer": "Q", "tricks": 10},
            "declarer",
            "'Q' non è un posto (N, E, S o O; nell'API 'N', 'E', 'S' o 'W')",
        ),
    ],
)
def test_an_impossible_deal_is_refused_in_italian_through_the_api(
    api: Any,
    director: Any,
    italian_club: Any,
    running_session: Any,
    deal: dict[str, Any],
    field: str,
    message: str,
) -> None:
    rubber = running_session.rubbers.get()
    api.force_authenticate(director)
    response = enter(api, rubber.pk, {"number": 1, **deal}, "it")
    assert response.status_code == 400
    assert response.json() == {"errors": {field: [message]}}


def test_the_same_refusal_stays_english_for_an_english_client(
    api: Any, director: Any, italian_club: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get()
    api.force_authenticate(director)
    response = enter(api, rubber.pk, {"number": 1, **NO_TRUMP_HONOURS_100}, "en")
    assert response.json() == {
        "errors": {"honours.points": ["at no trumps only the four aces count (150) (RULES 3.6)"]}
    }


def test_a_two_player_refusal_is_in_italian(
    api: Any, director: Any, italian_club: Any, table_of_four: dict[str, Any]
) -> None:
    from tests.factories import make_session

    players = [table_of_four["north"], table_of_four["east"]]
    match = make_session(italian_club, [players], kind="misery").rubbers.get()
    api.force_authenticate(director)
    misery_doubled = {
        "number": 1,
        "declarer": 0,
        "declaration": "ordinary",
        "strain": "S",
        "tricks": 9,
        "doubled": 1,
    }
    response = enter(api, match.pk, misery_doubled, "it")
    assert response.json() == {
        "errors": {"doubled": ["nel Bridge Miseria non si contra (REGOLE 7.2)"]}
    }


def test_a_bad_house_rule_is_refused_in_italian(api: Any, director: Any) -> None:
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            "/api/v1/clubs/",
            {"slug": "circolo", "name": "Circolo", "rules": {"unfinished_partscore": 70}},
            format="json",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert response.status_code == 400
    assert response.json()["errors"]["rules"] == [
        "options.unfinished_partscore: 70 non è 100 o 50 (REGOLE 2.6)"
    ]


TAP_4S_MADE = {"number": 1, "level": "4", "strain": "S", "declarer": "N", "result": "0"}


@pytest.mark.parametrize(
    ("data", "field_id", "message"),
    [
        (
            {**TAP_4S_MADE, "strain": "NT", "honours": "NS100"},
            "honours-errors",
            "A senza atout contano solo i quattro assi (150) (REGOLE 3.6).",
        ),
        (
            {**TAP_4S_MADE, "level": "7", "result": "1"},
            "result-errors",
            "+1 non è un risultato possibile per un contratto di livello 7: la linea del "
            "dichiarante fa da 0 a 13 prese (REGOLE 1).",
        ),
        ({**TAP_4S_MADE, "declarer": ""}, "declarer-errors", "Scegli il dichiarante: N, E, S o O."),
    ],
)
def test_the_entry_form_of_an_italian_club_shows_refusals_in_italian(
    client: Any,
    director: Any,
    italian_club: Any,
    running_session: Any,
    data: dict[str, str],
    field_id: str,
    message: str,
) -> None:
    rubber = running_session.rubbers.get()
    client.force_login(director)
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    errors = html[html.index(f'id="{field_id}"') :]
    assert message in errors[: errors.index("</div>")]


def test_a_visitor_who_chose_english_reads_the_refusal_in_english(
    client: Any, director: Any, italian_club: Any, running_session: Any
) -> None:
    from django.conf import settings

    rubber = running_session.rubbers.get()
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.post(
        f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "declarer": ""}
    ).content.decode()
    assert "Choose the declarer: N, E, S or W." in html
