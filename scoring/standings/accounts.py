"""Season accounts (RULES 4.4): post a closed night's money, record payments, read balances.

- ``accounts_post_session`` runs when a session closes (``scoring.shared.hooks.session_closed``,
  inside the close's transaction, with the session's row locked by the close; deal writes lock
  that row too, so nothing changes the night while it is read). It computes every player's money
  from the deals (the standings' computation, RULES 4.2) and compares it with what the session
  has posted so far. The same money posts nothing, so a close is posted once however often this
  runs. Other money (a reopened night, corrected) posts, as the session's next close, the
  reversal of each entry of the last posting and then the new posting: each set sums to zero,
  and nothing is edited.
- ``payment_record`` is the director's write (``games.permissions.check_record_payment``).
- ``club_balances`` and ``player_statement`` read them; a balance is the sum of a player's
  entries, and the club's balances sum to its cash in hand.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Session
from games.permissions import Actor, check_record_payment

from .computation import STANDING_FIELDS, standings_compute
from .ledger import ZERO, AccountEntry

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: The most one payment may be (docs/api.md, "Season accounts"): a typo's extra zeros are refused.
MAX_PAYMENT = Decimal("100000.00")
#: How far ahead a payment may be dated.
MAX_DAYS_AHEAD = 366


def payment_date_refusal(club: Club, day: datetime.date) -> str | None:
    """Why a payment may not carry this date, or None: not before the club existed (its
    creation, or its first night if that is earlier) nor more than a year ahead."""
    today = timezone.localdate()
    if day > today + datetime.timedelta(days=MAX_DAYS_AHEAD):
        return _("A payment may not be dated more than a year ahead.")
    first_night = Session.objects.filter(club=club).order_by("date").values_list("date", flat=True)
    first = min([timezone.localdate(club.created_at), *first_night[:1]])
    if day < first:
        return _("A payment may not be dated before the club existed (%(date)s).") % {
            "date": first.isoformat()
        }
    return None


_PLAYER = STANDING_FIELDS.index("player_id")
_MONEY = STANDING_FIELDS.index("money")


def night_money(session_id: int) -> dict[int, Decimal]:
    """Each player's money for the night (RULES 4.2), from the deals; empty when no one won or
    lost any (a night with no money posts nothing)."""
    computed = standings_compute(session_id=session_id)
    if computed is None:
        return {}
    money = {row[_PLAYER]: row[_MONEY] for row in computed.standings}
    return money if any(money.values()) else {}


def posted_money(session_id: int) -> dict[int, Decimal]:
    """What the session's entries add up to for each player so far (zeros left out)."""
    rows = (
        AccountEntry.objects.filter(session_id=session_id)
        .values("player_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    return {row["player_id"]: row["total"] for row in rows if row["total"]}


def accounts_post_session(*, session_id: int) -> int:
    """Post the night's money to the players' accounts (module docstring); return the entries
    written (0 when the accounts already hold this money). The caller holds the session's row
    locked (``session_close``); called alone, this takes the lock itself."""
    with transaction.atomic():
        session = Session.objects.select_for_update(no_key=True).get(pk=session_id)
        money = night_money(session_id)
        if {pid: m for pid, m in money.items() if m} == posted_money(session_id):
            return 0
        entries = AccountEntry.objects.filter(session_id=session_id)
        last = entries.aggregate(last=Max("close"))["last"] or 0
        close = last + 1
        earlier = entries.filter(close=last, kind=AccountEntry.Kind.POSTING).order_by("pk")
        now = timezone.now()
        made = [
            AccountEntry(
                club_id=session.club_id,
                player_id=entry.player_id,
                kind=AccountEntry.Kind.REVERSAL,
                amount=-entry.amount,
                date=session.date,
                session_id=session_id,
                close=close,
                created_at=now,
            )
            for entry in earlier
        ]
        made += [
            AccountEntry(
                club_id=session.club_id,
                player_id=player_id,
                kind=AccountEntry.Kind.POSTING,
                amount=amount,
                date=session.date,
                session_id=session_id,
                close=close,
                created_at=now,
            )
            for player_id, amount in sorted(money.items())
        ]
        AccountEntry.objects.bulk_create(made)
    return len(made)


def payment_record(
    *,
    actor: Actor,
    player: Player,
    kind: str,
    amount: Decimal,
    date: datetime.date | None = None,
    note: str = "",
    by: User | None = None,
) -> AccountEntry:
    """A payment the director records (RULES 4.4): paid in by the player, or paid out to them.
    ``amount`` is positive; the entry stores its effect on the balance (paid out negative).
    Refused: a non-director (``NotAllowed``), and a kind or amount that is not one (ValueError;
    the forms and serializers say so first)."""
    check_record_payment(actor)
    if kind not in AccountEntry.PAYMENTS:
        raise ValueError(_("A payment is paid in or paid out."))
    if amount <= 0:
        raise ValueError(_("The amount must be more than zero."))
    effect = amount if kind == AccountEntry.Kind.PAID_IN else -amount
    return AccountEntry.objects.create(
        club_id=player.club_id,
        player=player,
        kind=kind,
        amount=effect,
        date=date or timezone.localdate(),
        note=note,
        created_by=by,
    )


@dataclass(frozen=True)
class Balance:
    player_id: int
    name: str
    nights: Decimal
    paid_in: Decimal
    paid_out: Decimal
    balance: Decimal


def club_balances(club: Club) -> dict[str, Any]:
    """Every player's balance (postings + paid in − paid out) and the club's cash in hand, which
    the balances sum to (RULES 4.4). One query for the sums, one for the players."""
    sums: dict[int, dict[str, Decimal]] = {}
    for row in (
        AccountEntry.objects.for_club(club.pk)
        .values("player_id", "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    ):
        sums.setdefault(row["player_id"], {})[row["kind"]] = row["total"]
    players = Player.objects.filter(club=club).order_by("name", "pk").values_list("pk", "name")
    rows = []
    for pk, name in players:
        if pk not in sums:
            continue
        kinds = sums[pk]
        kind = AccountEntry.Kind
        nights = kinds.get(kind.POSTING, ZERO) + kinds.get(kind.REVERSAL, ZERO)
        paid_in, paid_out = kinds.get(kind.PAID_IN, ZERO), -kinds.get(kind.PAID_OUT, ZERO)
        rows.append(Balance(pk, name, nights, paid_in, paid_out, nights + paid_in - paid_out))
    return {
        "club": club,
        "balances": rows,
        "total": sum((r.balance for r in rows), ZERO),
        "cash_in_hand": sum((r.paid_in - r.paid_out for r in rows), ZERO),
    }


@dataclass(frozen=True)
class StatementLine:
    date: datetime.date
    kind: str
    label: str
    session_id: int | None
    amount: Decimal
    balance: Decimal
    note: str


def player_statement(player: Player) -> dict[str, Any]:
    """A player's account line by line, oldest first, with the running balance (RULES 4.4)."""
    lines, balance = [], ZERO
    labels: Mapping[str, Any] = dict(AccountEntry.Kind.choices)
    for entry in AccountEntry.objects.filter(player=player).order_by("date", "created_at", "pk"):
        balance += entry.amount
        lines.append(
            StatementLine(
                entry.date,
                entry.kind,
                str(labels[entry.kind]),
                entry.session_id,
                entry.amount,
                balance,
                entry.note,
            )
        )
    return {"player": player, "lines": lines, "balance": balance}
