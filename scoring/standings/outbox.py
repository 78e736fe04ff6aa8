"""The results mail's outbox: one row per player, session and close (``results_mail``).

A close writes a waiting row for each player of the night who gets the mail, in the close's
transaction; the unique (player, session, close) holds that a close mails each player once. The
task claims a row (waiting → sending, one UPDATE only a waiting row matches) before it sends, so a
retried or doubled task never sends twice; the row then says what happened.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Session


class ResultsMail(models.Model):
    """A player's results mail of one close of a session (module docstring)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        UNCHANGED = "unchanged", _("Not sent: nothing changed")
        SKIPPED = "skipped", _("Not sent")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results_mails")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="results_mails")
    close = models.PositiveIntegerField(help_text="Which close of the session (1, 2, ...).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    address = models.EmailField(blank=True, help_text="Where it went.")
    language = models.CharField(max_length=5, blank=True)
    corrected = models.BooleanField(
        default=False, help_text="It replaces a mail of an earlier close of the session."
    )
    digest = models.CharField(
        max_length=64,
        blank=True,
        help_text="The night as mailed, hashed: a close with the same "
        "night for this player mails nothing.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "close", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "session", "close"], name="one_results_mail_per_close"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.session_id}/{self.close} {self.status}"
