"""Under CI=true nothing is skipped silently (issue 16): a skip fails, an expected failure stays."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import fail_a_skip_under_ci


def report(outcome: str, **extra: Any) -> pytest.TestReport:
    return pytest.TestReport(
        nodeid="tests/test_x.py::test_x",
        location=("tests/test_x.py", 1, "test_x"),
        keywords={},
        outcome=outcome,
        longrepr=("tests/test_x.py", 1, "Skipped: no Chromium") if outcome == "skipped" else None,
        when="call",
        **extra,
    )


def test_a_skip_fails_under_ci(monkeypatch: Any) -> None:
    monkeypatch.setenv("CI", "true")
    skipped = report("skipped")
    fail_a_skip_under_ci(skipped)
    assert skipped.failed
    assert "no Chromium" in str(skipped.longrepr)


def test_a_skip_stays_a_skip_on_a_developers_machine(monkeypatch: Any) -> None:
    monkeypatch.delenv("CI", raising=False)
    skipped = report("skipped")
    fail_a_skip_under_ci(skipped)
    assert skipped.skipped


def test_an_expected_failure_is_not_a_skip(monkeypatch: Any) -> None:
    monkeypatch.setenv("CI", "true")
    xfailed = report("skipped", wasxfail="a known bug")
    fail_a_skip_under_ci(xfailed)
    assert xfailed.skipped
