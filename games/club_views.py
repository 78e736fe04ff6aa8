"""Club pages: club home, create a club, players, the director's console, sessions, table cards.

Every view starts with a permission-checked lookup (`clubs.permissions`); forms validate and the
services write. Pages work without JavaScript; htmx only refreshes the table suggestion.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import rules_text
from clubs.forms import ClubForm, ClubSettingsForm, PlayerForm, SessionForm, TablePlayerForm
from clubs.models import (
    Club,
    Invitation,
    Player,
    Session,
    Table,
    TableChange,
    TableSeat,
    is_prefetched,
)
from clubs.permissions import is_director, signed_in_user
from clubs.selectors import club_for_reader, session_for_reader
from games import history, rotation, services
from games.club_api import table_queryset
from games.display import deal_words, two_player_order
from games.history import entrants, who
from games.models import Conflict, Deal, Rubber
from games.registry import pages
from scoring.shared.i18n import next_club_page_language
from scoring.shared.numbers import small_number

#: What the `<slug:...>` of a club's URLs accepts (Django's slug converter).
SLUG = re.compile(r"[-a-zA-Z0-9_]+")

#: Rubbers shown ahead on the console and the table cards.
AHEAD_ON_CONSOLE = 3
AHEAD_ON_CARDS = 6


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
        player = services.invitation_accept(invitation_id=pk, user=signed_in_user(request))
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
        services.invitation_decline(invitation_id=pk, user=signed_in_user(request))
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
    for session in sessions:
        tables = []
        for table in session.tables.all():
            in_play = getattr(table, "rubbers_in_play", [])
            rubber = in_play[0] if in_play else None
            tables.append(
                ActiveTable(
                    number=table.number,
                    players=[p.name for p in table.present_players()],
                    rubber_url=_reverse_or_none("games:rubber", rubber.pk) if rubber else None,
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


# --- helpers -----------------------------------------------------------------------------------


def _reverse_or_none(name: str, *args: Any) -> str | None:
    """A URL of another app's page when that page exists (leaderboard, rubber)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def _next_or(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def _session_for_page(
    request: HttpRequest, slug: str, pk: int, *, director: bool = False
) -> Session:
    session = session_for_reader(request.user, pk, director=director)
    if session.club.slug != slug:
        raise Http404("No such session in this club.")
    return session


def _error_text(err: ValidationError) -> str:
    return " ".join(err.messages)


@dataclass
class SeatingView:
    """One rubber's seating with names, for templates."""

    rubber: int
    seats: list[tuple[str, str]]
    sitting_out: list[str]
    current: bool = False


@dataclass
class TableView:
    table: Table
    players: list[Player]
    current_rubber: Any
    current_rubber_url: str | None
    rotation: list[SeatingView] = field(default_factory=list)
    rubbers: list[Rubber] = field(default_factory=list)
    #: The latest deal of the rubber in play, in words (the console shows new deals live).
    last_deal: str | None = None
    #: The table's code and its QR (inline SVG), shown to the director only (issue 17).
    code_url: str | None = None
    qr: str | None = None
    #: At a table of two: whom each player of the match in play meets next, and where.
    next_opponents: list[NextOpponent] = field(default_factory=list)


@dataclass
class NextOpponent:
    """A player of a two-player match and their next opponent in the round robin (RULES 7)."""

    name: str
    opponent: str
    table: int


def _played_rubbers(session: Session) -> dict[int, list[Rubber]]:
    """Every rubber of the session by table id, in order, with its players and deal count."""
    rubbers = (
        Rubber.objects.filter(session=session)
        .select_related("north", "east", "south", "west")
        .annotate(deal_count=Count("deals"))
        .order_by("number")
    )
    found: dict[int, list[Rubber]] = {}
    for rubber in rubbers:
        found.setdefault(rubber.table_id, []).append(rubber)
    return found


def _who_played(rubbers: list[Rubber]) -> list[Player]:
    """The players of the rubbers with at least one deal, in the order they first sat."""
    seen: dict[int, Player] = {}
    for rubber in rubbers:
        if getattr(rubber, "deal_count", 0):
            for player in rubber.seats.values():
                seen.setdefault(player.pk, player)
    return list(seen.values())


def _with_codes(request: HttpRequest, session: Session, tables: list[TableView]) -> None:
    """The table codes of a session that takes them (`Session.codes_open`: running for play,
    codes on; not one reopened for corrections), for its director's cards: the short URL and
    its QR code, drawn by segno as inline SVG (no network, no image request)."""
    if not session.codes_open:
        return
    for view in tables:
        path = _reverse_or_none("games:table_code", view.table.code)
        if path is None:
            return
        view.code_url = request.build_absolute_uri(path)
        qr = segno.make(view.code_url, error="m")
        # segno's SVG is only a viewBox and path data: the encoded URL never appears in the
        # markup (tests/games/test_table_codes.py renders a hostile host), so it is safe as is.
        view.qr = mark_safe(qr.svg_inline(omitsize=True, border=2))  # noqa: S308  # nosec B308 B703


def two_seats(seats: dict[str, int]) -> list[tuple[str, int]]:
    """The two players of a match in the pad's stable order (games.display.two_player_order)."""
    return [(seat, seats[seat]) for seat in two_player_order(seats)]


def _seating_views(
    seatings: list[Any], names: dict[int, str], current: int | None, *, two_player: bool = False
) -> list[Any]:
    return [
        SeatingView(
            rubber=s.rubber,
            seats=[
                (seat, names.get(pid, "?"))
                for seat, pid in (two_seats(s.seats) if two_player else s.seats.items())
            ],
            sitting_out=[names.get(pid, "?") for pid in s.sitting_out],
            current=s.rubber == current,
        )
        for s in seatings
    ]


def _tables(
    session: Session,
    *,
    ahead: int,
    full_history: bool = False,
    names: dict[int, str] | None = None,
) -> list[TableView]:
    """Each table with its players, the rubber in play and the rotation ahead (RULES 6).

    Uses the session's prefetched tables when ``_console_sessions`` read them.
    """
    if names is None:
        names = dict(Player.objects.filter(club_id=session.club_id).values_list("pk", "name"))
    if is_prefetched(session, "tables"):
        tables = list(session.tables.all())
    else:
        tables = list(table_queryset().filter(session=session).select_related("session"))
    if session.is_closed or session.is_reopened:
        # A closed session shows what happened: every rubber, and who actually played; so does
        # a session reopened for corrections, whose rubbers' pads are where deals are corrected.
        played = _played_rubbers(session)
        return [
            TableView(
                table=table,
                players=_who_played(played.get(table.pk, [])),
                current_rubber=None,
                current_rubber_url=None,
                rubbers=played.get(table.pk, []),
            )
            for table in tables
        ]
    views = []
    upcoming: dict[int, dict[int, Any]] = {}
    if session.is_two_player:
        numbers = {r.number + 1 for t in tables for r in getattr(t, "rubbers_in_play", [])}
        upcoming = services.round_robin_opponents(session=session, rounds=sorted(numbers))
    for table in tables:
        in_play = getattr(table, "rubbers_in_play", [])
        rubber = in_play[0] if in_play else None
        live = getattr(table, "live_rubbers", None)
        last_deal = None
        if live:
            deals = sorted(live[0].deals.all(), key=lambda d: d.number)
            if deals:
                last_deal = _("Deal %(number)s: %(deal)s") % {
                    "number": deals[-1].number,
                    "deal": deal_words(deals[-1])
                    if deals[-1].data is None
                    else deals[-1].summary(
                        [names.get(live[0].north_id, "?"), names.get(live[0].east_id, "?")]
                    ),
                }
        seatings = services.table_rotation(table=table, ahead=ahead)
        if full_history:
            seatings = rotation.table_history(table)[:-1] + seatings
        views.append(
            TableView(
                table=table,
                players=table.present_players(),
                current_rubber=rubber,
                current_rubber_url=_reverse_or_none("games:rubber", rubber.pk) if rubber else None,
                rotation=_seating_views(
                    seatings,
                    names,
                    rubber.number if rubber else None,
                    two_player=session.is_two_player,
                ),
                last_deal=last_deal,
                next_opponents=_next_opponents(rubber, upcoming, names),
            )
        )
    return views


def _next_opponents(
    rubber: Rubber | None, upcoming: dict[int, dict[int, Any]], names: dict[int, str]
) -> list[NextOpponent]:
    """Whom the two players of the match in play meet in the next round (RULES 7)."""
    after = upcoming.get(rubber.number + 1) if rubber is not None else None
    if rubber is None or not after:
        return []
    found = []
    for _seat, pid in two_seats(rubber.seat_ids):
        opponent, table = after[pid]
        found.append(NextOpponent(names.get(pid, "?"), names.get(opponent, "?"), table))
    return found


def _session_context(
    request: HttpRequest,
    session: Session,
    *,
    director: bool | None = None,
    players: list[Player] | None = None,
    unconfirmed: list[Deal] | None = None,
) -> dict[str, Any]:
    """A session's tables and rotation as the session page and the console show them.
    ``director`` and ``players`` (the club's, by name) may be given when already known."""
    if director is None:
        director = is_director(request.user, session.club)
    if hasattr(session, "active_seats"):
        seated = {seat.player_id for seat in session.active_seats}
    else:
        seated = set(session.table_seats.filter(active=True).values_list("player_id", flat=True))
    names = None if players is None else {p.pk: p.name for p in players}
    if director and players is None:
        players = list(session.club.players.order_by("name"))
    if unconfirmed is None:
        unconfirmed = _unconfirmed([session]).get(session.pk, [])
    return {
        "session": session,
        "club": session.club,
        "table_changes": _table_changes(session),
        "unconfirmed": unconfirmed,
        "standings_url": _reverse_or_none("scoring:session-standings", session.pk),
        "tables": _tables(session, ahead=AHEAD_ON_CONSOLE, names=names),
        "is_director": director,
        "unseated": [p for p in players or [] if p.pk not in seated] if director else [],
    }


def _table_changes(session: Session) -> list[TableChange]:
    """The changes at the session's tables (issue 18), each with who made it, as the club
    names them (`games.history.entrants`: never a login)."""
    found = getattr(session, "change_list", None)
    if found is None:
        found = list(session.changes.select_related("table", "player", "replaced"))
    if found:
        names = entrants(session.club_id, (c.by_id for c in found))
        for change in found:
            change.by_name = who(names, change.by_id).name
    return list(found)


def _unconfirmed(sessions: Sequence[Session]) -> dict[int, list[Deal]]:
    """The deals not settled yet, by session, for the sessions that ask for confirmation: no
    opponent confirmed them and no director ruled that they stand (`Deal.settled`; one query
    for them all)."""
    asking = [s.pk for s in sessions if s.asks_confirmation and s.status != Session.Status.PLANNED]
    found: dict[int, list[Deal]] = {pk: [] for pk in asking}
    if asking:
        deals = (
            Deal.objects.filter(
                rubber__session_id__in=asking, confirmed_by__isnull=True, ruled=False
            )
            .select_related("rubber__table")
            .order_by("rubber__table__number", "rubber__number", "number")
        )
        for deal in deals:
            found[deal.rubber.session_id].append(deal)
    return found


def _tables_with_rubbers() -> QuerySet[Table]:
    """Tables with their seats, every rubber in order and the one in play with its deals: what
    ``_tables`` reads, in a fixed number of queries however many tables there are."""
    return (
        table_queryset()
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "rubbers", queryset=Rubber.objects.order_by("number"), to_attr="rubbers_in_order"
            ),
            Prefetch(
                "rubbers",
                queryset=Rubber.objects.in_play().prefetch_related("deals"),
                to_attr="live_rubbers",
            ),
        )
    )


def _console_sessions(club: Club) -> Sequence[Session]:
    """The club's planned and running sessions with their tables, seats and rubbers, read with
    a fixed number of queries however many sessions and tables there are (no N+1; guarded in
    tests/scale/test_query_counts.py)."""
    tables = _tables_with_rubbers()
    sessions = list(
        club.sessions.filter(status__in=[Session.Status.PLANNED, Session.Status.RUNNING])
        .order_by("date", "id")
        .prefetch_related(
            Prefetch("tables", queryset=tables),
            Prefetch(
                "table_seats",
                queryset=TableSeat.objects.filter(active=True),
                to_attr="active_seats",
            ),
            Prefetch(
                "changes",
                queryset=TableChange.objects.select_related("table", "player", "replaced"),
                to_attr="change_list",
            ),
        )
    )
    for session in sessions:
        session.club = club
    return sessions


# --- clubs -------------------------------------------------------------------------------------


def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_reader(request.user, slug)
    director = is_director(request.user, club)
    sessions = club.sessions.annotate(table_count=Count("tables")).order_by("-date", "-id")
    player_count = club.players.count()
    next_steps = []
    if director:
        if player_count < services.MIN_AT_TABLE:
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
            "leaderboard_url": _reverse_or_none("scoring:club-leaderboard", club.slug),
        },
    )


@login_required
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's settings for its directors: house rules by name with a sentence each, the
    stake and currency, the language, public or members only (issue 18)."""
    club = club_for_reader(request.user, slug, director=True)
    form = ClubSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Settings saved. New sessions use them."))
        return redirect("clubs:settings", club.slug)
    return render(
        request,
        "clubs/settings.html",
        {
            "club": club,
            "form": form,
            "is_director": True,
            "rules": rules_text.describe(club.house_rules()),
            "presets": [
                {"code": code, "name": name, "sentence": sentence}
                for code, (name, sentence) in rules_text.PRESETS.items()
            ],
        },
    )


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = services.club_create(
                slug=data["slug"],
                name=data["name"],
                public=data["public"],
                rules_preset=data["rules_preset"],
                default_stake=data["default_stake"],
                currency=data["currency"],
                language=data["language"],
                director=signed_in_user(request),
            )
        except ValidationError as err:
            form.add_error(None, err)
        else:
            # Stored as text: in the language of the club's home, which shows it.
            with translation.override(next_club_page_language(request, club)):
                messages.success(request, _("Club created. You are its director."))
            return redirect(club)
    return render(request, "clubs/create.html", {"form": form})


def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players; a director adds players and creates their logins here."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club = club_for_reader(request.user, slug, director=request.method == "POST")
    director = is_director(request.user, club)
    form = PlayerForm(request.POST or None) if director else None
    if request.method == "POST" and form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            player = services.player_create(
                club=club,
                name=data["name"],
                username=data["username"] or None,
                password=data["password"] or None,
                director=data["director"],
            )
        except ValidationError as err:
            form.add_error(None, err)
        else:
            if data["username"] and not data["password"]:
                text = _(
                    "%(name)s added. The login %(username)s is invited: the player is linked "
                    "when its holder accepts."
                ) % {"name": player.name, "username": data["username"]}
            else:
                text = _("%(name)s added.") % {"name": player.name}
            messages.success(request, text)
            return redirect("clubs:players", club.slug)
    roster = (
        club.players.select_related("user", "invitation")
        .annotate(
            is_director=Count(
                "user__memberships",
                filter=Q(user__memberships__club=club, user__memberships__role="director"),
            )
        )
        .order_by("name")
    )
    return render(
        request,
        "clubs/players.html",
        {"club": club, "players": roster, "form": form, "is_director": director},
    )


# --- the director's console --------------------------------------------------------------------


def _suggestion(
    count: int, kind: str = Session.Kind.RUBBER, movement: str = Session.Movement.PIVOT
) -> dict[str, Any]:
    """The console's planning answer in words: the live hint and the submit error are this one
    text (`services.plan_tables`)."""
    plan = services.plan_tables(count=count, kind=kind, movement=movement)
    if plan.sizes:
        if len(plan.sizes) == 1:
            text = _("%(count)d players: one table of %(size)d.") % {
                "count": count,
                "size": plan.sizes[0],
            }
        else:
            text = _("%(count)d players: tables of %(sizes)s.") % {
                "count": count,
                "sizes": ", ".join(str(s) for s in plan.sizes),
            }
    elif plan.reason == "empty":
        text = _("Tick tonight's players.")
    elif plan.reason == "even":
        text = ngettext(
            "%(count)d player cannot be paired: two-player games need an even number.",
            "%(count)d players cannot be paired: two-player games need an even number.",
            count,
        ) % {"count": count}
    elif plan.reason == "fixed":
        text = ngettext(
            "%(count)d player cannot play fixed partnerships: every table needs exactly four.",
            "%(count)d players cannot play fixed partnerships: every table needs exactly four.",
            count,
        ) % {"count": count}
    else:
        text = ngettext(
            "%(count)d player cannot be seated: a table needs four to six players (RULES 6.2).",
            "%(count)d players cannot be seated: a table needs four to six players (RULES 6.2).",
            count,
        ) % {"count": count}
    if plan.alternative is not None:
        tables, pairs = plan.alternative
        if tables and not pairs:
            text += " " + _("With the pivot movement: tables of %(sizes)s.") % {
                "sizes": ", ".join(str(s) for s in tables)
            }
        elif tables:
            text += " " + _(
                "Suggestion: tables of %(sizes)s here, and the other two at a two-player "
                "table (plan a Bridge for Two session for them)."
            ) % {"sizes": ", ".join(str(s) for s in tables)}
        else:
            text += " " + _("Suggestion: a two-player game (Bridge for Two) for the two of them.")
    return {"count": count, "sizes": plan.sizes, "text": text}


def _cut_into_tables(players: list[Player], sizes: list[int]) -> list[list[Player]]:
    """Cut for seats (RULES 6.2): a random order of precedence, then fill the tables in turn."""
    order = list(players)
    random.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


@login_required
def console(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_reader(request.user, slug, director=True)
    form = SessionForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        tables = _planned_tables(form)
        if tables is not None:
            try:
                session = services.session_create(
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
        {**_console_context(request, club), "form": form, "suggestion": _form_suggestion(form)},
    )


def _planned_tables(form: SessionForm) -> list[list[Player]] | None:
    """The tables for a valid planning form's players (`services.plan_tables`, cut for seats),
    or None with the planning answer as the form's error on `players`."""
    picked = list(form.cleaned_data["players"])
    suggestion = _suggestion(len(picked), form.cleaned_data["kind"], form.cleaned_data["movement"])
    if not suggestion["sizes"]:
        form.add_error("players", suggestion["text"])
        return None
    return _cut_into_tables(picked, suggestion["sizes"])


def _form_suggestion(form: SessionForm) -> dict[str, Any]:
    """The live hint as the planning form shows it first (the players ticked, if any)."""
    picked_count = len(form["players"].value() or [])
    return _suggestion(
        picked_count,
        form["kind"].value() or Session.Kind.RUBBER,
        form["movement"].value() or Session.Movement.PIVOT,
    )


def _console_etag(request: HttpRequest, club: Club) -> str:
    """What the console's sessions show: their status and tables, the rubbers and every write
    of their deals (count, versions, confirmations, the latest time), the language."""
    active = [Session.Status.PLANNED, Session.Status.RUNNING]
    sessions = club.sessions.filter(status__in=active)
    state = [
        list(sessions.values_list("pk", "status", "table_codes")),
        TableSeat.objects.filter(session__in=sessions).aggregate(
            n=Count("pk"), on=Count("pk", filter=Q(active=True))
        ),
        Rubber.objects.filter(session__in=sessions).aggregate(
            n=Count("pk"), done=Count("pk", filter=~Q(status=Rubber.Status.IN_PLAY))
        ),
        Deal.objects.filter(rubber__session__in=sessions).aggregate(
            n=Count("pk"),
            v=Sum("version"),
            c=Count("confirmed_by"),
            at=Max("updated_at"),
        ),
        get_language(),
    ]
    return '"' + hashlib.sha256(repr(state).encode()).hexdigest()[:32] + '"'


@login_required
@require_GET
def console_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The console's sessions, polled by the page every 2 s: 304 while nothing changed."""
    club = club_for_reader(request.user, slug, director=True)
    etag = _console_etag(request, club)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = render(request, "clubs/_console_sessions.html", _console_context(request, club))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _console_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    players = list(club.players.order_by("name"))
    sessions = _console_sessions(club)
    unconfirmed = _unconfirmed(sessions)
    active = [
        _session_context(
            request, s, director=True, players=players, unconfirmed=unconfirmed.get(s.pk, [])
        )
        for s in sessions
    ]
    # Forms in the sessions come back to the console, also when polled (console_live).
    back = reverse("clubs:console", args=[club.slug])
    return {"club": club, "active": active, "is_director": True, "back": back}


@login_required
@require_GET
def suggest(request: HttpRequest, slug: str) -> HttpResponse:
    """The table suggestion for the ticked players (htmx partial of the console)."""
    club_for_reader(request.user, slug, director=True)
    count = len(request.GET.getlist("players"))
    kind = request.GET.get("kind", Session.Kind.RUBBER)
    movement = request.GET.get("movement", Session.Movement.PIVOT)
    # A crafted value is refused by listing the valid ones, never by sending it back.
    for value, choices in ((kind, Session.Kind.values), (movement, Session.Movement.values)):
        if value not in choices:
            refusal = _("Choose one of: %(choices)s.") % {"choices": ", ".join(choices)}
            return HttpResponse(refusal, status=400, content_type="text/plain")
    return render(
        request, "clubs/_suggestion.html", {"suggestion": _suggestion(count, kind, movement)}
    )


# --- sessions ----------------------------------------------------------------------------------


def session_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    session = _session_for_page(request, slug, pk)
    context = _session_context(request, session)
    context["history"] = _session_history(session)
    return render(request, "clubs/session.html", context)


#: The changes of a session's state its page lists (`Session.history`'s change reasons).
STATE_CHANGES = ("started", "closed", "reopened")


def _session_history(session: Session) -> list[dict[str, Any]]:
    """When the session started, closed and was reopened, and by whom, as the club names them
    (games.history.entrants: a player's name, or "Director"; never a login). Two queries."""
    records = list(
        session.history.filter(history_change_reason__in=STATE_CHANGES)
        .order_by("history_date", "history_id")
        .values("history_change_reason", "history_date", "history_user_id")
    )
    names = history.entrants(session.club_id, (r["history_user_id"] for r in records))
    words = {"started": _("Started"), "closed": _("Closed"), "reopened": _("Reopened")}
    return [
        {
            "what": words[r["history_change_reason"]],
            "reason": r["history_change_reason"],
            "at": r["history_date"],
            "by": history.who(names, r["history_user_id"]).name,
        }
        for r in records
    ]


def session_cards(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Printable table cards: one page per table, who sits where for each rubber."""
    session = _session_for_page(request, slug, pk)
    # Every table's rubbers at once: a query per table made a long night's cards slow.
    prefetch_related_objects([session], Prefetch("tables", queryset=_tables_with_rubbers()))
    tables = _tables(session, ahead=AHEAD_ON_CARDS, full_history=True)
    director = is_director(request.user, session.club)
    if director:
        _with_codes(request, session, tables)
    return render(
        request,
        "clubs/cards.html",
        {"session": session, "club": session.club, "tables": tables, "is_director": director},
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
        session.confirm_entries = on
        session.save(update_fields=["confirm_entries"])
        session.club = club
        # What now holds for this session, which the club's setting may still ask for.
        said = (
            _("The opponents now confirm each deal of this session.")
            if session.asks_confirmation
            else _("The opponents no longer confirm this session's deals.")
        )
    else:
        club.confirm_entries = on
        club.save(update_fields=["confirm_entries"])
        said = (
            _("The opponents now confirm every deal, in every session.")
            if on
            else _(
                "The club no longer asks the opponents to confirm deals; a session that asks "
                "on its own still does."
            )
        )
    messages.success(request, said)
    return redirect(_next_or(request, reverse("clubs:console", args=[club.slug])))


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
    session = _director_post(request, slug, pk)
    action = request.POST.get("action")
    next_url = _next_or(request, reverse("clubs:session_cards", args=[slug, pk]))
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


def _director_post(request: HttpRequest, slug: str, pk: int) -> Session:
    return _session_for_page(request, slug, pk, director=True)


@login_required
@require_POST
def session_start(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    session = _director_post(request, slug, pk)
    try:
        services.session_start(session=session, by=signed_in_user(request))
    except Conflict as err:
        messages.error(request, str(err))
    else:
        messages.success(request, _("Session started: every table has its first rubber."))
    return redirect(_next_or(request, session.get_absolute_url()))


@login_required
@require_http_methods(["GET", "POST"])
def session_close(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what closing will do (each rubber in play closes unfinished with the figures it
    will keep, RULES 2.6; a rubber without a deal is withdrawn), and a button. POST: close."""
    session = _director_post(request, slug, pk)
    waiting = _unconfirmed([session]).get(session.pk, [])
    if request.method == "GET":
        in_play = list(
            Rubber.objects.with_deals()
            .filter(session=session, status=Rubber.Status.IN_PLAY)
            .order_by("table__number", "number")
        )
        previews = []
        for rubber in in_play:
            rubber.fetch_players()
            deals = rubber.ordered_deals()
            previews.append(
                {
                    "rubber": rubber,
                    "deals": len(deals),
                    "now": rubber.scoresheet(deals).result if deals else None,
                    "closed": rubber.unfinished_sheet(deals).result if deals else None,
                }
            )
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
                "next": _next_or(request, session.get_absolute_url()),
            },
        )
    try:
        services.session_close(session=session, by=signed_in_user(request))
    except Conflict as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request, _("Session closed. Rubbers still in play were closed as unfinished.")
        )
    return redirect(_next_or(request, session.get_absolute_url()))


@login_required
@require_http_methods(["GET", "POST"])
def session_reopen(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what reopening does (the session runs again for corrections; the rubbers closed
    unfinished stay as played; closing again recomputes the standings), and a button.
    POST: reopen (`services.session_reopen`). Directors only; a player gets 403 as for close."""
    session = _director_post(request, slug, pk)
    if request.method == "GET":
        return render(request, "clubs/reopen.html", {"session": session, "club": session.club})
    try:
        services.session_reopen(session=session, by=signed_in_user(request))
    except Conflict as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request,
            _("Session reopened for corrections. Close it again when they are done."),
        )
    return redirect(_next_or(request, session.get_absolute_url()))


@login_required
@require_http_methods(["GET", "POST"])
def session_reseat(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Re-seat a planned session with the console's planning form: the same live hint and the
    same answer on submit (`services.plan_tables`), the same checks (`services.session_reseat`).
    A session that has started is refused with a message, nothing changed."""
    session = _director_post(request, slug, pk)
    if session.status != Session.Status.PLANNED:
        messages.error(request, _("Only a planned session can be re-seated; this one has started."))
        return redirect(session.get_absolute_url())
    seated = list(
        session.table_seats.filter(active=True)
        .order_by("player__name")
        .values_list("player_id", flat=True)
    )
    initial = {
        "date": session.date,
        "kind": session.kind,
        "movement": session.movement,
        "stake_per_hundred": session.stake_per_hundred,
        "players": seated,
    }
    form = SessionForm(request.POST or None, club=session.club, initial=initial)
    if request.method == "POST" and form.is_valid():
        tables = _planned_tables(form)
        if tables is not None:
            try:
                services.session_reseat(
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
                for busy in services.seated_elsewhere(
                    ids, session_id=session.pk, date=session.date
                ):
                    messages.warning(request, busy)
                return redirect(session.get_absolute_url())
    suggestion = (
        _form_suggestion(form)
        if form.is_bound
        else _suggestion(len(seated), session.kind, session.movement)
    )
    return render(
        request,
        "clubs/reseat.html",
        {"session": session, "club": session.club, "form": form, "suggestion": suggestion},
    )


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what deleting a planned session removes (its tables and who sits at them), and a
    button. POST: delete it (nothing was played in it). Directors only, as for close."""
    session = _director_post(request, slug, pk)
    if request.method == "GET":
        tables = session.tables.order_by("number").prefetch_related("seats__player")
        seated = [{"table": t, "players": t.present_players()} for t in tables]
        return render(
            request,
            "clubs/delete.html",
            {"session": session, "club": session.club, "seated": seated},
        )
    try:
        services.session_delete(session=session)
    except Conflict as err:
        messages.error(request, str(err))
        return redirect(session.get_absolute_url())
    messages.success(request, _("The planned session was deleted."))
    return redirect("clubs:console", slug)


def _table_change(
    request: HttpRequest, slug: str, pk: int, number: int, *, add: bool
) -> HttpResponse:
    session = _director_post(request, slug, pk)
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
                services.table_add_player(table=table, player=player)
            else:
                services.table_remove_player(table=table, player=player)
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
    return redirect(_next_or(request, session.get_absolute_url()))


@login_required
@require_POST
def table_add_player(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    return _table_change(request, slug, pk, number, add=True)


@login_required
@require_POST
def table_remove_player(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    return _table_change(request, slug, pk, number, add=False)
