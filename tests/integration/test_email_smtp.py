"""The reset mail through the real path: the page queues it in Redis, a real Celery worker sends
it over SMTP to a real SMTP server (aiosmtpd) this test starts, and its link sets a new password
(issue 26, item 5; docs/deploy.md, docs/security.md)."""

from __future__ import annotations

import email
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

from tests.conftest import Worker, wait_for
from tests.factories import PASSWORD, UserFactory
from tests.integration.test_concurrency import free_port

pytestmark = pytest.mark.integration

LINK = re.compile(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)")
NEW_PASSWORD = "smtp-phrase-26-ok"


@dataclass
class Inbox:
    """What the SMTP server received: (envelope sender, recipients, message)."""

    port: int = 0
    mails: list[tuple[str, list[str], Message]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content)
        with self.lock:
            self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[Inbox]:
    inbox = Inbox(port=free_port())
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def worker_env(worker_env: dict[str, str], smtp: Inbox) -> dict[str, str]:
    """The worker's environment, with its mail sent to the test's SMTP server."""
    return {
        **worker_env,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}",
        "DEFAULT_FROM_EMAIL": "Backscore <scores@club.example>",
    }


def _body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


def test_a_reset_mail_goes_through_a_worker_and_smtp_and_its_link_sets_the_password(
    settings: Any, smtp: Inbox, celery_worker_process: Worker
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER  # the page queues, the worker sends
    UserFactory(username="north", email="north@example.org")
    client = Client()
    for address in ("nobody@example.org", "north@example.org"):
        response = client.post("/accounts/password/reset/", {"email": address})
        assert response.status_code == 302
        assert response["Location"] == "/accounts/password/reset/sent/"
    wait_for(lambda: smtp.mails, timeout=30)
    sender, recipients, message = smtp.mails[0]
    assert sender == "scores@club.example"
    assert recipients == ["north@example.org"]
    assert message["Subject"] == "A new password for Backscore"
    match = LINK.search(_body(message))
    assert match is not None, _body(message)

    browser = Client()
    form = browser.get(match.group(1), follow=True)
    assert form.status_code == 200
    assert form.context["validlink"]
    done = browser.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == "/accounts/reset/done/"
    signed = Client().post("/accounts/login/", {"username": "north", "password": NEW_PASSWORD})
    assert signed.status_code == 302
    old = Client().post("/accounts/login/", {"username": "north", "password": PASSWORD})
    assert old.status_code == 200
    # The address no login has was queued and looked up too; it got nothing.
    assert [r for _, r, _ in smtp.mails] == [["north@example.org"]]
