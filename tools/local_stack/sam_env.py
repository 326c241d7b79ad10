"""``python -m local_stack sam-env``: the ``env.json`` that ``sam local`` needs to use the running twin.

``sam local start-api`` and ``sam local invoke`` run each function in a container, with the environment
the template declares; ``--env-vars env.json`` fills in the values only a running stack knows (the twin's
endpoint and its resource names). This writes that file from the state file ``serve`` leaves, one entry
per function of the template, so nothing is copied by hand. A container cannot reach the host's
127.0.0.1: the endpoint is rewritten to ``--container-host`` (``host.docker.internal``; on Linux run
``sam local`` with ``--add-host host.docker.internal:host-gateway``, or pass ``--container-host
127.0.0.1`` with ``--docker-network host``), and the twin must listen where the container arrives
(``make run HOST=0.0.0.0``; see docs/local-stack.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from local_stack import REGION
from local_stack.stack_env import FAKE_CREDENTIALS, read_state
from local_stack.template import (
    apply_language_extensions,
    functions,
    load_template,
    resolved_environment,
    stack_refs,
)

CONTAINER_HOST = "host.docker.internal"


class NoRunningStack(Exception):
    """There is no state file with an endpoint: `make run` is not running (or wrote elsewhere)."""


def for_container(url: str, host: str) -> str:
    """``url`` with a loopback or wildcard host replaced by the one a container reaches the host by."""
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost", "0.0.0.0", "::1"):  # noqa: S104 - compared, not bound
        return url
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


def env_vars(
    template: Mapping[str, Any],
    state: Mapping[str, Any],
    *,
    container_host: str = CONTAINER_HOST,
    parameters: Mapping[str, str] | None = None,
) -> dict[str, dict[str, str]]:
    """``{LogicalId: {NAME: value}}`` for every function: its template environment, resolved as the
    running stack resolved it, plus the endpoint, region and credentials that point boto3 at the twin."""
    endpoint = state.get("aws_endpoint_url")
    if not endpoint:
        raise NoRunningStack("the state file names no AWS endpoint")
    region = str(state.get("region") or REGION)
    applied: Mapping[str, str] = state.get("environment") or {}
    refs = stack_refs(template, dict(state.get("resources") or {}), parameters=parameters, region=region)
    twin = for_container(str(endpoint), container_host)
    out: dict[str, dict[str, str]] = {}
    for logical_id, spec in functions(template, parameters).items():
        values, unresolved = resolved_environment(spec, refs)
        variables = {name: str(applied.get(name, values.get(name, ""))) for name in spec.environment}
        for name in unresolved:
            variables[name] = str(applied.get(name, ""))
        # The web client's address is the host's too, as the container sees it.
        for name, value in variables.items():
            if value.startswith("http://"):
                variables[name] = for_container(value, container_host)
        out[logical_id] = {
            **variables,
            "AWS_ENDPOINT_URL": twin,
            "AWS_DEFAULT_REGION": region,
            "AWS_REGION": region,
            **FAKE_CREDENTIALS,
            "POWERTOOLS_TRACE_DISABLED": "true",
        }
    return out


def write(
    state_file: Path, out: Path, template_path: Path, *, container_host: str = CONTAINER_HOST
) -> dict[str, dict[str, str]]:
    state = read_state(state_file)
    if state is None:
        raise NoRunningStack(f"no state file at {state_file}: start the stack with `make run` first")
    template = apply_language_extensions(load_template(template_path))
    written = env_vars(template, state, container_host=container_host)
    out.write_text(json.dumps(written, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return written
