"""Tests share helpers through tests/support and doubles through tests/fakes, never through a conftest."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def conftest_import_lines(source: str) -> list[int]:
    """The lines of `source` that import a conftest module or something from one."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        if any(part == "conftest" for name in names for part in name.split(".")):
            lines.append(node.lineno)
    return lines


def test_no_test_module_or_conftest_imports_from_a_conftest() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in conftest_import_lines(path.read_text())
    ]
    assert found == []


def test_every_way_of_importing_a_conftest_is_seen() -> None:
    source = (
        "from .conftest import TABLE\n"
        "from ..api.conftest import aws\n"
        "from tests.api import conftest\n"
        "import tests.webhooks.conftest\n"
        "from tests.support.aws import TABLE\n"
    )
    assert conftest_import_lines(source) == [1, 2, 3, 4]
