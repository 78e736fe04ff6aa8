"""The console's table cards rendered only when what they show changed: each table's card facts
(`CARD_FACTS`) read for all the console's tables in one query, a card kept per its facts
(`card_key`), and the tables whose card is not kept read with the ORM and rendered.

A card (templates/clubs/_table_card.html) shows its table's number, who sits there in which
place, the rubbers played there (the rotation ahead is planned from them and the players
present), the rubber in play and its last deal, in words with the players' names; and of its
session the status, whether it was reopened, its game (the card's words, whether a leaver may
be handled) and movement; of the club its address; the language. Those are the key, with the
code the card is made by (`CODE`: a deploy never serves a card of the code before). A session
of two-player tables is read whole (each card names the next opponents, who sit at other
tables), as is one reopened for corrections (its cards list every rubber played)."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils.translation import get_language

from clubs.models import TWO_PLAYER_KINDS, Session
from games.models import Rubber
from games.models.state import joined
from games.pad.rendered import kept_cards

#: What decides a table's card, each one expression of the query (`t` the table, `s` its
#: session), in order; rows of a table joined into one text by `JOINED` over `x`.
CARD_FACTS: tuple[tuple[str, str], ...] = (
    ("the table", "t.id, t.session_id, t.number"),
    ("its session", "s.status, s.closed_at IS NOT NULL, s.kind, s.movement"),
    (
        "who sits there, in which place, still there or gone",
        "(SELECT JOINED(x) FROM (SELECT ts.player_id || ':' || ts.position || ':' || ts.active"
        " AS x FROM clubs_tableseat ts WHERE ts.table_id = t.id ORDER BY x) q)",
    ),
    (
        "its rubbers: number, status, seats and who sits out (the rotation's history)",
        "(SELECT JOINED(x) FROM (SELECT r.id || ':' || r.number || ':' || r.status || ':'"
        " || r.kind || ':' || COALESCE(r.north_id, 0) || ':' || COALESCE(r.east_id, 0) || ':'"
        " || COALESCE(r.south_id, 0) || ':' || COALESCE(r.west_id, 0) || ':'"
        " || CAST(r.sitting_out AS text) AS x FROM games_rubber r WHERE r.table_id = t.id"
        " ORDER BY x) q)",
    ),
    (
        # Every write of a deal raises its version or sets its time; a delete lowers the count.
        "the deals of the rubber in play (its last one, in words)",
        "(SELECT COUNT(*) || ':' || COALESCE(MAX(d.number), 0) || ':'"
        " || COALESCE(SUM(d.version), 0) || ':' || COALESCE(CAST(MAX(d.updated_at) AS text), '')"
        " FROM games_deal d JOIN games_rubber r ON r.id = d.rubber_id"
        " WHERE r.table_id = t.id AND r.status = %s)",
    ),
    (
        # A delete adds a history record too: the latest one's id never comes back, so facts
        # read before a deal landed (and a card made with it) are never seen again once it is
        # deleted.
        "the latest write of the table's deals, deletes included",
        "(SELECT MAX(h.history_id) FROM games_historicaldeal h"
        " JOIN games_rubber r ON r.id = h.rubber_id WHERE r.table_id = t.id)",
    ),
)

#: What makes a card from its facts: the templates and the code that reads and renders it.
_MADE_BY = (
    "templates/clubs/_table_card.html",
    "templates/clubs/_rotation.html",
    "templates/clubs/_two_player_rotation.html",
    "games/club/cards.py",
    "games/club/tables.py",
    "games/sessions/ahead.py",
    "games/rotation.py",
    "games/registry.py",
    "games/display.py",
    "games/summaries.py",
    "scoring/rules/rotation.py",
    "scoring/rules/round_robin.py",
    "games/pad/rendered.py",
    "games/templatetags/games.py",
)


@functools.cache
def code_version() -> str:
    """The code and translations a card is made by: a deploy that changes them keeps no card
    made before it."""
    root = Path(settings.BASE_DIR)
    made = hashlib.sha256()
    files = [root / name for name in _MADE_BY]
    for locale in settings.LOCALE_PATHS:
        files += sorted(Path(locale).glob("**/*.mo"))
    for path in files:
        made.update(str(path.relative_to(root)).encode())
        made.update(path.read_bytes() if path.exists() else b"")
    return made.hexdigest()[:16]


@functools.cache
def _sql(vendor: str) -> str:
    columns = ", ".join(sql for _shows, sql in CARD_FACTS)
    # The facts are constant SQL and the table names the models' own; the club's id is bound.
    return joined(
        f"SELECT {columns} FROM clubs_table t JOIN clubs_session s ON s.id = t.session_id"  # noqa: S608  # nosec B608
        " WHERE s.club_id = %s AND s.status IN (%s, %s) ORDER BY t.session_id, t.number",
        vendor,
    )


@dataclass(frozen=True)
class Card:
    """A table of the console as its card facts say: the key its card is kept under, and
    whether its session must be read whole (`whole`)."""

    table_id: int
    session_id: int
    number: int
    key: str
    whole: bool


def console_cards(club_id: int, slug: str, names: dict[int, str]) -> list[Card]:
    """The card of every table of the club's planned and running sessions, in one query; the
    club's players' `names` (by id) are part of every card's key (a rename or a new player,
    rare in an evening, makes every card again)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _sql(connection.vendor),
            [
                Rubber.Status.IN_PLAY.value,
                club_id,
                Session.Status.PLANNED.value,
                Session.Status.RUNNING.value,
            ],
        )
        rows = cursor.fetchall()
    language = get_language()
    shared = (slug, language, hashlib.sha256(repr(sorted(names.items())).encode()).hexdigest())
    cards = []
    for row in rows:
        table_id, session_id, number, _status, reopened, kind = row[:6]
        # As `table_views` reads them: a table of two with the whole round robin, a reopened
        # session's tables with every rubber played.
        whole = bool(reopened) or kind in TWO_PLAYER_KINDS
        cards.append(Card(table_id, session_id, number, card_key(row, shared), whole))
    return cards


def card_key(facts: tuple[Any, ...], shared: tuple[Any, ...]) -> str:
    """The key of a card made of these `facts` (a row of `CARD_FACTS`) and what every card of
    the console shares (the club's address, the language, the players' names), by this code
    (`code_version`)."""
    made = repr((tuple(facts), shared, code_version()))
    return f"card:{code_version()}:" + hashlib.sha256(made.encode()).hexdigest()


@dataclass(frozen=True)
class KeptCard:
    """A table's card already made (games.pad.rendered.table_card answers `html`)."""

    number: int
    html: str


def to_read(cards: list[Card]) -> tuple[dict[int, KeptCard], set[int]]:
    """The cards kept (by table id) and the tables to read and render: those whose card is not
    kept, and every table of a session read whole."""
    kept = kept_cards([c.key for c in cards if not c.whole])
    found = {c.table_id: KeptCard(c.number, kept[c.key]) for c in cards if c.key in kept}
    return found, {c.table_id for c in cards if c.table_id not in found}


def with_kept(
    session_id: int, views: list[Any], cards: list[Card], kept: dict[int, KeptCard]
) -> list[Any]:
    """A session's cards by table number: its tables read (`views`), each given the key its
    card is kept under (`card_key`; none in a session read whole), and its cards kept."""
    keys = {c.table_id: c.key for c in cards if not c.whole}
    for view in views:
        view.card_key = keys.get(view.table.pk)
    mine = [card for card in cards if card.session_id == session_id and card.table_id in kept]
    shown: list[Any] = [*views, *(kept[card.table_id] for card in mine)]
    return sorted(
        shown, key=lambda item: item.number if isinstance(item, KeptCard) else item.table.number
    )
