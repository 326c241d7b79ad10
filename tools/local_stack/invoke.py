"""``python -m local_stack invoke``: run one function of ``template.yaml`` once, like ``sam local invoke``.

The function's ``Handler`` and ``Environment`` come from the template; AWS calls go to the running twin
(``--aws-endpoint`` or the state file ``serve`` writes). Handler logs go to stderr, the result to stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any, TextIO

from local_stack import DEFAULT_STATE_FILE, LOCAL_NAMES, REGION
from local_stack.events import ACCOUNT_ID
from local_stack.runtime import LambdaContext, import_handler
from local_stack.template import (
    TEMPLATE_PATH,
    FunctionSpec,
    apply_language_extensions,
    functions,
    load_template,
    resolved_environment,
    stack_refs,
)

#: Environment variables that point boto3 at the twin. Credentials are set only when absent.
FAKE_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}


def configure_aws_environment(
    endpoint_url: str, *, region: str = REGION, environ: MutableMapping[str, str] | None = None
) -> None:
    """Point every boto3 client of this process at ``endpoint_url`` in ``region``."""
    env = os.environ if environ is None else environ
    env["AWS_ENDPOINT_URL"] = endpoint_url
    env["AWS_DEFAULT_REGION"] = region
    env["AWS_REGION"] = region
    if not (env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY")):
        env.update(FAKE_CREDENTIALS)
        env.pop("AWS_SESSION_TOKEN", None)
    env.setdefault("POWERTOOLS_TRACE_DISABLED", "true")  # no X-Ray daemon locally


def apply_function_environment(
    specs: Mapping[str, FunctionSpec],
    refs: Mapping[str, Any],
    *,
    force: frozenset[str] = frozenset(),
    environ: MutableMapping[str, str] | None = None,
) -> dict[str, str]:
    """Set the functions' template environment in this process; returns what was applied.

    Variables named in ``force`` (those naming the twin's resources) always win; the others keep a value
    already in the environment, so ``LOG_LEVEL=DEBUG make run`` works.
    """
    env = os.environ if environ is None else environ
    applied: dict[str, str] = {}
    for spec in specs.values():
        values, _ = resolved_environment(spec, refs)
        for name, value in values.items():
            if name in force or name not in env:
                env[name] = value
            applied[name] = env[name]
    return applied


def resource_variables(specs: Mapping[str, FunctionSpec], resources: Mapping[str, str]) -> frozenset[str]:
    """Names of environment variables whose template value is a ``!Ref`` to one of ``resources``."""
    return frozenset(
        name
        for spec in specs.values()
        for name, raw in spec.environment.items()
        if isinstance(raw, dict) and raw.get("Ref") in resources
    )


def read_state(path: Path) -> dict[str, Any] | None:
    try:
        state: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def default_resources(region: str = REGION) -> dict[str, str]:
    """What ``serve`` names the resources, for ``--aws-endpoint`` without a state file."""
    return {
        "GameTable": LOCAL_NAMES["GameTable"],
        "CardBucket": LOCAL_NAMES["CardBucket"],
        "NudgeTopic": f"arn:aws:sns:{region}:{ACCOUNT_ID}:{LOCAL_NAMES['NudgeTopic']}",
    }


def load_event(source: str, stdin: TextIO | None = None) -> Any:
    if source == "-":
        return json.load(stdin or sys.stdin)
    return json.loads(Path(source).read_text(encoding="utf-8"))


def invoke(
    logical_id: str,
    event_source: str,
    *,
    aws_endpoint: str | None = None,
    template_path: Path = TEMPLATE_PATH,
    state_file: Path = DEFAULT_STATE_FILE,
    parameter_overrides: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Invoke one function with one event; prints the result (or the error, Lambda style). Exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    state = read_state(state_file)
    # The running stack's parameters (its sender, its unsubscribe secret...), under the ones given here.
    parameter_overrides = {**dict((state or {}).get("parameters") or {}), **(parameter_overrides or {})}
    template = apply_language_extensions(load_template(template_path), parameter_overrides)
    specs = functions(template, parameter_overrides)
    spec = specs.get(logical_id)
    if spec is None:
        print(f"no function {logical_id!r} in {template_path}; choose one of: {', '.join(specs)}", file=err)
        return 2

    endpoint = aws_endpoint or (state or {}).get("aws_endpoint_url")
    if not endpoint:
        print(
            f"no AWS endpoint: start the twin with `python -m local_stack serve` (it writes {state_file})"
            " or pass --aws-endpoint URL",
            file=err,
        )
        return 2
    region = str((state or {}).get("region") or REGION)
    resources = dict((state or {}).get("resources") or default_resources(region))

    configure_aws_environment(endpoint, region=region)
    refs = stack_refs(template, resources, parameters=parameter_overrides, region=region)
    apply_function_environment({logical_id: spec}, refs, force=resource_variables(specs, resources))
    event = load_event(event_source)

    code_dir = (template_path.parent / spec.code_uri).resolve()
    context = LambdaContext(
        function_name=logical_id,
        memory_limit_in_mb=spec.memory_size,
        timeout_seconds=float(spec.timeout),
        region=region,
    )
    # Handler logs (Powertools writes to stdout) go to stderr, so stdout holds only the result.
    with contextlib.redirect_stdout(err):
        try:
            handler = import_handler(spec.handler, [code_dir])
            result = handler(event, context)
        except Exception as exc:
            error = {
                "errorMessage": str(exc),
                "errorType": type(exc).__name__,
                "stackTrace": traceback.format_exception(exc),
            }
            print(json.dumps(error, indent=2), file=out)
            return 1
    print(json.dumps(result, indent=2, default=str), file=out)
    return 0
