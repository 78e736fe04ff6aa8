"""The director changes the table codes (issue 17), and what the phones at the tables see then.

Turning codes off and new codes ask first, in plain words, with no JavaScript and nothing changed
by a GET: codes off pause them (a phone that held a code gets back in with the same code when
they are on again); new codes sign every phone at every table out (each table opens its new
code). Both claims are tested here as the confirmation page makes them.

A phone whose code no longer works is told so, in a members-only club as in a public one: its
signed cookie (games.codes) proves it held that table's code. Anyone without such a cookie for
that table gets the missing rubber's 404, byte for byte (docs/security.md).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core import signing
from django.test import Client

from games.codes import tokens as codes
from games.models import Deal
from tests.conftest import unchanged
from tests.games.conftest import SIX_DEALS

TAPS = {"number": 1, "level": "4", "strain": "S", "declarer": "N", "result": "0"}
CHANGED = "This table's code has changed or was turned off: scan the table card again."


@pytest.fixture(autouse=True)
def _empty_throttle():
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


def at_table(client: Any, rubber: Any, seat: str = "S") -> str:
    code = rubber.table.code
    response = client.post(f"/t/{code}", {"seat": seat})
    assert response.status_code == 302
    return code


def codes_url(session: Any) -> str:
    return f"/clubs/{session.club.slug}/sessions/{session.pk}/codes/"


@pytest.fixture
def console(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def post_deal(phone: Any, rubber: Any, number: int, **extra: Any) -> Any:
    return phone.post(f"/rubbers/{rubber.pk}/deals/", {**TAPS, "number": number}, **extra)


# --- the confirmation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            "off",
            [
                "The table codes are paused",
                "when you turn codes on again, the phones that held a code get back in with the "
                "same code, and the printed cards still work.",
            ],
        ),
        (
            "regenerate",
            [
                "every phone at every table that opened its table by a code is signed out",
                "Each table must then open its new code: print the table cards again",
            ],
        ),
    ],
)
def test_codes_off_and_new_codes_ask_first_in_plain_words(
    client, rubber, running_session, console, change, words
):
    code = at_table(client, rubber)
    with unchanged():
        page = console.post(codes_url(running_session), {"action": change})
        # Only the confirmation's own `sure=1` acts (probe 2: `sure=0` used to).
        for odd in ("0", "", "yes"):
            assert (
                console.post(
                    codes_url(running_session), {"action": change, "sure": odd}
                ).status_code
                == 200
            )
    assert page.status_code == 200
    html = page.content.decode()
    assert all(w in html.replace("&#x27;", "'") for w in words)
    assert "Players signed in with their own login are not affected." in html
    # One more tap, no JavaScript: a form that posts the same change with `sure`.
    assert f'name="action" value="{change}"' in html and 'name="sure" value="1"' in html
    assert 'id="confirm-codes"' in html and "confirm(" not in html
    # Nothing changed yet: the phone still enters with its code.
    assert post_deal(client, rubber, 1).status_code == 302
    assert rubber.table.code == code


def test_a_get_changes_no_code(rubber, running_session, console):
    with unchanged():
        for query in ({"action": "off"}, {"action": "regenerate", "sure": "1"}):
            assert console.get(codes_url(running_session), query).status_code == 405


def test_the_table_cards_buttons_lead_to_the_confirmation(running_session, console):
    html = console.get(
        f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/cards/"
    ).content.decode()
    assert 'value="regenerate"' in html and 'value="off"' in html
    assert 'name="sure"' not in html


def test_turning_codes_on_needs_no_confirmation(running_session, console):
    running_session.table_codes = False
    running_session.save(update_fields=["table_codes"])
    assert console.post(codes_url(running_session), {"action": "on"}).status_code == 302
    running_session.refresh_from_db()
    assert running_session.table_codes


def test_the_confirmation_goes_back_to_a_safe_page_only(running_session, console):
    cards = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/cards/"
    html = console.post(
        codes_url(running_session), {"action": "off", "next": "https://evil.example/"}
    ).content.decode()
    assert "evil.example" not in html
    assert f'name="next" value="{cards}"' in html


# --- what the confirmation says is true ---------------------------------------------------------


def test_codes_off_then_on_lets_the_same_phone_back_in_with_the_same_code(
    client, rubber, running_session, console
):
    """ "The phones that held a code get back in with the same code" (the cookie keeps it)."""
    code = at_table(client, rubber)
    assert post_deal(client, rubber, 1).status_code == 302
    url = codes_url(running_session)
    assert console.post(url, {"action": "off", "sure": "1"}).status_code == 302
    with unchanged():
        refused = post_deal(client, rubber, 2)
    assert refused.status_code == 403 and CHANGED in refused.content.decode()
    assert console.post(url, {"action": "on"}).status_code == 302
    rubber.table.refresh_from_db()
    assert rubber.table.code == code  # the printed cards still work
    # The same phone, nothing scanned again: it enters deal 2 as seat S.
    assert post_deal(client, rubber, 2).status_code == 302
    deal = Deal.objects.get(rubber=rubber, number=2)
    assert deal.history.get().history_change_reason == "entered · South, table 1 (code), seat S"
    assert client.get(f"/t/{code}").status_code == 200


def test_new_codes_sign_every_phone_at_every_table_out(club, director, console, make_user):
    """ "Every phone at every table is signed out; each table must open its new code"."""
    from tests.factories import add_player, make_session

    players = [add_player(club, f"P{i}", user=make_user(f"p{i}")) for i in range(8)]
    session = make_session(club, [players[:4], players[4:]])
    rubbers = list(session.rubbers.order_by("table__number"))
    phones = [Client(), Client()]
    old = [at_table(phone, rubber) for phone, rubber in zip(phones, rubbers, strict=True)]

    assert (
        console.post(codes_url(session), {"action": "regenerate", "sure": "1"}).status_code == 302
    )

    for phone, rubber, code in zip(phones, rubbers, old, strict=True):
        rubber.table.refresh_from_db()
        assert rubber.table.code != code
        with unchanged():
            page = post_deal(phone, rubber, 1)
            fragment = post_deal(phone, rubber, 1, HTTP_HX_REQUEST="true")
            scanned = phone.get(f"/t/{code}")
        # Told in words, never sent to sign in; the pad keeps its taps (htmx).
        assert page.status_code == 403 and CHANGED in page.content.decode()
        assert fragment.status_code == 200 and fragment["HX-Retarget"] == "#entry"
        assert CHANGED in fragment.content.decode()
        assert scanned.status_code == 404
        # The new code lets the table back in.
        at_table(phone, rubber)
        assert post_deal(phone, rubber, 1).status_code == 302
    assert Deal.objects.count() == 2


# --- a members-only club: told, not 404 ---------------------------------------------------------


@pytest.fixture
def hidden(club: Any) -> Any:
    club.public = False
    club.save(update_fields=["public"])
    return club


@pytest.mark.parametrize("change", ["regenerate", "off"])
def test_a_phone_of_a_members_only_table_is_told_its_code_changed(
    client, hidden, rubber, running_session, console, enter, change
):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get()
    at_table(client, rubber, "E")
    assert client.get(f"/rubbers/{rubber.pk}/").status_code == 200
    assert (
        console.post(codes_url(running_session), {"action": change, "sure": "1"}).status_code == 302
    )

    correction = {f"deal{deal.pk}-{k}": v for k, v in {"version": 1, "level": "2"}.items()}
    with unchanged():
        answers = {
            "page": client.get(f"/rubbers/{rubber.pk}/"),
            "table": client.get(f"/tables/{rubber.table_id}/"),
            "enter": post_deal(client, rubber, 2),
            "correct": client.post(f"/deals/{deal.pk}/correct", correction),
            "confirm": client.post(f"/deals/{deal.pk}/confirm", {"version": 1}),
        }
        fragment = post_deal(client, rubber, 2, HTTP_HX_REQUEST="true")
        live = client.get(f"/rubbers/{rubber.pk}/live")
        queued = client.post(f"/rubbers/{rubber.pk}/deals/queued", {**TAPS, "number": 2})
    for name, answer in answers.items():
        assert answer.status_code == 403, name
        assert CHANGED in answer.content.decode(), name
        assert "login" not in answer.get("Location", ""), name
    assert fragment.status_code == 200 and fragment["HX-Retarget"] == "#entry"
    assert CHANGED in fragment.content.decode() and "<html" not in fragment.content.decode()
    # The pad's poll stops (it swaps only a 200), showing nothing of the table any more.
    assert live.status_code == 403 and "total-ns" not in live.content.decode()
    # The offline queue keeps its deals, as in a public club: open the code again to send them.
    assert queued.status_code == 403 and queued.json()["status"] == "sign in"
    # Nothing of the table is read on these pages.
    assert all("Deal 1" not in a.content.decode() for a in answers.values())


def _everything(response: Any) -> tuple[Any, ...]:
    return (
        response.status_code,
        response.content,
        sorted(response.headers.items()),
        sorted((name, morsel.OutputString()) for name, morsel in response.cookies.items()),
    )


def _forged(table_id: int, code: str) -> str:
    """A cookie naming the table, not signed with the site's key."""
    return signing.dumps({"t": table_id, "c": code, "s": "S"}, key="not-the-key", salt=codes.SALT)


@pytest.mark.parametrize("who", ["nobody", "other table", "forged", "outsider"])
def test_anyone_else_gets_the_missing_rubbers_404_byte_for_byte(
    hidden, rubber, running_session, console, outsider, make_user, who
):
    from tests.factories import add_player, make_session

    others = [add_player(hidden, f"O{i}", user=make_user(f"o{i}")) for i in range(4)]
    other = make_session(hidden, [others]).rubbers.get()
    code = rubber.table.code
    assert (
        console.post(codes_url(running_session), {"action": "regenerate", "sure": "1"}).status_code
        == 302
    )

    def visitor() -> Client:
        client = Client()
        if who == "other table":
            at_table(client, other)  # a valid signed cookie, for another table
        elif who == "forged":
            client.cookies[codes.COOKIE] = _forged(rubber.table_id, code)
        elif who == "outsider":
            client.force_login(outsider)
        return client

    calls = [("get", "/rubbers/{}/"), ("get", "/rubbers/{}/live"), ("get", "/tables/{}/")]
    if who in ("other table", "outsider"):
        # (Without a login or a valid cookie, a write is sent to sign in first, as ever.)
        calls += [("post", "/rubbers/{}/deals/"), ("post", "/rubbers/{}/preview")]
    never = 10**7
    # Fresh visitors for each call, ready before (a login writes its time).
    visitors = [(visitor(), visitor()) for _ in calls]
    with unchanged():
        for (method, path), (one, two) in zip(calls, visitors, strict=True):
            pk = rubber.table_id if path.startswith("/tables/") else rubber.pk
            hidden_answer = getattr(one, method)(path.format(pk), TAPS)
            missing = getattr(two, method)(path.format(never), TAPS)
            assert hidden_answer.status_code in (404, 405), (who, path)
            assert _everything(hidden_answer) == _everything(missing), (who, path)
