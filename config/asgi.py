"""The ASGI application the web processes serve (config/gunicorn.py, docs/deploy.md).

Django runs each request's sync views and middleware in a thread of its own under ASGI, and a
kept database connection belongs to one thread: without a pool every request would connect
anew (4x slower, STACK.md), and under load the finished threads' connections pile up until
collected (past 45 in seconds, docs/benchmarks.md). So this entry point turns on the psycopg
pool shared by the process's threads (config/settings.py) unless the environment chose a size.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_POOL_MAX_SIZE", "4")

application = get_asgi_application()
