"""GET /healthz and the home page (issue: Foundation)."""

import pytest


@pytest.mark.django_db
def test_healthz_reports_database_cache_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["cache"]["ok"] is True
    # No REDIS_URL in unit tests: Celery runs eagerly, which is healthy.
    assert body["broker"] == {"ok": True, "mode": "eager"}
    assert body["status"] == "ok"


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    from config import health

    monkeypatch.setattr(
        health, "_check_database", lambda: {"ok": False, "error": "OperationalError"}
    )
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "down"


@pytest.mark.django_db
def test_a_dead_broker_is_reported_not_fatal(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from config.celery import app

    old = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = old
    assert response.status_code == 200
    body = response.json()
    assert body["broker"]["ok"] is False
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_home_page_has_a_helpful_empty_state(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"No clubs yet" in response.content
    assert b"Sign in" in response.content
