"""Every change of a deal, from django-simple-history: who, when, before and after."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from .models import Deal

TRACKED = (
    "contract",
    "declarer",
    "tricks",
    "honours_side",
    "honours_points",
    "data",
    "confirmed_by_id",
)
KINDS = {"+": "entered", "~": "changed", "-": "deleted"}


def _snapshot(record: Any) -> dict[str, Any]:
    data = {name: getattr(record, name) for name in TRACKED}
    data["version"] = record.version
    data["summary"] = Deal.summary(record)
    return data


def entries(records: Iterable[Any]) -> list[dict[str, Any]]:
    """One deal's history records (any order) as entries, oldest first."""
    ordered = sorted(records, key=lambda r: (r.history_date, r.history_id))
    result: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for record in ordered:
        after = _snapshot(record)
        changed = [
            {"field": name, "before": before[name], "after": after[name]}
            for name in (*TRACKED, "version")
            if before is not None and before[name] != after[name]
        ]
        user = record.history_user
        result.append(
            {
                "kind": KINDS.get(record.history_type, record.history_type),
                "reason": record.history_change_reason or "",
                "user": None if user is None else user.get_username(),
                "user_id": record.history_user_id,
                "at": record.history_date,
                "before": before,
                "after": after,
                "changes": changed,
            }
        )
        before = after
    return result


def for_deal(deal: Deal) -> list[dict[str, Any]]:
    return entries(deal.history.select_related("history_user"))


def for_rubber(rubber_id: int) -> dict[int, list[dict[str, Any]]]:
    """Every deal's history in a rubber, by deal id (one query)."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for record in Deal.history.filter(rubber_id=rubber_id).select_related("history_user"):
        grouped[record.id].append(record)
    return {deal_id: entries(records) for deal_id, records in grouped.items()}
