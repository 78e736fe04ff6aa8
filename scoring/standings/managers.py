"""The refresh bookkeeping shared by the state rows of every derived row (standings, ratings).

It reads its model from ``self.model``: the models import it, it imports none of them."""

from __future__ import annotations

import datetime
from datetime import timedelta
from typing import Any

from django.db import connection, models
from django.db.models import F, Q
from django.utils import timezone

# The refresh's two statements on the state rows, PostgreSQL only (elsewhere: the ORM, in a few
# more queries). Releasing returns the change counts in the same statement; stamping locks the
# rows, skips those a later computation has stored, and says which are stale, all at once.
# ``{table}`` and ``{key}`` are the state model's table and primary key column (quoted),
# ``{resets}`` sets its ``reset_when_computed`` columns to NULL.
_RELEASE_CLAIMS = """
    UPDATE {table} SET pending_since = NULL
    WHERE {key} = ANY(%s::bigint[])
    RETURNING {key}, dirty
"""
_MARK_COMPUTED = """
    UPDATE {table} AS state
    SET computed_dirty = seen.dirty, computed_at = %s, stale = state.dirty <> seen.dirty{resets}
    FROM unnest(%s::bigint[], %s::bigint[]) AS seen (key, dirty)
    WHERE state.{key} = seen.key AND state.computed_dirty <= seen.dirty
    RETURNING state.{key}, state.stale
"""


class RefreshStateQuerySet(models.QuerySet[Any]):
    """The refresh bookkeeping of rows derived from the deals, one state row per object they
    are derived for, keyed by that object's id (the state's primary key): a session's standings
    (``SessionStandingsState``), a club's ratings (``ClubRatingsState``). One mechanism for
    both: mark stale, claim the right to queue, release when the work starts, stamp when it is
    stored (docs/standings.md, docs/ratings.md)."""

    def _sql(self, template: str) -> str:
        quote = connection.ops.quote_name
        meta = self.model._meta
        resets = "".join(
            f", {quote(meta.get_field(name).column)} = NULL" for name in self._resets()
        )
        return template.format(table=quote(meta.db_table), key=quote(meta.pk.column), resets=resets)

    def _resets(self) -> tuple[str, ...]:
        return tuple(self.model.reset_when_computed)

    def mark_stale(self, key: int) -> None:
        """Say an object's derived rows are out of date: one cheap UPDATE (an INSERT the first
        time).

        Runs in the caller's transaction, so a rolled-back write marks nothing.
        """
        now = timezone.now()
        changes = {"stale": True, "dirty": F("dirty") + 1, "requested_at": now}
        if self.filter(pk=key).update(**changes):
            return
        self.bulk_create(
            [self.model(pk=key, stale=True, dirty=1, requested_at=now)],
            ignore_conflicts=True,
        )

    def claim(self, key: int, ttl: timedelta) -> bool:
        """Take the right to queue a refresh: True for one caller until a refresh starts.

        A claim older than ``ttl`` is taken over: its message was lost (a broker that restarted
        empty, a worker killed while holding it), so a new refresh must be queued.
        """
        now = timezone.now()
        free = Q(pending_since__isnull=True) | Q(pending_since__lt=now - ttl)
        return bool(self.filter(free, pk=key).update(pending_since=now))

    def release(self, key: int) -> None:
        """A refresh is starting (or could not be queued): the next write may queue again."""
        self.filter(pk=key).update(pending_since=None)

    def release_claims(self, keys: list[int]) -> dict[int, int]:
        """Refreshes of these objects are starting: give back their claims and return each
        one's change count (``dirty``) as it is at that moment (one statement on PostgreSQL)."""
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(self._sql(_RELEASE_CLAIMS), [keys])
                return dict(cursor.fetchall())
        self.filter(pk__in=keys, pending_since__isnull=False).update(pending_since=None)
        return dict(self.filter(pk__in=keys).values_list("pk", "dirty"))

    def mark_computed(self, seen: dict[int, int], at: datetime.datetime) -> dict[int, bool]:
        """Lock and stamp the state rows of freshly computed objects (``seen``: the change count
        each computation started from); return each one's ``stale`` (a write landed since).

        Stamping also empties the model's ``reset_when_computed`` fields. An object whose stored
        rows come from a later computation (it saw more changes) is neither stamped nor
        returned: its rows must stay. One statement on PostgreSQL. Run it in
        the transaction that writes the rows, so the row locks are held until they are stored.
        """
        if not seen:
            return {}
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(self._sql(_MARK_COMPUTED), [at, list(seen), list(seen.values())])
                return dict(cursor.fetchall())
        locked = self.select_for_update().filter(pk__in=list(seen))
        stale = {
            pk: dirty != seen[pk]
            for pk, dirty, computed in locked.values_list("pk", "dirty", "computed_dirty")
            if computed <= seen[pk]
        }
        fresh = [pk for pk, is_stale in stale.items() if not is_stale]
        resets = dict.fromkeys(self._resets())
        self.filter(pk__in=fresh).update(
            computed_dirty=F("dirty"), stale=False, computed_at=at, **resets
        )
        for pk in stale.keys() - set(fresh):
            self.filter(pk=pk).update(computed_dirty=seen[pk], stale=True, computed_at=at, **resets)
        return stale

    def needing_refresh(self, ttl: timedelta, also: Q | None = None) -> RefreshStateQuerySet:
        """Stale objects (or those matching ``also``) no live claim covers: the sweeper queues
        these."""
        cutoff = timezone.now() - ttl
        wanted = Q(stale=True) if also is None else Q(stale=True) | also
        return self.filter(wanted).filter(
            Q(pending_since__isnull=True) | Q(pending_since__lt=cutoff)
        )
