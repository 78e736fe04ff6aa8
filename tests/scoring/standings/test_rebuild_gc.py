"""The rebuild's chunks run without Python's cycle collector, and give it back as it was
(scoring/standings/services.py ``_without_cycle_collection``; docs/benchmarks.md)."""

import gc
from collections.abc import Iterator

import pytest

from scoring.standings import services


@pytest.fixture
def collector_on() -> Iterator[None]:
    yield from _collector(on=True)


@pytest.fixture
def collector_off() -> Iterator[None]:
    yield from _collector(on=False)


def _collector(*, on: bool) -> Iterator[None]:
    """The cycle collector on or off for a test, then as the run had it."""
    was_on = gc.isenabled()
    gc.enable() if on else gc.disable()
    try:
        yield
    finally:
        gc.enable() if was_on else gc.disable()


def test_a_chunk_is_computed_with_the_collector_off_then_it_is_back(
    collector_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = []
    monkeypatch.setattr(
        services, "_refresh_sessions", lambda ids, compute, **kw: seen.append(gc.isenabled()) or {}
    )
    services.standings_rebuild_chunk(session_ids=[1, 2])
    assert seen == [False]
    assert gc.isenabled()


def test_the_collector_comes_back_when_the_chunk_fails(
    collector_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "_refresh_sessions", fail)
    with pytest.raises(RuntimeError):
        services.standings_rebuild_chunk(session_ids=[1])
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off(
    collector_off: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "_refresh_sessions", lambda *a, **kw: {})
    services.standings_rebuild_chunk(session_ids=[1])
    assert not gc.isenabled()
