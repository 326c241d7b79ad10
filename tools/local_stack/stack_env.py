"""The environment the local stack's functions run with: built once by ``serve``, and again, from the
state file it leaves, by ``invoke``, so a function invoked by hand sees what the served ones see.

That is each function's template ``Environment`` resolved against the twin's resources and the stack's
parameters (its sender, its VAPID key's parameter, its web address...), plus what only the local stack
sets: loopback http for its own receivers (webhooks, the local push service), the refusal of the twin's
and the gateway's ports, and the file holding the stack's clock (``local_stack.clock``). All the served
functions share one process, so each sees every function's variables; ``invoke`` gives the same.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.core.clock import LOCAL_CLOCK_FILE
from local_stack import LOCAL_NAMES, REGION
from local_stack.events import ACCOUNT_ID
from local_stack.template import FunctionSpec, resolved_environment, stack_refs

#: Environment variables that point boto3 at the twin. Credentials are set only when absent.
FAKE_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}

#: Template parameters naming SNS platform applications, with the platform and the twin's application name.
PLATFORM_APPLICATIONS = {
    "ApnsPlatformApplicationArn": ("APNS", "dixit-apns-local"),
    "ApnsSandboxPlatformApplicationArn": ("APNS_SANDBOX", "dixit-apns-sandbox-local"),
    "FcmPlatformApplicationArn": ("GCM", "dixit-fcm-local"),
}

#: What the local stack sets beyond the template; template.yaml must never set these (tests check it).
LOCAL_ONLY_VARIABLES = ("WEBHOOK_ALLOW_LOOPBACK_HTTP", "WEBHOOK_REFUSED_LOOPBACK_PORTS", LOCAL_CLOCK_FILE)


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


def _names_resource(raw: Any, resources: Mapping[str, Any]) -> bool:
    """Whether a template value is a ``!Ref``, ``!GetAtt`` or ``!Sub`` of one of ``resources``."""
    if not isinstance(raw, dict):
        return False
    attribute, text = raw.get("Fn::GetAtt"), raw.get("Fn::Sub")
    if isinstance(attribute, list) and attribute:
        return attribute[0] in resources
    if isinstance(text, str):
        return any(name.split(".")[0] in resources for name in re.findall(r"\$\{([^}!]+)\}", text))
    return raw.get("Ref") in resources


def resource_variables(specs: Mapping[str, FunctionSpec], resources: Mapping[str, Any]) -> frozenset[str]:
    """Names of environment variables whose template value is a ``!Ref`` (or ``!GetAtt``) of one of
    ``resources``."""
    return frozenset(
        name
        for spec in specs.values()
        for name, raw in spec.environment.items()
        if _names_resource(raw, resources)
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


def _port(url: str) -> int | None:
    try:
        return urlsplit(url).port
    except ValueError:
        return None


@dataclass(frozen=True)
class StackEnvironment:
    """Every variable the stack's functions see, and those that win over a value already set."""

    values: dict[str, str]
    #: Those naming the twin's resources, ports and clock: a leftover value would point elsewhere.
    forced: frozenset[str]

    def apply(self, environ: MutableMapping[str, str] | None = None) -> dict[str, str]:
        """Set the variables in ``environ`` (this process's by default); what each ends up as.

        The others keep a value already set, so ``LOG_LEVEL=DEBUG make run`` works.
        """
        env = os.environ if environ is None else environ
        for name, value in self.values.items():
            if name in self.forced or name not in env:
                env[name] = value
        return {name: env[name] for name in self.values}


def stack_environment(
    template: Mapping[str, Any],
    specs: Mapping[str, FunctionSpec],
    *,
    resources: Mapping[str, str],
    parameters: Mapping[str, str],
    region: str = REGION,
    aws_endpoint_url: str = "",
    api_url: str = "",
    clock_file: str = "",
    live_url: str = "",
    live_endpoint_url: str = "",
) -> StackEnvironment:
    """The environment of ``specs`` on the twin at ``aws_endpoint_url`` behind the gateway at ``api_url``
    (and its live channel at ``live_url``, managed at ``live_endpoint_url``)."""
    refs = stack_refs(template, resources, parameters=parameters, region=region)
    values: dict[str, str] = {}
    for spec in specs.values():
        values.update(resolved_environment(spec, refs)[0])
    platforms = {name: value for name, value in parameters.items() if name in PLATFORM_APPLICATIONS}
    forced = set(resource_variables(specs, {**resources, **platforms}))
    # Only the local stack may deliver to http://127.0.0.1 (its webhook receivers, its push service)...
    values["WEBHOOK_ALLOW_LOOPBACK_HTTP"] = "true"
    # ...but never to a port the stack itself listens on, the twin's, the gateway's or the live channel's
    # (a webhook to /moto-api/reset wiped the twin): those hold every secret in the clear.
    own = (aws_endpoint_url, api_url, live_url)
    ports = list(dict.fromkeys(port for port in map(_port, own) if port is not None))
    if ports:
        values["WEBHOOK_REFUSED_LOOPBACK_PORTS"] = ",".join(str(port) for port in ports)
        forced.add("WEBHOOK_REFUSED_LOOPBACK_PORTS")
    if clock_file:
        values[LOCAL_CLOCK_FILE] = clock_file
        forced.add(LOCAL_CLOCK_FILE)
    # The template names the cloud's WebSocket API (wss://<api>.execute-api…), which the twin has not:
    # the local stack serves it itself (local_stack.live).
    for name, value in (("LIVE_URL", live_url), ("LIVE_ENDPOINT_URL", live_endpoint_url)):
        if value:
            values[name] = value
            forced.add(name)
    return StackEnvironment(values, frozenset(forced))


def environment_from_state(
    template: Mapping[str, Any], specs: Mapping[str, FunctionSpec], state: Mapping[str, Any]
) -> StackEnvironment:
    """What the running stack that wrote ``state`` gives its functions, values it chose included."""
    built = stack_environment(
        template,
        specs,
        resources=dict(state.get("resources") or {}),
        parameters=dict(state.get("parameters") or {}),
        region=str(state.get("region") or REGION),
        aws_endpoint_url=str(state.get("aws_endpoint_url") or ""),
        api_url=str(state.get("api_url") or ""),
        clock_file=str(state.get("clock_file") or ""),
    )
    applied: Mapping[str, Any] = state.get("environment") or {}
    # Everything the running stack's functions have (its process holds every function's variables), its
    # own values (a LOG_LEVEL it was started with...) over the rebuilt ones.
    values = {**built.values, **{name: str(value) for name, value in applied.items()}}
    return StackEnvironment(values, built.forced)
