"""The page of an address that leads nowhere (a table's code not open yet, a missing or hidden
object): the site's page, readable on a phone, in the visitor's language, the same whatever the
address (a hidden object answers exactly like a missing one, tests/security)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

TABLE = "No table opens with this code: a table opens when its session starts and no longer"


def test_a_table_code_not_open_is_a_phone_page_the_same_for_every_code(client: Any) -> None:
    first, second = client.get("/t/XXXX"), client.get("/t/QWERTY7")
    assert first.status_code == second.status_code == 404
    html = first.content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "<title>Not found · Backscore</title>" in html and TABLE in html
    assert "XXXX" not in html
    assert first.content == second.content
    assert not first.cookies and not second.cookies


def test_a_missing_page_in_italian_for_a_signed_in_user(client: Any, director: Any) -> None:
    client.force_login(director)
    response = client.get("/clubs/no-such-club/", HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Non trovato" in html and "A questo indirizzo non c'è nulla." in html
    assert "no-such-club" not in html
    assert (
        client.get("/t/XXXX", HTTP_ACCEPT_LANGUAGE="it")
        .content.decode()
        .count("Nessun tavolo si apre con questo codice")
        == 1
    )
