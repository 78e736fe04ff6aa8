"""The house's sizes (issue 27): no module over 600 lines in clubs/, games/, scoring/ and config/
(migrations aside), and no function over 60 lines unless its docstring says why ("Long
because ...")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("clubs", "games", "scoring", "config")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
REASON = "Long because"


def modules(package: str) -> list[Path]:
    """The package's Python modules, migrations aside."""
    return sorted(path for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts)


def line_count(source: str) -> int:
    return len(source.splitlines())


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each function or method over ``limit`` lines (from its
    ``def`` to its last line) whose docstring does not say why it is long."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length > limit and REASON not in (ast.get_docstring(node) or ""):
            found.append((node.name, node.lineno, length))
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_600_lines(package: str) -> None:
    too_long = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for path in modules(package)
        if (lines := line_count(path.read_text(encoding="utf-8"))) > MAX_MODULE_LINES
    ]
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines, to split:\n" + "\n".join(too_long)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_function_is_over_60_lines_without_a_reason(package: str) -> None:
    too_long = [
        f"{path.relative_to(ROOT)}:{line} {name}: {length} lines"
        for path in modules(package)
        for name, line, length in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert not too_long, (
        f"functions over {MAX_FUNCTION_LINES} lines: split them, or say why in the docstring "
        f'("{REASON} ..."):\n' + "\n".join(too_long)
    )


def _function(lines: int, docstring: str = "A function.") -> str:
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 2))
    return f'def f():\n    """{docstring}"""\n{body}'


def test_the_checks_find_a_long_function_and_accept_a_reason() -> None:
    assert long_functions(_function(60)) == []
    assert long_functions(_function(61)) == [("f", 1, 61)]
    method = "class C:\n" + "".join("    " + line + "\n" for line in _function(61).splitlines())
    assert long_functions(method) == [("f", 2, 61)]
    assert long_functions(_function(61, "Long because a table of cases reads best whole.")) == []


def test_the_checks_count_a_module_s_lines_and_leave_out_migrations() -> None:
    assert line_count(_function(601)) == 601
    assert all("migrations" not in path.parts for path in modules("games"))
    assert any("migrations" in path.parts for path in (ROOT / "games").rglob("*.py"))
