"""The write policy, asked by the verbs themselves (games.permissions, issue 27).

Each write verb (`Rubber.record_deal`, `Deal.correct`, `Deal.delete_last`, `Deal.confirm`,
`Deal.dispute`, `Deal.rule`) is called directly, with no page or API in front of it, by each kind
of actor: a director of the club, a player seated in the rubber, a player seated at another
table, a phone holding the table's code, and an outsider. What the policy refuses raises
`NotAllowed` (a PermissionDenied: 403) and changes nothing; what it allows is written.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from clubs.models import Session
from games.models import Deal, Rubber
from games.permissions import Actor, NotAllowed
from games.selectors import actor_of
from tests.conftest import unchanged
from tests.factories import UserFactory, add_player, make_session

KINDS = ("director", "seated", "elsewhere", "phone", "outsider")


@pytest.fixture
def world(club: Any, table_of_four: dict[str, Any], director: Any, outsider: Any) -> Any:
    """Two tables of four; the rubber of table 1, with deal 1 entered by its North player, in a
    session whose opponents confirm entries."""
    others = [add_player(club, f"Other {n}", user=UserFactory(username=f"o{n}")) for n in range(4)]
    session = make_session(club, [list(table_of_four.values()), others])
    Session.objects.filter(pk=session.pk).update(confirm_entries=True)
    rubber = session.rubbers.get(table__number=1)
    rubber.fetch_players()
    north = actor_of(rubber.north.user, rubber)
    rubber.record_deal(number=1, contract="2H", declarer="N", tricks=8, actor=north)
    elsewhere = next(p for p in others if rubber.seat_of(p.pk) is None)
    return {
        "rubber": rubber,
        "deal": rubber.deals.get(number=1),
        "actors": {
            "director": actor_of(director, rubber),
            # East: the other side from North, who entered deal 1.
            "seated": actor_of(rubber.east.user, rubber),
            "elsewhere": actor_of(elsewhere.user, rubber),
            "phone": Actor(by_code=True, seat="W", phone="ab12cd34"),
            "outsider": actor_of(outsider, rubber),
        },
    }


def expect(kind: str, allowed: tuple[str, ...], write: Any) -> Any:
    """Run `write`; it is refused (NotAllowed, nothing changed) unless `kind` is `allowed`."""
    if kind in allowed:
        return write()
    with unchanged(), pytest.raises(NotAllowed):
        write()
    return None


def test_the_actors_are_read_as_their_kind(world: Any) -> None:
    actors = world["actors"]
    assert actors["director"].is_director and actors["director"].seat is None
    assert actors["seated"].seat == "E" and not actors["seated"].is_director
    assert actors["elsewhere"].seat is None and actors["elsewhere"].player is not None
    assert actors["outsider"].role is None and actors["outsider"].player is None


@pytest.mark.parametrize("kind", KINDS)
def test_entry(world: Any, kind: str) -> None:
    rubber: Rubber = world["rubber"]
    actor = world["actors"][kind]
    expect(
        kind,
        ("director", "seated", "phone"),
        lambda: rubber.record_deal(number=2, contract="1NT", declarer="E", tricks=7, actor=actor),
    )
    assert rubber.deals.filter(number=2).exists() == (kind in ("director", "seated", "phone"))


@pytest.mark.parametrize("kind", KINDS)
def test_correction(world: Any, kind: str) -> None:
    deal: Deal = world["deal"]
    actor = world["actors"][kind]
    expect(
        kind,
        ("director", "seated", "phone"),
        lambda: deal.correct(version=1, tricks=9, actor=actor),
    )
    deal.refresh_from_db()
    assert deal.tricks == (9 if kind in ("director", "seated", "phone") else 8)


@pytest.mark.parametrize("kind", ("seated", "phone", "elsewhere", "outsider"))
def test_moving_the_next_rubbers_deals_is_a_directors(world: Any, kind: str) -> None:
    deal: Deal = world["deal"]
    with unchanged(), pytest.raises(NotAllowed):
        deal.correct(version=1, tricks=9, move_next_deals=True, actor=world["actors"][kind])


@pytest.mark.parametrize("kind", KINDS)
def test_delete(world: Any, kind: str) -> None:
    deal: Deal = world["deal"]
    actor = world["actors"][kind]
    expect(kind, ("director", "seated", "phone"), lambda: deal.delete_last(version=1, actor=actor))
    assert Deal.objects.filter(pk=deal.pk).exists() == (kind not in ("director", "seated", "phone"))


@pytest.mark.parametrize("kind", KINDS)
def test_confirmation(world: Any, kind: str) -> None:
    """The other side from North confirms: East, or the phone holding West's seat. A director
    outside the rubber does not sit in it, so does not confirm (they rule instead)."""
    deal: Deal = world["deal"]
    actor = world["actors"][kind]
    expect(kind, ("seated", "phone"), lambda: deal.confirm(version=1, actor=actor))
    deal.refresh_from_db()
    confirmed_by = {"seated": world["rubber"].east_id, "phone": world["rubber"].west_id}
    assert deal.confirmed_by_id == confirmed_by.get(kind)


def test_the_writers_side_does_not_confirm(world: Any) -> None:
    deal: Deal = world["deal"]
    rubber: Rubber = world["rubber"]
    south = actor_of(rubber.south.user, rubber)
    with unchanged(), pytest.raises(NotAllowed, match="other side"):
        deal.confirm(version=1, actor=south)


@pytest.mark.parametrize("kind", KINDS)
def test_dispute(world: Any, kind: str) -> None:
    deal: Deal = world["deal"]
    actor = world["actors"][kind]
    expect(kind, ("seated", "phone"), lambda: deal.dispute(version=1, actor=actor))
    deal.refresh_from_db()
    assert deal.disputed == (kind in ("seated", "phone"))


@pytest.mark.parametrize("kind", KINDS)
def test_ruling(world: Any, kind: str) -> None:
    deal: Deal = world["deal"]
    deal.dispute(version=1, actor=world["actors"]["seated"])
    actor = world["actors"][kind]
    expect(kind, ("director",), lambda: deal.rule(version=1, actor=actor))
    deal.refresh_from_db()
    assert (deal.ruled, deal.disputed) == ((True, False) if kind == "director" else (False, True))


@pytest.mark.parametrize("verb", ("enter", "correct", "delete", "confirm", "dispute"))
def test_a_phone_handed_over_only_confirms_and_disputes(world: Any, verb: str) -> None:
    """Lent to the other side to confirm (games.codes), a phone enters, corrects and deletes
    nothing: it would write as the seat it was lent to."""
    rubber: Rubber = world["rubber"]
    deal: Deal = world["deal"]
    lent = Actor(by_code=True, seat="W", phone="ab12cd34", handed_over=True)
    writes = {
        "enter": lambda: rubber.record_deal(
            number=2, contract="1NT", declarer="E", tricks=7, actor=lent
        ),
        "correct": lambda: deal.correct(version=1, tricks=9, actor=lent),
        "delete": lambda: deal.delete_last(version=1, actor=lent),
        "confirm": lambda: deal.confirm(version=1, actor=lent),
        "dispute": lambda: deal.dispute(version=1, actor=lent),
    }
    expect(verb, ("confirm", "dispute"), writes[verb])


@pytest.mark.parametrize("kind", ("seated", "phone"))
def test_a_reopened_session_is_the_directors(world: Any, kind: str) -> None:
    """A player, or a phone, that read the session as reopened writes nothing there; the
    director still does (docs/security.md)."""
    rubber: Rubber = world["rubber"]
    deal: Deal = world["deal"]
    actor = world["actors"][kind]
    reopened = Actor(**{**actor.__dict__, "reopened": True})
    with unchanged(), pytest.raises(NotAllowed, match="reopened"):
        deal.correct(version=1, tricks=9, actor=reopened)
    with unchanged(), pytest.raises(NotAllowed, match="reopened"):
        rubber.record_deal(number=2, contract="1NT", declarer="E", tricks=7, actor=reopened)
    director = Actor(**{**world["actors"]["director"].__dict__, "reopened": True})
    deal.correct(version=1, tricks=9, actor=director)


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("seated", "reopened for the director's corrections"),
        ("phone", "reopened for the director's corrections"),
        ("elsewhere", "Only the players seated in this rubber or a director enter."),
        ("outsider", "Only the players seated in this rubber or a director enter."),
    ],
)
def test_a_reopened_session_names_the_reopening_only_to_who_would_enter(
    world: Any, kind: str, says: str
) -> None:
    """In a session reopened for corrections a seated player (or their table's phone) is told
    why they may no longer enter; a member elsewhere is told who enters, as in a running
    session: the reopening is not theirs to hear of (an outside probe found it said to all)."""
    rubber: Rubber = world["rubber"]
    actor = replace(world["actors"][kind], reopened=True)
    with unchanged(), pytest.raises(NotAllowed, match=re.escape(says)):
        rubber.record_deal(number=2, contract="1NT", declarer="E", tricks=7, actor=actor)
