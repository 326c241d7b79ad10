"""The API function traces each invocation when X-Ray tracing is on, and pays nothing for it when off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json
import handlers.api as api
print(json.dumps({"traced": api._traced is not api._answer, "disabled": api.tracer.disabled}))
"""


@pytest.mark.parametrize(("disabled", "traced"), [("false", True), ("true", False)])
def test_the_handler_is_wrapped_in_an_x_ray_subsegment_only_while_tracing_is_on(
    disabled: str, traced: bool
) -> None:
    env = {
        **os.environ,
        "POWERTOOLS_TRACE_DISABLED": disabled,
        "LAMBDA_TASK_ROOT": str(ROOT / "src"),  # as Lambda runs it (the X-Ray SDK reads it at import)
        "TABLE_NAME": "dixit-games",
        "AWS_DEFAULT_REGION": "us-east-1",
        "PYTHONPATH": str(ROOT / "src"),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"traced": traced, "disabled": not traced}
