"""Which real services answer on this machine (used by the Makefile and the test fixtures).

`python -m tests.services postgres redis chromium` exits 0 when all answer. Under CI=true a
missing service is an error worth failing on; elsewhere the tests that need it are skipped with
the reason.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys

CHROMIUM = "/usr/bin/chromium"


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def postgres() -> str | None:
    """None when PostgreSQL answers, else the reason it does not."""
    if not _port_open("127.0.0.1", 5432):
        return "PostgreSQL is not listening on 127.0.0.1:5432"
    return None


def redis() -> str | None:
    if not _port_open("127.0.0.1", 6379):
        return "Redis is not listening on 127.0.0.1:6379"
    return None


def chromium() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    return None


CHECKS = {"postgres": postgres, "redis": redis, "chromium": chromium}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def main(names: list[str]) -> int:
    missing = [reason for name in names if (reason := CHECKS[name]()) is not None]
    for reason in missing:
        print(f"{'ERROR' if in_ci() else 'skipping'}: {reason}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
