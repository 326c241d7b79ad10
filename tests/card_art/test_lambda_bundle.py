"""Pillow and the art generator are developer tools: nothing Lambda ships may import them.

The one exception is the custom card ingest, which gets Pillow from CardIngestFunction's own layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
DEV_ONLY = {"PIL", "card_art"}
FROM_ITS_LAYER = {("app/decks/ingest.py", "PIL")}


def test_no_lambda_module_imports_pillow_or_the_art_generator() -> None:
    offenders: list[str] = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            where = path.relative_to(SRC).as_posix()
            offenders += [
                f"{where}: {n}"
                for n in names
                if n.split(".")[0] in DEV_ONLY and (where, n.split(".")[0]) not in FROM_ITS_LAYER
            ]
    assert offenders == []
