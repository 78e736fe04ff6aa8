"""Every change of a deal, from django-simple-history: who, when, before and after.

Who is shown as the club knows them, never by their login (API.md: "Logins are never shown to
anyone but the club's director"; the director sees logins on the club's players list only).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership, Player

from .models import Deal, DisputeReason
from .summaries import summarise


@dataclass(frozen=True)
class Entrant:
    """Who entered or changed a deal, as the club shows them: the display name and id of the
    login's player in the club; a director without a player as "Director" (no id)."""

    name: str | None
    player_id: int | None


NOBODY = Entrant(None, None)


def who(names: dict[int, Entrant], user_id: int | None) -> Entrant:
    """The entrant of a login id (None: nobody, as for a deal whose login was deleted)."""
    return NOBODY if user_id is None else names.get(user_id, NOBODY)


def entrants(
    club_id: int,
    user_ids: Iterable[int | None],
    known: Iterable[Player] = (),
    given: Mapping[int, Entrant] | None = None,
) -> dict[int, Entrant]:
    """The `Entrant` of each login id in the club. `known` players (the seated ones, already
    read) and `given` entrants (`director_entrant`) cost no query; the others one query,
    whoever they are."""
    wanted = {user_id for user_id in user_ids if user_id is not None}
    found = {p.user_id: Entrant(p.name, p.pk) for p in known if p.user_id in wanted}
    found.update((k, v) for k, v in (given or {}).items() if k in wanted and k not in found)
    missing = wanted - set(found)
    if missing:
        player = Player.objects.filter(club_id=club_id, user=OuterRef("pk"))
        role = Membership.objects.filter(club_id=club_id, user=OuterRef("pk")).values("role")
        rows = (
            get_user_model()
            .objects.filter(pk__in=missing)
            .annotate(
                player_name=Subquery(player.values("name")[:1]),
                player_pk=Subquery(player.values("pk")[:1]),
                role=Subquery(role[:1]),
            )
            .values_list("pk", "player_name", "player_pk", "role")
        )
        for user_id, name, player_id, role_in_club in rows:
            if player_id is not None:
                found[user_id] = Entrant(name, player_id)
            elif role_in_club == Membership.Role.DIRECTOR:
                found[user_id] = Entrant(str(Membership.Role.DIRECTOR.label), None)
    return found


def director_entrant(user_id: int, role: str | None, player_id: int | None) -> dict[int, Entrant]:
    """A login known, without a query, to be a director of the club with no player there
    (`viewer_role`, `viewer_player_id` of the entry check), named as `entrants` names them;
    empty for anyone else."""
    if role == Membership.Role.DIRECTOR and player_id is None:
        return {user_id: Entrant(str(Membership.Role.DIRECTOR.label), None)}
    return {}


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
#: What a history line on a page says a change was, by its reason (`games.models`), else its
#: kind. The API keeps the codes (`kind`, `reason`); the page speaks the club's language.
SAID = {
    "entered": _("entered"),
    "correction": _("corrected"),
    "confirmed": _("confirmed"),
    "disputed": _("disputed"),
    "ruled": _("ruled it stands"),
    "stood at close": _("stands as recorded: the session closed"),
    "recorded before confirmation": _(
        "stands as recorded: entered before the opponents were asked to confirm"
    ),
    "moved": _("moved here"),
    "changed": _("changed"),
    "deleted": _("deleted"),
}


def _why(record: Any) -> str:
    """What a dispute's history record says was wrong: the reason and the player's words."""
    reason = getattr(record, "dispute_reason", "")
    if not reason:
        return ""
    said = str(DisputeReason(reason).label)
    note = getattr(record, "dispute_note", "")
    return f"{said}: “{note}”" if note else said


def _snapshot(record: Any, kind: str, players: Sequence[str] | None = None) -> dict[str, Any]:
    data = {name: getattr(record, name) for name in TRACKED}
    data["version"] = record.version
    data["summary"] = summarise(kind, record, players)
    return data


def entries(
    records: Iterable[Any],
    names: dict[int, Entrant],
    game: str,
    players: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """One deal's history records (any order) as entries, oldest first; `names` by login id.
    Each summary is as the game whose code is `game` says it (`summarise`); a two-player
    deal's name its `players` when given (player 0's and 1's names)."""
    ordered = sorted(records, key=lambda r: (r.history_date, r.history_id))
    result: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for record in ordered:
        after = _snapshot(record, game, players)
        changed = [
            {"field": name, "before": before[name], "after": after[name]}
            for name in (*TRACKED, "version")
            if before is not None and before[name] != after[name]
        ]
        by = who(names, record.history_user_id)
        kind = KINDS.get(record.history_type, record.history_type)
        # A change from a phone holding the table's code appends how it names that phone
        # ("entered · table 1 (code), seat S", games.models.change_note).
        reason, _dot, phone = (record.history_change_reason or "").partition(" · ")
        result.append(
            {
                "kind": kind,
                # A dispute says why: "the honours: we had none" (Deal.dispute).
                "why": _why(record) if reason == "disputed" else "",
                # The deal's number then (the pad's list of deleted deals names it).
                "number": record.number,
                "reason": reason,
                "said": SAID.get(reason) or SAID.get(kind, kind),
                "code_phone": phone,
                "user": by.name,
                "player": by.player_id,
                "at": record.history_date,
                "before": before,
                "after": after,
                "changes": changed,
                # A phone holding the table's code (games.codes): the seat it wrote from.
                "code_seat": record.written_seat if getattr(record, "written_phone", "") else "",
            }
        )
        before = after
    return result


def for_deal(deal: Deal, club_id: int) -> list[dict[str, Any]]:
    records = list(deal.history.all())
    names = entrants(club_id, (r.history_user_id for r in records))
    return entries(records, names, deal.rubber.kind)


def for_rubber(
    rubber_id: int,
    kind: str,
    club_id: int,
    known: Iterable[Player] = (),
    players: Sequence[str] | None = None,
) -> dict[int, list[dict[str, Any]]]:
    """Every deal's history in a rubber, by deal id (one query, and `entrants`'); a two-player
    match's summaries name its `players`; `kind` is the rubber's game."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for record in Deal.history.filter(rubber_id=rubber_id):
        grouped[record.id].append(record)
    names = entrants(club_id, (r.history_user_id for rs in grouped.values() for r in rs), known)
    return {deal_id: entries(records, names, kind, players) for deal_id, records in grouped.items()}
