"""A pad is rendered once per version and viewer and kept (games/pad/rendered.py): every fetch of
the same state by the same viewer reuses it, two viewers with different rights each get their
own, a new version is never answered from an older one, and each request gets its own CSRF
token in it. The deal buttons of an unbound entry form are kept per process."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.forms import DealEntryForm
from games.pad import rendered
from tests.factories import acting

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def enter_deal(rubber, number=1):
    return rubber.record_deal(
        number=number,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, rubber.north.user),
    )[0]


def live(client, rubber):
    answer = client.get(f"/rubbers/{rubber.pk}/live")
    assert answer.status_code == 200
    return answer.content.decode()


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_two_viewers_with_different_rights_get_their_own_pad(
    client, running_session, director, north, east
):
    client.force_login(director)
    client.post(
        f"/clubs/{running_session.club.slug}/console/confirmation/",
        {"confirm": "on", "session": running_session.pk},
    )
    rubber = running_session.rubbers.get()
    enter_deal(rubber)
    awaiting = "Deal 1 is awaiting your confirmation."
    # East (the other side) is asked first, so that their pad is kept before North's is read.
    assert awaiting in live(signed_in(east), rubber)
    assert awaiting not in live(signed_in(north), rubber)
    assert awaiting not in live(signed_in(director), rubber)
    # And East's is still theirs, from the cache.
    assert awaiting in live(signed_in(east), rubber)


def test_the_two_players_of_a_side_share_one_render(
    monkeypatch, running_session, north, south, east, west
):
    renders = []
    real = rendered.render_to_string

    def counted(template, *args, **kwargs):
        renders.append(template)
        return real(template, *args, **kwargs)

    monkeypatch.setattr(rendered, "render_to_string", counted)
    rubber = running_session.rubbers.get()
    enter_deal(rubber)
    pads = {user: live(signed_in(user), rubber) for user in (north, south, east, west)}
    # One render for North and South, one for East and West: each side's pad is its own.
    assert renders.count("games/_live.html") == 2
    # Counted without the CSRF tokens: each phone's own random token may hold "We" by chance.
    assert 'name="declarer"' in pads[south]
    assert _we(pads[south]) == _we(pads[north])
    assert rendered.CSRF_MARK not in pads[south]


def _we(html: str) -> int:
    """How often a pad says "We", its CSRF tokens' values left out."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html).count("We")


def test_what_a_pad_shows_of_its_viewer_keeps_viewers_apart(running_session, north, south):
    from games.permissions import Viewer

    rubber = running_session.rubbers.get()
    deal = enter_deal(rubber)
    rubber.fetch_players()
    seats = rubber.seats
    players = {north: seats["N"], south: seats["S"]}
    at_n = Viewer(user=north, role="player", player=players[north], seat="N")
    at_s = Viewer(user=south, role="player", player=players[south], seat="S")
    key = rendered.viewer_key
    assert key(at_n) == key(at_s)
    apart = [
        Viewer(user=south, role="player", player=players[south], seat="E"),  # the other side
        Viewer(user=south, role="player", player=players[south], seat=None, at_table=True),
        Viewer(user=south, role="director", player=players[south], seat="S"),
        Viewer(user=south, role="player", player=players[south], seat="S", reopened=True),
        Viewer(user=None, role=None, player=None, seat=None),
    ]
    for other in apart:
        assert key(other) != key(at_n)
    # A deal of the previous rubber awaiting one partner's confirmation is theirs alone.
    assert key(at_s, [deal]) != key(at_n)
    # A phone holding the table's code is kept by every field: its pad names it and its seat.
    by_code = [
        Viewer(user=None, role=None, player=seats[seat], seat=seat, by_code=True, code="c")
        for seat in "NS"
    ]
    assert key(by_code[0]) != key(by_code[1])


def test_a_new_version_is_never_answered_from_an_older_one(running_session, north):
    rubber = running_session.rubbers.get()
    phone = signed_in(north)
    before = live(phone, rubber)
    seated = rubber.east
    seated.name = "Renamed In The Admin"
    seated.save(update_fields=["name"])
    after = live(phone, rubber)
    assert "Renamed In The Admin" in after and "Renamed In The Admin" not in before
    enter_deal(rubber)
    assert 'id="deal-1"' in live(phone, rubber) and 'id="deal-1"' not in after


def test_the_same_version_is_rendered_once_and_reused(running_session, north, monkeypatch):
    rubber = running_session.rubbers.get()
    enter_deal(rubber)
    renders = []
    made = rendered.render_to_string
    monkeypatch.setattr(
        rendered, "render_to_string", lambda *a, **k: renders.append(a[0]) or made(*a, **k)
    )
    phone, other_tab = signed_in(north), signed_in(north)
    with CaptureQueriesContext(connection) as first:
        html = live(phone, rubber)
    with CaptureQueriesContext(connection) as again:
        assert live(other_tab, rubber).count("csrfmiddlewaretoken") == html.count(
            "csrfmiddlewaretoken"
        )
    # The pad once (with its deal buttons and each field's, kept per process, on the first
    # render only).
    assert renders.count("games/_live.html") == 1
    assert set(renders) <= {"games/_live.html", "games/_deal_fields.html", "games/_choices.html"}
    # A kept pad costs the state, who looks and the cache: no read of the deals and histories.
    assert len(again) < len(first)


def test_each_request_gets_its_own_csrf_token_in_a_kept_pad(running_session, north):
    rubber = running_session.rubbers.get()
    one, two = signed_in(north), signed_in(north)
    first, second = live(one, rubber), live(two, rubber)
    assert rendered.CSRF_MARK not in first and rendered.CSRF_MARK not in second
    token = 'name="csrfmiddlewaretoken" value="'

    def tokens(html):
        return {part.split('"', 1)[0] for part in html.split(token)[1:]}

    assert tokens(first) and tokens(second) and tokens(first) != tokens(second)
    # The token works: the kept pad's entry form records a deal for the second phone.
    answer = two.post(
        f"/rubbers/{rubber.pk}/deals/",
        {
            "number": 1,
            "level": "4",
            "strain": "S",
            "declarer": "N",
            "result": "0",
            "csrfmiddlewaretoken": tokens(second).pop(),
        },
    )
    assert answer.status_code in (200, 302)


def test_the_deal_buttons_of_an_unbound_form_are_kept_and_unchanged():
    form = DealEntryForm(we_side="NS", controls=frozenset({"honours"}))
    kept = rendered.deal_fields(form, "games/_deal_fields.html")
    assert kept == render_to_string("games/_deal_fields.html", {"form": form})
    again = DealEntryForm(we_side="NS", controls=frozenset({"honours"}))
    assert rendered.deal_fields(again, "games/_deal_fields.html") is kept
    other = DealEntryForm(we_side="EW", controls=frozenset())
    assert rendered.form_key(other) != rendered.form_key(form)
    bound = DealEntryForm({"level": "9"}, we_side="NS", controls=frozenset({"honours"}))
    assert rendered.deal_fields(bound, "games/_deal_fields.html") is not kept


def test_the_deal_buttons_kept_for_one_deal_serve_the_next():
    # The deal's number is rendered apart ({{ form.number }}): a new deal renders no buttons.
    first = DealEntryForm(we_side="NS", controls=frozenset(), initial={"number": 4})
    kept = rendered.deal_fields(first, "games/_deal_fields.html")
    assert 'name="number"' not in kept
    following = DealEntryForm(we_side="NS", controls=frozenset(), initial={"number": 5})
    assert rendered.deal_fields(following, "games/_deal_fields.html") is kept
    assert kept == render_to_string("games/_deal_fields.html", {"form": following})


def test_a_console_table_card_changes_with_what_it_shows(client, running_session, director):
    client.force_login(director)
    url = f"/clubs/{running_session.club.slug}/console/live/"
    before = client.get(url).content.decode()
    rubber = running_session.rubbers.get()
    enter_deal(rubber)
    after_deal = client.get(url).content.decode()
    assert "data-last-deal" in after_deal and "data-last-deal" not in before
    seated = rubber.east
    seated.name = "Renamed On The Console"
    seated.save(update_fields=["name"])
    # A rename reaches the console with its next change, as its ETag says (games.club.console).
    enter_deal(rubber, number=2)
    renamed = client.get(url).content.decode()
    assert "Renamed On The Console" in renamed and renamed != after_deal
    assert rendered.CSRF_MARK not in renamed and "csrfmiddlewaretoken" in renamed


def test_a_table_card_is_kept_by_everything_it_shows():
    from types import SimpleNamespace as NS

    def context(name="Ann", last="4♠ N =", status="running", language="en"):
        player = NS(pk=1, name=name)
        table = NS(
            table=NS(pk=7, number=3),
            players=[player],
            current_rubber=NS(pk=9, number=2),
            current_rubber_url="/rubbers/9/",
            rotation=[NS(rubber=2, seats=[("N", name)], sitting_out=[], current=True)],
            rubbers=[],
            last_deal=last,
            next_opponents=[],
        )
        session = NS(pk=5, status=status, is_reopened=False, kind="rubber")
        return {
            "t": table,
            "session": session,
            "club": NS(slug="riverside"),
            "is_director": True,
            "back": "/clubs/riverside/console/",
            "language": language,
        }

    key = rendered.card_key(context())
    assert rendered.card_key(context()) == key
    for changed in (
        context(name="Bea"),
        context(last="3NT E +1"),
        context(status="planned"),
    ):
        assert rendered.card_key(changed) != key


def test_requests_for_one_pad_at_the_same_moment_render_it_once(rf):
    import threading

    renders = []

    def context():
        renders.append(1)
        threading.Event().wait(0.05)  # a render's time, while the other requests arrive
        return {"rubber": None}

    def fetch(found):
        found.append(rendered.kept(rf.get("/"), "pad:test:once", "games/_race.html", context))

    found: list[str] = []
    threads = [threading.Thread(target=fetch, args=(found,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(renders) == 1 and len(found) == 4 and len(set(found)) == 1


def test_a_render_made_by_another_process_is_waited_for(rf):
    import threading

    key = "pad:test:elsewhere"
    cache.add(key + ":making", 1, 5)  # another process is rendering it
    threading.Timer(0.05, lambda: cache.set(key, "<p>made elsewhere</p>", 60)).start()

    def context():
        raise AssertionError("rendered again")

    assert rendered.kept(rf.get("/"), key, "games/_race.html", context) == "<p>made elsewhere</p>"
