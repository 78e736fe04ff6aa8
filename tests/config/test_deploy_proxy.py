"""docs/deploy.md's proxy block for the push streams (issue 28) fits the streams: it matches
their URLs, passes each event on unbuffered, and keeps an idle stream open longer than its
heartbeat, at the proxy's upstream and client sides."""

from __future__ import annotations

import re

from django.conf import settings
from django.urls import reverse

from tests.conftest import ROOT

DEPLOY = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600}


def _stream_block() -> str:
    start = DEPLOY.index("location ~ ^/(rubbers/")
    return DEPLOY[start : DEPLOY.index("}", start)]


def _seconds(directive: str, text: str) -> int:
    value, unit = re.search(rf"^\s*{directive} (\d+)([smh]?);", text, re.M).groups()
    return int(value) * SECONDS[unit]


def test_the_stream_location_matches_both_streams_and_nothing_else():
    pattern = re.search(r"location ~ (\S+) \{", _stream_block()).group(1)
    streams = [
        reverse("games:rubber_events", args=[12]),
        reverse("clubs:console_events", args=["the-club"]),
    ]
    assert all(re.match(pattern, url) for url in streams), streams
    assert not re.match(pattern, "/rubbers/12/live")


def test_the_streams_pass_unbuffered_and_outlive_their_heartbeat():
    block = _stream_block()
    assert re.search(r"^\s*proxy_buffering off;", block, re.M)
    assert _seconds("proxy_read_timeout", block) > settings.PUSH_HEARTBEAT_SECONDS
    assert _seconds("send_timeout", DEPLOY) > settings.PUSH_HEARTBEAT_SECONDS
    assert re.search(r"^\s*least_conn;", DEPLOY, re.M)  # streams last: balance what is open
