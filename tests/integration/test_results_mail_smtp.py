"""Each player's night by e-mail through the real path (issue 32): PostgreSQL, the close queues
the task in Redis, a real Celery worker sends over SMTP to a real SMTP server (aiosmtpd) this test
starts, and the test reads what arrived.

A three-table night, every player with an address, one of them unsubscribed before the night.
The server refuses one message once (451, try later): the task fails half way, is retried by
Celery, and the retry sends only what was still waiting. The task is then queued twice more, as a
redelivery would: nothing more arrives. A player unsubscribes with the one-click POST of their
mail's List-Unsubscribe header; the night is reopened, a deal of table 1 corrected and the night
closed again: each player whose night changed gets one mail marked as corrected, the unsubscribed
ones none.
"""

from __future__ import annotations

import datetime
import email
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from celery import current_app
from django.test import Client

from clubs.models import Player
from games.sessions import lifecycle
from scoring.standings.computation import standings_compute
from scoring.standings.models import WorkerHeartbeat
from scoring.standings.outbox import ResultsMail
from scoring.standings.results_mail import player_night
from tests.conftest import Worker, wait_for
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.integration.test_concurrency import free_port

pytestmark = pytest.mark.integration

FLAKY = "b2@club.example"  # the server refuses this address's first message


@dataclass
class Inbox:
    """What the SMTP server accepted: (recipient, message); a refusal is not kept."""

    port: int = 0
    mails: list[tuple[str, Message]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        (rcpt,) = envelope.rcpt_tos
        with self.lock:
            if rcpt == FLAKY and not self.refused:
                self.refused.append(rcpt)
                return "451 4.3.0 Try again later"
            self.mails.append((rcpt, email.message_from_bytes(envelope.original_content)))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for rcpt, m in self.mails if rcpt == address]

    def count(self) -> int:
        with self.lock:
            return len(self.mails)


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
    return {**worker_env, "EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}"}


def _text(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("no plain-text part")


def _drained(tag: str) -> None:
    """Wait until the solo worker has run everything queued before this: a heartbeat queued
    last is recorded after them."""
    current_app.tasks["scoring.tasks.record_heartbeat"].delay(tag)
    wait_for(lambda: WorkerHeartbeat.objects.filter(name=tag).exists(), timeout=60)


def _nights(session_id: int, players: list[Player]) -> dict[str, Any]:
    computed = standings_compute(session_id=session_id)
    assert computed is not None
    names = {p.pk: p.name for p in players}
    return {p.email: player_night(p.pk, computed, names) for p in players}


def test_a_three_table_night_mails_each_player_once_retried_unsubscribed_and_corrected(
    settings: Any, smtp: Inbox, celery_worker_process: Worker
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER  # the close queues, the worker sends
    director = UserFactory(username="td")
    club = make_club(director=director, slug="riverside")
    players = []
    for t in "abc":
        for seat in range(1, 5):
            player = add_player(club, f"{t.upper()}{seat}")
            player.email = f"{t}{seat}@club.example"
            player.save(update_fields=["email"])
            players.append(player)
    players[10].stop_results_mail()  # C3 stopped the mail before the night
    session = make_session(
        club,
        [players[0:4], players[4:8], players[8:12]],
        stake=Decimal("0.50"),
        date=datetime.date(2026, 12, 1),
    )
    one, two, three = (session.rubbers.get(table__number=n) for n in (1, 2, 3))

    def made(rubber: Any, number: int, tricks: int) -> None:
        rubber.record_deal(
            number=number, contract="4S", declarer="N", tricks=tricks, actor=acting(rubber, None)
        )

    made(one, 1, 10)
    made(one, 2, 10)  # table 1: NS 940, +9 hundreds
    made(two, 1, 13)
    made(two, 2, 13)  # table 2: NS 1120, +11
    made(three, 1, 10)  # table 3: a game, unfinished at the close: NS 420, +4 (RULES 2.6)

    lifecycle.session_close(session=session)
    first = {p.email for p in players} - {"c3@club.example"}
    wait_for(lambda: smtp.count() == len(first), timeout=60)
    assert smtp.refused == [FLAKY]  # the first try of the task stopped there; its retry went on

    # The task again, twice, as a redelivery would; the worker drains them: nothing more.
    for _ in range(2):
        current_app.tasks["scoring.tasks.send_results_mail"].delay(session.pk, 1)
    _drained("after-retries")
    received = Counter(rcpt for rcpt, _ in smtp.mails)
    assert received == Counter(first)  # each player with an address exactly once, C3 none
    a1 = _text(smtp.to("a1@club.example")[0])
    assert "table 1, rubber 1: won, +9 hundreds" in a1
    assert "You receive €4.50:" in a1
    c2 = smtp.to("c2@club.example")[0]
    assert c2["Subject"] == "Your night at Riverside, Dec. 1, 2026"
    assert "(unfinished), −4 hundreds" in _text(c2)
    assert "You pay €2.00:" in _text(c2)
    assert not any(m["Subject"].startswith("Corrected") for _, m in smtp.mails)
    assert set(ResultsMail.objects.values_list("status", flat=True)) == {"sent"}

    # A4 unsubscribes from their mail, as a mail program does it (RFC 8058): a POST to the
    # List-Unsubscribe address, no cookie, no CSRF token.
    header = smtp.to("a4@club.example")[0]["List-Unsubscribe"]
    assert smtp.to("a4@club.example")[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = "".join(str(header).split()).strip("<>").removeprefix(settings.SITE_URL)
    stop = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert stop.status_code == 200

    before = _nights(session.pk, players)
    lifecycle.session_reopen(session=session)
    deal = one.deals.get(number=2)
    deal.correct(version=deal.version, actor=acting(deal, director), tricks=11)  # 970: +10
    lifecycle.session_close(session=session)
    after = _nights(session.pk, players)
    changed = {address for address in after if after[address] != before[address]}
    assert {"a1@club.example", "a2@club.example", "a3@club.example"} <= changed
    corrected = changed - {"a4@club.example", "c3@club.example"}
    wait_for(lambda: smtp.count() == len(first) + len(corrected), timeout=60)
    _drained("after-correction")
    assert smtp.count() == len(first) + len(corrected)
    for address in corrected:
        second = smtp.to(address)[-1]
        assert second["Subject"] == "Corrected: your night at Riverside, Dec. 1, 2026"
        assert "CORRECTED" in _text(second)
    assert "table 1, rubber 1: won, +10 hundreds" in _text(smtp.to("a1@club.example")[-1])
    assert "You receive €5.00:" in _text(smtp.to("a1@club.example")[-1])
    assert len(smtp.to("a4@club.example")) == 1  # unsubscribed after the first mail
    assert smtp.to("c3@club.example") == []
    statuses = Counter(ResultsMail.objects.filter(close=2).values_list("status", flat=True))
    assert statuses == {"sent": len(corrected), "unchanged": len(first) - 1 - len(corrected)}
