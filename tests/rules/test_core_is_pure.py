"""The rules core (every `dixit` module) stays free of AWS and of anything outside the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import dixit

FORBIDDEN = ("boto3", "botocore", "aws_lambda_powertools", "moto")
CORE = Path(dixit.__file__).parent
SRC = CORE.parent


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def test_the_core_has_modules_to_check() -> None:
    names = {p.stem for p in core_files()}
    assert {"engine", "scoring", "state", "views", "bots", "cards", "settings", "errors", "moves"} <= names


def test_importing_every_core_module_loads_no_aws_library() -> None:
    script = f"""
import importlib, pkgutil, sys
for module in pkgutil.walk_packages(importlib.import_module("dixit").__path__, "dixit."):
    importlib.import_module(module.name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {FORBIDDEN!r})
assert not loaded, loaded
print(sorted(m for m in sys.modules if m.startswith("dixit")))
"""
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(SRC)!r})\n{script}"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "dixit.engine" in result.stdout


def test_core_source_imports_only_the_standard_library_and_dixit() -> None:
    allowed = set(sys.stdlib_module_names) | {"dixit", "__future__"}
    for path in core_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative import inside dixit
                    continue
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            where = f"{path.relative_to(SRC)}:{node.lineno}"
            for root in roots:
                assert root in allowed, f"{where} imports {root}"
                assert root not in FORBIDDEN
