"""How the nightly rebuild cuts the sessions into chunks (``standings_rebuild_begin``): every
session once, in order, in chunks as even as whole chunks allow, so no worker is left running a
sliver of a chunk alone after the others have finished (docs/standings.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import services
from scoring.standings.models import SessionStandingsState
from scoring.standings.services import _even_chunks


def test_a_last_sliver_is_shared_out_instead_of_run_alone() -> None:
    chunks = _even_chunks(list(range(1201)), 200)
    assert [len(chunk) for chunk in chunks] == [201, 200, 200, 200, 200, 200]


def test_more_than_half_a_chunk_left_over_makes_a_chunk_of_its_own() -> None:
    assert [len(chunk) for chunk in _even_chunks(list(range(1350)), 200)] == [193] * 6 + [192]
    assert [len(chunk) for chunk in _even_chunks(list(range(12)), 3)] == [3, 3, 3, 3]


def test_fewer_sessions_than_a_chunk_make_one_chunk_and_none_make_none() -> None:
    assert _even_chunks([7, 8], 200) == [[7, 8]]
    assert _even_chunks([], 200) == []


@given(count=st.integers(0, 2000), size=st.integers(1, 300))
def test_every_session_once_in_order_in_chunks_within_half_a_chunk(count: int, size: int) -> None:
    ids = list(range(1, count + 1))
    chunks = _even_chunks(ids, size)
    assert [pk for chunk in chunks for pk in chunk] == ids
    lengths = [len(chunk) for chunk in chunks]
    assert all(lengths) and max(lengths, default=0) - min(lengths, default=0) <= 1
    if count >= size:  # a smaller night is one chunk, however small
        assert all(size / 2 <= length <= size * 1.5 for length in lengths)


@pytest.mark.django_db
def test_begin_stamps_every_session_of_its_chunks(room, running_session, settings) -> None:
    settings.STANDINGS_REBUILD_CHUNK = 1
    for session in (room, running_session):
        services.standings_refresh(session_id=session.pk)
    chunks = services.standings_rebuild_begin()
    assert sorted(pk for chunk in chunks for pk in chunk) == sorted([room.pk, running_session.pk])
    stamped = SessionStandingsState.objects.filter(rebuild_queued_at__isnull=False)
    assert sorted(stamped.values_list("session_id", flat=True)) == sorted(
        [room.pk, running_session.pk]
    )


@pytest.mark.django_db
def test_begin_with_no_session_sends_no_chunk() -> None:
    assert services.standings_rebuild_begin() == []


@pytest.mark.parametrize("size", [0, -3])
def test_a_chunk_of_no_session_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="at least one session"):
        _even_chunks([1, 2, 3], size)
