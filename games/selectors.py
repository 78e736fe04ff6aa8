"""Selectors: fetch a rubber or a deal for a reader, with what its readers need, or Http404.

Each one decides what is read with the object (deals, players, the club: here, once), applies the
read policy (THE rule: clubs.policy.may_read) and answers a hidden object exactly like a missing
one. Pages and the API call these; the club's and the session's are in clubs.selectors.

- `rubber_for_reader`: the rubber with its deals and players, and who looks (`Viewer`);
- `rubber_for_request`: the same, for a page, where a phone holding the table's code also reads;
- `rubber_for_entry`: the rubber alone and the user as its entry's `Actor` (one query, the
  API's busiest write);
- `rubber_version_for_reader` / `_for_request`: the rubber's version only (one query), what a
  cached answer and a pad's ETag are keyed on (`RubberQuerySet.answer_state`);
- `deal_for_reader` / `deal_for_request`: a deal, with its rubber.

A phone whose table code no longer opens its table (regenerated, turned off, the session closed)
reading that table of a members-only club gets `CodeChanged`, which the pages answer with the
"code changed" message: its signed cookie proves it held the code, so saying so tells nobody
else anything. Without such a cookie for that table, the answer stays the missing rubber's 404.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, cast

from django.db import connection
from django.http import Http404, HttpRequest

from clubs.models import Club, Player, Session, Table, TableSeat
from clubs.permissions import check_club_id_readable, role_in_club
from clubs.policy import may_read

from .codes import tokens as codes
from .models import Deal, EntryCheck, Rubber
from .models.rows import Columns
from .models.values import MAX_ID
from .permissions import Actor, Viewer

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_stubs_ext import WithAnnotations


def viewer_of(user: User | AnonymousUser, rubber: Rubber) -> Viewer:
    """The user as this rubber sees them: their role, player, seat, and whether they sit out at
    its table (two queries at most)."""
    club = rubber.session.club
    role = role_in_club(user, club)
    player = None
    if user.is_authenticated and role is not None:
        player = Player.objects.filter(club=club, user=user).first()
    seat = rubber.seat_of(None if player is None else player.pk)
    # At the table now (sitting out of this rubber in a rotation): a player who has left the
    # table (their seat made inactive) no longer is, and no longer corrects its rubbers.
    at_table = (
        seat is None
        and player is not None
        and TableSeat.objects.filter(table_id=rubber.table_id, player=player, active=True).exists()
    )
    return Viewer(
        user=user,
        role=role,
        player=player,
        seat=seat,
        at_table=at_table,
        reopened=rubber.session.is_reopened,
    )


def actor_of(user: User, rubber: Rubber) -> Actor:
    """A signed-in user as the writer of this rubber's deals (a command's, a test's write)."""
    return viewer_of(user, rubber).actor


class CodeChanged(Http404):
    """A phone that held this table's code, which no longer opens it, reads a hidden table: the
    pages say "the code changed" (games.pad.views.tells_code_changed). An Http404, so anything that
    does not catch it answers as for a missing rubber. `rubber` and `viewer` (no role, no seat) are
    what a public club's page would have read, for a caller that answers as it does there
    (games.deals.offline)."""

    def __init__(self, rubber: Rubber, viewer: Viewer) -> None:
        super().__init__("This table's code has changed.")
        self.rubber = rubber
        self.viewer = viewer


def _held_code(request: HttpRequest, rubber: Rubber) -> bool:
    """Whether the phone holds a signed cookie (games.codes.tokens) for the rubber's table: it once
    held that table's code. Nobody can forge one."""
    data = codes.cookie(request)
    return data is not None and data.get("t") == rubber.table_id


def _rubber(pk: int, *, deals: bool) -> Rubber | None:
    """The rubber with its table, session and club, and its deals unless not `deals`."""
    found = Rubber.objects.with_deals() if deals else Rubber.objects.select_related("table")
    return found.select_related("session__club").filter(pk=pk).first()


@cache
def _with_viewer_sql() -> tuple[list[Columns], str]:
    """The columns and text of `_with_viewer`'s query, built once from the models' fields.
    Columns by their tables' names (as the ORM writes them), not aliases."""
    models = (Rubber, Table, Session, Club, Player)
    columns = [Columns(model, f'"{model._meta.db_table}"') for model in models]
    # The models' own column names, no input: the user's and the rubber's ids are parameters.
    select = ", ".join(c.sql for c in columns)
    sql = f"SELECT {select}," + (  # noqa: S608  # nosec B608
        ' (SELECT "clubs_membership"."role" FROM "clubs_membership"'
        '  WHERE "clubs_membership"."club_id" = "clubs_club"."id"'
        '  AND "clubs_membership"."user_id" = %s),'
        ' EXISTS (SELECT 1 FROM "clubs_tableseat"'
        '  WHERE "clubs_tableseat"."table_id" = "games_rubber"."table_id"'
        '  AND "clubs_tableseat"."player_id" = "clubs_player"."id"'
        '  AND "clubs_tableseat"."active")'
        ' FROM "games_rubber"'
        ' JOIN "clubs_session" ON "clubs_session"."id" = "games_rubber"."session_id"'
        ' JOIN "clubs_club" ON "clubs_club"."id" = "clubs_session"."club_id"'
        ' JOIN "clubs_table" ON "clubs_table"."id" = "games_rubber"."table_id"'
        ' LEFT JOIN "clubs_player" ON "clubs_player"."club_id" = "clubs_club"."id"'
        '  AND "clubs_player"."user_id" = %s'
        ' WHERE "games_rubber"."id" = %s'
    )
    return columns, sql


def _with_viewer(user: User | AnonymousUser, pk: int) -> tuple[Rubber, Viewer] | None:
    """The rubber alone (its table, session and club cached on it, as `_rubber` reads them)
    and who looks, as `viewer_of` decides, in one query (`viewer_of` and `_rubber` take three
    or four: compiling them cost more than running them); None if there is no such rubber."""
    if pk > MAX_ID:  # as in RubberQuerySet.for_entry
        return None
    columns, sql = _with_viewer_sql()
    user_id = user.pk if user.is_authenticated else None
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, user_id, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    built: list[Any] = []
    at = 0
    for column in columns:
        built.append(None if row[at] is None else column.build(row, at))
        at += column.width
    rubber, table, session, club, player = built
    role, at_table = row[at], bool(row[at + 1])
    session._state.fields_cache["club"] = club
    rubber._state.fields_cache["session"], rubber._state.fields_cache["table"] = session, table
    # As viewer_of: a login's player counts only while the login is a member of the club.
    if role is None:
        player = None
    seat = rubber.seat_of(None if player is None else player.pk)
    viewer = Viewer(
        user=user,
        role=role,
        player=player,
        seat=seat,
        at_table=seat is None and player is not None and at_table,
        reopened=session.is_reopened,
    )
    return rubber, viewer


def rubber_for_reader(
    user: User | AnonymousUser, pk: int, *, deals: bool = True
) -> tuple[Rubber, Viewer]:
    """The rubber, with its deals and players, if the user may read its club, else Http404.
    Without `deals`, the rubber alone (`Rubber.fetch_deals` and `fetch_players` read the rest),
    and who looks, in one query: who looks and whether they may read are decided alike."""
    if deals:
        rubber = _rubber(pk, deals=deals)
        if rubber is None:
            raise Http404("No such rubber.")
        viewer = viewer_of(user, rubber)
    else:
        found = _with_viewer(user, pk)
        if found is None:
            raise Http404("No such rubber.")
        rubber, viewer = found
    if not may_read(rubber.session.club.public, viewer.role):
        raise Http404("No such rubber.")
    if deals:
        rubber.fetch_players()
    return rubber, viewer


def rubber_for_request(
    request: HttpRequest, pk: int, *, deals: bool = True
) -> tuple[Rubber, Viewer]:
    """The rubber and who looks at it: a reader (`rubber_for_reader`), or a phone holding its
    table's code (games.codes), which reads that table even in a members-only club. A phone
    whose code for that table no longer works gets `CodeChanged`; anyone else Http404.
    Without `deals`, as `rubber_for_reader`: the same checks and the same `Viewer`, the rubber
    read without its deals and players (a kept pad's key needs neither: games.pad.live)."""
    try:
        rubber, viewer = rubber_for_reader(request.user, pk, deals=deals)
    except Http404:
        found = _rubber(pk, deals=deals)
        if found is None:
            raise
        by_code = codes.held(request, found.table_id) is not None
        if not may_read(found.session.club.public, None, table_code=by_code):
            if not _held_code(request, found):
                raise
            found.fetch_deals()
            found.fetch_players()
            viewer = Viewer(
                user=request.user,
                role=None,
                player=None,
                seat=None,
                reopened=found.session.is_reopened,
            )
            raise CodeChanged(found, viewer) from None
        rubber = found
        if deals:
            rubber.fetch_players()
        viewer = Viewer(
            user=request.user,
            role=None,
            player=None,
            seat=None,
            reopened=rubber.session.is_reopened,
        )
    return rubber, codes.with_code(request, rubber, viewer)


def rubber_for_entry(user: User, pk: int) -> tuple[Rubber, Actor]:
    """The rubber if the (signed-in) user may read its club, else Http404, and the user as its
    entry's `Actor`, with their seat in it (`Rubber.record_deal` asks the write policy,
    which a session reopened for corrections refuses to its players). One query
    (`Rubber.objects.for_entry`) where `rubber_for_reader` takes three: entry is the API's
    busiest write (docs/benchmarks.md)."""
    # Typed here rather than on for_entry: written there, in games.models, django-stubs left the
    # attributes off the type.
    rubber = cast(
        "WithAnnotations[Rubber, EntryCheck] | None", Rubber.objects.for_entry(pk, user.pk)
    )
    if rubber is None or not may_read(rubber.club_public, rubber.viewer_role):
        raise Http404("No such rubber.")
    # As viewer_of: a login's player counts only while the login is a member of the club.
    player_id = rubber.viewer_player_id if rubber.viewer_role is not None else None
    seat = rubber.seat_of(player_id)
    actor = Actor(
        user=user,
        role=rubber.viewer_role,
        seat=seat,
        reopened=bool(rubber.session_reopened),
    )
    return rubber, actor


def rubber_version_for_reader(user: User | AnonymousUser, pk: int) -> tuple[Any, ...]:
    """`Rubber.objects.answer_state(pk)` if the user may read the rubber's club, else Http404:
    one query for a public club, as the API's cached read needs."""
    state = Rubber.objects.answer_state(pk)
    if state is None:
        raise Http404("No such rubber.")
    try:
        check_club_id_readable(user, state[0], public=state[1])
    except Http404:
        raise Http404("No such rubber.") from None
    return state


def rubber_version_for_request(request: HttpRequest, pk: int) -> tuple[Any, ...]:
    """`rubber_version_for_reader`, or for a phone holding the table's code its version after
    the check of `rubber_for_request` (Http404 for anyone else)."""
    try:
        return rubber_version_for_reader(request.user, pk)
    except Http404:
        # A phone with the table's code reads it; others 404 (the checks need no deals).
        rubber_for_request(request, pk, deals=False)
        return Rubber.objects.answer_state(pk) or ()


def deal_for_reader(user: User | AnonymousUser, pk: int) -> tuple[Deal, Viewer]:
    """The deal, with its rubber and club, if the user may read its club, else Http404."""
    deal = Deal.objects.select_related("rubber__session__club").filter(pk=pk).first()
    if deal is None:
        raise Http404("No such deal.")
    viewer = viewer_of(user, deal.rubber)
    if not may_read(deal.rubber.session.club.public, viewer.role):
        raise Http404("No such deal.")
    return deal, viewer


def deal_for_request(request: HttpRequest, pk: int) -> tuple[Deal, Viewer]:
    """The deal as `rubber_for_request` reads its rubber (a phone at the table included), with
    the rubber's deals and players. A deal deleted (or moved to another rubber) between the
    two reads is missing here: Http404, as if it had gone before."""
    found = Deal.objects.filter(pk=pk).only("rubber_id").first()
    if found is None:
        raise Http404("No such deal.")
    rubber, viewer = rubber_for_request(request, found.rubber_id)
    deal = next((d for d in rubber.ordered_deals() if d.pk == pk), None)
    if deal is None:
        raise Http404("No such deal.")
    deal.rubber = rubber
    return deal, viewer
