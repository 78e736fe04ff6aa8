"""Publish "changed" after each commit that changes what a pad or a console shows: one place,
the models' signals (connected by games.apps), for every verb that saves or deletes a deal, a
rubber, a session, a table, a seat at a table, a player (a seated player's name is on the pad),
a club or a membership (who may read). A write by `QuerySet.update` sends no signal: its verb
calls `changed_session` itself (games.sessions.table_changes).

A pad's channel told only of deals written (entered, corrected, confirmed, disputed, ruled,
deleted) is sent the pad's new version (`versions.rubber_version`, one query after the commit)
instead of "check again": a deal changes no one's right to read, so each of that pad's streams
passes the version on with no query of its own (games.push.views). Any other write (a table's
code, a session's status, a membership, a seat, a player) makes every stream it tells check
again who holds it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.sessions.models import Session as LoginSession
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save

from clubs.models import Club, Membership, Player, Session, Table, TableSeat

from ..models import Deal, Rubber
from . import broker, versions

log = logging.getLogger(__name__)

_ACTIVE = (Session.Status.PLANNED, Session.Status.RUNNING)


def _rubbers(rubbers: Any) -> list[str]:
    """The channels of these rubbers (a queryset): their own and their clubs' consoles."""
    found: list[str] = []
    for pk, club_id in rubbers.values_list("pk", "session__club_id"):
        found += [broker.rubber_channel(pk), broker.club_channel(club_id)]
    return found


def _session(session_id: int, club_id: int | None = None) -> list[str]:
    """A session's rubbers and its club's console."""
    if club_id is None:
        club_id = Session.objects.filter(pk=session_id).values_list("club_id", flat=True).first()
    found = _rubbers(Rubber.objects.filter(session_id=session_id))
    return found + ([broker.club_channel(club_id)] if club_id is not None else [])


def _console(session_id: int) -> list[str]:
    """The console of a session's club."""
    club_id = Session.objects.filter(pk=session_id).values_list("club_id", flat=True).first()
    return [] if club_id is None else [broker.club_channel(club_id)]


def _club(club_id: int) -> list[str]:
    """A club's console and the rubbers of its planned and running sessions."""
    rubbers = Rubber.objects.filter(session__club_id=club_id, session__status__in=_ACTIVE)
    return [broker.club_channel(club_id), *_rubbers(rubbers)]


class _Batch:
    """The channels a transaction's writes will publish: one publish after the commit, each
    channel once, however many rows (a deal, its rubber, ...) the transaction wrote."""

    def __init__(self) -> None:
        self.finders: dict[Any, Callable[[], Iterable[str]]] = {}
        self.flushed = False
        # where its first commit callback sits in the connection's list (`_pending`)
        self.first = len(connection.run_on_commit)

    def flush(self) -> None:
        """Run by the first of the transaction's commit callbacks; the others find it done."""
        if self.flushed:
            return
        self.flushed = True
        names: set[str] = set()
        checked: set[str] = set()  # told by a write other than a deal's
        for key, find in self.finders.items():
            try:
                found = set(find())
            except Exception:  # a push lost is a poll away: never fail the write
                log.warning("push: finding the channels failed", exc_info=True)
                continue
            names |= found
            if not (isinstance(key, tuple) and key[0] is Deal):
                checked |= found
        messages = dict.fromkeys(names, broker.CHECK)
        for name in names - checked:
            if name.startswith(_PAD):
                messages[name] = _pad_version(name)
        broker.publish(messages)


_PAD = broker.rubber_channel(0).removesuffix("0")


def _pad_version(channel: str) -> str:
    """The new version of the pad of a channel only deals' writes told, or CHECK if it cannot
    be read (the streams then read it themselves)."""
    try:
        return versions.rubber_version(int(channel.removeprefix(_PAD))) or broker.CHECK
    except Exception:  # a push lost is a poll away: never fail the write
        log.warning("push: reading the pad's version failed", exc_info=True)
        return broker.CHECK


def _batch() -> _Batch:
    """The open batch of this connection's transaction: a new one after a flush, or when the
    callbacks of the last one were dropped by a rollback."""
    batch: _Batch | None = getattr(connection, "_push_batch", None)
    if batch is None or batch.flushed or not _pending(batch):
        batch = _Batch()
        connection._push_batch = batch  # type: ignore[attr-defined]
    return batch


def _pending(batch: _Batch) -> bool:
    """Whether the batch's first commit callback is still waiting (a rollback drops it)."""
    waiting = connection.run_on_commit
    return (
        batch.first < len(waiting) and getattr(waiting[batch.first][1], "__self__", None) is batch
    )


def soon(channels: Callable[[], Iterable[str]], key: Any = None) -> None:
    """Publish the `channels` (found after the commit) once the transaction commits, merged
    with those of the transaction's other writes (`key`: the same row written twice is found
    once)."""
    batch = _batch()
    batch.finders[key if key is not None else object()] = channels
    transaction.on_commit(batch.flush)


def changed_session(session_id: int) -> None:
    """What a session's pads and console show changed (a write with no signal)."""
    soon(lambda: _session(session_id), key=("session", session_id))


def _channels_of(instance: Any) -> Callable[[], Iterable[str]] | None:
    """Long because it lists, model by model, which pads and consoles show it."""
    if isinstance(instance, Deal):
        rubber_id = instance.rubber_id
        read = _club_read_with(instance)
        if read is not None:  # its rubber and session were read with it: no query
            known: int = read
            return lambda: [broker.rubber_channel(rubber_id), broker.club_channel(known)]
        return lambda: _rubbers(Rubber.objects.filter(pk=rubber_id))
    if isinstance(instance, Rubber):
        pk, session_id = instance.pk, instance.session_id
        return lambda: [broker.rubber_channel(pk), *_console(session_id)]
    if isinstance(instance, Session):
        pk, club_id = instance.pk, instance.club_id
        return lambda: _session(pk, club_id)
    if isinstance(instance, Table):
        pk, session_id = instance.pk, instance.session_id
        return lambda: [*_rubbers(Rubber.objects.filter(table_id=pk)), *_console(session_id)]
    if isinstance(instance, TableSeat):
        table_id, session_id = instance.table_id, instance.session_id
        return lambda: [
            *_rubbers(Rubber.objects.filter(table_id=table_id)),
            *_console(session_id),
        ]
    if isinstance(instance, Player):
        pk, club_id = instance.pk, instance.club_id
        seated = Q(north_id=pk) | Q(east_id=pk) | Q(south_id=pk) | Q(west_id=pk)
        return lambda: [
            broker.club_channel(club_id),
            *_rubbers(Rubber.objects.filter(seated, session__status__in=_ACTIVE)),
        ]
    if isinstance(instance, (Club, Membership)):
        club_id = instance.pk if isinstance(instance, Club) else instance.club_id
        return lambda: _club(club_id)
    return None


def _club_read_with(deal: Deal) -> int | None:
    """The club of the deal's rubber when the deal holds its rubber and session as read (as
    `Rubber.record_deal` leaves them), else None."""
    if not Deal._meta.get_field("rubber").is_cached(deal):
        return None
    rubber = deal.rubber
    if rubber.pk != deal.rubber_id or not Rubber._meta.get_field("session").is_cached(rubber):
        return None
    return rubber.session.club_id


def _written(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # loaddata
        return
    channels = _channels_of(instance)
    if channels is not None:
        soon(channels, key=(type(instance), instance.pk))


def _signed_out(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A signed-in session ended (a sign-out, or deleted by an administrator): its streams
    check again, after the commit, and find no one signed in."""
    key = instance.session_key
    soon(lambda: [broker.login_channel(key)], key=("login", key))


def connect() -> None:
    """Connect the hooks (games.apps)."""
    for model in (Deal, Rubber, Session, Table, TableSeat, Player, Club, Membership):
        uid = f"games.push.{model.__name__}"
        post_save.connect(_written, sender=model, dispatch_uid=uid + ".save")
        post_delete.connect(_written, sender=model, dispatch_uid=uid + ".delete")
    post_delete.connect(_signed_out, sender=LoginSession, dispatch_uid="games.push.login.delete")
