"""``python -m local_stack invoke``: run one function of ``template.yaml`` once, like ``sam local invoke``.

The function's ``Handler`` comes from the template, its environment from the same builder ``serve`` uses
(``local_stack.stack_env``), fed the running stack's state file: its twin, resources, parameters, ports
and clock. With ``--aws-endpoint`` (no running stack) it is the template's on the default names. Handler
logs go to stderr, the result to stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from local_stack import DEFAULT_STATE_FILE, REGION
from local_stack.runtime import LambdaContext, import_handler
from local_stack.stack_env import (
    configure_aws_environment as configure_aws_environment,  # re-exported: tests and tools import it here
)
from local_stack.stack_env import default_resources, environment_from_state, read_state, stack_environment
from local_stack.template import TEMPLATE_PATH, apply_language_extensions, functions, load_template


def stack_running(state: Mapping[str, Any]) -> bool:
    """Whether the process that wrote ``state`` still runs (a killed stack leaves its file behind)."""
    pid = state.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return True  # written by hand, or by an older stack: trust it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True


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

    if state is not None and not aws_endpoint and not stack_running(state):
        print(
            f"the stack that wrote {state_file} (pid {state.get('pid')}) is not running: start it again with"
            " `python -m local_stack serve`, or pass --aws-endpoint URL",
            file=err,
        )
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
    configure_aws_environment(endpoint, region=region)
    # The environment the running stack gives its functions (its loopback rules, its clock...), built
    # as it built it; with --aws-endpoint alone, the template's on the default resource names.
    if state is not None and not aws_endpoint:
        environment = environment_from_state(template, specs, state)
    else:
        resources = dict((state or {}).get("resources") or default_resources(region))
        environment = stack_environment(
            template,
            specs,
            resources=resources,
            parameters=parameter_overrides,
            region=region,
            aws_endpoint_url=endpoint,
        )
    environment.apply()
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
