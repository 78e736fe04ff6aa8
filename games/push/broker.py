"""The push channel's fan-out. `publish` is called after a commit (games.push.hooks) from any
thread; `subscribe` hands an async stream its own queue of channel names.

With `REDIS_URL` a publish goes to Redis (one PUBLISH per channel) and each web process's event
loop holds one Redis connection, subscribed to the pattern of every channel, which delivers to
the queues of its own streams: several processes and hosts serve one room, and a process's
hundreds of idle streams cost one connection. Without Redis (`make run`) a publish is delivered
in this process only.

Each message says what its channel's streams must do: `CHECK` (read again whether who holds
them may still read, and their version), or the new version itself, when only what the pad
shows changed (a deal written: games.push.hooks), which a stream passes on with no query."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import threading
from collections.abc import Iterable, Mapping

import redis
from django.conf import settings

log = logging.getLogger(__name__)

PREFIX = "backscore:push:"
#: A message that tells the streams to check again (who may read, and their version).
CHECK = "1"
_VERSION = re.compile(r"[0-9a-f]{16}")

#: One change heard by a stream: its channel, and the version it brings (None: check again).
Change = tuple[str, str | None]

# channel -> the (loop, queue) of each stream listening to it, in this process
_listeners: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Change]]]] = {}
_lock = threading.Lock()
# the Redis listening task of each event loop
_readers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
# set while that loop's Redis subscription is up
_subscribed: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}
_client: redis.Redis | None = None


def rubber_channel(pk: int) -> str:
    return f"rubber:{pk}"


def club_channel(pk: int) -> str:
    return f"club:{pk}"


def login_channel(session_key: str) -> str:
    """The channel of the streams held by one signed-in session (a digest: the key itself is a
    credential, never written to Redis)."""
    return "login:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def deliver(channel: str, message: str = CHECK) -> None:
    """Tell this process's streams of `channel` that it changed (from any thread): `message`
    is `CHECK` or the channel's new version."""
    change: Change = (channel, message if _VERSION.fullmatch(message) else None)
    with _lock:
        targets = list(_listeners.get(channel, ()))
    for loop, queue in targets:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, change)
        except RuntimeError:  # its loop has closed: the stream is gone
            continue


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_connect_timeout=1,
            socket_timeout=1,
            **settings.REDIS_CLIENT_OPTIONS,
        )
    return _client


def publish(channels: Mapping[str, str] | Iterable[str]) -> None:
    """Tell every process's streams of each of `channels` that it changed: a mapping gives
    each channel its message (`CHECK` or its new version), a list checks them all. A Redis
    that is down loses the event (logged): the pads' poll still brings the change."""
    messages = dict(channels) if isinstance(channels, Mapping) else dict.fromkeys(channels, CHECK)
    names = sorted(messages)
    if not names:
        return
    if not settings.REDIS_URL:
        for name in names:
            deliver(name, messages[name])
        return
    try:
        pipe = _redis().pipeline(transaction=False)
        for name in names:
            pipe.publish(PREFIX + name, messages[name])
        pipe.execute()
    except Exception:  # a push lost is a poll away: never fail the write
        log.warning("push: publish to Redis failed", exc_info=True)


def _deliver_all() -> None:
    """Tell every stream of this process to check its version again (what was published while
    the subscription was down is lost: pub/sub keeps no history)."""
    with _lock:
        names = list(_listeners)
    for name in names:
        deliver(name)


async def _read_redis(up: asyncio.Event) -> None:
    """This loop's one Redis subscription: every push channel, delivered to its streams here.
    Reconnects with a back-off while Redis is down or after it dropped the connection, then has
    every stream check again, for the changes published meanwhile."""
    import redis.asyncio as aioredis

    delay = 0.5
    lost = False
    while True:
        client = aioredis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, **settings.REDIS_CLIENT_OPTIONS
        )
        try:
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.psubscribe(PREFIX + "*")
            if lost:
                _deliver_all()
                lost = False
            up.set()
            delay = 0.5
            async for message in pubsub.listen():
                if message.get("type") == "pmessage":
                    channel = message["channel"]
                    data = message.get("data", CHECK)
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    if isinstance(data, bytes):
                        data = data.decode(errors="replace")
                    deliver(channel.removeprefix(PREFIX), str(data))
        except asyncio.CancelledError:
            raise
        except Exception:  # Redis down, or the connection dropped: subscribe again
            lost = True
            log.warning("push: Redis subscription lost", exc_info=True)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)
        finally:
            up.clear()
            await client.aclose()


class Subscription:
    """A stream's queue of the names of its channels as they change."""

    def __init__(self, channels: Iterable[str]) -> None:
        self.channels = tuple(channels)
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Change] = asyncio.Queue()
        with _lock:
            for name in self.channels:
                _listeners.setdefault(name, set()).add((self.loop, self.queue))
        if settings.REDIS_URL:
            task = _readers.get(self.loop)
            if task is None or task.done():
                up = _subscribed.setdefault(self.loop, asyncio.Event())
                _readers[self.loop] = self.loop.create_task(_read_redis(up))

    async def ready(self, timeout: float = 2.0) -> bool:
        """Wait (at most `timeout` seconds) until this process hears Redis, so that nothing
        published after the stream's first event is missed. True if it does."""
        if not settings.REDIS_URL:
            return True
        try:
            await asyncio.wait_for(_subscribed[self.loop].wait(), timeout)
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        with _lock:
            for name in self.channels:
                found = _listeners.get(name)
                if found is not None:
                    found.discard((self.loop, self.queue))
                    if not found:
                        del _listeners[name]

    async def changes(self, timeout: float) -> list[Change] | None:
        """The changes heard, as soon as there is one (with those queued behind it: one event
        tells them all), or None after `timeout` seconds of nothing."""
        try:
            found = [await asyncio.wait_for(self.queue.get(), timeout)]
        except TimeoutError:
            return None
        while not self.queue.empty():
            found.append(self.queue.get_nowait())
        return found


def listening(channel: str) -> int:
    """How many streams of this process listen to `channel` (tests)."""
    with _lock:
        return len(_listeners.get(channel, ()))
