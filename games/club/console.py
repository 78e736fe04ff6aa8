"""The director's console: plan a session (the live table suggestion), the club's planned and
running sessions (polled while the page is open), and whether opponents confirm deals."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.forms import SessionForm
from clubs.models import Club, Session, TableSeat
from clubs.permissions import check_director_role, signed_in_user
from clubs.selectors import club_for_reader
from games.pad import rendered
from games.push.versions import console_state
from games.sessions import lifecycle
from games.sessions.confirming import set_confirmation
from games.sessions.pages import next_or, unconfirmed_deals
from games.sessions.planning import form_suggestion, plan_in_words, planned_tables
from games.sessions.seating import seated_in_running
from scoring.shared.numbers import small_number

from .cards import console_cards, to_read, with_kept
from .context import console_sessions, session_context


@login_required
def console(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_reader(request.user, slug, director=True)
    form = SessionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        tables = planned_tables(form)
        if tables is not None:
            try:
                session = lifecycle.session_create(
                    club=club,
                    date=form.cleaned_data["date"],
                    kind=form.cleaned_data["kind"],
                    movement=form.cleaned_data["movement"],
                    stake_per_hundred=form.cleaned_data["stake_per_hundred"],
                    tables=tables,
                    created_by=signed_in_user(request),
                )
            except ValidationError as err:
                form.add_error(None, err)
            else:
                messages.success(request, _("Session planned. Check the tables, then start it."))
                return redirect(
                    reverse("clubs:console", args=[club.slug]) + f"#session-{session.pk}"
                )
    return render(
        request,
        "clubs/console.html",
        {
            **_console_context(request, club),
            "form": form,
            "suggestion": form_suggestion(form),
            "busy": _busy(club, form["players"].value() or []),
        },
    )


def _busy(club: Club, values: Any) -> list[TableSeat]:
    """The seats at running tables of the ticked players (`seated_in_running`): what the
    planning form warns of before seating them. Values that name no player are left out."""
    ids = [pk for pk in (small_number(str(v)) for v in values) if pk is not None]
    return seated_in_running(ids, club_id=club.pk) if ids else []


def _console_etag(version: str) -> str:
    """The console's `version` (`console_state`) in the language the console is read in."""
    # The day too: a session left running becomes one of an earlier day at midnight.
    key = f"{version}|{get_language()}|{timezone.localdate()}"
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


@login_required
@require_GET
def console_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The console's sessions, polled by the page every 2 s: 304 while nothing changed. Who
    reads and what changed are one query (`console_state`), which is all a 304 costs; the
    reader is checked as `club_for_reader(user, slug, director=True)` checks."""
    user = request.user
    state = console_state(slug, user.pk if user.is_authenticated else None)
    if state is None:
        raise Http404("No such club.")
    check_director_role(state.public, state.role)
    etag = _console_etag(state.version)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        club = Club.objects.get(pk=state.club_id)
        # The same for every director of the club in the same language (the ETag holds it):
        # rendered once per change, then kept (games.pad.rendered).
        response = HttpResponse(
            rendered.kept(
                request,
                f"console:{club.pk}:{etag}",
                "clubs/_console_sessions.html",
                lambda: _console_context(request, club),
            )
        )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _console_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    # Their names alone: no instance of each of the club's players.
    names = dict(club.players.values_list("pk", "name"))
    # Only the tables whose card is not kept are read and rendered (games.club.cards).
    cards = console_cards(club.pk, club.slug, names)
    kept, read = to_read(cards)
    sessions = console_sessions(club, read)
    unconfirmed = unconfirmed_deals(sessions)
    active = []
    for s in sessions:
        context = session_context(
            request, s, director=True, names=names, unconfirmed=unconfirmed.get(s.pk, [])
        )
        context["tables"] = with_kept(s.pk, context["tables"], cards, kept)
        active.append(context)
    # Forms in the sessions come back to the console, also when polled (console_live).
    back = reverse("clubs:console", args=[club.slug])
    return {"club": club, "active": active, "is_director": True, "back": back}


@login_required
@require_GET
def suggest(request: HttpRequest, slug: str) -> HttpResponse:
    """The table suggestion for the ticked players (htmx partial of the console)."""
    club = club_for_reader(request.user, slug, director=True)
    count = len(request.GET.getlist("players"))
    kind = request.GET.get("kind", Session.Kind.RUBBER)
    movement = request.GET.get("movement", Session.Movement.PIVOT)
    # A crafted value is refused by listing the valid ones, never by sending it back.
    for value, choices in ((kind, Session.Kind.values), (movement, Session.Movement.values)):
        if value not in choices:
            refusal = _("Choose one of: %(choices)s.") % {"choices": ", ".join(choices)}
            return HttpResponse(refusal, status=400, content_type="text/plain")
    return render(
        request,
        "clubs/_suggestion.html",
        {
            "suggestion": plan_in_words(count, kind, movement),
            "club": club,
            "partial": True,
            "busy": _busy(club, request.GET.getlist("players")),
        },
    )


@login_required
@require_POST
def confirmation_setting(request: HttpRequest, slug: str) -> HttpResponse:
    """The director asks opponents to confirm each deal: for the club (every session), or for
    one session (`session`), from the console."""
    club = club_for_reader(request.user, slug, director=True)
    on = request.POST.get("confirm") == "on"
    session_id = request.POST.get("session", "")
    if session_id:
        session = club.sessions.filter(pk=small_number(session_id) or 0).first()
        if session is None:
            raise Http404("No such session in this club.")
        stood = set_confirmation(club=club, on=on, session=session, by=signed_in_user(request))
        session.club = club
        # What now holds for this session, which the club's setting may still ask for.
        said = (
            _("The opponents now confirm each deal of this session.")
            if session.asks_confirmation
            else _("The opponents no longer confirm this session's deals.")
        )
    else:
        stood = set_confirmation(club=club, on=on, by=signed_in_user(request))
        club.confirm_entries = on
        said = (
            _("The opponents now confirm every deal, in every session.")
            if on
            else _(
                "The club no longer asks the opponents to confirm deals; a session that asks "
                "on its own still does."
            )
        )
    if stood:
        said += " " + ngettext(
            "The %(count)d deal already recorded stands as recorded.",
            "The %(count)d deals already recorded stand as recorded.",
            stood,
        ) % {"count": stood}
    messages.success(request, said)
    return redirect(next_or(request, reverse("clubs:console", args=[club.slug])))
