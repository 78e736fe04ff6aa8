"""Selectors: fetch a club or a session for a reader, with what its readers need, or Http404.

Each one reads the object with the related rows its callers use (decided here, once), applies
the read policy (clubs.policy, through clubs.permissions) and answers a hidden object exactly
like a missing one. Pages and the API call these; the rubber's are in games.selectors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Club, Player, Session
from .permissions import check_club_access, check_club_id_readable
from .policy import may_direct, may_read_money

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    AnyUser = User | AnonymousUser


def club_for_reader(user: AnyUser, slug: str, *, director: bool = False) -> Club:
    """The club with this slug if the user may read it (or manage it, with `director=True`);
    else Http404 / PermissionDenied as in `check_club_access`.

    Pages that need a director are also `login_required`, so anonymous visitors are sent to the
    sign-in page rather than shown 403.
    """
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    check_club_access(user, club, director=director)
    return club


def club_for_member(user: AnyUser, slug: str, *, director: bool = False) -> Club:
    """The club with this slug for a reader of its money (`may_read_money`: its members), else
    Http404 as for a missing club; with `director=True`, PermissionDenied for a member who is
    not one of its directors."""
    club = Club.objects.filter(slug=slug).first()
    role = None if club is None else club.role_of(user)
    if club is None or not may_read_money(role):
        raise Http404("No such club.")
    if director and not may_direct(role):
        raise PermissionDenied(_("Only a director of this club may do this."))
    return club


def player_for_member(user: AnyUser, pk: int) -> Player:
    """The player with this id for a reader of their club's money (`club_for_member`)."""
    player = Player.objects.select_related("club").filter(pk=pk).first()
    if player is None or not may_read_money(player.club.role_of(user)):
        raise Http404("No such player.")
    return player


def club_id_for_reader(user: AnyUser, slug: str) -> int:
    """The id of the club with this slug if the user may read it, else Http404: the check of
    `club_for_reader` for reads that need no Club instance (one query for a public club)."""
    found = Club.objects.visibility(slug)
    if found is None:
        raise Http404("No such club.")
    club_id, public = found
    check_club_id_readable(user, club_id, public=public)
    return club_id


def session_for_reader(
    user: AnyUser, pk: int, *, director: bool = False, club_slug: str | None = None
) -> Session:
    """The session with this id and its club, checked against the club like
    `club_for_reader`. A page under a club's URL (`club_slug`) looks it up within that club
    only: another club's session is missing there, whoever asks, before any permission check."""
    sessions = Session.objects.select_related("club").filter(pk=pk)
    if club_slug is not None:
        sessions = sessions.filter(club__slug=club_slug)
    session = sessions.first()
    if session is None:
        raise Http404("No such session.")
    check_club_access(user, session.club, director=director)
    return session
