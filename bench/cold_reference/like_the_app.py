"""The framework settings the API function uses, for the bench's references to be built from.

The cold-import reference (framework_in_use.py) and the handler floor (bench/floor.py) must cost what the
framework costs *as the app configures it*: a Tracer that patches every library it finds, or a client
that validates every parameter, is a heavier reference than the app and makes its ratio look better than
it is (issue 36). The values are copied here, not imported from the app, so that the reference is the
same code on both sides of `make bench` and contains none of the app's own module-level work;
tests/bench/test_references.py builds both and fails when they differ.

Each value names where the app sets it.
"""

from __future__ import annotations

import os
from typing import Any

from botocore.config import Config

# handlers/api.py: `Tracer(patch_modules=("botocore",))`.
TRACED_MODULES = ("botocore",)

# app/core/telemetry.py: the logger's service and the metrics' namespace, from the function's environment.
SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME", "dixit")
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "DixitByMail")
QUIET_LIBRARIES = ("boto3", "botocore", "s3transfer", "urllib3")

# handlers/api.py: the resolver's options and its CORS answer.
CORS: dict[str, Any] = {
    "allow_origin": "*",
    "allow_headers": [
        "Authorization",
        "Content-Type",
        "Idempotency-Key",
        "If-Match",
        "If-None-Match",
        "X-Api-Key",
    ],
    "expose_headers": ["ETag", "Location", "Retry-After"],
    "max_age": 600,
}
RESOLVER: dict[str, Any] = {"enable_validation": True, "response_validation_error_http_code": 500}

# app/aws/clients.py: every client comes from a botocore session (never boto3) with this config.
CLIENT_CONFIG = Config(
    retries={"mode": "standard", "total_max_attempts": 4},
    connect_timeout=1,
    read_timeout=2,
    tcp_keepalive=True,
    parameter_validation=False,
)
