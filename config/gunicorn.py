"""The web processes: `gunicorn -c config/gunicorn.py --bind HOST:PORT` (docs/deploy.md).

`make serve`, the integration tests and the HTTP benchmark start the web server with this file, so
they run what production runs: gunicorn supervising uvicorn workers that serve Django over ASGI.
An asyncio worker reads every connection's headers as they arrive, so a slow client holds a
socket, not a worker (gunicorn's sync workers each blocked on one client's headers: four slow
sockets took the site down, docs/security.md). Django runs each request's sync views in a thread
of its own there, which is why the ASGI entry point (config/asgi.py) turns the database
connection pool on.
"""

import asyncio
import gc
import os
import sys
from typing import Any

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

wsgi_app = "config.asgi:application"
worker_class = "config.gunicorn.Worker"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Workers that stop answering gunicorn's heartbeat are replaced after this many seconds; on
# SIGTERM, requests in flight get graceful_timeout seconds to finish.
timeout = 30
graceful_timeout = 10
accesslog = "-"
# An idle kept-alive connection is closed after this many seconds (uvicorn's default); a proxy
# that keeps connections to the web processes must close them sooner (docs/deploy.md).
keepalive = 5


def post_worker_init(worker: Any) -> None:
    """Build the scoring tables (once per process, ~0.2 s) before the worker takes requests: a
    worker serves its first requests at once, each in a thread, and each would build them.

    Then move everything loaded so far (Django, the apps, those tables: ~275,000 objects) out of
    the cycle collector's reach (`gc.freeze`). A full collection walked them all, 50-130 ms with
    the process's requests stalled, every few thousand requests: the slowest answers under load
    (docs/benchmarks.md). They live as long as the process, so the collector has nothing to find
    in them."""
    from scoring.rules.rubber import rubber_table

    rubber_table()
    gc.collect()
    gc.freeze()


class QuietServer(Server):
    """uvicorn's server, woken once a second instead of ten times. Its tick only refreshes the
    Date header (once a second all the same), tells gunicorn it is alive and sees whether it
    should stop (a SIGTERM is acted on within a second, not a tenth): ten wake-ups a second cost
    each idle worker 0.25% of a core, the most of an idle room's CPU (docs/benchmarks.md)."""

    TICK_SECONDS = 1.0

    async def main_loop(self) -> None:
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            # uvicorn counts tenths of a second: each tick here is ten of them.
            counter = (counter + 10) % 864000
            await asyncio.sleep(self.TICK_SECONDS)
            should_exit = await self.on_tick(counter)


class Worker(UvicornWorker):
    """uvicorn in a gunicorn worker, with three changes from the package's defaults.

    - The client's address is the socket's: the application alone reads `X-Forwarded-For`, as
      far as `NUM_PROXIES` says (config/throttling.py), so the throttles and the login lockout
      count the same client under any server. uvicorn's own proxy handling would otherwise
      replace the address with whatever a client on the proxy's host wrote in the header.
    - No ASGI lifespan: Django has none, and uvicorn would log that at every start.
    - Its server ticks once a second (`QuietServer`).
    """

    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "proxy_headers": False,
        "lifespan": "off",
    }

    async def _serve(self) -> None:
        """uvicorn_worker's, with `QuietServer`."""
        self.config.app = self.wsgi
        server = QuietServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
