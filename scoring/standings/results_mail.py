"""Each player's night by e-mail (issue 32): rubbers, hundreds, money and to whom, in their
language.

- ``results_mail_queue`` runs when a session closes (``scoring.shared.hooks.session_closed``, in
  the close's transaction): a waiting ``ResultsMail`` row for each player seated in the session
  who has an address and did not stop the mail, keyed by (player, session, close); after commit
  it queues the send task (``scoring.tasks.send_results_mail``). A dead broker is logged, never
  raised to the director; the sweep (``results_mail_queue_waiting``, by beat) queues it later.
- ``results_mail_send`` (the task) claims each waiting row (waiting → sending, one UPDATE) before
  it sends, so a retried, doubled or swept task sends each player's mail of a close once. The
  night is computed from the deals (the standings' computation), not from the stored
  standings, so the mail does not wait for their refresh. A row whose session was reopened (or
  closed again) since is skipped: the next close mails. A close whose night, for this player,
  is what an earlier close mailed sends nothing ("unchanged"); one that differs is sent marked
  as a correction.
- Every mail carries a signed unsubscribe link (``unsubscribe_token``; django.core.signing, no
  login, tied to the address it was sent to) and the List-Unsubscribe / List-Unsubscribe-Post
  headers (RFC 8058 one-click POST).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import smtplib
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Min
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import Player, Session, TableSeat

from .computation import (
    PAYMENT_FIELDS,
    RESULT_FIELDS,
    STANDING_FIELDS,
    Computed,
    standings_compute,
)
from .outbox import ResultsMail

logger = logging.getLogger(__name__)

SEND_TASK = "scoring.tasks.send_results_mail"
UNSUBSCRIBE_SALT = "scoring.results-mail.unsubscribe"
_R = {name: i for i, name in enumerate(RESULT_FIELDS)}
_S = {name: i for i, name in enumerate(STANDING_FIELDS)}
_P = {name: i for i, name in enumerate(PAYMENT_FIELDS)}


def results_mail_queue(*, session_id: int, close: int) -> int:
    """A waiting row for each player of the session who gets the mail (module docstring), and
    the send task queued after commit; how many rows. In the close's transaction."""
    seated = TableSeat.objects.filter(session_id=session_id).values("player_id")
    recipients = (
        Player.objects.filter(pk__in=seated, mail_stopped_at__isnull=True)
        .exclude(email="")
        .values_list("pk", flat=True)
    )
    rows = [ResultsMail(player_id=pk, session_id=session_id, close=close) for pk in recipients]
    if rows:
        ResultsMail.objects.bulk_create(rows, ignore_conflicts=True)
        transaction.on_commit(partial(_publish, session_id, close), robust=True)
    return len(rows)


def _publish(session_id: int, close: int) -> bool:
    """Queue the send; never raise (the close has committed: a dead broker leaves the rows
    waiting for the sweep)."""
    try:
        current_app.tasks[SEND_TASK].apply_async((session_id, close))
    except Exception:
        logger.warning(
            "Could not queue the results mail of session %s (close %s); the sweep sends it.",
            session_id,
            close,
            exc_info=True,
        )
        return False
    return True


def results_mail_queue_waiting(*, older_than: int = 120) -> int:
    """Queue the send of every (session, close) with rows still waiting after ``older_than``
    seconds (their task lost with a broker or a worker); how many were queued."""
    since = timezone.now() - datetime.timedelta(seconds=older_than)
    pairs = (
        ResultsMail.objects.filter(status=ResultsMail.Status.WAITING)
        .values("session_id", "close")
        .annotate(first=Min("created_at"))
        .filter(first__lt=since)
        .order_by()
    )
    return sum(_publish(p["session_id"], p["close"]) for p in pairs)


def _address_tag(email: str) -> str:
    """A short hash of the address a link was mailed to: a new address voids the old links."""
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()[:12]


def unsubscribe_token(player: Player) -> str:
    """The signed part of a player's unsubscribe link, tied to their current address (no
    expiry: a mail is read for years)."""
    return signing.dumps({"p": player.pk, "e": _address_tag(player.email)}, salt=UNSUBSCRIBE_SALT)


def player_for_token(token: str) -> Player | None:
    """The player whose unsubscribe link this is; None for a token not signed here or minted
    for an address the player no longer has."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    pk = data.get("p") if isinstance(data, dict) else None
    tag = data.get("e") if isinstance(data, dict) else None
    if not isinstance(pk, int) or not isinstance(tag, str):
        return None
    player = Player.objects.select_related("club").filter(pk=pk).first()
    if player is None or not player.email or _address_tag(player.email) != tag:
        return None
    return player


def site_url(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


@dataclass(frozen=True)
class _Night:
    """The session's night as computed once for all its mails: the rows and the names."""

    computed: Computed
    names: dict[int, str]


def results_mail_send(*, session_id: int, close: int) -> dict[str, int]:
    """Send the waiting mails of one close (module docstring); how many ended in each status.
    A failed send gives its row back (waiting) and raises, for the task's retry."""
    counts: dict[str, int] = {}
    waiting = ResultsMail.objects.filter(
        session_id=session_id, close=close, status=ResultsMail.Status.WAITING
    )
    ids = list(waiting.order_by("pk").values_list("pk", flat=True))
    if not ids:
        return counts
    session = Session.objects.select_related("club").filter(pk=session_id).first()
    if session is None:
        return counts
    night: _Night | None = None
    for pk in ids:
        if not _claim(pk):
            continue  # another run has it
        mail = ResultsMail.objects.select_related("player__club").get(pk=pk)
        try:
            if night is None:
                night = _night(session)
            status = _send_one(mail, session, night)
        except Exception:
            ResultsMail.objects.filter(pk=pk).update(status=ResultsMail.Status.WAITING)
            raise
        counts[status] = counts.get(status, 0) + 1
    return counts


def _claim(pk: int) -> bool:
    """Waiting → sending, committed before the mail goes: only one run sends it."""
    return bool(
        ResultsMail.objects.filter(pk=pk, status=ResultsMail.Status.WAITING).update(
            status=ResultsMail.Status.SENDING
        )
    )


def _night(session: Session) -> _Night:
    computed = standings_compute(session_id=session.pk) or Computed(session.pk, session.club_id)
    seated = TableSeat.objects.filter(session=session).values("player_id")
    names = dict(Player.objects.filter(pk__in=seated).values_list("pk", "name"))
    return _Night(computed, names)


def _done(mail: ResultsMail, status: str, **fields: Any) -> str:
    for name, value in fields.items():
        setattr(mail, name, value)
    mail.status = status
    mail.save(update_fields=["status", *fields])
    return status


def _send_one(mail: ResultsMail, session: Session, night: _Night) -> str:
    player = mail.player
    current = Session.objects.filter(pk=session.pk).values_list("status", "closes").first()
    if current != (Session.Status.CLOSED, mail.close) or not player.gets_results_mail:
        return _done(mail, ResultsMail.Status.SKIPPED)
    facts = player_night(player.pk, night.computed, night.names)
    if facts is None:  # seated, but played no deal
        return _done(mail, ResultsMail.Status.SKIPPED)
    digest = hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()
    earlier = (
        ResultsMail.objects.filter(
            player=player,
            session=session,
            close__lt=mail.close,
            status__in=[ResultsMail.Status.SENT, ResultsMail.Status.UNCHANGED],
        )
        .order_by("-close")
        .first()
    )
    if earlier is not None and earlier.digest == digest:
        return _done(mail, ResultsMail.Status.UNCHANGED, digest=digest)
    language = player.language_or_club()
    message = compose(player, session, facts, corrected=earlier is not None, language=language)
    try:
        message.send()
    except smtplib.SMTPRecipientsRefused:
        # The server refuses the address itself: a retry would be refused again.
        logger.warning("The mail server refused the address of player %s", player.pk)
        return _done(mail, ResultsMail.Status.SKIPPED, address=player.email)
    return _done(
        mail,
        ResultsMail.Status.SENT,
        address=player.email,
        language=language,
        corrected=earlier is not None,
        digest=digest,
        sent_at=timezone.now(),
    )


def player_night(
    player_id: int, computed: Computed, names: dict[int, str]
) -> dict[str, Any] | None:
    """One player's night as the mail tells it (JSON-safe, so its hash says whether a later
    close changed it): place, each rubber, totals, and who pays them or whom they pay. None if
    they played no deal."""
    standing = next((s for s in computed.standings if s[_S["player_id"]] == player_id), None)
    rubbers = [
        {
            "table": r[_R["table_number"]],
            "number": r[_R["rubber_number"]],
            "unfinished": r[_R["status"]] == "unfinished",
            "won": bool(r[_R["won"]]),
            "net": r[_R["net"]],
            "hundreds": r[_R["hundreds"]],
        }
        for r in computed.results
        if r[_R["player_id"]] == player_id and not r[_R["provisional"]]
    ]
    if standing is None or not rubbers:
        return None
    pays, receives = [], []
    for p in computed.payments:
        amount = str(p[_P["amount"]])
        if p[_P["payer_id"]] == player_id:
            pays.append({"name": names.get(p[_P["payee_id"]], "?"), "amount": amount})
        elif p[_P["payee_id"]] == player_id:
            receives.append({"name": names.get(p[_P["payer_id"]], "?"), "amount": amount})
    ranked = [s for s in computed.standings if s[_S["rank"]] is not None]
    return {
        "rank": standing[_S["rank"]],
        "ranked": len(ranked),
        "rubbers": sorted(rubbers, key=lambda r: (r["table"], r["number"])),
        "won": standing[_S["won"]],
        "hundreds": standing[_S["hundreds"]],
        "money": str(standing[_S["money"]]),
        "pays": pays,
        "receives": receives,
    }


def compose(
    player: Player, session: Session, facts: dict[str, Any], *, corrected: bool, language: str
) -> EmailMultiAlternatives:
    """The mail: subject, plain text and HTML, in the player's language, with the unsubscribe
    link in the text and in the headers (RFC 2369, RFC 8058)."""
    unsubscribe = site_url(
        reverse("scoring:results-mail-unsubscribe", args=[unsubscribe_token(player)])
    )
    context = {
        "player": player,
        "club": session.club,
        "session": session,
        "night": {
            **facts,
            "money": Decimal(facts["money"]),
            "amount": abs(Decimal(facts["money"])),
        },
        "language": language,
        "corrected": corrected,
        "player_url": site_url(reverse("scoring:player", args=[player.pk])),
        "sheet_url": site_url(reverse("scoring:session-results-sheet", args=[session.pk])),
        "unsubscribe_url": unsubscribe,
    }
    with translation.override(language):
        subject = " ".join(render_to_string("scoring/mail/night_subject.txt", context).split())
        text = render_to_string("scoring/mail/night.txt", context)
        html = render_to_string("scoring/mail/night.html", {**context, "subject": subject})
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[player.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Content-Language": language,
        },
    )
    message.attach_alternative(html, "text/html")
    return message
