"""The stack CloudFormation runs: ``template.yaml`` through ``AWS::LanguageExtensions`` and the SAM transform,
offline (samtranslator, with the managed policies it would ask IAM for given here).

``python -m policies.stack OUT.json [Name=Value ...]`` writes it as JSON, for tools that scan plain
CloudFormation (checkov, in ``make lint``).
"""

from __future__ import annotations

import copy
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from local_stack.template import apply_language_extensions, load_template, parameter_values

#: The managed policies samtranslator adds to function roles (logs, tracing), by name.
MANAGED_POLICIES = {
    "AWSLambdaBasicExecutionRole": "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
    "AWSXrayWriteOnlyAccess": "arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess",
    "AWSXRayDaemonWriteAccess": "arn:aws:iam::aws:policy/AWSXRayDaemonWriteAccess",
}

#: What ``sam package`` puts in place of local code and layer folders.
PACKAGED = "s3://packaged-artifacts/package.zip"

_LOCAL_CODE = {
    "AWS::Serverless::Function": "CodeUri",
    "AWS::Serverless::LayerVersion": "ContentUri",
}


class StaticPolicyLoader:
    """Stands in for samtranslator's ManagedPolicyLoader, which would ask IAM."""

    def load(self) -> dict[str, str]:
        return dict(MANAGED_POLICIES)


def _packaged(template: dict[str, Any]) -> dict[str, Any]:
    """The template as ``sam package`` leaves it: every local code or layer folder is an S3 location."""
    packaged = copy.deepcopy(template)
    function_globals = (packaged.get("Globals") or {}).get("Function") or {}
    if isinstance(function_globals.get("CodeUri"), str):
        function_globals["CodeUri"] = PACKAGED
    for resource in (packaged.get("Resources") or {}).values():
        key = _LOCAL_CODE.get(resource.get("Type"))
        properties = resource.get("Properties") or {}
        if key and isinstance(properties.get(key), str):
            properties[key] = PACKAGED
    return packaged


def translate(template: Mapping[str, Any], **parameters: str) -> dict[str, Any]:
    """What CloudFormation runs for ``parameters`` (the rest at their defaults), as a plain template."""
    from samtranslator.translator.transform import transform

    resolved = _packaged(apply_language_extensions(template, parameters))
    if not os.environ.get("AWS_DEFAULT_REGION"):
        raise RuntimeError("the SAM translator needs a region: set AWS_DEFAULT_REGION")
    output: dict[str, Any] = transform(resolved, parameter_values(resolved, parameters), StaticPolicyLoader())
    return output


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python -m policies.stack OUT.json [Name=Value ...]", file=sys.stderr)
        return 2
    out, *assignments = argv
    parameters = dict(assignment.split("=", 1) for assignment in assignments)
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    logging.getLogger("samtranslator").setLevel(logging.ERROR)  # feature-toggle notices, not findings
    stack = translate(load_template(), **parameters)
    Path(out).write_text(json.dumps(stack, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
