"""The wave-3 probe's smaller holes (issue 26, item 7; docs/security.md, "7. Smaller ones").

Each test failed before its fix.
"""

from __future__ import annotations

from importlib import reload
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import Resolver404, clear_url_caches, resolve
from knox.models import AuthToken
from rest_framework.test import APIClient

import config.urls
from tests.config.test_settings import settings_under
from tests.security.conftest import World

# --- DEBUG is off unless the environment turns it on --------------------------------------------


def test_debug_is_off_when_the_environment_says_nothing() -> None:
    """Before: DEBUG defaulted to True, so a server started without DEBUG in its environment ran
    with Django's debug pages, no HTTPS redirect and the development signing key."""
    s = settings_under({"SECRET_KEY": "k" * 50})
    assert s.DEBUG is False
    assert s.SECURE_SSL_REDIRECT is True


def test_no_environment_refuses_to_start_without_a_secret_key() -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        settings_under({})


def test_debug_on_from_the_environment_still_has_a_development_key() -> None:
    """What `make run` passes (Makefile): DEBUG on, the development key."""
    s = settings_under({"DEBUG": "true"})
    assert s.DEBUG is True
    assert s.SECRET_KEY.startswith("dev-insecure")


# --- the benchmark's baseline is not part of the site ---------------------------------------------


def test_the_benchmark_baseline_is_not_mounted_by_default(client: Client) -> None:
    """Before: /bench/plain answered 200 on every deployment, an unthrottled endpoint no page
    uses."""
    assert client.get("/bench/plain").status_code == 404


def test_the_benchmarks_mount_their_baseline(settings: Any) -> None:
    settings.BENCH_PLAIN = True
    try:
        reload(config.urls)
        clear_url_caches()
        assert resolve("/bench/plain").url_name == "bench-plain"
    finally:
        settings.BENCH_PLAIN = False
        reload(config.urls)
        clear_url_caches()
    with pytest.raises(Resolver404):
        resolve("/bench/plain")


def test_the_benchmark_runner_asks_for_the_baseline() -> None:
    """`make bench` (bench/run.py) and the servers the HTTP benchmarks start."""
    from bench import bench_http, bench_live_http, run

    assert run.BENCH_ENV["BENCH_PLAIN"] == "true"
    assert bench_http.SERVER_ENV["BENCH_PLAIN"] == "true"
    assert bench_live_http.SERVER_ENV["BENCH_PLAIN"] == "true"


# --- answers to whoever carries credentials are private, no-store ---------------------------------

PRIVATE = "private, no-store"


@pytest.mark.django_db
def test_a_signed_in_page_is_private_and_not_stored(world: World) -> None:
    """Before: no Cache-Control at all, so a browser could keep a director's pages on disk and a
    proxy could keep them for others."""
    client = Client()
    client.force_login(world.users["director"])
    for path in ("/", f"/clubs/{world.club.slug}/", f"/rubbers/{world.rubber.pk}/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == PRIVATE, path


@pytest.mark.django_db
def test_an_api_answer_to_a_token_or_a_session_is_private_and_not_stored(world: World) -> None:
    token = APIClient()
    _, key = AuthToken.objects.create(user=world.users["director"])
    token.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    session = APIClient()
    session.force_login(world.users["director"])
    for client in (token, session):
        for path in ("/api/v1/clubs/", f"/api/v1/rubbers/{world.rubber.pk}/"):
            response = client.get(path)
            assert response.status_code == 200, path
            assert response["Cache-Control"] == PRIVATE, path
    refused = token.post(f"/api/v1/rubbers/{world.rubber.pk}/deals/", {}, format="json")
    assert refused.status_code == 400
    assert refused["Cache-Control"] == PRIVATE


@pytest.mark.django_db
def test_a_table_code_phone_gets_private_pages(running_session: Any) -> None:
    rubber = running_session.rubbers.get(number=1)
    phone = Client()
    picked = phone.post(f"/t/{rubber.table.code}", {"seat": "S"})
    assert picked.status_code == 302
    assert picked["Cache-Control"] == PRIVATE  # the answer that sets the code's cookie
    page = phone.get(f"/rubbers/{rubber.pk}/")
    assert page.status_code == 200
    assert page["Cache-Control"] == PRIVATE


@pytest.mark.django_db
def test_an_anonymous_visitor_of_a_public_club_gets_no_such_header(world: World) -> None:
    world.club.public = True
    world.club.save(update_fields=["public"])
    response = Client().get(f"/clubs/{world.club.slug}/")
    assert response.status_code == 200
    assert "Cache-Control" not in response


@pytest.mark.django_db
def test_the_live_pad_keeps_its_no_cache_and_its_304_made_private(world: World) -> None:
    """The live pad's own `no-cache` (its poll is answered 304 while nothing changed) stays: the
    decision is written in docs/security.md; for a signed-in player it is private too."""
    client = Client()
    client.force_login(world.users["seated"])
    first = client.get(f"/rubbers/{world.rubber.pk}/live")
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache, private"
    again = client.get(f"/rubbers/{world.rubber.pk}/live", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again["Cache-Control"] == "no-cache, private"


def test_static_files_stay_public_for_a_signed_in_user(client: Client) -> None:
    client.cookies["sessionid"] = "x"
    response = client.get("/favicon.ico")
    assert "public" in response["Cache-Control"]
    assert "no-store" not in response["Cache-Control"]
