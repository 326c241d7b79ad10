"""Pillow and the art generator are developer tools: nothing Lambda ships may import them."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
DEV_ONLY = {"PIL", "card_art"}


def test_no_lambda_module_imports_pillow_or_the_art_generator() -> None:
    offenders: list[str] = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(SRC)}: {n}" for n in names if n.split(".")[0] in DEV_ONLY]
    assert offenders == []
