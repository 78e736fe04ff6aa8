"""Who may read and who may manage a club, applied: THE rule is `clubs.policy.may_read`.

The policy (clubs.policy; docs/api.md, "Permissions"):

- A public club, its players, sessions, standings and leaderboard are readable by anyone.
- A members-only club is readable by its members only. To everyone else it does not exist:
  pages and the API answer 404, exactly as for a slug or id that was never created, so its
  existence does not leak.
- Only the club's directors change anything. A signed-in user who may read the club but is
  not one of its directors gets 403; an anonymous write gets 401 (API) or the sign-in page
  (pages) before anything is looked up.

Other apps reuse these helpers: `can_read_club`, `is_director`, `is_member`, `check_club_access`,
`check_club_id_readable`, `signed_in_user` and the DRF permission class `IsClubDirectorOrReadOnly`;
the selectors that fetch what a reader may see are in clubs.selectors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from rest_framework import permissions

from .models import Club, Membership
from .policy import may_direct, may_read

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from rest_framework.request import Request

    AnyUser = User | AnonymousUser


def signed_in_user(request: HttpRequest | Request) -> User:
    """The request's user, in a view that already required a signed-in one (`login_required`,
    DRF's `IsAuthenticated`, or a write under `IsClubDirectorOrReadOnly`)."""
    user = request.user
    assert user.is_authenticated, "the view's permission requires a signed-in user"
    return user


def role_in_club(user: AnyUser, club: Club) -> str | None:
    """The user's role in the club ("director", "player") or None (one query, none if anonymous)."""
    return club.role_of(user)


def is_member(user: AnyUser, club: Club) -> bool:
    return role_in_club(user, club) is not None


def is_director(user: AnyUser, club: Club) -> bool:
    return may_direct(role_in_club(user, club))


def can_read_club(user: AnyUser, club: Club) -> bool:
    """`may_read` for this user and club (no query for a public club)."""
    return club.can_read(user)


def check_club_access(user: AnyUser, club: Club, *, director: bool = False) -> None:
    """Raise Http404 when the user may not read the club, PermissionDenied when they may read it
    but `director` is asked and they are not one of its directors."""
    if not director:
        check_club_id_readable(user, club.pk, public=club.public)
        return
    check_director_role(club.public, role_in_club(user, club))


def check_director_role(public: bool, role: str | None) -> None:
    """`check_club_access` with `director=True`, from the club's `public` flag and the user's
    `role` in it when already read: Http404 when `may_read` refuses, PermissionDenied for a
    reader who is not one of its directors."""
    if not may_read(public, role):
        raise Http404("No such club.")
    if not may_direct(role):
        raise PermissionDenied(_("Only a director of this club may do this."))


def check_club_id_readable(user: AnyUser, club_id: int, *, public: bool) -> None:
    """`check_club_access` for reading, from the club's id and `public` flag: Http404 when
    `may_read` refuses (one query for a members-only club, none for a public one)."""
    if may_read(public, None):
        return
    role: str | None = None
    if user.is_authenticated:
        roles = Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True)
        role = roles.first()
    if not may_read(public, role):
        raise Http404("No such club.")


def club_of(obj: Any) -> Club:
    """The club an object belongs to: a Club, or anything with `.club` or `.session.club`."""
    if isinstance(obj, Club):
        return obj
    if hasattr(obj, "club"):
        return cast(Club, obj.club)
    return cast(Club, obj.session.club)


class IsClubDirectorOrReadOnly(permissions.BasePermission):
    """DRF permission: reads for whoever may read the object's club, writes for its directors.

    Writes need a signed-in user (401 otherwise). Object checks answer 404 when the club is
    hidden from the user and 403 for a reader who is not a director. Works for any object that
    `club_of` understands (clubs, players, sessions, tables, rubbers via `.session`).
    """

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        check_club_access(
            request.user, club_of(obj), director=request.method not in permissions.SAFE_METHODS
        )
        return True
