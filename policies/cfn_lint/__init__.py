"""The stack's policies as cfn-lint custom rules (``E93xx``), run on the translated stack.

From the command line, on the JSON ``python -m policies.stack`` writes (from the repository root, which
the rules import ``policies`` from)::

    PYTHONPATH=. .venv/bin/cfn-lint --append-rules policies/cfn_lint --regions us-east-1 -- stack.json
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

RULES_DIR = Path(__file__).resolve().parent
REGION = "us-east-1"


@cache
def _policy_rules() -> Any:
    from cfnlint.rules import Rules

    return Rules.create_from_directory(str(RULES_DIR))


def policy_ids() -> set[str]:
    """The id of every rule in this folder."""
    return {rule.id for rule in _policy_rules().values()}


def lint(stack: Mapping[str, Any], *, builtin_rules: bool = True) -> list[Any]:
    """cfn-lint's matches for a plain CloudFormation template: this folder's rules, and cfn-lint's own."""
    from cfnlint.api import lint as cfn_lint
    from cfnlint.config import ConfigMixIn, ManualArgs
    from cfnlint.decode.decode import decode_str
    from cfnlint.runner import run_template_by_data

    document = json.dumps(stack)
    if builtin_rules:
        return list(cfn_lint(document, config=ManualArgs(regions=[REGION], append_rules=[str(RULES_DIR)])))
    decoded, errors = decode_str(document)
    if errors:
        return list(errors)
    return list(run_template_by_data(decoded, ConfigMixIn(regions=[REGION]), _policy_rules()))
