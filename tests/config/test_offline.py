"""No page needs another origin: the API docs come from our own static files, and the favicon is
ours and answered at /favicon.ico (issue 18, docs/security.md)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import pytest
from django.contrib.staticfiles import finders
from django.test import Client


def test_the_api_docs_page_names_no_other_origin(db: Any) -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "cdn" not in html.lower()
    for url in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert not urlparse(url).netloc, url
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    policy = response["Content-Security-Policy"]
    assert "http" not in policy, policy


def test_the_favicon_is_linked_and_answered(db: Any) -> None:
    html = Client().get("/accounts/login/").content.decode()
    assert 'rel="icon" href="/static/favicon.ico"' in html
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.ico"
    assert finders.find("favicon.ico") and finders.find("img/favicon.svg")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_the_api_docs_render_with_every_other_origin_blocked(
    live_server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    """Every request to another origin is aborted and recorded: none is attempted, and the
    Swagger UI still lists the operations."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    outside: list[str] = []
    own = urlparse(live_server.url).netloc

    def route(r: Any) -> None:
        if urlparse(r.request.url).netloc == own:
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock-summary-path")
    assert page.locator(".opblock").count() > 10
    assert page.get_by_text("/api/v1/clubs/", exact=True).first.is_visible()
    favicon = page.request.get(f"{live_server.url}/favicon.ico")
    assert favicon.status == 200 and favicon.headers["content-type"] in {
        "image/x-icon",
        "image/vnd.microsoft.icon",
    }
    assert outside == []
    context.close()
