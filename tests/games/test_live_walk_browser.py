"""Issues 28 and 29, walked across devices in Chromium: two phones at one table (390×844, one
in English, one in Italian) and the director's console (1280×800), served over ASGI as in
production so the pages hear the push channel. Each sees the others' changes without a reload:
a substitute's name, deals, a confirmation, a dispute with its reason, the director's
correction that settles it (on both phones, the console and the close page: nothing left
awaiting). A half-entered deal and an open correction survive an incoming change. Then the push
channel is cut (its streams end and new ones are refused): the pages fall back to polling and
still converge."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT

SHOTS = ROOT / "docs" / "screenshots"
# No service worker: offline entry is walked elsewhere, and its caching would slow each page.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "service_workers": "block"}
DESK = {"viewport": {"width": 1280, "height": 800}, "service_workers": "block"}


class PushSwitch:
    """An ASGI wrapper that can cut the push channel: `cut()` ends every open event stream (as
    a push process that died) and refuses new ones with a 503; every other request passes."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.is_cut = False
        self.streams: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.rstrip("/").endswith("/events"):
            await self.app(scope, receive, send)
            return
        if self.is_cut:
            await send({"type": "http.response.start", "status": 503, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        ended = (asyncio.get_running_loop(), asyncio.Event())
        self.streams.add(ended)
        serving = asyncio.ensure_future(self.app(scope, receive, send))
        cutting = asyncio.ensure_future(ended[1].wait())
        try:
            await asyncio.wait({serving, cutting}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.streams.discard(ended)
            for task in (serving, cutting):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    def cut(self) -> None:
        self.is_cut = True
        for loop, ended in list(self.streams):
            loop.call_soon_threadsafe(ended.set)


@pytest.fixture
def asgi_server(transactional_db: Any) -> Iterator[tuple[str, PushSwitch]]:
    """The project's ASGI application in a thread of this process (uvicorn, as `make run`),
    with the static files from the finders; its base URL and the push channel's switch. In
    this process, so the push channel's in-process broadcast reaches its streams."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from tests.integration.test_concurrency import free_port

    switch = PushSwitch(ASGIStaticFilesHandler(get_asgi_application()))
    port = free_port()
    config = uvicorn.Config(
        switch,
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the ASGI server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", switch
    finally:
        switch.cut()
        server.should_exit = True
        thread.join(10)


def signed_in(context: Any, base: str, user: Any) -> Any:
    """`context` with `user` signed in (sign-in itself is walked by other tests)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def tap(form: Any, field: str, value: str) -> None:
    form.locator(f".field-{field} label[data-v='{value}']").click()


def enter(page: Any, taps: tuple[tuple[str, str], ...]) -> None:
    for field, value in taps:
        tap(page.locator("#entry"), field, value)


@pytest.mark.browser
def test_two_phones_and_the_console_follow_each_other_by_push_then_by_poll(
    asgi_server: tuple[str, PushSwitch], browser: Any
) -> None:
    from clubs.models import Player
    from games.models import Deal
    from tests.factories import UserFactory, add_player, make_club, make_session

    base, switch = asgi_server
    director = UserFactory(username="director")
    club = make_club(director=director, slug="riverside")
    four = [
        add_player(club, name, user=UserFactory(username=name.lower()))
        for name in ("Ada", "Ben", "Cleo", "Dev")
    ]
    Player.objects.filter(pk=four[1].pk).update(language="it")
    session = make_session(club, [four])
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    rubber = session.rubbers.get()
    pad = f"/rubbers/{rubber.pk}/"
    north_user, east_user = rubber.north.user, rubber.east.user
    assert rubber.east.pk == four[1].pk  # the Italian phone is East's

    pages = {}
    for name, user, device in (
        ("north", north_user, PHONE),
        ("east", east_user, PHONE),
        ("console", director, DESK),
    ):
        page = signed_in(browser.new_context(**device), base, user).new_page()
        page.set_default_timeout(15_000)
        page.goto(
            base + ("/clubs/riverside/console/" if name == "console" else pad),
            wait_until="domcontentloaded",
        )
        pages[name] = page
    north, east, console = pages["north"], pages["east"], pages["console"]
    for page in pages.values():
        page.locator("html[data-push=up]").wait_for(state="attached")
    assert east.locator("html").get_attribute("lang") == "it"

    # North has started a deal when the director seats a substitute for West.
    enter(north, (("level", "4"), ("strain", "S")))
    console.locator('.table-card [data-action="leaver"]').click()
    console.get_by_label("Who leaves").select_option(label=rubber.west.name)
    console.get_by_label("or a new player").fill("Zoe")
    console.locator("#do-substitute").click()
    console.wait_for_url("**/console/#session-*")
    for page in (north, east):
        page.locator("#entry .field-declarer label[data-v='W']", has_text="Zoe").wait_for()
    assert north.locator("#entry input[name=level][value='4']").is_checked()
    assert north.locator("#entry input[name=strain][value='S']").is_checked()

    # North records it: East, in Italian, is asked to confirm; North never is; the console lists it.
    enter(north, (("declarer", "N"), ("result", "0")))
    north.locator("#entry details.honours summary").click()
    enter(north, (("honours", "NS100"),))
    north.locator("#record").click()
    north.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    east.locator("#deal-1").wait_for()
    east.locator("#awaiting", has_text="La smazzata 1 attende la tua conferma.").wait_for()
    awaiting_on_console = console.locator(".unconfirmed-deals li")
    awaiting_on_console.filter(has_text="deal 1").wait_for()
    assert "awaiting your confirmation" not in north.locator("#live").inner_text()
    assert north.locator("#awaiting").count() == 0

    # A second deal, which East confirms: North reads who confirmed it; the console drops it.
    enter(north, (("level", "2"), ("strain", "H"), ("declarer", "N"), ("result", "0")))
    north.locator("#record").click()
    east.locator("#confirm-2").wait_for()
    assert "Conferma tutte le 2 smazzate" in east.locator("#confirm-all").inner_text()
    east.locator("#confirm-2 > form button").click()
    north.locator("#deal-2 + tr", has_text="confirmed by Ben").wait_for()
    expect(awaiting_on_console).to_have_count(1)

    # North opens deal 1's correction; East disputes deal 1 with a reason. North's open form
    # stays open through the change, and North reads the dispute and why.
    north.locator("#correct-1").click()
    correction = north.locator("details.correction").first
    correction.locator("form").wait_for()
    east.locator("#dispute-1 summary").click()
    east.locator("#dispute-1 input[value=honours]").check()
    east.locator("#dispute-1 input[name=note]").fill("nessuno aveva quattro onori")
    east.locator("#dispute-1 button[type=submit]").click()
    reason = "about the honours: “nessuno aveva quattro onori”"
    north.locator("#deal-1 + tr .disputed").wait_for()
    assert reason in north.locator("#deal-1 + tr").inner_text()
    assert correction.get_attribute("open") is not None
    assert correction.locator("form").count() == 1
    east.locator("#deal-1 + tr", has_text="contestata: il direttore la verificherà").wait_for()
    disputed = awaiting_on_console.filter(has_text="deal 1")
    disputed.locator(".dispute-reason", has_text=reason).wait_for()
    # Each change morphed in once: no element of the console came in twice.
    twice = "(() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
    twice += " return ids.filter((id, i) => ids.indexOf(id) !== i); })()"
    assert console.evaluate(twice) == []
    console.locator(".unconfirmed").first.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    console.screenshot(path=str(SHOTS / "dispute-reason.png"))
    north.locator("#correct-1").click()  # North closes the form: nothing saved

    # The director corrects it from the console: no honours. The dispute ends everywhere.
    disputed.locator('[data-action="correct"]').click()
    director_form = console.locator("details.correction[open] form").first
    director_form.locator(".field-honours label[data-v='']").click()
    director_form.locator("button[type=submit]").click()
    console.locator("#deal-1 + tr .disputed").wait_for(state="detached")
    for page in (north, east):
        row = page.locator("#deal-1 + tr")
        row.locator(".disputed").wait_for(state="detached")
        expect(page.locator("#deal-1")).not_to_contain_text("hon.")
        assert page.locator("#deal-1 + tr .awaiting").count() == 0
    assert east.locator("#awaiting").count() == 0
    north.locator("#deal-1 + tr .ruled", has_text="corrected by the director").wait_for()
    east.locator("#deal-1 + tr .ruled", has_text="corretta dal direttore").wait_for()
    history = north.locator("#deal-1 + tr details.history")
    history.locator("summary").click()
    said = history.inner_text()
    assert "disputed (the honours: “nessuno aveva quattro onori”)" in said
    assert "corrected: 4♠ by N, 10 tricks, honours 100 to NS → 4♠ by N, 10 tricks\n" in said + "\n"
    deal = Deal.objects.get(rubber=rubber, number=1)
    assert not deal.disputed and deal.settled
    console.goto(f"{base}/clubs/riverside/console/")
    assert console.locator(".unconfirmed-deals").count() == 0
    close = f"{base}/clubs/riverside/sessions/{session.pk}/close/"
    console.goto(close)
    assert "not confirmed" not in console.locator("main").inner_text()
    console.goto(f"{base}/clubs/riverside/console/")
    console.locator("html[data-push=up]").wait_for(state="attached")

    # The push channel is cut: every page falls back to its poll, and they still converge.
    switch.cut()
    for page in pages.values():
        page.locator("html[data-push=down]").wait_for(state="attached")
    enter(north, (("level", "3"), ("strain", "NT"), ("declarer", "N"), ("result", "1")))
    north.locator("#record").click()
    east.locator("#deal-3").wait_for()
    awaiting_on_console.filter(has_text="deal 3").wait_for()
    east.locator("#confirm-3 > form button").click()
    north.locator("#deal-3 + tr", has_text="confirmed by Ben").wait_for()
    expect(awaiting_on_console).to_have_count(0)
    for page in (north, east):
        expect(page.locator("#total-ns")).to_have_text(north.locator("#total-ns").inner_text())
