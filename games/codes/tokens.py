"""Table codes (issue 17): a phone with no account opens a table by its code (/t/<code>).

The phone then holds a signed cookie naming the table, the code, the player whose seat it chose
and an id of its own (kept when it changes player, so the history tells one phone from
another). It is that player's phone, not a compass seat's: when the rotation moves them, it
follows them to their new seat (a player sitting out watches), and the pad says whose phone it
is, with a link to change. While
the session runs, codes are on and the code is unchanged, that phone enters, confirms and
corrects at that table only, as the player in that seat would. Regenerating the code, turning
codes off or closing the session ends it; reopening the session for corrections does not bring
it back (`open_table`).

Handing the phone over (as a Bridgemate goes to the opponents to accept a result): a deal the
phone's side wrote is confirmed by the other side, who may do it on this phone. The hand-over
page (games.codes.views.hand_over) names the deals and offers only the other side's seats; the seat
picked there becomes the phone's player and the cookie keeps the player it goes back to ("b").
While handed over the phone only confirms and disputes (no entry, no correction: nothing is
written as the borrowed seat by mistake), says whose it is and offers to give it back; once no
deal of the hand-over awaits the other side it goes back by itself (games.deals.answers).
A "b" naming anyone not seated at this table is ignored (`back_player`).

Wrong codes are throttled per client address, the project's (`AXES_CLIENT_IP_CALLABLE`,
config.throttling.client_address: the real client behind `NUM_PROXIES` proxies), counted in the
API throttles' cache (the "throttle" cache, which keeps counting in memory when Redis is down).
The allowance is generous, `MISSES` in `WINDOW` seconds, because a whole room behind the club's
one NAT address shares it: thirty phones mistyping their codes a few times each never reach it.
Guessing gets nowhere anyway: a code is 8 of 31 characters (about 8.5 × 10^11 codes, a few
hundred in use), so at the allowance's pace (one every two seconds) a hit is expected after
thousands of years. Someone in the room scripting hundreds of misses does lock the room's new
phones out for `WINDOW` seconds (phones already holding their table are not affected):
docs/security.md.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import caches
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string

from clubs.models import CODE_ALPHABET, CODE_LENGTH, Player, Table, TableSeat

from ..models import Rubber
from ..permissions import Viewer

COOKIE = "table_code"
SALT = "games.codes"
#: A phone keeps its table for an evening.
MAX_AGE = 16 * 3600
#: Wrong codes an address may try in WINDOW seconds before every lookup answers 429.
MISSES = 300
WINDOW = 600


def normalise(code: str) -> str:
    return code.strip().upper()[: CODE_LENGTH + 1]


def _miss_key(request: HttpRequest) -> str:
    # The project's client as its counters count it, named by setting (games sits below config
    # in the layers).
    address = str(import_string(settings.CLIENT_KEY_CALLABLE)(request))
    return f"table-code-miss:{address}"


def throttled(request: HttpRequest) -> bool:
    return int(caches["throttle"].get(_miss_key(request), 0)) >= MISSES


def count_miss(request: HttpRequest) -> None:
    cache = caches["throttle"]
    key = _miss_key(request)
    if not cache.add(key, 1, WINDOW):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, WINDOW)


def open_table(code: str) -> Table | None:
    """The table with this code while its session takes codes (`Session.codes_open`: running
    for play, never closed, codes on); else None. A session reopened for corrections is its
    director's alone, so its codes stay dead whatever the order of reopen, codes on and new
    codes (docs/security.md, issue 26)."""
    code = normalise(code)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    table = Table.objects.select_related("session__club").filter(code=code).first()
    return table if table is not None and table.session.codes_open else None


def phone_id(request: HttpRequest) -> str:
    """This phone's id: the one its cookie holds, else a new one (8 random bytes)."""
    data = cookie(request)
    held = data.get("p") if data is not None else None
    if isinstance(held, str) and 0 < len(held) <= 16:
        return held
    return secrets.token_hex(8)


def remember(
    response: HttpResponse,
    table: Table,
    rubber: Rubber,
    seat: str,
    phone: str,
    *,
    back: int | None = None,
) -> None:
    """The phone holds the table as the player in `seat` of `rubber` (a credential: HTTPS only
    where the session's cookie is); handed over, it also names the player `back` it goes back
    to."""
    data: dict[str, Any] = {
        "t": table.pk,
        "c": table.code,
        "s": seat,
        "pl": rubber.seat_ids[seat],
        "p": phone,
    }
    if back is not None:
        data["b"] = back
    keep(response, signing.dumps(data, salt=SALT))


def keep(response: HttpResponse, value: str) -> None:
    """Give the phone this signed cookie value."""
    response.set_cookie(
        COOKIE,
        value,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def back_player(data: dict[str, Any], table_id: int) -> Player | None:
    """The player a handed-over phone goes back to (its cookie's "b"): only one seated in a
    rubber of this table (a table is one session's), and not the player it now holds; anything
    else is ignored, as if the phone had not been handed over. The cookie is signed, so only
    the server writes "b"; this keeps even a leaked key from moving a phone to another table's
    player. One query."""
    back = data.get("b")
    if not isinstance(back, int) or isinstance(back, bool) or back == data.get("pl"):
        return None
    seated = Rubber.objects.filter(table_id=table_id).filter(
        Q(north_id=back) | Q(east_id=back) | Q(south_id=back) | Q(west_id=back)
    )
    return Player.objects.filter(pk=back).filter(Exists(seated)).first()


def given_back(request: HttpRequest, table_id: int, back: int) -> str:
    """The cookie value of this phone given back to player `back` (no "b": the phone is theirs
    again, its id kept); the rest of this request reads the phone as theirs too, so the page
    answering it shows their seat. The caller sets it on its response (`keep`)."""
    data = held(request, table_id)
    assert data is not None
    mine = {key: value for key, value in data.items() if key not in ("b", "s")}
    value = signing.dumps({**mine, "s": "", "pl": back}, salt=SALT)
    request.COOKIES[COOKIE] = value
    request.__dict__.pop("_table_codes_held", None)
    return value


def holds_code(request: HttpRequest, code: str) -> bool:
    """Whether the phone's signed cookie names this code: it opened it before (no guess)."""
    data = cookie(request)
    return data is not None and normalise(str(data.get("c", ""))) == normalise(code)


def cookie(request: HttpRequest) -> dict[str, Any] | None:
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return None
    try:
        data = signing.loads(raw, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    return data if isinstance(data, dict) else None


def held(request: HttpRequest, table_id: int) -> dict[str, Any] | None:
    """The phone's cookie for this table while its code opens it, else None (one query, once
    per request and table)."""
    memo: dict[int, dict[str, Any] | None] = request.__dict__.setdefault("_table_codes_held", {})
    if table_id not in memo:
        data = cookie(request)
        table = (
            open_table(str(data.get("c", "")))
            if data is not None and data.get("t") == table_id
            else None
        )
        memo[table_id] = data if table is not None and table.pk == table_id else None
    return memo[table_id]


def _seat_in(data: dict[str, Any], rubber: Rubber) -> str | None:
    """The seat of the phone's player in `rubber` (None: they sit out). A cookie given before
    phones followed their player names a seat only."""
    player = data.get("pl")
    if isinstance(player, int):
        return rubber.seat_of(player)
    seat = data.get("s")
    return seat if isinstance(seat, str) and seat in rubber.seat_ids else None


def seat_for(request: HttpRequest, rubber: Rubber) -> str | None:
    """The seat this phone's player holds in the rubber, by the table's code, or None."""
    data = held(request, rubber.table_id)
    return None if data is None else _seat_in(data, rubber)


def with_code(request: HttpRequest, rubber: Rubber, viewer: Viewer) -> Viewer:
    """The viewer, as the player its table code names (when it is nobody of its own): in their
    seat, or watching when they sit out this rubber."""
    if viewer.seat is not None or viewer.is_director:
        return viewer
    data = held(request, rubber.table_id)
    if data is None:
        return viewer
    seat = _seat_in(data, rubber)
    if seat is not None:
        rubber.fetch_players()  # none when they were read (games.selectors)
        name = rubber.seats[seat].name
    else:
        player = data.get("pl")
        found = (
            Player.objects.filter(pk=player, club_id=rubber.session.club_id)
            .annotate(
                here=Exists(
                    TableSeat.objects.filter(
                        table_id=rubber.table_id, player_id=OuterRef("pk"), active=True
                    )
                )
            )
            .values_list("name", "here")
            .first()
            if isinstance(player, int)
            else None
        )
        name, left = (found[0], not found[1]) if found is not None else ("", False)
    back = back_player(data, rubber.table_id) if "b" in data else None
    return replace(
        viewer,
        seat=seat,
        by_code=seat is not None,
        phone=phone_id(request),
        code=str(data.get("c", "")),
        code_name=name,
        code_left=seat is None and left,
        back_id=None if back is None else back.pk,
        handed_over_by="" if back is None else back.name,
    )
