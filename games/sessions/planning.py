"""Planning a session: the dates it may have, the tables it may be planned with (RULES 6.2,
RULES 7), the planning answer in words (the console's live hint and its refusal are one text)
and the cut for seats. The count of tables and their sizes come from `scoring.rules.seating`.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.forms import SessionForm
from clubs.models import TWO_PLAYER_KINDS, Club, Player, Session, Table, TableSeat
from scoring.rules.seating import MAX_AT_TABLE, MIN_AT_TABLE, plan_tables

#: The first day a session may have: clubs enter the sessions of old score sheets, none older
#: (as a club file's dates, `games.transfer.SANE_YEARS`).
EARLIEST_DATE = datetime.date(1900, 1, 1)


def latest_date() -> datetime.date:
    """The last day a session may be planned for: a year from today (the club's time)."""
    today = timezone.localdate()
    try:
        return today.replace(year=today.year + 1)
    except ValueError:  # 29 February
        return today.replace(year=today.year + 1, day=28)


def check_date(date: datetime.date) -> None:
    """A session's date: from `EARLIEST_DATE` (old sessions entered later) to a year from today
    (planning ahead). Year 1 or 9999 is a slip, or hostile: `ValidationError` on `date`."""
    latest = latest_date()
    if not EARLIEST_DATE <= date <= latest:
        raise ValidationError(
            {
                "date": [
                    _("Choose a date from %(earliest)s to %(latest)s (a year from today).")
                    % {"earliest": date_format(EARLIEST_DATE), "latest": date_format(latest)}
                ]
            }
        )


def check_tables(
    *, club: Club, kind: str, movement: str, tables: Sequence[Sequence[Player]]
) -> None:
    """The tables a session may be planned with (RULES 6.2, RULES 7), or `ValidationError`
    on `tables` and `movement` naming every problem."""
    errors: dict[str, list[str]] = {}
    two_player = kind in TWO_PLAYER_KINDS
    if not tables:
        errors["tables"] = ["A session needs at least one table."]
    seen: dict[int, int] = {}
    for number, players in enumerate(tables, start=1):
        if two_player and len(players) != 2:
            errors.setdefault("tables", []).append(
                _(
                    "Table %(number)d has %(count)d players; a two-player game seats "
                    "exactly two (RULES 7)."
                )
                % {"number": number, "count": len(players)}
            )
        elif not two_player and not MIN_AT_TABLE <= len(players) <= MAX_AT_TABLE:
            errors.setdefault("tables", []).append(
                f"Table {number} has {len(players)} players; a table seats 4 to 6 (RULES 6.2)."
            )
        for player in players:
            if player.club_id != club.pk:
                errors.setdefault("tables", []).append(
                    f"Player {player.pk} is not a player of this club."
                )
            if player.pk in seen:
                errors.setdefault("tables", []).append(
                    _(
                        "%(name)s is at table %(first)d and table %(second)d; "
                        "a player sits at one table."
                    )
                    % {"name": player.name, "first": seen[player.pk], "second": number}
                )
            seen[player.pk] = number
    if (
        not two_player
        and movement == Session.Movement.FIXED
        and any(len(p) != MIN_AT_TABLE for p in tables)
    ):
        errors.setdefault("movement", []).append(
            _("Fixed partnerships need exactly four players at every table.")
        )
    if errors:
        raise ValidationError(errors)


def seat_tables(session: Session, tables: Sequence[Sequence[Player]]) -> None:
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=number)
        TableSeat.objects.bulk_create(
            TableSeat(session=session, table=table, player=player, position=position)
            for position, player in enumerate(players)
        )


def tables_with_players(session: Session) -> list[Table]:
    """The session's tables in order, with their seats and players (for `present_players`)."""
    return list(session.tables.order_by("number").prefetch_related("seats__player"))


def plan_in_words(
    count: int, kind: str = Session.Kind.RUBBER, movement: str = Session.Movement.PIVOT
) -> dict[str, Any]:
    """The console's planning answer in words: the live hint and the submit error are this one
    text (`plan_tables`)."""
    plan = plan_tables(count=count, kind=kind, movement=movement)
    if plan.sizes:
        if len(plan.sizes) == 1:
            text = _("%(count)d players: one table of %(size)d.") % {
                "count": count,
                "size": plan.sizes[0],
            }
        else:
            text = _("%(count)d players: tables of %(sizes)s.") % {
                "count": count,
                "sizes": ", ".join(str(s) for s in plan.sizes),
            }
    elif plan.reason == "empty":
        text = _("Tick tonight's players.")
    elif plan.reason == "even":
        text = ngettext(
            "%(count)d player cannot be paired: two-player games need an even number.",
            "%(count)d players cannot be paired: two-player games need an even number.",
            count,
        ) % {"count": count}
    elif plan.reason == "fixed":
        text = ngettext(
            "%(count)d player cannot play fixed partnerships: every table needs exactly four.",
            "%(count)d players cannot play fixed partnerships: every table needs exactly four.",
            count,
        ) % {"count": count}
    else:
        text = ngettext(
            "%(count)d player cannot be seated: a table needs four to six players (RULES 6.2).",
            "%(count)d players cannot be seated: a table needs four to six players (RULES 6.2).",
            count,
        ) % {"count": count}
    if plan.alternative is not None:
        tables, pairs = plan.alternative
        if tables and not pairs:
            text += " " + _("With the pivot movement: tables of %(sizes)s.") % {
                "sizes": ", ".join(str(s) for s in tables)
            }
        elif tables:
            text += " " + _(
                "Suggestion: tables of %(sizes)s here, and the other two at a two-player "
                "table (plan a Bridge for Two session for them)."
            ) % {"sizes": ", ".join(str(s) for s in tables)}
        else:
            text += " " + _("Suggestion: a two-player game (Bridge for Two) for the two of them.")
    return {"count": count, "sizes": plan.sizes, "text": text}


def _cut_into_tables(players: list[Player], sizes: list[int]) -> list[list[Player]]:
    """Cut for seats (RULES 6.2): a random order of precedence, then fill the tables in turn."""
    order = list(players)
    random.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def planned_tables(form: SessionForm) -> list[list[Player]] | None:
    """The tables for a valid planning form's players (`plan_tables`, cut for seats),
    or None with the planning answer as the form's error on `players`."""
    picked = list(form.cleaned_data["players"])
    suggestion = plan_in_words(
        len(picked), form.cleaned_data["kind"], form.cleaned_data["movement"]
    )
    if not suggestion["sizes"]:
        form.add_error("players", suggestion["text"])
        return None
    return _cut_into_tables(picked, suggestion["sizes"])


def form_suggestion(form: SessionForm) -> dict[str, Any]:
    """The live hint as the planning form shows it first (the players ticked, if any)."""
    picked_count = len(form["players"].value() or [])
    return plan_in_words(
        picked_count,
        form["kind"].value() or Session.Kind.RUBBER,
        form["movement"].value() or Session.Movement.PIVOT,
    )
