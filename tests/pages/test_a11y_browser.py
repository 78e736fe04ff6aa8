"""axe-core finds no serious or critical accessibility violation on any page a player or a
director uses (tests/a11y_pages.py, the list a new page joins), in English and in Italian: one
test per language, one browser context visiting each page.

axe-core is vendored for the tests only: tests/browser_assets/axe.min.js is the npm package
axe-core 4.10.3 (MPL-2.0, its licence beside it as axe-LICENSE.txt), injected by Playwright
into each page (the context bypasses the pages' content-security policy for that script only;
the pages themselves are unchanged)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.a11y_pages import a11y_pages
from tests.conftest import sign_in
from tests.factories import UserFactory

AXE = Path(__file__).resolve().parent.parent / "browser_assets" / "axe.min.js"
SERIOUS = ("serious", "critical")

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => `${v.id} (${v.impact}): ` +
      v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "));
}"""


def violations(page: Any, base_url: str, path: str, language: str) -> list[str]:
    response = page.goto(base_url + path)
    assert response is not None and response.status == 200, path
    assert page.locator("html").get_attribute("lang") == language, path
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(RUN_AXE)
    return found


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
def test_no_page_has_a_serious_accessibility_violation(
    live_server: Any, browser: Any, language: str
) -> None:
    director = UserFactory(username="director")
    pages = a11y_pages(director)
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[str]] = {}
    signed_in = False
    for entry in pages:
        if entry.who == "director" and not signed_in:
            sign_in(page, live_server.url, "director")
            signed_in = True
        if problems := violations(page, live_server.url, entry.path, language):
            found[entry.name] = problems
    context.close()
    assert not found, "\n".join(f"{name}: {problems}" for name, problems in found.items())
