"""The ASGI application the web processes serve (config/gunicorn.py, docs/deploy.md).

Django runs each request's sync views and middleware in a thread of its own under ASGI, and a
kept database connection belongs to one thread: without a pool every request would connect
anew (4x slower, STACK.md), and under load the finished threads' connections pile up until
collected (past 45 in seconds, docs/benchmarks.md). So this entry point turns on the psycopg
pool shared by the process's threads (config/settings.py) unless the environment chose a size.
The handler is Django's with the sync work of a request in one thread hand-over (config/handler.py).
"""

import os

import django

from config.handler import Handler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_POOL_MAX_SIZE", "4")

django.setup(set_prefix=False)

application = Handler()
