"""Every write that changes what a pad or a console shows tells their streams after its commit
(issue 28): a deal recorded, corrected, deleted, confirmed, disputed or ruled; a session started,
closed or reopened; a table's code, a seat at a table, a player's name; a membership ended. And
nothing is told before the commit, nor when it rolls back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from clubs.models import Membership, TableSeat
from games.push import broker, versions
from games.sessions import lifecycle
from games.sessions.confirming import set_confirmation
from tests.factories import acting, make_session

pytestmark = pytest.mark.django_db

FIRST = {"contract": "2H", "declarer": "N", "tricks": 9}


@pytest.fixture
def told(monkeypatch: Any) -> list[str]:
    sent: list[str] = []
    monkeypatch.setattr(broker, "publish", lambda channels: sent.extend(channels))
    return sent


@pytest.fixture
def pad(rubber: Any, running_session: Any) -> Any:
    """The rubber with its first deal, its session asking opponents to confirm."""
    running_session.confirm_entries = True
    running_session.save()
    rubber.record_deal(number=1, **FIRST, actor=acting(rubber, rubber.seats["N"].user))
    return rubber


def tells(
    rubber: Any, write: Callable[[], Any], told: list[str], capture: Any, *, console: bool = True
) -> None:
    told.clear()
    with capture(execute=True) as callbacks:
        write()
        assert not told, "told before the commit"
    assert callbacks
    assert broker.rubber_channel(rubber.pk) in told
    if console:
        assert broker.club_channel(rubber.session.club_id) in told


WRITES: dict[str, Callable[[Any], Any]] = {
    "recorded": lambda r: r.record_deal(
        number=2, contract="pass", actor=acting(r, r.seats["N"].user)
    ),
    "corrected": lambda r: r.deals.get().correct(
        version=1, tricks=8, actor=acting(r, r.seats["N"].user)
    ),
    "deleted": lambda r: r.deals.get().delete_last(version=1, actor=acting(r, r.seats["N"].user)),
    "confirmed": lambda r: r.deals.get().confirm(version=1, actor=acting(r, player=r.seats["E"])),
    "disputed": lambda r: r.deals.get().dispute(version=1, actor=acting(r, player=r.seats["E"])),
    "closed": lambda r: lifecycle.session_close(session=r.session),
    "renamed": lambda r: r.seats["E"].__class__.objects.filter(pk=r.east_id).get().save(),
    "code regenerated": lambda r: r.table.save(),
    "seat left": lambda r: TableSeat.objects.filter(table=r.table).first().save(),
    # The pad and the console show whether the session asks for confirmation: switching it off
    # writes no deal (nothing stands), only the session's row, by an update with no signal.
    "session's confirmation switched off": lambda r: set_confirmation(
        club=r.session.club, on=False, session=r.session
    ),
}


@pytest.mark.parametrize("kind", list(WRITES))
def test_each_write_tells_the_pad_and_console(pad, told, django_capture_on_commit_callbacks, kind):
    tells(pad, lambda: WRITES[kind](pad), told, django_capture_on_commit_callbacks)


def test_a_ruling_and_a_reopening_tell_them(pad, told, django_capture_on_commit_callbacks):
    deal = pad.deals.get()
    deal.dispute(version=1, actor=acting(pad, player=pad.seats["E"]))
    deal.refresh_from_db()
    tells(
        pad,
        lambda: deal.rule(version=deal.version, actor=acting(pad, None)),
        told,
        django_capture_on_commit_callbacks,
    )
    lifecycle.session_close(session=pad.session)
    tells(
        pad,
        lambda: lifecycle.session_reopen(session=pad.session),
        told,
        django_capture_on_commit_callbacks,
    )


def test_a_session_started_tells_the_console_and_its_new_pads(
    club, table_of_four, told, django_capture_on_commit_callbacks
):
    session = make_session(club, [list(table_of_four.values())], start=False)
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.session_start(session=session)
    rubber = session.rubbers.get(number=1)
    assert {broker.rubber_channel(rubber.pk), broker.club_channel(club.pk)} <= set(told)


def test_a_membership_ended_tells_the_clubs_pads(pad, told, django_capture_on_commit_callbacks):
    member = Membership.objects.filter(club=pad.session.club).first()
    tells(pad, member.delete, told, django_capture_on_commit_callbacks)


def test_a_transactions_writes_publish_each_channel_once(
    pad, monkeypatch, django_capture_on_commit_callbacks
):
    """A deal writes its row and its rubber's; a table saved beside it: one publish in all."""
    calls: list[list[str]] = []
    monkeypatch.setattr(broker, "publish", lambda channels: calls.append(sorted(channels)))
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        WRITES["recorded"](pad)
        WRITES["code regenerated"](pad)
    assert len(callbacks) > 1
    assert calls == [
        sorted({broker.rubber_channel(pad.pk), broker.club_channel(pad.session.club_id)})
    ]


def test_a_write_rolled_back_tells_nothing(pad, told, django_capture_on_commit_callbacks):
    told.clear()
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        WRITES["recorded"](pad)
        raise RuntimeError
    assert not told


@pytest.fixture
def messages(monkeypatch: Any) -> list[dict[str, str]]:
    sent: list[dict[str, str]] = []
    monkeypatch.setattr(broker, "publish", lambda channels: sent.append(dict(channels)))
    return sent


# Committed: the set-up's writes publish their own batch, not this one's.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["recorded", "corrected", "deleted", "confirmed", "disputed"])
def test_a_deals_write_sends_its_pad_the_new_version(pad, messages, kind):
    """A deal changes no one's right to read: its pad's streams get the version they would
    have read (the console, whose version is not the pad's, checks again)."""
    messages.clear()
    WRITES[kind](pad)
    assert messages == [
        {
            broker.rubber_channel(pad.pk): versions.rubber_version(pad.pk),
            broker.club_channel(pad.session.club_id): broker.CHECK,
        }
    ]
    assert messages[0][broker.rubber_channel(pad.pk)] != broker.CHECK


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["code regenerated", "seat left", "renamed"])
def test_any_other_write_beside_a_deal_makes_the_streams_check(pad, messages, kind):
    """A table's code, a seat, a name: who may read, or what a viewer is, may have changed."""
    messages.clear()
    with transaction.atomic():
        WRITES["recorded"](pad)
        WRITES[kind](pad)
    assert messages == [
        {
            broker.rubber_channel(pad.pk): broker.CHECK,
            broker.club_channel(pad.session.club_id): broker.CHECK,
        }
    ]


def test_a_sign_out_tells_the_streams_of_that_login(
    client, director, told, django_capture_on_commit_callbacks
):
    from django.contrib.sessions.models import Session as LoginSession

    client.force_login(director)
    key = client.session.session_key
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        LoginSession.objects.get(session_key=key).delete()
        assert not told, "told before the commit"
    assert broker.login_channel(key) in told
    assert not any(key in channel for channel in told), "a session's key is a credential"
