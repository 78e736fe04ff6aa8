"""Fuzz every API operation as an outsider and anonymously (tests/security/fuzz.py says how)."""

from __future__ import annotations

from typing import Any

import pytest
from schemathesis.generation.case import Case

from tests.security.conftest import World, build_world
from tests.security.fuzz import CHECKS, fuzz_settings, schema, token_header


@pytest.fixture
def fuzz_world(director: Any) -> World:
    return build_world(director)


@schema.parametrize()
@fuzz_settings(max_examples=12)
def test_the_api_as_an_outsider(case: Case, fuzz_world: World) -> None:
    case.call_and_validate(headers=token_header(fuzz_world.users["outsider"]), checks=CHECKS)


@schema.parametrize()
@fuzz_settings(max_examples=6)
def test_the_api_anonymously(case: Case, fuzz_world: World) -> None:
    case.call_and_validate(checks=CHECKS)
