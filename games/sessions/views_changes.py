"""The director's pages for changes at the tables of a running session (issue 18): an early
leaver (a substitute, or the table's rubber closed unfinished and the room re-planned) and late
arrivals (a new table, or a cut-in). Forms validate; `games.sessions.table_changes` and
`games.sessions.arrivals` write."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from clubs.forms import ArrivalsForm, LeaverForm
from clubs.models import Player, Session, Table
from clubs.permissions import signed_in_user
from games.models import Conflict, Rubber
from scoring.shared.numbers import small_number

from . import arrivals, table_changes
from .pages import director_session, next_or, rubber_figures


def _console(session: Session) -> str:
    return reverse("clubs:console", args=[session.club.slug]) + f"#session-{session.pk}"


def _errors_into(form: forms.Form, err: ValidationError) -> None:
    """A service's field messages on the form's fields (others above the form)."""
    for name, messages_ in err.message_dict.items():
        form.add_error(name if name in form.fields else None, messages_)


def _table(session: Session, number: int) -> Table:
    table = session.tables.select_related("session__club").filter(number=number).first()
    if table is None:
        raise Http404("No such table.")
    return table


def _running(session: Session) -> None:
    """The change pages answer while the session runs, for four-player tables (the pairs of a
    two-player session keep their round robin, RULES 7)."""
    if session.status != Session.Status.RUNNING:
        raise Http404("The session is not running.")


def _rubber_preview(table: Table) -> dict[str, Any] | None:
    """The rubber in play at the table, now and as it would be kept if closed (RULES 2.6)."""
    rubber = Rubber.objects.with_deals().filter(table=table).in_play().first()
    return None if rubber is None else rubber_figures(rubber)


@login_required
@require_http_methods(["GET", "POST"])
def table_leaver(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    """GET: the two ways to handle an early leaver, with the figures the rubber in play would
    keep and who would move. POST: the chosen one."""
    session = director_session(request, slug, pk)
    _running(session)
    if session.is_two_player:
        raise Http404("Two-player tables keep their pairs.")
    table = _table(session, number)
    present = table.present_players()
    leaver = _chosen_leaver(request, present)
    initial = {"leaver": leaver.pk} if leaver else {}
    # Where the director came from (the room's tile, issue 31), a path on this site; else the
    # console. The page's forms and links carry it on.
    back = next_or(request, _console(session))
    came_from = {"next": back} if back != _console(session) else {}
    if request.method == "POST" and "show" in request.POST:
        # Without JavaScript, "Show" asks for the explanations of the player chosen (issue 31).
        asked = {"leaver": str(leaver.pk)} if leaver else {}
        query = urlencode(asked | came_from)
        return redirect(f"{request.path}?{query}" if query else request.path)
    form = LeaverForm(request.POST or None, table=table, initial=initial)
    form.fields["leaver"].widget.attrs["hx-get"] = request.path
    if request.method == "POST" and form.is_valid():
        leaver = form.cleaned_data["leaver"]
        try:
            _leave(request, table, leaver, form)
        except ValidationError as err:
            _errors_into(form, err)
        except Conflict as err:
            form.add_error(None, str(err))
        else:
            return redirect(back)
    plan = table_changes.replan_for_leaver(table=table, leaver=leaver) if leaver else None
    return render(
        request,
        "clubs/leaver.html",
        {
            "session": session,
            "club": session.club,
            "table": table,
            "players": present,
            # The consequences are said for this leaver, by name (issue 31), and those staying.
            "leaver": leaver,
            "staying": [p for p in present if p != leaver],
            "form": form,
            "preview": _rubber_preview(table),
            "plan": plan,
            "back": back,
            "next": came_from.get("next", ""),
            "next_query": urlencode(came_from),
        },
        status=400 if form.errors else 200,
    )


def _leave(request: HttpRequest, table: Table, leaver: Player, form: LeaverForm) -> None:
    """The way chosen by the button pressed: leave after the rubber in play, a substitute, or
    the rubber closed and the room re-planned; its sentence as the page's message."""
    if "after_rubber" in request.POST:
        table_changes.table_remove_player(table=table, player=leaver)
        messages.success(
            request,
            _("%(name)s leaves table %(number)d after the rubber in play.")
            % {"name": leaver.name, "number": table.number},
        )
    elif "replan" not in request.POST:
        change = table_changes.table_substitute(
            table=table,
            leaver=leaver,
            substitute=form.cleaned_data["substitute"],
            new_name=form.cleaned_data["new_name"],
            by=signed_in_user(request),
        )
        messages.success(request, change.sentence())
    else:
        made = table_changes.table_leave_and_replan(
            table=table, leaver=leaver, by=signed_in_user(request)
        )
        messages.success(request, " ".join(c.sentence() for c in made))


def _chosen_leaver(request: HttpRequest, present: list[Player]) -> Player | None:
    """Whose leaving the page spells out: the player posted, or asked for (`?leaver=<id>`, the
    page's links), if they sit at the table; else the first in precedence."""
    asked = small_number(request.POST.get("leaver") or request.GET.get("leaver") or "")
    return next((p for p in present if p.pk == asked), present[0] if present else None)


def _arrival_count(request: HttpRequest) -> int:
    names = [n for n in request.GET.get("names", "").splitlines() if n.strip()]
    return len(request.GET.getlist("players")) + len(names)


@login_required
@require_http_methods(["GET", "POST"])
def session_arrivals(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Late arrivals: GET the form with the suggestion for those ticked; POST seats them."""
    session = director_session(request, slug, pk)
    _running(session)
    # Opened from a table's tile: cutting in at that table is offered first.
    number = small_number(request.GET.get("table", ""))
    table_number = number if number and session.tables.filter(number=number).exists() else None
    form = ArrivalsForm(request.POST or None, session=session, table_number=table_number)
    back = next_or(request, _console(session))  # the room's tile, or the console (issue 31)
    count = 0
    if request.method == "POST" and form.is_valid():
        players = list(form.cleaned_data["players"])
        names = form.cleaned_data["names"]
        count = len(players) + len(names)
        try:
            made = arrivals.session_add_arrivals(
                session=session,
                players=players,
                names=names,
                mode=form.cleaned_data["mode"],
                table_number=form.cleaned_data["table"],
                by=signed_in_user(request),
            )
        except ValidationError as err:
            _errors_into(form, err)
        except Conflict as err:
            form.add_error(None, str(err))
        else:
            messages.success(
                request,
                ngettext("%(count)d arrival seated.", "%(count)d arrivals seated.", len(made))
                % {"count": len(made)}
                + " "
                + " ".join(c.sentence() for c in made),
            )
            return redirect(back)
    elif request.method == "POST":
        count = len(request.POST.getlist("players"))
    plan = arrivals.arrival_plan(session=session, count=count)
    return render(
        request,
        "clubs/arrivals.html",
        {
            "session": session,
            "club": session.club,
            "form": form,
            "hint": {"count": count, "text": arrivals.arrival_text(plan), "ok": not plan.refusal},
            "back": back,
            "next": "" if back == _console(session) else back,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def arrivals_suggest(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The suggestion for the arrivals ticked and typed (htmx partial of the arrivals page)."""
    session = director_session(request, slug, pk)
    _running(session)
    count = _arrival_count(request)
    plan = arrivals.arrival_plan(session=session, count=count)
    return render(
        request,
        "clubs/_arrival_hint.html",
        {"hint": {"count": count, "text": arrivals.arrival_text(plan), "ok": not plan.refusal}},
    )
