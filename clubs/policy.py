"""THE read policy: who may read what (docs/api.md "Permissions", docs/security.md).

Everything Backscore shows belongs to a club: its players, sessions, tables, rubbers, deals,
standings, leaderboard and ratings. Who may read them is decided here, once:

- a **public** club and all it holds: anyone, signed in or not;
- a **members-only** club: its members, whatever their role (director or player);
- a **phone holding a table's code** (games.codes, issue 17): that table's rubbers and deals, even
  in a members-only club, while the code is valid (games.codes decides that);
- anyone else: nothing. A hidden object answers **exactly like a missing one** (the same 404,
  the same headers), so a members-only club's slug or ids do not leak.

Writes (the same module, for the same reason): only the club's directors manage it; entry and
corrections add the seated players (games.permissions).

The rule is written once, as `may_read`, and every check is expressed through it:

- a value in Python: `may_read(public, role)` (``Club.can_read``, clubs.permissions,
  games.permissions, the selectors in clubs.selectors and games.selectors);
- a queryset: `readable_clubs(user)`, the same rule as a filter (``ClubQuerySet.visible_to``,
  the middleware that picks a club's language);
- the raw-SQL fast paths (``RubberQuerySet.for_entry``, ``answer_state``, the leaderboard's
  version) fetch the club's ``public`` flag and the user's role and call `may_read` on them.

Nothing here touches the database: the callers fetch ``public`` and the role as cheaply as their
path allows (docs/benchmarks.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

#: The role that manages a club (``Membership.Role.DIRECTOR``).
DIRECTOR = "director"


def may_read(public: bool, role: str | None, *, table_code: bool = False) -> bool:
    """THE rule: a public club is readable by anyone, a members-only one by its members (`role`
    is the user's role in the club, None for anyone else), and a table by a phone holding its
    code (`table_code`)."""
    return public or role is not None or table_code


def may_read_money(role: str | None) -> bool:
    """The season accounts (RULES 4.4: balances, statements, payments): a club's members only,
    even in a public club. To anyone else they answer exactly like a missing club."""
    return role is not None


def may_direct(role: str | None) -> bool:
    """Writes that manage a club: its directors only."""
    return role == DIRECTOR


def readable_clubs(user: User | AnonymousUser) -> Q:
    """`may_read` as a filter on clubs: public ones, and those the user has a role in. Join on
    memberships: the queryset needs ``distinct()`` (``ClubQuerySet.visible_to``)."""
    if not user.is_authenticated:
        return Q(public=True)
    return Q(public=True) | Q(memberships__user=user)
