"""A pad's state is declared once (games/models/state.py, `FACTS`) and its ETag is made of it
(issue 28): changing any fact a pad shows gives the phones a new ETag and the new pad, names
included; and a pad's render reads no column the declaration leaves out."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Player, Session, Table, TableSeat
from games.models import Deal, Rubber
from games.models.state import FACTS, NOT_SHOWN, answer_state
from tests.factories import acting, add_player
from tests.games.conftest import SIX_DEALS, seated_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_throttle() -> None:
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


def live(client: Client, rubber: Any, etag: str | None = None) -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/rubbers/{rubber.pk}/live", **headers)


def _last(rubber: Any) -> Deal:
    return Deal.objects.filter(rubber=rubber).order_by("-number").first()  # type: ignore[return-value]


def _rename_seated(rubber: Any, **_: Any) -> str:
    """A player renamed in the admin (the bug of issue 28: the phones kept the old name)."""
    player = Player.objects.get(pk=rubber.east_id)
    player.name = "Renamed Rita"
    player.save()
    return "Renamed Rita"


def _director_corrects(rubber: Any, director: Any) -> None:
    """The director, a player of the club but not seated, corrects the deal: its history
    names them."""
    add_player(rubber.session.club, "Dora Director", user=director, role="director")
    deal = _last(rubber)
    deal.correct(version=deal.version, actor=acting(deal, director), tricks=10)


def _substitute(rubber: Any, **_: Any) -> str:
    sub = add_player(rubber.session.club, "Sam Substitute")
    Rubber.objects.filter(pk=rubber.pk).update(west=sub)
    return "Sam Substitute"


def _sitting_out(rubber: Any, **_: Any) -> str:
    extra = add_player(rubber.session.club, "Olga Out")
    Rubber.objects.filter(pk=rubber.pk).update(sitting_out=[extra.pk])
    return "Olga Out"  # the pad's header names who sits out (issue 29)


def _leaves_the_table(rubber: Any, **_: Any) -> None:
    TableSeat.objects.filter(table_id=rubber.table_id, player_id=rubber.east_id).update(
        active=False
    )


def _record(rubber: Any, **_: Any) -> str:
    deal = _last(rubber)
    rubber.record_deal(
        number=deal.number + 1,
        **_fields(SIX_DEALS[1]),
        actor=acting(rubber, seated_user(rubber, "N")),
    )
    return 'id="correct-2"'


def _fields(deal: dict[str, Any]) -> dict[str, Any]:
    honours = deal.get("honours") or {}
    fields = {k: v for k, v in deal.items() if k != "honours"}
    if honours:
        fields.update(honours_side=honours["side"], honours_points=honours["points"])
    return fields


def _correct(rubber: Any, **_: Any) -> str:
    deal = _last(rubber)
    deal.correct(version=deal.version, actor=acting(deal, seated_user(rubber, "N")), tricks=7)
    return "They 50"  # 2♥ two down, not vulnerable


def _confirm(rubber: Any, **_: Any) -> str:
    _last(rubber).confirm(actor=acting(_last(rubber), seated_user(rubber, "E")))
    return "confirmed by East"


def _dispute(rubber: Any, **_: Any) -> str:
    deal = _last(rubber)
    deal.dispute(
        actor=acting(deal, seated_user(rubber, "E")), reason="honours", note="no four honours"
    )
    return 'disputed: the director will check it</strong> <span class="dispute-reason" ' + (
        'data-reason="honours">about the honours: “no four honours”'
    )


def _ruled(rubber: Any, director: Any) -> str:
    """A dispute the director rules on: it stands."""
    deal = _last(rubber)
    deal.dispute(actor=acting(deal, seated_user(rubber, "E")), reason="result")
    deal = _last(rubber)
    deal.rule(actor=acting(deal, director), version=deal.version)
    return "the director ruled it stands"


def _delete(rubber: Any, **_: Any) -> str:
    deal = _last(rubber)
    deal.delete_last(version=deal.version, actor=acting(deal, seated_user(rubber, "N")))
    return 'id="deleted-deals"'


def _session(**changes: Any) -> Callable[..., None]:
    def change(rubber: Any, **_: Any) -> None:
        Session.objects.filter(pk=rubber.session_id).update(**changes)

    return change


def _club(**changes: Any) -> Callable[..., None]:
    def change(rubber: Any, **_: Any) -> None:
        Club.objects.filter(pk=rubber.session.club_id).update(**changes)

    return change


def _table_code(rubber: Any, **_: Any) -> None:
    Table.objects.filter(pk=rubber.table_id).update(code="ZZZZZZ")


def _rubber_rules(rubber: Any, **_: Any) -> str:
    insult = 50 if rubber.rules.get("insult_redoubled") == 100 else 100
    Rubber.objects.filter(pk=rubber.pk).update(rules={**rubber.rules, "insult_redoubled": insult})
    return f'"insult_redoubled": {insult}'  # the phone's own scorer reads them


class Gone(str):
    """What the pad showed before a change and no longer shows."""


def _then(change: Callable[..., None], text: str) -> Callable[..., str]:
    """`change`, after which the pad shows `text` (or no longer shows it: `Gone`)."""

    def changed(rubber: Any, **kw: Any) -> str:
        change(rubber, **kw)
        return text

    return changed


# Each fact a pad shows, changed in turn; a change that shows returns what the new pad says.
CHANGES: dict[str, Callable[..., str | None]] = {
    "a seated player renamed": _rename_seated,
    "a substitute": _substitute,
    "a player sitting out": _sitting_out,
    "a player leaves the table": _leaves_the_table,
    "a deal recorded": _record,
    "a deal corrected": _correct,
    "a deal confirmed": _confirm,
    "a deal disputed, and why": _dispute,
    "a dispute ruled on": _ruled,
    "a deal deleted": _delete,
    "the session closed": _then(_session(status=Session.Status.CLOSED), Gone('id="entry"')),
    "the session's confirmations": _session(confirm_entries=True),
    "the session's table codes": _session(table_codes=False),
    "the session's rules": _session(rules={"insult_redoubled": 100}),
    "the session's stake": _session(stake_per_hundred=7),
    "the rubber's rules": _rubber_rules,
    "the table's code": _table_code,
    "the club's confirmations": _then(_club(confirm_entries=False), Gone("not confirmed")),
    "the club's house rules": _club(rules_overrides={"insult_redoubled": 100}),
    "the club's name": _club(name="Renamed Club"),
    "the club's language": _then(_club(language="it"), "Cronologia"),  # History
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_fact_changed_gives_a_new_etag_and_the_new_pad(
    change: str, rubber: Any, club: Any, director: Any
) -> None:
    Club.objects.filter(pk=club.pk).update(confirm_entries=True)
    rubber.record_deal(
        **_fields(SIX_DEALS[0]), number=1, actor=acting(rubber, seated_user(rubber, "N"))
    )
    phone = Client()
    phone.force_login(seated_user(rubber, "S"))
    before = live(phone, rubber)
    assert live(phone, rubber, before["ETag"]).status_code == 304
    state = answer_state(rubber.pk)
    shown = CHANGES[change](rubber=Rubber.objects.get(pk=rubber.pk), director=director)
    assert answer_state(rubber.pk) != state
    after = live(phone, rubber, before["ETag"])
    assert after.status_code == 200, "the phone kept its old pad (304)"
    assert after["ETag"] != before["ETag"]
    if isinstance(shown, Gone):
        assert shown in before.content.decode()
        assert shown not in after.content.decode()
    elif shown is not None:
        assert shown not in before.content.decode()
        assert shown in after.content.decode()


def test_a_writer_not_seated_renamed_shows_with_the_next_change(
    rubber: Any, club: Any, director: Any
) -> None:
    """The known gap (`NOT_SHOWN`, kept for the query's cost): the name of one who wrote a deal
    without being seated is not a fact; their rename shows with the pad's next change."""
    rubber.record_deal(
        **_fields(SIX_DEALS[0]), number=1, actor=acting(rubber, seated_user(rubber, "N"))
    )
    _director_corrects(rubber, director)
    phone = Client()
    phone.force_login(seated_user(rubber, "S"))
    before = live(phone, rubber)
    assert "Dora Director" in before.content.decode()
    Player.objects.filter(user=director).update(name="Dora Renamed")
    assert live(phone, rubber, before["ETag"]).status_code == 304
    _record(Rubber.objects.get(pk=rubber.pk))
    assert "Dora Renamed" in live(phone, rubber, before["ETag"]).content.decode()


_COLUMN = re.compile(r'"(\w+)"\."(\w+)"')
_ALIAS = re.compile(r'"(\w+)" ([TUV]\d+)\b')  # FROM "clubs_player" U0, a join's T5
_BY_ALIAS = re.compile(r'\b([TUV]\d+)\."(\w+)"')


def _declared(column: str) -> bool:
    """`column` ("table.column", or "table|table.column" when read by an alias that names
    either table in its query) is covered by a fact or said not to be shown."""
    tables, name = column.split(".")
    covered = {read for fact in FACTS for read in fact.reads} | set(NOT_SHOWN)
    return any({f"{t}.{name}", f"{t}.*"} & covered for t in tables.split("|"))


def _columns_in(sql: str) -> set[str]:
    """The table columns a query reads: by their table's name, or by an alias (a subquery's
    U0, a join's T5), which may name different tables in one query."""
    aliases: dict[str, set[str]] = {}
    for table, alias in _ALIAS.findall(sql):
        aliases.setdefault(alias, set()).add(table)
    read = {f"{t}.{c}" for t, c in _COLUMN.findall(sql)}
    for alias, name in _BY_ALIAS.findall(sql):
        read.add(f"{'|'.join(sorted(aliases.get(alias, {alias})))}.{name}")
    return read


def _columns_read(client: Client, url: str) -> set[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return {column for q in queries.captured_queries for column in _columns_in(q["sql"])}


def test_a_pad_reads_only_declared_facts(rubber: Any, club: Any, director: Any) -> None:
    """Every table column a pad's render reads (for a seated player, the director and a phone
    with the table's code; its live part and its page) is covered by a fact of the state or
    said not to be shown (`NOT_SHOWN`): a new fact read by the pad fails here until declared."""
    Club.objects.filter(pk=club.pk).update(confirm_entries=True)
    for number, deal in enumerate(SIX_DEALS[:3], start=1):
        rubber.record_deal(
            **_fields(deal), number=number, actor=acting(rubber, seated_user(rubber, "N"))
        )
    _last(rubber).dispute(actor=acting(_last(rubber), seated_user(rubber, "E")))
    _director_corrects(rubber, director)  # a writer who is not seated: read by a subquery
    seated, console, phone = Client(), Client(), Client()
    seated.force_login(seated_user(rubber, "S"))
    console.force_login(director)
    assert phone.post(f"/t/{rubber.table.code}", {"seat": "W"}).status_code == 302
    read: set[str] = set()
    for client in (seated, console, phone):
        for url in (f"/rubbers/{rubber.pk}/live", f"/rubbers/{rubber.pk}/"):
            read |= _columns_read(client, url)
    assert "clubs_player.name" in read  # the capture sees what the pad reads
    assert any(c.endswith(".role") for c in read)  # and what its subqueries read
    assert sorted(c for c in read if not _declared(c)) == []


def test_the_declaration_names_real_columns() -> None:
    """Each column a fact or `NOT_SHOWN` names exists (a renamed column fails here)."""
    with connection.cursor() as cursor:
        tables = {
            t: {c.name for c in connection.introspection.get_table_description(cursor, t)}
            for t in connection.introspection.table_names(cursor)
        }
    for column in {read for fact in FACTS for read in fact.reads} | set(NOT_SHOWN):
        table, name = column.split(".")
        assert table in tables, column
        assert name == "*" or name in tables[table], column


@pytest.mark.parametrize("kind", ["bridge_for_two"])
def test_a_two_player_match_shows_a_renamed_player_at_once(club: Any, kind: str) -> None:
    """A table of two names its columns by its players: a rename reaches the pad too, and its
    pad reads only declared facts."""
    from tests.factories import make_session

    players = [add_player(club, "Ann"), add_player(club, "Bea")]
    match = make_session(club, [players], kind=kind).rubbers.get(number=1)
    viewer = Client()
    before = live(viewer, match)
    assert before.status_code == 200
    Player.objects.filter(pk=players[0].pk).update(name="Annie Renamed")
    after = live(viewer, match, before["ETag"])
    assert after.status_code == 200
    assert "Annie Renamed" in after.content.decode()
    read = _columns_read(viewer, f"/rubbers/{match.pk}/")  # and its pad reads declared facts
    assert sorted(c for c in read if not _declared(c)) == []


def test_a_player_sitting_out_renamed_shows_at_once(rubber: Any) -> None:
    """The pad's header names who sits out (issue 29): their name is a fact of the state."""
    _sitting_out(rubber)
    phone = Client()
    phone.force_login(seated_user(rubber, "S"))
    before = live(phone, rubber)
    assert "Olga Out" in before.content.decode()
    Player.objects.filter(name="Olga Out").update(name="Olga Renamed")
    after = live(phone, rubber, before["ETag"])
    assert after.status_code == 200, "the phone kept its old pad (304)"
    assert "Olga Renamed" in after.content.decode()
