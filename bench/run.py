"""`make bench`: run every benchmark in bench/ (bench_*.py) in turn.

Each benchmark measures itself against a baseline timed in the same run and writes its section of
docs/benchmarks.md. Benchmarks are never timed assertions in the test suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: What the benchmarks need from the settings: the HTTP baseline /bench/plain mounted, and, for
#: the parts that run Django in their own process, DEBUG on with the development key as under
#: `make run` (the servers they start set DEBUG off and a key of their own). The caller's
#: environment wins.
BENCH_ENV = {
    "BENCH_PLAIN": "true",
    "DEBUG": "true",
    "SECRET_KEY": "dev-insecure-key-for-local-use-only",
}


def main(selected: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if selected:
        scripts = [s for s in scripts if any(name in s.stem for name in selected)]
    status = 0
    for script in scripts:
        print(f"== {script.name}", flush=True)
        result = subprocess.run(
            [sys.executable, str(script)],
            cwd=HERE.parent,
            env={**BENCH_ENV, **os.environ, "BENCH_PLAIN": "true"},
            check=False,
        )
        status = status or result.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
