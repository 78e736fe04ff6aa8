"""The home page (the clubs a visitor may see, the tables where they sit tonight), a club's
home, and the answers to an invitation."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import services as club_services
from clubs.models import Club, Invitation, Session, TableSeat
from clubs.permissions import signed_in_user
from clubs.policy import may_direct, may_read_money
from clubs.selectors import club_for_reader
from games.club_api import table_queryset
from games.models import Conflict, Rubber
from games.sessions.pages import reverse_or_none
from scoring.rules.seating import MIN_AT_TABLE

from .context import room_order

#: What the `<slug:...>` of a club's URLs accepts (Django's slug converter).
SLUG = re.compile(r"[-a-zA-Z0-9_]+")


def home(request: HttpRequest) -> HttpResponse:
    """The clubs this visitor may see, with a helpful empty state; first of all, for a player
    at a table of a running session, that table's rubber in play (one tap after sign-in).

    A club whose stored slug no URL can hold (written around the forms and the import's checks)
    is left out rather than failing the page for everyone."""
    clubs = [
        club
        for club in Club.objects.visible_to(request.user).order_by("name")
        if SLUG.fullmatch(club.slug)
    ]
    invitations = Invitation.objects.for_holder(request.user).select_related("player__club")
    # Under each club its planned and running sessions with their tables (issue 18: a running
    # session is never hidden); first, the tables where this user sits tonight (issue 17).
    active = _active_sessions(clubs)
    rows = [(club, active.get(club.pk, [])) for club in clubs]
    return render(
        request,
        "clubs/home.html",
        {
            "clubs": clubs,
            "invitations": invitations,
            "rows": rows,
            "my_tables": _my_tables(request.user),
        },
    )


@login_required
@require_POST
def invitation_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """The holder of an invited login accepts it (another login's invitation is a 404)."""
    try:
        player = club_services.invitation_accept(invitation_id=pk, user=signed_in_user(request))
    except Invitation.DoesNotExist as err:
        raise Http404("No such invitation.") from err
    except Conflict as err:
        messages.error(request, str(err))
        return redirect("home")
    messages.success(
        request,
        _("You are now %(name)s at %(club)s.") % {"name": player.name, "club": player.club.name},
    )
    return redirect("home")


@login_required
@require_POST
def invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        club_services.invitation_decline(invitation_id=pk, user=signed_in_user(request))
    except Invitation.DoesNotExist as err:
        raise Http404("No such invitation.") from err
    messages.success(request, _("Invitation declined."))
    return redirect("home")


@dataclass
class ActiveTable:
    number: int
    players: list[str]
    rubber_url: str | None
    rubber_number: int | None
    url: str | None = None  # the table's own link, once its session runs


@dataclass
class ActiveSession:
    """A planned or running session as the club page and home list it: its tables, who sits
    at each, and a link to the rubber in play."""

    session: Session
    tables: list[ActiveTable]


def _active_sessions(clubs: Sequence[Club]) -> dict[int, list[ActiveSession]]:
    """Every planned and running session of these clubs, by club id, in a fixed number of
    queries (tables, seats and rubbers in play prefetched)."""
    sessions = (
        Session.objects.filter(
            club__in=clubs, status__in=[Session.Status.RUNNING, Session.Status.PLANNED]
        )
        .select_related("club")
        .order_by("-status", "date", "id")
        .prefetch_related(Prefetch("tables", queryset=table_queryset().order_by("number")))
    )
    found: dict[int, list[ActiveSession]] = {}
    for session in sorted(sessions, key=room_order):
        tables = []
        for table in session.tables.all():
            in_play = getattr(table, "rubbers_in_play", [])
            rubber = in_play[0] if in_play else None
            tables.append(
                ActiveTable(
                    number=table.number,
                    players=[p.name for p in table.present_players()],
                    rubber_url=reverse_or_none("games:rubber", rubber.pk) if rubber else None,
                    rubber_number=rubber.number if rubber else None,
                    url=table.get_absolute_url()
                    if session.status == Session.Status.RUNNING
                    else None,
                )
            )
        found.setdefault(session.club_id, []).append(ActiveSession(session, tables))
    return found


def _my_tables(user: Any) -> list[Rubber]:
    """The rubbers in play at the tables where this user's players sit tonight."""
    if not user.is_authenticated:
        return []
    tables = TableSeat.objects.filter(
        player__user=user, active=True, session__status=Session.Status.RUNNING
    ).values("table_id")
    return list(
        Rubber.objects.filter(table_id__in=tables, status=Rubber.Status.IN_PLAY)
        .select_related("table", "session__club")
        .order_by("session__date", "table__number")
    )


def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_reader(request.user, slug)
    role = club.role_of(request.user)
    director = may_direct(role)
    sessions = club.sessions.annotate(table_count=Count("tables")).order_by("-date", "-id")
    player_count = club.players.count()
    next_steps = []
    if director:
        if player_count < MIN_AT_TABLE:
            next_steps.append(
                (
                    _(
                        "Add your players (at least four); give a login to those who will "
                        "enter results from their phones."
                    ),
                    reverse("clubs:players", args=[club.slug]),
                )
            )
        if not sessions.exists():
            next_steps.append(
                (
                    _("Plan tonight's session: tick who is here and Backscore suggests tables."),
                    reverse("clubs:console", args=[club.slug]),
                )
            )
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "is_director": director,
            "active": _active_sessions([club]).get(club.pk, []),
            "recent": sessions.filter(status=Session.Status.CLOSED)[:10],
            "player_count": player_count,
            "next_steps": next_steps,
            "leaderboard_url": reverse_or_none("scoring:club-leaderboard", club.slug),
            # The season accounts are the members' (clubs.policy.may_read_money).
            "accounts_url": reverse_or_none("scoring:club-accounts", club.slug)
            if may_read_money(role)
            else None,
        },
    )
