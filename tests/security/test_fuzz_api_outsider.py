"""Fuzz every API operation as an outsider and anonymously (tests/security/fuzz.py says how)."""

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
@fuzz_settings(max_examples=12)
def test_the_api_as_an_outsider(case: Case, fuzz_world: World) -> None:
    headers = token_header(fuzz_world.users["outsider"])
    before = snapshot()
    response = case.call_and_validate(headers=headers, checks=CHECKS)
    if response.status_code >= 400 and case.method != "GET":
        assert_same(before, snapshot())  # a refused write changed nothing


@schema.parametrize()
@fuzz_settings(max_examples=6)
def test_the_api_anonymously(case: Case, fuzz_world: World) -> None:
    before = snapshot()
    response = case.call_and_validate(checks=CHECKS)
    if response.status_code >= 400 and case.method != "GET":
        assert_same(before, snapshot())  # a refused write changed nothing
