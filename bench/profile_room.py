"""A deal's requests in one process, in CPU milliseconds, through the web processes' ASGI handler.

    .venv/bin/python bench/profile_room.py [--deals 60] [--warm 30] [--handler site|django]

bench_room.py's room (30 tables of four, three deals a pad, the console) on a scratch database
(``PROFILE_ROOM_DB``, default backscore_bench_profile). Each deal is what the room's web
processes do for it on push: the deal's POST through the API, then the GETs of its table's four
pads' live parts and of the console's, each with the ETag its client held (each a 200 with the
new pad). The requests go through the ASGI application as uvicorn hands them over (a scope,
receive and send), one at a time: `config.asgi.application` (``--handler site``), or Django's
own ASGIHandler (``--handler django``). With ``PROFILE_ROOM_REDIS`` (default
redis://127.0.0.1:6379/15) the POST publishes its push and queues the standings refresh as the
web process does; nothing here runs the refresh, and the queue is emptied at the end.

CPU is this process's (every thread's: the handler runs a request's sync part in a thread),
``time.process_time()`` around each request; the medians of ``--deals`` deals after ``--warm``
more. Prints JSON; writes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_room
from common import ROOT, django_env, psql, scratch_database

DB = os.environ.get("PROFILE_ROOM_DB", "backscore_bench_profile")
REDIS = os.environ.get("PROFILE_ROOM_REDIS", "redis://127.0.0.1:6379/15")


async def _call(
    app: Any, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> Any:
    """One request through the ASGI `app`: (status, headers, body)."""
    path, _, query = path.partition("?")
    if body:
        headers = {**headers, "Content-Length": str(len(body))}
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1")]
        + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    answer: dict[str, Any] = {"body": b""}
    read = False

    async def receive() -> dict[str, Any]:
        nonlocal read
        if not read:
            read = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        else:
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer["status"], answer["headers"], answer["body"]


async def _timed(app: Any, *args: Any) -> tuple[float, Any]:
    began = time.process_time()
    answer = await _call(app, *args)
    return (time.process_time() - began) * 1000, answer


async def run(app: Any, info: dict[str, Any], deals: int, warm: int) -> dict[str, Any]:
    clients = info["clients"]  # (live, events, cookie, rubber): 120 phones, then the console
    etags: dict[str, str] = {}

    async def get(live: str, cookie: str) -> float:
        headers = {"Cookie": cookie}
        if live in etags:
            headers["If-None-Match"] = etags[live]
        ms, (status, answered, _) = await _timed(app, "GET", live, headers)
        assert status in (200, 304), (live, status)
        etags[live] = answered.get("etag", etags.get(live, ""))
        return ms

    for live, _events, cookie, _rubber in clients:
        await get(live + "", cookie)
    rubbers = info["rubbers"]
    numbers = info["next_numbers"]
    token = info["token"]
    console = clients[-1]
    posts, pads, consoles, totals = [], [], [], []
    for i in range(warm + deals):
        rubber = rubbers[i % len(rubbers)]
        number = numbers[str(rubber)]
        numbers[str(rubber)] = number + 1
        contract, declarer, tricks = bench_room.DOWNS[number % len(bench_room.DOWNS)]
        body = json.dumps(
            {"number": number, "contract": contract, "declarer": declarer, "tricks": tricks}
        ).encode()
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        post_ms, (status, _, said) = await _timed(
            app, "POST", f"/api/v1/rubbers/{rubber}/deals/", headers, body
        )
        assert status == 201, (status, said[:300])
        table = [c for c in clients[:-1] if c[3] == rubber]
        pad_ms = [await get(live, cookie) for live, _e, cookie, _r in table]
        console_ms = await get(console[0], console[2])
        if i >= warm:
            posts.append(post_ms)
            pads.extend(pad_ms)
            consoles.append(console_ms)
            totals.append(post_ms + sum(pad_ms) + console_ms)
    return {
        "deals": deals,
        "post_ms": round(statistics.median(posts), 1),
        "pad_get_ms": round(statistics.median(pads), 1),
        "console_get_ms": round(statistics.median(consoles), 1),
        "deal_ms": round(statistics.median(totals), 1),
        "deal_ms_mean": round(statistics.fmean(totals), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--handler", choices=("site", "django"), default="site")
    args = parser.parse_args()
    url = scratch_database(DB)
    info = bench_room._setup(url)
    psql("ANALYZE", DB)
    env = django_env(url, **{**bench_room.SERVER_ENV, "REDIS_URL": REDIS})
    env["ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ.clear()
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import logging

    from config.asgi import application  # the pool's size, as the web processes have it

    logging.disable(logging.WARNING)
    app: Any = application
    if args.handler == "django":
        from django.core.handlers.asgi import ASGIHandler

        app = ASGIHandler()
    try:
        result = asyncio.run(run(app, info, args.deals, args.warm))
    finally:
        from config.celery import app as celery

        celery.control.purge()
    print(json.dumps({"handler": type(app).__module__ + "." + type(app).__name__, **result}))
    return 0


if __name__ == "__main__":
    os.environ.pop("REDIS_URL", None)
    # The set-up and migrations run as bench_room.py's do; the requests with its server's env.
    os.environ.setdefault("DEBUG", "true")
    os.environ.setdefault("SECRET_KEY", "dev-insecure-key-for-local-use-only")
    sys.exit(main())
