"""The versions the push streams send (games.push.views): a pad's (`version_of` its state),
what the console's poll and its stream both say changed."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.utils.crypto import salted_hmac

from clubs.models import Club, Session, TableSeat

from ..models import Deal, Rubber


def version_of(state: tuple[Any, ...] | list[Any]) -> str:
    """A short version of a state, keyed (the state holds the table's code)."""
    text = re.sub(r"\s+", " ", repr(state))
    return salted_hmac("games.push", text, algorithm="sha256").hexdigest()[:16]


def rubber_version(pk: int) -> str | None:
    """The version of a rubber's pad as every reader's stream has it (`version_of` its
    `answer_state`, which is the same whoever reads), or None if there is no such rubber."""
    state = Rubber.objects.answer_state(pk)
    return None if state is None else version_of(state)


def console_version(club: Club) -> str:
    """What the console's sessions show: their status and tables, the rubbers and every write
    of their deals (count, versions, confirmations, the latest time). Its push stream sends it
    (games.push.views)."""
    active = [Session.Status.PLANNED, Session.Status.RUNNING]
    sessions = club.sessions.filter(status__in=active)
    state = [
        list(sessions.values_list("pk", "status", "table_codes")),
        TableSeat.objects.filter(session__in=sessions).aggregate(
            n=Count("pk"), on=Count("pk", filter=Q(active=True))
        ),
        Rubber.objects.filter(session__in=sessions).aggregate(
            n=Count("pk"), done=Count("pk", filter=~Q(status=Rubber.Status.IN_PLAY))
        ),
        Deal.objects.filter(rubber__session__in=sessions).aggregate(
            n=Count("pk"),
            v=Sum("version"),
            c=Count("confirmed_by"),
            at=Max("updated_at"),
        ),
    ]
    return hashlib.sha256(repr(state).encode()).hexdigest()[:16]
