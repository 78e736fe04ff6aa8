"""Season accounts (RULES 4.4): each player's money across the season, as immutable entries.

An entry is one line of a player's account: a night's posting (the player's money for a closed
session, RULES 4.2: + to receive, − to pay), the reversal of an earlier posting (a session
reopened and closed again with other money), or a payment the director recorded (paid in by the
player, or paid out to them). ``amount`` is the entry's effect on the balance, signed: a posting
or a reversal as the money goes, paid in positive, paid out negative (the constraints hold it).
A balance is the sum of a player's entries; the balances of a club sum to its cash in hand (paid
in − paid out). Nothing is ever edited or deleted: a correction is a reversal and a new posting
(``scoring.standings.accounts``).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Session

ZERO = Decimal("0.00")


class AccountEntryQuerySet(models.QuerySet["AccountEntry"]):
    def for_club(self, club_id: int) -> AccountEntryQuerySet:
        return self.filter(club_id=club_id)

    def total(self) -> Decimal:
        """The sum of these entries' effects on the balances."""
        return self.aggregate(total=Coalesce(Sum("amount"), ZERO))["total"]  # type: ignore[no-any-return]

    def cash_in_hand(self) -> Decimal:
        """Paid in − paid out (the payments' effects, signed): what the club holds."""
        return self.filter(kind__in=AccountEntry.PAYMENTS).total()


class AccountEntry(models.Model):
    """One line of a player's season account (module docstring)."""

    class Kind(models.TextChoices):
        POSTING = "posting", _("Night")
        REVERSAL = "reversal", _("Correction (reversal)")
        PAID_IN = "paid_in", _("Paid in")
        PAID_OUT = "paid_out", _("Paid out")

    PAYMENTS = (Kind.PAID_IN, Kind.PAID_OUT)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="account_entries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    date = models.DateField(help_text="The night's date, or the day of the payment.")
    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, null=True, blank=True, related_name="account_entries"
    )
    close = models.PositiveIntegerField(
        null=True, blank=True, help_text="Which close of the session posted it (1, 2, ...)."
    )
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = AccountEntryQuerySet.as_manager()

    class Meta:
        ordering = ["player", "date", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "close", "player", "kind"], name="one_entry_per_close"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["posting", "reversal"], session__isnull=False)
                | Q(kind="paid_in", session__isnull=True, amount__gt=0)
                | Q(kind="paid_out", session__isnull=True, amount__lt=0),
                name="entry_kind_fits",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "player"]),
            models.Index(fields=["player", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.amount}"


#: The kinds a director records (the API's ``PaymentKindEnum``).
PAYMENT_KINDS = [(kind.value, kind.label) for kind in AccountEntry.PAYMENTS]
