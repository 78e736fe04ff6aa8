"""A kept pad's hit reads only what its key needs (games/pad/live.py): who looks and what they
may do, from the rubber alone; its deals and players are read only to render it. The rights
are decided exactly as before, so viewers with different rights never share a pad on the hit
path: each answer from a warm cache is the one a cold cache gives that viewer."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import acting

pytestmark = pytest.mark.django_db

#: A request's own CSRF token in a pad (games.pad.rendered.with_token puts it back).
_TOKEN = re.compile(r"[A-Za-z0-9]{64}")


@pytest.fixture(autouse=True)
def _confirmation_and_a_deal(running_session):
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    rubber = running_session.rubbers.get()
    for number in (1, 2):
        rubber.record_deal(
            number=number,
            contract="1S",
            declarer="N",
            tricks=6,
            actor=acting(rubber, rubber.north.user),
        )
    cache.clear()
    yield
    cache.clear()


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def pad(client, rubber):
    answer = client.get(f"/rubbers/{rubber.pk}/live")
    assert answer.status_code == 200
    return _TOKEN.sub("TOKEN", answer.content.decode())


def test_a_hit_reads_fewer_queries_than_a_miss_and_no_deals(
    running_session, north, django_assert_num_queries
):
    rubber = running_session.rubbers.get()
    phone = signed_in(north)
    phone.get("/")  # the session and the login are read alike by both requests
    with CaptureQueriesContext(connection) as miss:
        pad(phone, rubber)
    with CaptureQueriesContext(connection) as hit:
        pad(phone, rubber)
    assert len(hit) < len(miss)
    reads_deals = [q["sql"] for q in miss if '"games_deal"."rubber_id" IN' in q["sql"]]
    assert reads_deals, "the miss reads the rubber's deals"
    assert not [q for q in hit if q["sql"] in reads_deals], "a hit read the rubber's deals"
    # The session, the login, the state, the rubber, the role, the player, the deals of the
    # previous rubber awaiting them: no more, whatever the rubber holds.
    with django_assert_num_queries(len(hit)):
        pad(phone, rubber)


def test_viewers_with_different_rights_never_share_a_pad_on_the_hit_path(
    running_session, director, north, south, east, outsider
):
    rubber = running_session.rubbers.get()
    code_phone = Client()
    assert code_phone.post(f"/t/{rubber.table.code}", {"seat": "E"}).status_code == 302
    viewers = {
        "north": signed_in(north),
        "south": signed_in(south),
        "east": signed_in(east),
        "director": signed_in(director),
        "outsider": signed_in(outsider),
        "anonymous": Client(),
        "code phone at E": code_phone,
    }
    cold = {}
    for name, client in viewers.items():
        cache.clear()
        cold[name] = pad(client, rubber)
    # Each viewer in turn, after all the others filled the cache: their own pad, as cold.
    for name, client in viewers.items():
        cache.clear()
        for other in viewers.values():
            if other is not client:
                pad(other, rubber)
        assert pad(client, rubber) == cold[name], name
    # The rights show: the other side is asked to confirm, the partners share a pad.
    assert "awaiting your confirmation" in cold["east"]
    assert "awaiting your confirmation" not in cold["north"]
    assert cold["north"] == cold["south"]
    assert len({cold[name] for name in ("north", "east", "director", "outsider")}) == 4
