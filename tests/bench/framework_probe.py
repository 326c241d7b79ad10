"""What a piece of code builds of the framework, described as data: `python framework_probe.py CODE`.

Run in a fresh interpreter (the Tracer keeps its settings on the class, and the X-Ray SDK its patched
modules in a global: in a process that built two tracers, the second's settings are the first's too).
It watches every Tracer, Logger, Metrics, REST resolver and botocore client built while CODE runs, and
prints one JSON object: each object's settings, and which SDK entry point was imported.
tests/bench/test_references.py compares what the app builds with what the bench's references build.
"""

from __future__ import annotations

import json
import logging
import sys
from collections import defaultdict
from typing import Any

# Settings that are not the function's configuration: who is asking, not how the client behaves.
CLIENT_OPTIONS_IGNORED = ("user_agent", "user_agent_extra", "user_agent_appid")
QUIET_LIBRARIES = ("boto3", "botocore", "s3transfer", "urllib3")


def client_settings(client: Any) -> dict[str, Any]:
    """A botocore client's effective config (every option botocore knows), and its service."""
    from botocore.config import Config
    from botocore.validate import ParamValidationDecorator

    config = client.meta.config
    options = {name: getattr(config, name, None) for name in Config.OPTION_DEFAULTS}
    for name in CLIENT_OPTIONS_IGNORED:
        options.pop(name, None)
    # botocore drops this option from the client's config once it has chosen its serializer: the
    # serializer says whether parameters are validated.
    options["parameter_validation"] = isinstance(client._serializer, ParamValidationDecorator)
    return {"service": client.meta.service_model.service_name, **options}


def _powertools_class(value: Any) -> str:
    """The Powertools class an object is or extends (the app's own subclasses count as their base)."""
    for cls in type(value).__mro__:
        if cls.__module__.startswith("aws_lambda_powertools"):
            return f"{cls.__module__}.{cls.__qualname__}"
    return type(value).__qualname__


def _recorded(init: Any, into: list[Any]) -> Any:
    def recording(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        into.append(self)

    return recording


def _watch() -> dict[str, list[Any]]:
    import botocore.session
    from aws_lambda_powertools import Logger, Metrics, Tracer
    from aws_lambda_powertools.event_handler import APIGatewayRestResolver

    built: dict[str, list[Any]] = defaultdict(list)
    for cls in (Logger, Metrics, Tracer, APIGatewayRestResolver):
        cls.__init__ = _recorded(cls.__init__, built[cls.__name__])  # type: ignore[method-assign]
    create = botocore.session.Session.create_client

    def create_client(self: Any, *args: Any, **kw: Any) -> Any:
        client = create(self, *args, **kw)
        built["client"].append(client)
        return client

    botocore.session.Session.create_client = create_client  # type: ignore[method-assign]
    return built


def describe(built: dict[str, list[Any]]) -> dict[str, Any]:
    from aws_lambda_powertools import Tracer
    from aws_xray_sdk.core import patcher

    tracer_config = {name: value for name, value in Tracer._config.items() if name != "provider"}
    return {
        "tracer": [
            {
                **tracer_config,
                "patch_modules": sorted(tracer_config["patch_modules"] or []),
                "patched": sorted(patcher._PATCHED_MODULES),
            }
            for _ in built["Tracer"]
        ],
        "logger": [{"service": one.service, "level": one.log_level} for one in built["Logger"]],
        "library log levels": {name: logging.getLogger(name).level for name in QUIET_LIBRARIES},
        "metrics": [
            {
                "provider": _powertools_class(one.provider),
                "namespace": one.provider.namespace,
                "service": one.provider.service,
            }
            for one in built["Metrics"]
        ],
        "resolver": [
            {
                "validation": one._enable_validation,
                "response validation error": one._response_validation_error_http_code,
                "cors": None
                if one._cors is None
                else {
                    "origins": sorted(one._cors._allowed_origins),
                    "allow_headers": sorted(one._cors.allow_headers),
                    "expose_headers": sorted(one._cors.expose_headers),
                    "max_age": one._cors.max_age,
                    "allow_credentials": one._cors.allow_credentials,
                },
            }
            for one in built["APIGatewayRestResolver"]
        ],
        "clients": [client_settings(one) for one in built["client"]],
        "boto3 imported": "boto3" in sys.modules,
    }


def main() -> None:
    built = _watch()
    exec(sys.argv[1], {})  # noqa: S102  (the code under test: the bench's own import statements)
    print(json.dumps(describe(built), default=repr, sort_keys=True))


if __name__ == "__main__":
    main()
