"""Two-player sessions (RULES 7): tables of two, the games played through the API."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from scoring.rules.cli import main as cli


@pytest.fixture
def two_player_session(club: Any, table_of_four: dict[str, Any]) -> Any:
    """Build a started session of `kind`: table 1 North v East, table 2 South v West."""
    from tests.factories import make_session

    def make(kind: str, *, start: bool = True) -> Any:
        players = table_of_four
        tables = [[players["north"], players["east"]], [players["south"], players["west"]]]
        return make_session(club, tables, kind=kind, start=start)

    return make


def post_deal(api: Any, match: Any, number: int, fields: dict[str, Any], *, as_user: Any) -> Any:
    api.force_authenticate(as_user)
    return api.post(
        f"/api/v1/rubbers/{match.pk}/deals/", {"number": number, **fields}, format="json"
    )


def play(api: Any, match: Any, deals: list[dict[str, Any]], *, as_user: Any) -> Any:
    """POST every deal (each must be created); return the last response's JSON."""
    response = None
    for number, fields in enumerate(deals, start=1):
        response = post_deal(api, match, number, fields, as_user=as_user)
        assert response.status_code == 201, response.json()
    assert response is not None
    return response.json()


def engine(command: str, request: dict[str, Any]) -> dict[str, Any]:
    """What `python -m scoring <command>` prints for `request`."""
    out, err = io.StringIO(), io.StringIO()
    status = cli([command], stdin=io.StringIO(json.dumps(request)), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


#: The players of the first match at table 1 of `two_player_session`: player 0, player 1.
SEATED = ("North", "East")


def named(sheet: dict[str, Any], names: tuple[str, str] = SEATED) -> dict[str, Any]:
    """The engine's sheet as the API gives it: the same figures and numbering, each explanation
    naming the match's players (in English) as the pad does."""
    from django.utils import translation

    from scoring.shared.i18n import localize_explanations

    with translation.override("en"):
        result: dict[str, Any] = localize_explanations(sheet, names)
    return result
