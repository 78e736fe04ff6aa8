"""The push channel's client (static/js/push.js) on its own, in Chromium with no server: a
stream opened again after it ended sends the version it last heard (`?last=`), so that the
server tells it "changed" only if the pad moved meanwhile (games/push/views.py, issue 28)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.browser

ORIGIN = "http://push.test"
PUSH_JS = ROOT / "static" / "js" / "push.js"


def test_a_stream_opened_again_resumes_from_the_version_it_last_heard(browser: Any) -> None:
    page = browser.new_page()
    opened: list[str] = []

    def answer(route: Any) -> None:
        url = route.request.url.removeprefix(ORIGIN)
        if url.startswith("/events"):
            opened.append(url)
            # One event, then the stream ends (a restart): the client comes back.
            body = "retry: 100\nid: v1\nevent: changed\ndata: v1\n\n" if len(opened) == 1 else ""
            route.fulfill(body=body, content_type="text/event-stream")
        elif url == "/push.js":
            route.fulfill(body=PUSH_JS.read_text(), content_type="text/javascript")
        else:
            route.fulfill(
                body='<!doctype html><html><body><div id="live" data-push-url="/events"></div>'
                '<script src="/push.js"></script></body></html>',
                content_type="text/html",
            )

    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/pad")
    # The first back-off is at most a second (1 s, jittered).
    deadline = 40
    while len(opened) < 2 and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    assert opened[0] == "/events"
    assert opened[1] == "/events?last=v1"
    page.close()
