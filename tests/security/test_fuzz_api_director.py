"""Fuzz every API operation as the club's director (tests/security/fuzz.py says how)."""

from __future__ import annotations

from typing import Any

import pytest
from schemathesis.generation.case import Case

from tests.conftest import assert_same, snapshot
from tests.security.conftest import World, build_world
from tests.security.fuzz import CHECKS, fuzz_settings, schema, token_header


@pytest.fixture
def fuzz_world(director: Any) -> World:
    return build_world(director)


@schema.parametrize()
@fuzz_settings()
def test_the_api_as_a_director(case: Case, fuzz_world: World) -> None:
    headers = token_header(fuzz_world.users["director"])
    before = snapshot()
    response = case.call_and_validate(headers=headers, checks=CHECKS)
    if response.status_code >= 400 and case.method != "GET":
        assert_same(before, snapshot())  # a refused write changed nothing
