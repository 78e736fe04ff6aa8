"""Standings pages: live session standings, prizes, settlement sheet, leaderboard, player."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models.functions import ExtractYear
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from clubs.forms import PlayerEmailForm, PlayerLanguageForm
from clubs.models import Player, Session, Table
from clubs.permissions import check_club_access, is_director
from clubs.selectors import club_for_reader, session_for_reader
from scoring.rules.games import game
from scoring.shared import inputs
from scoring.shared.i18n import next_club_page_language

from . import queries, ratings
from .charts import Point, cumulative_chart, line_chart
from .serializers import choose_one_of

POLL_SECONDS = 5


class PeriodForm(forms.Form):
    """The season picker: a first and a last day, both optional."""

    start = inputs.DateFormField(
        label=_("From"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    end = inputs.DateFormField(
        label=_("To"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    kind = forms.ChoiceField(label=_("Game"), required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["kind"].choices = [(k, pool_label(k)) for k in queries.LADDERS]  # type: ignore[attr-defined]
        # The refusal lists the ladders, never the value sent (any length, from a link).
        self.fields["kind"].error_messages["invalid_choice"] = choose_one_of(queries.LADDERS)

    def clean(self) -> dict[str, datetime.date | None]:
        data = super().clean() or {}
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("The end date is before the start date."))
        return data


def _with_table_links(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    """The standings with a link on each table they name (the room's column, the tables, the
    prizes): the reader of the standings may read the session's tables. One query."""
    urls = {
        number: reverse("games:table", args=[pk])
        for number, pk in Table.objects.filter(session=session).values_list("number", "pk")
    }

    def linked(row: dict[str, Any], key: str) -> dict[str, Any]:
        return {**row, "table_url": urls.get(row[key])}

    return {
        **data,
        "players": [linked(p, "table") for p in data["players"]],
        "tables": [linked(t, "number") for t in data["tables"]],
        "prizes": [linked(p, "table") for p in data["prizes"]],
    }


def _standings_context(request: HttpRequest, session: Session) -> dict[str, object]:
    data = _with_table_links(session, queries.session_standings(session))
    live = session.status != Session.Status.CLOSED or data["stale"]
    return {
        "session": session,
        "data": data,
        "live": live,
        "poll_seconds": POLL_SECONDS,
        # RULES 6.3: listed apart, unranked.
        "unranked": [p for p in data["players"] if p["rank"] is None],
        "prizes_shared": any(prize["shared"] for prize in data["prizes"]),
        # The director records the cut that orders winners sharing a choice (RULES 6.3).
        "cut_to_record": any(prize["cut"] == "undecided" for prize in data["prizes"])
        and is_director(request.user, session.club),
        # A recorded cut may be recorded again, a slip corrected (issue 31).
        "cut_recorded": any(prize["cut"] in ("won", "lost") for prize in data["prizes"])
        and is_director(request.user, session.club),
        # The note on shared places, only when one is (RULES 6.3).
        "places_shared": any(p["place_shared"] for p in data["players"] if p["rank"] is not None),
    }


@require_GET
def session_standings(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_for_reader(request.user, pk)
    return render(request, "scoring/session_standings.html", _standings_context(request, session))


@require_GET
def session_standings_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings partial that the page polls (htmx, every few seconds)."""
    session = session_for_reader(request.user, pk)
    return render(request, "scoring/_standings.html", _standings_context(request, session))


@require_GET
def session_settlement(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable settlement sheet: one line per payment."""
    session = session_for_reader(request.user, pk)
    data = queries.session_settlement(session)
    return render(request, "scoring/settlement.html", {"session": session, "data": data})


@require_GET
def club_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's ladder of one game (rubber bridge and Chicago by default; each two-player
    game on its own tab) over a season or all time."""
    club = club_for_reader(request.user, slug)
    form = PeriodForm(
        {
            "start": request.GET.get("from", ""),
            "end": request.GET.get("to", ""),
            "kind": request.GET.get("kind", ""),
        }
    )
    board = None
    if form.is_valid():
        board = queries.club_leaderboard(
            club.pk,
            club.slug,
            form.cleaned_data.get("start"),
            form.cleaned_data.get("end"),
            kind=form.cleaned_data.get("kind") or ratings.BRIDGE,
        )
    played = set(
        Session.objects.filter(club=club).order_by().values_list("kind", flat=True).distinct()
    )
    years = (
        Session.objects.filter(club=club)
        .annotate(year=ExtractYear("date"))
        .values_list("year", flat=True)
        .distinct()
        .order_by("-year")
    )
    kind = board["kind"] if board else ratings.BRIDGE
    # A tab for every ladder the club has played a session of (rubber bridge always).
    ladders = [
        {"kind": k, "label": pool_label(k), "current": k == kind}
        for k in queries.LADDERS
        if k in (ratings.BRIDGE, kind) or any(s in played for s in queries.ladder_kinds(k))
    ]
    return render(
        request,
        "scoring/leaderboard.html",
        {
            "club": club,
            "form": form,
            "board": board,
            "years": list(years),
            "ladders": ladders,
            "kind": kind,
            "two_player": kind != ratings.BRIDGE,
            "back_score": any(game(k).back_score for k in queries.ladder_kinds(kind)),
        },
        status=200 if form.is_valid() else 400,
    )


def pool_label(pool: str) -> str:
    """A pool's name on the pages: four-player bridge, or the two-player game's name."""
    if pool == ratings.BRIDGE:
        return str(_("Bridge (rubber and Chicago)"))
    return str(Session.Kind(pool).label)


class PoolForm(forms.Form):
    pool = forms.ChoiceField(label=_("Pool"), required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["pool"].choices = [(p, pool_label(p)) for p in ratings.POOLS]  # type: ignore[attr-defined]
        self.fields["pool"].error_messages["invalid_choice"] = choose_one_of(ratings.POOLS)


@require_GET
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's ratings in one pool (docs/ratings.md), beside the leaderboard."""
    club = club_for_reader(request.user, slug)
    form = PoolForm({"pool": request.GET.get("pool", "")})
    data = None
    if form.is_valid():
        data = ratings.club_ratings(club.pk, form.cleaned_data["pool"] or ratings.BRIDGE)
    pools = [(p, pool_label(p)) for p in ratings.POOLS]
    return render(
        request,
        "scoring/ratings.html",
        {"club": club, "form": form, "data": data, "pools": pools},
        status=200 if form.is_valid() else 400,
    )


def _player_for_user(request: HttpRequest, pk: int) -> Player:
    player = Player.objects.select_related("club").filter(pk=pk).first()
    if player is None:
        raise Http404("No such player.")
    check_club_access(request.user, player.club)
    return player


@require_POST
def player_language(request: HttpRequest, pk: int) -> HttpResponse:
    """The player, or a director of their club, chooses the player's language (docs/i18n.md)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = _player_for_user(request, pk)
    if not player.may_choose_language(request.user):
        raise PermissionDenied(_("Only the player or a director of the club may do this."))
    form = PlayerLanguageForm(request.POST)
    if not form.is_valid():
        return _player_page(request, player, form, status=400)
    player.choose_language(form.cleaned_data["language"], by=request.user)
    # The message is stored as text: write it in the language of the page that shows it.
    with translation.override(next_club_page_language(request, player.club)):
        messages.success(request, gettext("Language saved."))
    return redirect("scoring:player", player.pk)


@require_POST
def player_email(request: HttpRequest, pk: int) -> HttpResponse:
    """The player, or a director of their club, sets the address their results are mailed to
    (issue 32; ``Player.choose_email``)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = _player_for_user(request, pk)
    if not player.may_choose_language(request.user):
        raise PermissionDenied(_("Only the player or a director of the club may do this."))
    form = PlayerEmailForm(request.POST)
    if not form.is_valid():
        language = PlayerLanguageForm(initial={"language": player.language})
        return _player_page(request, player, language, status=400, email_form=form)
    player.choose_email(form.cleaned_data["email"], by=request.user)
    with translation.override(next_club_page_language(request, player.club)):
        messages.success(request, gettext("Address saved."))
    return redirect("scoring:player", player.pk)


@require_GET
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's page: ratings and their history, record, hundreds and money over time,
    partnerships, the latest rubbers."""
    player = _player_for_user(request, pk)
    form = None
    if player.may_choose_language(request.user):
        form = PlayerLanguageForm(initial={"language": player.language})
    return _player_page(request, player, form)


def _player_page(
    request: HttpRequest,
    player: Player,
    form: PlayerLanguageForm | None,
    status: int = 200,
    email_form: PlayerEmailForm | None = None,
) -> HttpResponse:
    page = queries.player_page(player)
    rated = []
    for pool in ratings.player_ratings(player.pk):
        points = [
            Point(
                value=s.ordinal,
                # The match's day (its session's), not when its last deal was entered: a
                # night's score sheets typed in later would all read as that day.
                label=_date(getattr(s, "match_date", None) or s.ended_at),
                low=s.ordinal - s.sigma,
                high=s.ordinal + s.sigma,
            )
            for s in pool["steps"]
        ]
        rated.append({**pool, "label": pool_label(pool["pool"]), "chart": line_chart(points)})
    hundreds = line_chart([Point(float(p.cumulative), _date(p.date)) for p in page["hundreds"]])
    money = line_chart([Point(float(p.cumulative), _date(p.date)) for p in page["money"]])
    return render(
        request,
        "scoring/player_page.html",
        {
            "player": player,
            "club": player.club,
            "page": page,
            "rated": rated,
            "hundreds_chart": hundreds,
            "money_chart": money,
            "language_form": form,
            # The address is the player's and their directors' to see, as the language form.
            "email_form": email_form
            or (PlayerEmailForm(initial={"email": player.email}) if form is not None else None),
        },
        status=status,
    )


def _date(value: datetime.date | datetime.datetime | None) -> str:
    """A chart's date written as every page writes a date ("Dec. 1, 2026", "1 dicembre 2026"):
    the short form ("12/01/2026") read as another date to half the club (docs/i18n.md)."""
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        value = timezone.localdate(value)
    return str(formats.date_format(value))


@require_GET
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_for_user(request, pk)
    history = queries.player_history(player)
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "club": player.club,
            "history": history,
            # Each game apart, with its own chart of the running total.
            "games": [
                {**game, "chart": cumulative_chart(game["points"])} for game in history["games"]
            ],
        },
    )
