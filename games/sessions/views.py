"""The director's pages for a session's lifecycle: start, close, reopen, re-seat and delete it,
its table codes, a player added to or removed from a table. Forms validate; the services of
`games.sessions` write. Pages work without JavaScript."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.forms import SessionForm, TablePlayerForm
from clubs.models import Session
from clubs.permissions import signed_in_user
from games.models import Conflict, Rubber
from games.registry import pages

from . import lifecycle, table_changes
from .pages import director_session, next_or, rubber_figures, unconfirmed_deals
from .planning import form_suggestion, plan_in_words, planned_tables
from .seating import left_running_seats, seated_elsewhere

#: What each change of the table codes does, asked before it is done (`session_codes`).
CODE_CHANGES_TO_CONFIRM = ("regenerate", "off")


@login_required
@require_POST
def session_codes(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The director turns table codes on or off, or gives every table a new code (the old
    codes, and the phones that used them, stop working).

    Turning codes off and new codes ask first, as closing a session does: the first POST
    answers a page that says what happens to the phones at the tables (off pauses the codes,
    which work again when turned on; new codes sign every phone out), with a button that posts
    again with `sure`. A GET changes nothing (405). Turning codes on needs no confirmation."""
    session = director_session(request, slug, pk)
    action = request.POST.get("action")
    next_url = next_or(request, reverse("clubs:session_cards", args=[slug, pk]))
    if session.is_reopened:
        # Its codes stay dead whatever is changed (games.codes.open_table): say so, change nothing.
        messages.error(
            request,
            _(
                "This session was reopened for the director's corrections only: its table codes "
                "do not open its tables."
            ),
        )
        return redirect(next_url)
    if action in CODE_CHANGES_TO_CONFIRM and request.POST.get("sure") != "1":
        return render(
            request,
            "clubs/codes_confirm.html",
            {"session": session, "club": session.club, "action": action, "next": next_url},
        )
    if action == "regenerate":
        for table in session.tables.all():
            table.regenerate_code()
        messages.success(request, _("Every table has a new code: print the cards again."))
    elif action in ("on", "off"):
        session.table_codes = action == "on"
        session.save(update_fields=["table_codes"])
        messages.success(
            request,
            _("Table codes are on.") if session.table_codes else _("Table codes are off."),
        )
    return redirect(next_url)


@login_required
@require_http_methods(["GET", "POST"])
def session_start(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Start a planned session (`lifecycle.session_start`). A player seated in another running
    session of the day refuses it (the message names them); one still seated in a session of
    another day left running asks first: a page names them, links that session's close, and
    "Start anyway" posts again with `anyway`. GET: that page, as it stands now."""
    session = director_session(request, slug, pk)
    next_url = next_or(request, session.get_absolute_url())
    if request.method == "GET":
        ids = list(session.table_seats.filter(active=True).values_list("player_id", flat=True))
        seats = left_running_seats(ids, session=session)
        context = {"session": session, "club": session.club, "seats": seats, "next": next_url}
        return render(request, "clubs/start_confirm.html", context)
    anyway = request.POST.get("anyway") == "1"
    try:
        lifecycle.session_start(session=session, by=signed_in_user(request), anyway=anyway)
    except Conflict as err:
        messages.error(request, str(err))
    except ValidationError as err:
        ids = list(session.table_seats.filter(active=True).values_list("player_id", flat=True))
        seats = left_running_seats(ids, session=session)
        if seats and not seated_elsewhere(ids, session_id=session.pk, date=session.date):
            context = {"session": session, "club": session.club, "seats": seats, "next": next_url}
            return render(request, "clubs/start_confirm.html", context)
        for text in err.messages:
            messages.error(request, text)
    else:
        messages.success(request, _("Session started: every table has its first rubber."))
    return redirect(next_url)


@login_required
@require_http_methods(["GET", "POST"])
def session_close(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what closing will do (each rubber in play closes unfinished with the figures it
    will keep, RULES 2.6; a rubber without a deal is withdrawn), and a button. POST: close."""
    session = director_session(request, slug, pk)
    waiting = unconfirmed_deals([session]).get(session.pk, [])
    if request.method == "GET":
        in_play = list(
            Rubber.objects.with_deals()
            .filter(session=session, status=Rubber.Status.IN_PLAY)
            .order_by("table__number", "number")
        )
        previews = [rubber_figures(rubber) for rubber in in_play]
        # The game's own rule for a match stopped, with the figures the engine scores under
        # the session's house rules (games/registry.py): the words match the figures shown.
        closing = pages(session.kind).closing
        return render(
            request,
            "clubs/close.html",
            {
                "session": session,
                "club": session.club,
                "previews": previews,
                "unconfirmed": waiting,
                "closing": closing.sentence(session.house_rules()),
                "closing_row": closing.row_words(),
            },
        )
    if waiting and not request.POST.get("anyway") and session.status == Session.Status.RUNNING:
        # Deals no opponent confirmed: say which before the results become final.
        return render(
            request,
            "clubs/close_confirm.html",
            {
                "session": session,
                "club": session.club,
                "unconfirmed": waiting,
                "next": next_or(request, session.get_absolute_url()),
            },
        )
    try:
        lifecycle.session_close(session=session, by=signed_in_user(request))
    except Conflict as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request, _("Session closed. Rubbers still in play were closed as unfinished.")
        )
        if waiting:
            messages.info(
                request,
                ngettext(
                    "%(count)s deal not confirmed stands as recorded.",
                    "%(count)s deals not confirmed stand as recorded.",
                    len(waiting),
                )
                % {"count": len(waiting)},
            )
    return redirect(next_or(request, session.get_absolute_url()))


@login_required
@require_http_methods(["GET", "POST"])
def session_reopen(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what reopening does (the session runs again for corrections; the rubbers closed
    unfinished stay as played; closing again recomputes the standings), and a button.
    POST: reopen (`lifecycle.session_reopen`). Directors only; a player gets 403 as for close."""
    session = director_session(request, slug, pk)
    if request.method == "GET":
        return render(request, "clubs/reopen.html", {"session": session, "club": session.club})
    try:
        lifecycle.session_reopen(session=session, by=signed_in_user(request))
    except Conflict as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request,
            _("Session reopened for corrections. Close it again when they are done."),
        )
    return redirect(next_or(request, session.get_absolute_url()))


@login_required
@require_http_methods(["GET", "POST"])
def session_reseat(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Re-seat a planned session with the console's planning form: the same live hint and the
    same answer on submit (`plan_tables`), the same checks (`lifecycle.session_reseat`).
    A session that has started is refused with a message, nothing changed."""
    session = director_session(request, slug, pk)
    if session.status != Session.Status.PLANNED:
        messages.error(request, _("Only a planned session can be re-seated; this one has started."))
        return redirect(session.get_absolute_url())
    initial = _as_planned(session)
    seated = initial["players"]
    form = SessionForm(request.POST or None, club=session.club, initial=initial)
    if request.method == "POST" and form.is_valid():
        tables = planned_tables(form)
        if tables is not None:
            try:
                lifecycle.session_reseat(
                    session=session,
                    tables=tables,
                    date=form.cleaned_data["date"],
                    kind=form.cleaned_data["kind"],
                    movement=form.cleaned_data["movement"],
                    stake_per_hundred=form.cleaned_data["stake_per_hundred"],
                    by=signed_in_user(request),
                )
            except ValidationError as err:
                form.add_error(None, err)
            except Conflict as err:
                messages.error(request, str(err))
                return redirect(session.get_absolute_url())
            else:
                messages.success(
                    request, _("Tables re-seated. Check them, then start the session.")
                )
                ids = [p.pk for table in tables for p in table]
                # Planning may name them; starting will refuse them until they are free.
                for busy in seated_elsewhere(ids, session_id=session.pk, date=session.date):
                    messages.warning(request, busy)
                return redirect(session.get_absolute_url())
    suggestion = (
        form_suggestion(form)
        if form.is_bound
        else plan_in_words(len(seated), session.kind, session.movement)
    )
    return render(
        request,
        "clubs/reseat.html",
        {"session": session, "club": session.club, "form": form, "suggestion": suggestion},
    )


def _as_planned(session: Session) -> dict[str, Any]:
    """The planning form's first values for a planned session: as it is, its seated players."""
    seated = list(
        session.table_seats.filter(active=True)
        .order_by("player__name")
        .values_list("player_id", flat=True)
    )
    return {
        "date": session.date,
        "kind": session.kind,
        "movement": session.movement,
        "stake_per_hundred": session.stake_per_hundred,
        "players": seated,
    }


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what deleting a planned session removes (its tables and who sits at them), and a
    button. POST: delete it (nothing was played in it). Directors only, as for close."""
    session = director_session(request, slug, pk)
    if request.method == "GET":
        tables = session.tables.order_by("number").prefetch_related("seats__player")
        seated = [{"table": t, "players": t.present_players()} for t in tables]
        return render(
            request,
            "clubs/delete.html",
            {"session": session, "club": session.club, "seated": seated},
        )
    try:
        lifecycle.session_delete(session=session)
    except Conflict as err:
        messages.error(request, str(err))
        return redirect(session.get_absolute_url())
    messages.success(request, _("The planned session was deleted."))
    return redirect("clubs:console", slug)


def _error_text(err: ValidationError) -> str:
    return " ".join(err.messages)


def _table_change(
    request: HttpRequest, slug: str, pk: int, number: int, *, add: bool
) -> HttpResponse:
    session = director_session(request, slug, pk)
    table = session.tables.select_related("session").filter(number=number).first()
    if table is None:
        raise Http404("No such table.")
    form = TablePlayerForm(request.POST, club=session.club)
    if not form.is_valid():
        messages.error(request, _("Choose a player of this club."))
    else:
        player = form.cleaned_data["player"]
        try:
            if add:
                table_changes.table_add_player(table=table, player=player)
            else:
                table_changes.table_remove_player(table=table, player=player)
        except ValidationError as err:
            messages.error(request, _error_text(err))
        except Conflict as err:
            messages.error(request, str(err))
        else:
            text = (
                _("%(name)s joins table %(number)d from the next rubber.")
                if add
                else _("%(name)s leaves table %(number)d after the rubber in play.")
            )
            messages.success(request, text % {"name": player.name, "number": number})
    return redirect(next_or(request, session.get_absolute_url()))


@login_required
@require_POST
def table_add_player(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    return _table_change(request, slug, pk, number, add=True)


@login_required
@require_POST
def table_remove_player(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    return _table_change(request, slug, pk, number, add=False)
