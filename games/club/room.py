"""The room at a glance (issue 31): a tile per table of the club's running sessions, as a
director coming from a room's scoring console expects: the rubber (or match) in play and its
deal count, its running score, the last deal and how long ago, the deals awaiting confirmation
or disputed, who sits out; a finished rubber's result stays on its tile until the next rubber's
first deal. Live as the console is: its push stream says "changed" (games.push), the page
fetches `room_live` and morphs it in (static/js/backscore.js); the render is kept per version
(games.pad.rendered), so a hundred polls of one version render it once."""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.models import Club, Session, Table, TableSeat
from clubs.selectors import club_for_reader
from games import registry
from games.models import Deal, Rubber
from games.pad import rendered
from games.push.versions import console_version

from .context import room_order


@dataclass
class Finished:
    """The rubber a table finished last, shown until the next one's first deal."""

    rubber: Rubber
    totals: tuple[int, int]
    #: The side (or player) that won, by name; None while open or on a tie.
    winner: str | None
    #: Who its two figures are (its own players: the next match may seat them the other way).
    sides: tuple[str, str] = ("", "")


@dataclass
class Tile:
    """One table of a running session, as its tile shows it."""

    table: Table
    players: list[str]
    rubber: Rubber | None = None
    rubber_url: str | None = None
    deals: int = 0
    #: The running score of the rubber in play, NS (player 0) first; None before its first deal.
    score: tuple[int, int] | None = None
    #: Who the two figures are: the sides, or a two-player match's players.
    sides: tuple[str, str] = ("", "")
    finished: Finished | None = None
    last_deal: str | None = None
    last_at: datetime.datetime | None = None
    ago: str | None = None
    awaiting: list[Deal] = field(default_factory=list)
    disputed: list[Deal] = field(default_factory=list)
    sitting_out: list[str] = field(default_factory=list)
    #: Players who leave after the rubber in play (their seat given up, issue 31) but still sit
    #: in it: listed with the players, marked as leaving.
    leaving: list[str] = field(default_factory=list)


@dataclass
class RoomSession:
    session: Session
    tiles: list[Tile]
    #: Running since an earlier day: most likely left open by mistake (`Session.left_running`).
    stale: bool


def _sessions(club: Club) -> list[Session]:
    """The club's running sessions with their tables, present seats, rubbers and deals, in a
    fixed number of queries however many tables and deals there are."""
    deals = Deal.objects.order_by("number")
    rubbers = Rubber.objects.order_by("number").prefetch_related(Prefetch("deals", queryset=deals))
    tables = Table.objects.order_by("number").prefetch_related(
        Prefetch(
            "seats",
            queryset=TableSeat.objects.filter(active=True).order_by("position"),
            to_attr="present_seats",
        ),
        Prefetch("rubbers", queryset=rubbers, to_attr="rubber_list"),
    )
    sessions = list(
        club.sessions.filter(status=Session.Status.RUNNING)
        .order_by("date", "id")
        .prefetch_related(Prefetch("tables", queryset=tables))
    )
    for session in sessions:
        session.club = club
    return sessions


def _sides(rubber: Rubber, names: dict[int, str]) -> tuple[str, str]:
    if registry.pages(rubber.kind).named_players:
        return names.get(rubber.north_id, "?"), names.get(rubber.east_id, "?")
    return pgettext("side", "N–S"), pgettext("side", "E–W")


def _ago(then: datetime.datetime, now: datetime.datetime) -> str:
    if now - then < datetime.timedelta(minutes=1):
        return _("just now")
    return _("%(time)s ago") % {"time": timesince(then, now, depth=1)}


def table_tile(
    session: Session, table: Table, names: dict[int, str], now: datetime.datetime
) -> Tile:
    """A table's tile from its prefetched rubbers (in order, with their deals in order)."""
    rubbers: list[Rubber] = list(getattr(table, "rubber_list", []))
    tile = Tile(
        table=table,
        players=[names.get(seat.player_id, "?") for seat in getattr(table, "present_seats", [])],
    )
    asks = session.asks_confirmation
    latest: tuple[datetime.datetime, Deal, Rubber] | None = None
    for rubber in rubbers:
        pages = registry.pages(rubber.kind)
        player_names = [names.get(rubber.north_id, "?"), names.get(rubber.east_id, "?")]
        for deal in rubber.deals.all():
            if not deal.settled and (deal.disputed or asks):
                # The deal itself, as its pad says it, for the director to judge on the tile.
                deal.words = pages.deal_words(deal, player_names)  # type: ignore[attr-defined]
                (tile.disputed if deal.disputed else tile.awaiting).append(deal)
            if latest is None or deal.entered_at >= latest[0]:
                latest = (deal.entered_at, deal, rubber)
            deal.rubber = rubber  # for the tile's words, read without a query
    in_play = [r for r in rubbers if r.status == Rubber.Status.IN_PLAY]
    if in_play:
        rubber = tile.rubber = in_play[0]
        tile.rubber_url = rubber.get_absolute_url()
        tile.sides = _sides(rubber, names)
        tile.sitting_out = [names.get(pid, "?") for pid in rubber.sitting_out]
        present = {seat.player_id for seat in getattr(table, "present_seats", [])}
        tile.leaving = [
            names.get(pid, "?") for pid in rubber.seat_ids.values() if pid not in present
        ]
        deals = list(rubber.deals.all())
        tile.deals = len(deals)
        if deals:
            tile.score = rubber.scoresheet(deals).result.totals
    ended = [r for r in rubbers if r.status != Rubber.Status.IN_PLAY]
    if ended and not tile.deals:
        last = ended[-1]
        deals = list(last.deals.all())
        if deals:
            result = last.scoresheet(deals).result
            sides = _sides(last, names)
            winner = None if result.winner is None else sides[result.winner]
            tile.finished = Finished(last, result.totals, winner, sides)
            if tile.rubber is None:
                tile.sides = sides
    if latest is not None:
        at, deal, rubber = latest
        tile.last_at, tile.ago = at, _ago(at, now)
        player_names = [names.get(rubber.north_id, "?"), names.get(rubber.east_id, "?")]
        tile.last_deal = _("Deal %(number)s: %(deal)s") % {
            "number": deal.number,
            "deal": registry.pages(rubber.kind).deal_words(deal, player_names),
        }
    return tile


def room_sessions(club: Club, *, now: datetime.datetime | None = None) -> list[RoomSession]:
    """The club's running sessions, each with a tile per table (`table_tile`): tonight's first,
    then those left running from an earlier day (flagged stale)."""
    now = now or timezone.now()
    names = dict(club.players.values_list("pk", "name"))
    sessions = sorted(_sessions(club), key=room_order)
    return [
        RoomSession(
            session=session,
            tiles=[table_tile(session, table, names, now) for table in session.tables.all()],
            stale=session.left_running,
        )
        for session in sessions
    ]


def _room_etag(club: Club, now: datetime.datetime) -> str:
    """What the room shows: the console's version (every write to its sessions), the language,
    and the minute ("3 minutes ago" ages)."""
    key = f"{console_version(club)}|{get_language()}|{now:%Y%m%d%H%M}"
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def _tiles_html(request: HttpRequest, club: Club, etag: str, now: datetime.datetime) -> str:
    # The same for every director of the club in the same language and minute (the ETag holds
    # them): rendered once per change, then kept.
    return rendered.kept(
        request,
        f"room:{club.pk}:{etag}",
        "clubs/_room_tiles.html",
        lambda: _context(club, now),
    )


def _context(club: Club, now: datetime.datetime) -> dict[str, Any]:
    sessions = room_sessions(club, now=now)
    return {
        "club": club,
        "room": sessions,
        "planned": club.sessions.filter(status=Session.Status.PLANNED).count(),
        "back": reverse("clubs:room", args=[club.slug]),
    }


@login_required
@require_GET
def room(request: HttpRequest, slug: str) -> HttpResponse:
    """The room at a glance: every table of the club's running sessions on one screen."""
    club = club_for_reader(request.user, slug, director=True)
    now = timezone.now()
    etag = _room_etag(club, now)
    return render(
        request,
        "clubs/room.html",
        # Rendered by the template engine, which escapes (`rendered.kept`).
        {"club": club, "tiles_html": mark_safe(_tiles_html(request, club, etag, now))},  # noqa: S308  # nosec B308 B703
    )


@login_required
@require_GET
def room_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's tiles, fetched when its stream says "changed" (or polled while it is down,
    and each minute for the times): 304 while nothing changed."""
    club = club_for_reader(request.user, slug, director=True)
    now = timezone.now()
    etag = _room_etag(club, now)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(_tiles_html(request, club, etag, now))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
