"""The AWS SDK (boto3, botocore, s3transfer and the boto3 type stubs) is imported only under src/app/aws.

lint-imports checks what runs (it leaves out imports under TYPE_CHECKING); this reads every import
statement, so a feature naming an SDK type for mypy only is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src"
ADAPTERS = SRC / "app" / "aws"


def is_sdk(module: str) -> bool:
    root = module.split(".")[0]
    return root in {"boto3", "botocore", "s3transfer"} or root.startswith("mypy_boto3")


def sdk_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found += [f"{path.relative_to(SRC)}:{node.lineno} imports {name}" for name in names if is_sdk(name)]
    return found


def test_only_app_aws_imports_the_aws_sdk_even_for_type_checking() -> None:
    outside = [p for p in sorted(SRC.rglob("*.py")) if ADAPTERS not in p.parents]
    assert [line for path in outside for line in sdk_imports(path)] == []


def test_the_adapters_are_where_the_sdk_is_imported() -> None:
    inside = {path.relative_to(ADAPTERS).as_posix() for path in ADAPTERS.rglob("*.py") if sdk_imports(path)}
    assert {"clients.py", "s3.py", "ses.py", "sns.py", "sqs.py", "dynamodb/table.py"} <= inside
