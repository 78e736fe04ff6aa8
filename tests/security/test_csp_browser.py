"""The main pages pass the Content Security Policy in Chromium: no violation, no console error.

A script injected before any page script (Playwright's init script, outside the page's policy)
records every `securitypolicyviolation` event; console errors are collected too. The director
signs in through the real login page (django-axes sees a real request), then visits the pages
and uses htmx (the standings' live refresh and an entry on the pad).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import sign_in
from tests.security.conftest import build_world

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_main_pages_raise_no_csp_violation(live_server: Any, browser: Any) -> None:
    from tests.factories import UserFactory

    world = build_world(UserFactory(username="director"))
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    sign_in(page, live_server.url, "director")

    pages = [
        "/",
        f"/clubs/{world.club.slug}/",
        f"/clubs/{world.club.slug}/console/",
        f"/clubs/{world.club.slug}/sessions/{world.running.pk}/",
        f"/clubs/{world.club.slug}/sessions/{world.running.pk}/cards/",
        f"/rubbers/{world.rubber.pk}/",
        f"/sessions/{world.running.pk}/standings/",
        f"/sessions/{world.running.pk}/settlement/",
        f"/sessions/{world.running.pk}/results-sheet/",
        f"/clubs/{world.club.slug}/accounts/",
        f"/clubs/{world.club.slug}/accounts/payments/new/",
        f"/players/{world.players['north'].pk}/statement/",
        f"/clubs/{world.club.slug}/leaderboard/",
        f"/players/{world.players['north'].pk}/history/",
        f"/players/{world.players['north'].pk}/",
        f"/clubs/{world.club.slug}/ratings/",
        f"/clubs/{world.club.slug}/players/",
        "/accounts/password/",
        "/accounts/password/reset/",
    ]
    seen: dict[str, list[str]] = {}
    for path in pages:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        assert "script-src 'self'" in (response.headers.get("content-security-policy") or "")
        page.wait_for_load_state("networkidle")
        violations = page.evaluate("window.__csp")
        if violations:
            seen[path] = violations
    assert not seen, f"CSP violations: {seen}"
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    # htmx is loaded and did not inject its indicator <style> (the meta config turned it off).
    page.goto(f"{live_server.url}/rubbers/{world.rubber.pk}/")
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert page.evaluate("document.querySelectorAll('style').length") == 0
    # The detector works: an inline script added now is blocked and reported.
    page.evaluate(
        "const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
        "document.body.appendChild(s)"
    )
    page.wait_for_function("window.__csp.length > 0")
    assert page.evaluate("window.__ran") is None
    context.close()


#: A style set through the CSSOM, which the policy allows, as a browser extension or a testing
#: tool may set on a form's inputs. htmx, settling a swap, used to copy such a style
#: attribute onto each new element with the same id (setAttribute('style'), an inline style the
#: policy blocks): an outside probe saw 45 errors per Record, one per button of the entry form.
STYLE_THE_BUTTONS = (
    "document.querySelectorAll('#entry input[type=radio]').forEach(i => { i.style.outline = '0'; })"
)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_recording_a_deal_on_a_phone_logs_no_csp_violation(live_server: Any, browser: Any) -> None:
    """Record on the pad at 390×844, then the console, the table cards, the standings and the
    player page: the console holds no policy message and no violation event fires."""
    from tests.factories import UserFactory

    world = build_world(UserFactory(username="director"))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda exc: console.append(f"pageerror: {exc}"))
    sign_in(page, live_server.url, "director")

    page.goto(f"{live_server.url}/rubbers/{world.rubber.pk}/")
    page.locator("#entry-title").filter(has_text="Deal 2").wait_for()
    page.wait_for_load_state("networkidle")  # the pad's first live fetch may morph the form
    assert page.evaluate("htmx.config.attributesToSettle") == ["class", "width", "height"]
    assert page.evaluate(STYLE_THE_BUTTONS) is None
    assert page.locator("#entry input[style]").count() == 45  # every button of the form
    for field, value in (("level", "3"), ("strain", "NT"), ("declarer", "S"), ("result", "0")):
        page.locator(f"#entry .field-{field} label[data-v='{value}']").click()
    page.locator("#record").click()
    page.locator("#entry-title").filter(has_text="Deal 3").wait_for()
    page.wait_for_load_state("networkidle")
    assert sorted(world.rubber.deals.values_list("number", flat=True)) == [1, 2]
    recorded = page.evaluate("window.__csp")

    seen: dict[str, list[str]] = {}
    for path in (
        f"/clubs/{world.club.slug}/console/",
        f"/clubs/{world.club.slug}/sessions/{world.running.pk}/cards/",
        f"/sessions/{world.running.pk}/standings/",
        f"/players/{world.players['north'].pk}/",
    ):
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        page.wait_for_load_state("networkidle")
        if violations := page.evaluate("window.__csp"):
            seen[path] = violations
    context.close()

    assert recorded == [], recorded
    assert not seen, f"CSP violations: {seen}"
    policy = [m for m in console if "Content Security Policy" in m or "Refused" in m]
    assert policy == [], f"{len(policy)} policy messages, the first: {policy[:1]}"
