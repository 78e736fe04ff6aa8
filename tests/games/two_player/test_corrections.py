"""Correcting a two-player deal from the match page (RULES 7.1–7.4, 8.2).

The correction form has the game's own fields, filled from the deal as recorded; a correction
re-scores the match (the engine's figures), keeps the history, and refuses a stale version or an
impossible result on the form. A director or any player at the table corrects it.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any

import pytest

from games import registry, sheets
from games.forms import TwoPlayerCorrectionForm
from games.sessions import lifecycle
from tests.games.two_player.conftest import engine, named, play
from tests.games.two_player.test_api import (
    BRIDGE_FOR_TWO,
    DRAW_DISCARD,
    MISERY,
    TURNOVER,
    first_match,
)

pytestmark = pytest.mark.django_db

COMMANDS = {
    "bridge_for_two": "bridge-for-two",
    "misery": "misery",
    "turnover": "turnover",
    "draw_discard": "draw-discard",
}
DEALS = {
    "bridge_for_two": BRIDGE_FOR_TWO[:2],
    "misery": MISERY[:2],
    "turnover": TURNOVER,
    "draw_discard": DRAW_DISCARD[:3],
}
# Per game: the deal corrected, the form's fields as tapped, and the deal as the engine reads it.
CORRECTIONS = {
    # 4♠ made with honours to East becomes 3♠ doubled, 9 tricks, no honours: 180 below to North.
    "bridge_for_two": (
        2,
        {"declarer": "0", "strain": "S", "doubled": "X", "tricks": "9", "honours": ""},
        {"declarer": 0, "strain": "S", "tricks": 9, "doubled": 1},
    ),
    # Eight tricks at NT becomes a misery with no trick: 5 × 7 to North above the line.
    "misery": (
        1,
        {"declarer": "0", "declaration": "misery", "strain": "NT", "tricks": "0"},
        {"declarer": 0, "declaration": "misery", "tricks": 0},
    ),
    # 14–9 to North becomes 5–14 to East.
    "turnover": (1, {"tricks_0": "5", "tricks_1": "14"}, {"tricks": [5, 14]}),
    # A pass becomes 2♥ doubled by North with 9 tricks: 3 × 30 × 2.
    "draw_discard": (
        2,
        {"declarer": "0", "level": "2", "strain": "H", "doubled": "X", "tricks": "9"},
        {"declarer": 0, "contract": "2HX", "tricks": 9},
    ),
}
# Per game: an impossible result and the refusal beside the form, naming the rule.
REFUSALS = {
    "bridge_for_two": (
        {"declarer": "0", "strain": "NT", "tricks": "8", "honours": "0:100"},
        "At no trumps only the four aces count (150) (RULES 3.6).",
    ),
    "misery": (
        {"declarer": "1", "declaration": "misery", "strain": "H", "tricks": "1"},
        "Misery is played at no trumps (NT) (RULES 7.2).",
    ),
    "turnover": (
        {"tricks_0": "15", "tricks_1": "10"},
        "15–10 is not a Turnover result: 14 against 0–12 (play stopped at 14), "
        "or all 26 tricks played out",
    ),
    "draw_discard": (
        {"level": "3", "strain": "NT", "tricks": "9"},
        # A field left empty is what to tap, not a rule (the API says "is required").
        "Choose the declarer: North or East.",
    ),
}
KINDS = list(COMMANDS)


def correct(client: Any, deal: Any, version: int, fields: dict[str, str], **extra: Any) -> Any:
    prefix = f"deal{deal.pk}"
    data = {f"{prefix}-version": str(version)}
    data.update({f"{prefix}-{name}": value for name, value in fields.items()})
    return client.post(f"/deals/{deal.pk}/correct", data, **extra)


def sheet_of(kind: str, deals: list[dict[str, Any]]) -> dict[str, Any]:
    if kind == "turnover":
        return engine("turnover", deals[0])
    return engine(COMMANDS[kind], {"deals": deals, "preset": "acbl"})


def totals_on_the_page(kind: str, expected: dict[str, Any]) -> list[str]:
    """What the match page shows of the engine's sheet: each player's total, tricks or score."""
    if kind == "turnover":
        return [f'id="tricks-{i}">{expected["tricks"][i]}<' for i in (0, 1)]
    if kind == "draw_discard":
        return [f'id="score-{i}">{expected["scores"][i]}<' for i in (0, 1)]
    totals = [player["total"] for player in expected["players"]]
    return [f'id="total-ns">{totals[0]}<', f'id="total-ew">{totals[1]}<']


@pytest.mark.parametrize("kind", KINDS)
def test_a_correction_on_the_page_rescores_the_match_and_keeps_history(
    client, api, two_player_session, north, kind
):
    match = first_match(two_player_session(kind))
    deals = DEALS[kind]
    play(api, match, deals, as_user=north)
    number, fields, corrected = CORRECTIONS[kind]
    deal = match.deals.get(number=number)
    client.force_login(north)

    response = correct(client, deal, 1, fields)

    assert response.status_code == 302
    assert response["Location"].endswith(f"/rubbers/{match.pk}/#deal-{number}")
    deal.refresh_from_db()
    assert deal.data == sheets.normalise(kind, corrected)
    assert deal.version == 2
    expected = sheet_of(kind, [corrected if n == number else d for n, d in enumerate(deals, 1)])
    api.force_authenticate(None)
    assert api.get(f"/api/v1/rubbers/{match.pk}/").json()["scoresheet"] == named(expected)
    page = client.get(f"/rubbers/{match.pk}/").content.decode()
    for shown in totals_on_the_page(kind, expected):
        assert shown in page
    assert "History (2)" in page
    history = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    assert [(e["kind"], e["reason"], e["user"]) for e in history] == [
        ("entered", "entered", "North"),  # the player's name, never the login (API.md)
        ("changed", "correction", "North"),
    ]
    assert history[0]["after"]["data"] == sheets.normalise(kind, deals[number - 1])
    assert history[1]["after"]["data"] == deal.data


@pytest.mark.parametrize("kind", KINDS)
def test_a_stale_version_is_refused_with_the_conflict(client, api, two_player_session, north, kind):
    match = first_match(two_player_session(kind))
    play(api, match, DEALS[kind], as_user=north)
    number, fields, corrected = CORRECTIONS[kind]
    deal = match.deals.get(number=number)
    client.force_login(north)
    assert correct(client, deal, 1, fields).status_code == 302

    stale = correct(client, deal, 1, {**fields, **_other(kind)})

    assert stale.status_code == 200
    text = html.unescape(stale.content.decode())
    assert f"Deal {number} was just corrected by North: it is now" in text
    assert "version" not in re.sub(r"<[^>]*>", " ", text).lower()
    assert '<details class="correction" open>' in text
    deal.refresh_from_db()
    assert (deal.version, deal.data) == (2, sheets.normalise(kind, corrected))


def _other(kind: str) -> dict[str, str]:
    """Other content than the correction, itself possible."""
    if kind == "turnover":
        return {"tricks_0": "14", "tricks_1": "12"}
    return {"tricks": "7"}


@pytest.mark.parametrize("kind", KINDS)
def test_an_impossible_result_is_refused_with_the_rule(
    client, api, two_player_session, north, kind
):
    match = first_match(two_player_session(kind))
    play(api, match, DEALS[kind], as_user=north)
    deal = match.deals.get(number=1)
    before = deal.data
    client.force_login(north)

    response = correct(client, deal, 1, REFUSALS[kind][0])

    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert REFUSALS[kind][1] in text
    assert '<details class="correction" open>' in text
    deal.refresh_from_db()
    assert (deal.version, deal.data) == (1, before)


def test_a_refusal_is_in_the_clubs_language(client, api, two_player_session, north):
    match = first_match(two_player_session("misery"))
    match.session.club.language = "it"
    match.session.club.save(update_fields=["language"])
    play(api, match, MISERY[:1], as_user=north)
    client.force_login(north)

    response = correct(client, match.deals.get(), 1, REFUSALS["misery"][0])

    assert "La miseria si gioca a senza atout (SA) (REGOLE 7.2)." in response.content.decode()


def test_with_htmx_the_live_part_is_answered(client, api, two_player_session, north):
    match = first_match(two_player_session("misery"))
    play(api, match, MISERY[:2], as_user=north)
    number, fields, corrected = CORRECTIONS["misery"]
    deal = match.deals.get(number=number)
    client.force_login(north)

    response = correct(client, deal, 1, fields, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="live"') and "<html" not in body
    expected = sheet_of("misery", [corrected, MISERY[1]])
    assert f'id="total-ns">{expected["players"][0]["total"]}<' in body
    refused = correct(client, deal, 2, REFUSALS["misery"][0], HTTP_HX_REQUEST="true")
    assert refused.status_code == 200
    assert "RULES 7.2" in refused.content.decode()


@pytest.mark.parametrize("kind", KINDS)
def test_the_other_player_at_the_table_corrects_too(
    client, api, two_player_session, north, east, kind
):
    """Any player at the table corrects while the session runs (issue 17); history says who."""
    match = first_match(two_player_session(kind))
    play(api, match, DEALS[kind], as_user=north)
    number, fields, corrected = CORRECTIONS[kind]
    deal = match.deals.get(number=number)
    client.force_login(east)

    assert 'class="correction"' in client.get(f"/rubbers/{match.pk}/").content.decode()
    assert correct(client, deal, 1, fields).status_code == 302
    deal.refresh_from_db()
    assert (deal.version, deal.data) == (2, sheets.normalise(kind, corrected))


def test_a_director_corrects_a_deal_another_player_entered(
    client, api, two_player_session, east, director
):
    match = first_match(two_player_session("turnover"))
    play(api, match, TURNOVER, as_user=east)
    client.force_login(director)
    assert 'class="correction"' in client.get(f"/rubbers/{match.pk}/").content.decode()
    _number, fields, corrected = CORRECTIONS["turnover"]
    assert correct(client, match.deals.get(), 1, fields).status_code == 302
    assert match.deals.get().data == corrected


def test_an_outsider_gets_403_and_nobody_signed_out_corrects(
    client, api, two_player_session, north, outsider
):
    match = first_match(two_player_session("misery"))
    play(api, match, MISERY[:1], as_user=north)
    deal = match.deals.get()
    _number, fields, _corrected = CORRECTIONS["misery"]
    response = correct(client, deal, 1, fields)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert correct(client, deal, 1, fields).status_code == 403


def test_a_closed_session_offers_no_correction_and_refuses_one(
    client, api, two_player_session, north
):
    session = two_player_session("misery")
    match = first_match(session)
    play(api, match, MISERY[:2], as_user=north)
    lifecycle.session_close(session=session)
    number, fields, _corrected = CORRECTIONS["misery"]
    deal = match.deals.get(number=number)
    client.force_login(north)

    assert 'class="correction"' not in client.get(f"/rubbers/{match.pk}/").content.decode()
    response = correct(client, deal, 1, fields)

    assert response.status_code == 200
    assert "The session is closed: its results are final." in response.content.decode()
    deal.refresh_from_db()
    assert deal.version == 1


# --- the form starts from the deal as recorded ---------------------------------------------------

REPRESENTATIVE = {
    "bridge_for_two": [
        *BRIDGE_FOR_TWO,
        {"declarer": 0, "strain": "NT", "tricks": 7, "doubled": 1,
         "honours": {"player": 0, "points": 150}},
        {"declarer": 1, "strain": "D", "tricks": 0, "honours": {"player": 0, "points": 100}},
    ],
    "misery": [
        *MISERY,
        {"declarer": 0, "declaration": "misery", "strain": "NT", "tricks": 13},
        {"declarer": 1, "declaration": "eight", "strain": "C", "tricks": 7},
        {"declarer": 1, "declaration": "ordinary", "strain": "S", "tricks": 8,
         "honours": {"player": 1, "points": 150}},
    ],
    "turnover": [{"tricks": [14, 9]}, {"tricks": [13, 13]}, {"tricks": [0, 14]}],
    "draw_discard": [*DRAW_DISCARD, {"declarer": 0, "contract": "7NTXX", "tricks": 13}],
}  # fmt: skip
ROUND_TRIPS = [
    pytest.param(kind, deal, id=f"{kind}-{i}")
    for kind, deals in REPRESENTATIVE.items()
    for i, deal in enumerate(deals)
]


def two_player_initial(kind, data):
    """A stored deal as its game's correction fields (games/registry.py names the game's)."""
    return registry.pages(kind).entry.initial(data)


@pytest.mark.parametrize(("kind", "deal"), ROUND_TRIPS)
def test_the_form_sends_back_the_deal_it_was_filled_from(kind, deal):
    stored = sheets.normalise(kind, deal)
    recorded = SimpleNamespace(pk=7, version=3, data=stored)
    players = ["North", "East"]
    entry = registry.pages(kind).entry
    form = TwoPlayerCorrectionForm.for_deal(recorded, kind=kind, entry=entry, players=players)
    assert form.initial == {"version": 3, **two_player_initial(kind, stored)}
    untouched = {f"deal7-{name}": value for name, value in form.initial.items()}

    sent = TwoPlayerCorrectionForm.for_deal(
        recorded, kind=kind, entry=entry, players=players, data=untouched
    )

    assert sent.is_valid(), sent.errors
    assert sent.cleaned_data["version"] == 3
    data = sent.changes()["data"]
    assert {k: v for k, v in data.items() if v is not None} == stored
    assert sheets.normalise(kind, data) == stored


def test_the_initial_values_name_the_recorded_fields():
    assert two_player_initial(
        "bridge_for_two", sheets.normalise("bridge_for_two", BRIDGE_FOR_TWO[1])
    ) == {"declarer": "0", "strain": "S", "tricks": "10", "honours": "1:100"}
    assert two_player_initial("misery", sheets.normalise("misery", MISERY[1])) == {
        "declarer": "1",
        "declaration": "misery",
        "strain": "NT",
        "tricks": "1",
    }
    assert two_player_initial("turnover", TURNOVER[0]) == {"tricks_0": "14", "tricks_1": "9"}
    assert two_player_initial("draw_discard", DRAW_DISCARD[3]) == {
        "declarer": "1",
        "level": "5",
        "strain": "H",
        "doubled": "X",
        "tricks": "12",
    }
    assert two_player_initial("draw_discard", DRAW_DISCARD[1]) == {"level": "pass"}


class FormValues(HTMLParser):
    """The values a browser would send for the inputs named `prefix-…` (checked radios only)."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        name = found.get("name") or ""
        if tag != "input" or not name.startswith(self.prefix):
            return
        if found.get("type") == "radio" and "checked" not in found:
            return
        self.values[name] = found.get("value") or ""


@pytest.mark.parametrize("kind", KINDS)
def test_every_form_on_the_page_shows_its_deal_as_recorded(
    client, api, two_player_session, north, kind
):
    """Sending each deal's correction form untouched changes nothing: no new version."""
    match = first_match(two_player_session(kind))
    play(api, match, DEALS[kind], as_user=north)
    client.force_login(north)
    for deal in match.deals.all():
        page = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
        values = FormValues(f"deal{deal.pk}-")
        values.feed(page.content.decode())
        assert values.values[f"deal{deal.pk}-version"] == "1"
        response = client.post(f"/deals/{deal.pk}/correct", values.values)
        assert response.status_code == 302, values.values
        deal.refresh_from_db()
        assert deal.version == 1
