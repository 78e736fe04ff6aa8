"""Standings pages: live session standings, prizes, settlement sheet, leaderboard, player."""

from __future__ import annotations

import datetime

from django import forms
from django.db.models.functions import ExtractYear
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from clubs.models import Player, Session
from clubs.permissions import check_club_access, get_club_for_user, get_session_for_user

from . import queries
from .charts import cumulative_chart

POLL_SECONDS = 5


class PeriodForm(forms.Form):
    """The season picker: a first and a last day, both optional."""

    start = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, datetime.date | None]:
        data = super().clean() or {}
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("The end date is before the start date."))
        return data


def _standings_context(session: Session) -> dict[str, object]:
    data = queries.session_standings(session)
    live = session.status != Session.Status.CLOSED or data["stale"]
    return {"session": session, "data": data, "live": live, "poll_seconds": POLL_SECONDS}


@require_GET
def session_standings(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_session_for_user(request, pk)
    return render(request, "scoring/session_standings.html", _standings_context(session))


@require_GET
def session_standings_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings partial that the page polls (htmx, every few seconds)."""
    session = get_session_for_user(request, pk)
    return render(request, "scoring/_standings.html", _standings_context(session))


@require_GET
def session_settlement(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable settlement sheet: one line per payment."""
    session = get_session_for_user(request, pk)
    data = queries.session_settlement(session)
    return render(request, "scoring/settlement.html", {"session": session, "data": data})


@require_GET
def club_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_club_for_user(request, slug)
    form = PeriodForm({"start": request.GET.get("from", ""), "end": request.GET.get("to", "")})
    board = None
    if form.is_valid():
        board = queries.club_leaderboard(
            club.pk, club.slug, form.cleaned_data.get("start"), form.cleaned_data.get("end")
        )
    years = (
        Session.objects.filter(club=club)
        .annotate(year=ExtractYear("date"))
        .values_list("year", flat=True)
        .distinct()
        .order_by("-year")
    )
    return render(
        request,
        "scoring/leaderboard.html",
        {"club": club, "form": form, "board": board, "years": list(years)},
        status=200 if form.is_valid() else 400,
    )


@require_GET
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    player = Player.objects.select_related("club").filter(pk=pk).first()
    if player is None:
        raise Http404("No such player.")
    check_club_access(request.user, player.club)
    history = queries.player_history(player)
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "club": player.club,
            "history": history,
            "chart": cumulative_chart(history["points"]),
        },
    )
