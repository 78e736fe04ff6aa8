"""The Italian catalogue compiled before the i18n tests, so they pass without `make messages`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def compile_catalogue() -> None:
    """Compile the .po when the .mo is missing or older, atomically (xdist workers race)."""
    if MO.exists() and MO.stat().st_mtime >= PO.stat().st_mtime:
        return
    tmp = MO.with_name(f"django.mo.{os.getpid()}")
    polib.pofile(str(PO)).save_as_mofile(str(tmp))
    os.replace(tmp, MO)


@pytest.fixture(scope="session", autouse=True)
def _italian_catalogue() -> Iterator[None]:
    from django.utils.translation import trans_real

    from scoring.shared.i18n import templates_for

    compile_catalogue()
    # A catalogue loaded before the compile would be stale: load them afresh.
    trans_real._translations = {}
    templates_for.cache_clear()
    yield


@pytest.fixture
def italian() -> Iterator[None]:
    from django.utils import translation

    with translation.override("it"):
        yield


@pytest.fixture
def italian_club(club: Any) -> Any:
    club.language = "it"
    club.save(update_fields=["language"])
    return club


@pytest.fixture(autouse=True)
def _back_to_the_default_language() -> Iterator[None]:
    """A request leaves its language active in the thread: tests after these start in English."""
    from django.utils import translation

    yield
    translation.deactivate()
