"""A session's page (its tables, changes and history) and its printable table cards."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from clubs.models import Player, PrizeCut, Session
from clubs.permissions import is_director
from games import history, rotation
from games.sessions.lifecycle import STARTED_ANYWAY
from games.sessions.pages import session_for_page
from scoring.rules.games import GAMES
from scoring.rules.ranking import place_label

from .context import session_context
from .tables import (
    AHEAD_ON_CARDS,
    TableView,
    seating_views,
    table_views,
    tables_with_rubbers,
    with_codes,
    with_rubbers_in_play,
)


def session_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    session = session_for_page(request, slug, pk)
    context = session_context(request, session)
    context["history"] = _session_history(session)
    return render(request, "clubs/session.html", context)


#: The changes of a session's state its page lists (`Session.history`'s change reasons).
STATE_CHANGES = ("started", "closed", "reopened")


def _session_history(session: Session) -> list[dict[str, Any]]:
    """When the session started, closed and was reopened, and the cuts its director recorded
    for shared prize choices (RULES 6.3), and by whom, as the club names them
    (games.history.entrants: a player's name, or "Director"; never a login). Four queries."""
    records = list(
        session.history.filter(
            Q(history_change_reason__in=STATE_CHANGES)
            | Q(history_change_reason__startswith=STARTED_ANYWAY)
        )
        .order_by("history_date", "history_id")
        .values("history_change_reason", "history_date", "history_user_id")
    )
    anyway = {pk for r in records for pk in _seated_anyway(r["history_change_reason"])}
    cuts = list(PrizeCut.objects.filter(session=session).select_related("winner"))
    names = history.entrants(
        session.club_id,
        [r["history_user_id"] for r in records] + [cut.by_id for cut in cuts],
    )
    words = {"started": _("Started"), "closed": _("Closed"), "reopened": _("Reopened")}
    wanted = {pk for cut in cuts for pk in cut.players} | anyway
    players = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name")) if wanted else {}
    changes = [
        {
            "what": _state_words(r["history_change_reason"], words, players),
            "reason": r["history_change_reason"].partition(" ·")[0],
            "at": r["history_date"],
            "by": history.who(names, r["history_user_id"]).name,
        }
        for r in records
    ]
    changes += [
        {
            "what": _("Cut for the %(place)s choice: %(winner)s won against %(others)s; recorded")
            % {
                "place": place_label(cut.choice, True),
                "winner": cut.winner.name,
                "others": ", ".join(
                    players.get(pk, "?") for pk in sorted(cut.players) if pk != cut.winner_id
                ),
            },
            "reason": "cut",
            "at": cut.at,
            "by": history.who(names, cut.by_id).name,
        }
        for cut in cuts
    ]
    return sorted(changes, key=lambda change: change["at"])


def _seated_anyway(reason: str) -> list[int]:
    """The players a start went ahead with although a session of another day left running
    still seated them (`lifecycle.STARTED_ANYWAY`)."""
    if not reason.startswith(STARTED_ANYWAY):
        return []
    return [int(pk) for pk in reason.removeprefix(STARTED_ANYWAY).split(",") if pk.isdigit()]


def _state_words(reason: str, words: dict[str, str], players: dict[int, str]) -> str:
    seated = _seated_anyway(reason)
    if not seated:
        return words[reason]
    return _(
        "Started anyway, with %(names)s still seated in a session of another day left running"
    ) % {"names": ", ".join(players.get(pk, "?") for pk in seated)}


def _with_played_rubbers(session: Session, tables: list[TableView]) -> None:
    """A closed session's cards list the rubbers played at each table, who sat where and who
    sat out (its tables' rubbers were prefetched: one query, for the names)."""
    names = dict(Player.objects.filter(club_id=session.club_id).values_list("pk", "name"))
    two = GAMES[session.kind].two_player
    for view in tables:
        history = rotation.table_history(view.table)
        view.rotation = seating_views(history, names, None, two_player=two)


def session_cards(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Printable table cards: one page per table, who sits where for each rubber."""
    session = session_for_page(request, slug, pk)
    # Every table's rubbers at once: a query per table made a long night's cards slow.
    prefetch_related_objects([session], Prefetch("tables", queryset=tables_with_rubbers()))
    with_rubbers_in_play(session.tables.all())
    # A planned table has no rubber in play yet: one more ahead, so that the rubbers the card
    # lists are the same before and after the start.
    planned = session.status == Session.Status.PLANNED
    tables = table_views(session, ahead=AHEAD_ON_CARDS + planned, full_history=True)
    if session.is_closed or session.is_reopened:
        _with_played_rubbers(session, tables)
    director = is_director(request.user, session.club)
    if director:
        with_codes(request, session, tables)
    return render(
        request,
        "clubs/cards.html",
        {"session": session, "club": session.club, "tables": tables, "is_director": director},
    )
