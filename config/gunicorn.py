"""The web processes: `gunicorn -c config/gunicorn.py --bind HOST:PORT` (docs/deploy.md).

`make serve`, the integration tests and the HTTP benchmark start the web server with this file, so
they run what production runs: gunicorn supervising uvicorn workers that serve Django over ASGI.
An asyncio worker reads every connection's headers as they arrive, so a slow client holds a
socket, not a worker (gunicorn's sync workers each blocked on one client's headers: four slow
sockets took the site down, docs/security.md). Django runs each request's sync views in a thread
of its own there, which is why the ASGI entry point (config/asgi.py) turns the database
connection pool on.
"""

import os
from typing import Any

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
    worker serves its first requests at once, each in a thread, and each would build them."""
    from scoring.rules.rubber import rubber_table

    rubber_table()


class Worker(UvicornWorker):
    """uvicorn in a gunicorn worker, with two changes from the package's defaults.

    - The client's address is the socket's: the application alone reads `X-Forwarded-For`, as
      far as `NUM_PROXIES` says (config/throttling.py), so the throttles and the login lockout
      count the same client under any server. uvicorn's own proxy handling would otherwise
      replace the address with whatever a client on the proxy's host wrote in the header.
    - No ASGI lifespan: Django has none, and uvicorn would log that at every start.
    """

    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "proxy_headers": False,
        "lifespan": "off",
    }
