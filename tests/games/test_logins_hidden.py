"""Who entered or changed a deal is shown by the player's display name (and player id), never
by a login (API.md: "Logins are never shown to anyone but the club's director"; issue 14,
item 9). The director sees logins only on the club's players list; here, as everyone, names.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.conftest import SIX_DEALS, seated_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def logins(table_of_four: dict[str, Any], director: Any) -> dict[str, str]:
    """Logins that cannot be mistaken for anything else a page or answer shows."""
    found = {}
    for name, player in [*table_of_four.items(), ("director", None)]:
        user = director if player is None else player.user
        user.username = f"secret-login-{name}"
        user.save(update_fields=["username"])
        found[name] = user.username
    return found


@pytest.fixture
def entered(api: Any, rubber: Any, enter: Any, director: Any, logins: dict[str, str]) -> Any:
    """Deal 1 entered by North, deal 2 by the director (no player), deal 1 corrected by North."""
    enter(SIX_DEALS[:1])
    api.force_authenticate(director)
    response = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 2, **SIX_DEALS[1]}, format="json"
    )
    assert response.status_code == 201
    deal = rubber.deals.get(number=1)
    api.force_authenticate(seated_user(rubber, "N"))
    assert api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 10}).status_code == 200
    return deal


VIEWERS = ["anonymous", "player", "director"]


def as_viewer(api: Any, client: Any, rubber: Any, director: Any, viewer: str) -> None:
    user = {"anonymous": None, "player": seated_user(rubber, "E"), "director": director}[viewer]
    api.force_authenticate(user)
    if user is not None:
        client.force_login(user)


def leaked(text: str, logins: dict[str, str], viewer: str) -> list[str]:
    """Logins in `text`, except the viewer's own (the page header shows whom you signed in as)."""
    own = {"player": logins["east"], "director": logins["director"]}.get(viewer)
    return [login for login in logins.values() if login != own and login in text]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_api_shows_names_not_logins(
    api, client, rubber, entered, director, logins, viewer
) -> None:
    as_viewer(api, client, rubber, director, viewer)
    answer = api.get(f"/api/v1/rubbers/{rubber.pk}/")
    assert answer.status_code == 200
    deals = answer.json()["deals"]
    assert [(d["entered_by"], d["entered_by_player"]) for d in deals] == [
        ("North", rubber.north_id),
        ("Director", None),
    ]
    one = api.get(f"/api/v1/deals/{entered.pk}/").json()
    assert (one["entered_by"], one["entered_by_player"]) == ("North", rubber.north_id)
    history = api.get(f"/api/v1/deals/{entered.pk}/history").json()
    assert [(e["user"], e["player"]) for e in history] == [
        ("North", rubber.north_id),
        ("North", rubber.north_id),
    ]
    for text in (answer.content, api.get(f"/api/v1/deals/{entered.pk}/").content):
        assert not leaked(text.decode(), logins, viewer)
    assert not leaked(str(history), logins, viewer)


def test_written_answers_show_names_not_logins(api, rubber, enter, logins) -> None:
    answer = enter(SIX_DEALS[:1])  # POST as North: the deal and the rubber as written
    assert answer.json()["entered_by"] == "North"
    assert answer.json()["rubber"]["deals"][0]["entered_by_player"] == rubber.north_id
    assert not leaked(answer.content.decode(), logins, "anonymous")
    deal = rubber.deals.get()
    patched = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 10}, format="json")
    assert patched.json()["entered_by"] == "North"
    assert not leaked(patched.content.decode(), logins, "anonymous")


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_pad_shows_names_not_logins(
    api, client, rubber, entered, director, logins, viewer
) -> None:
    as_viewer(api, client, rubber, director, viewer)
    page = client.get(f"/rubbers/{rubber.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "entered by North" in html
    assert "entered by Director" in html
    assert not leaked(html, logins, viewer)
