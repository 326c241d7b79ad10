"""`sam validate --lint` and `sam build` of template.yaml, and the built functions imported and run under
python3.13.

The versions the tests ran are the versions deployed: every function's package is the product alone,
and the layer the stack builds (DependenciesLayer) holds the run-time closure at the versions
constraints.txt pins. The layer is built for Lambda's arm64, whose native code cannot load here, so
the import smoke test builds the same requirements for this machine with the same Makefile, and runs
every function's handler module from the built package under python3.13 with no system tz database.
boto3 comes from the Lambda runtime; here the pinned one stands in for it.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from local_stack.template import functions, load_template

ROOT = Path(__file__).resolve().parents[2]
SAM = Path(os.environ.get("DIXIT_SAM") or ROOT / ".venv" / "sam" / "bin" / "sam")
PRODUCT = {"dixit", "app", "handlers"}


def python313() -> Path:
    """A python3.13 that runs: pyenv's own first, since its shim on PATH may refuse to."""
    pyenv = sorted(glob.glob("/root/.pyenv/versions/3.13*/bin/python3.13"))
    candidates = [*pyenv, shutil.which("python3.13")]
    for found in filter(None, candidates):
        if subprocess.run([found, "-c", "pass"], capture_output=True, check=False).returncode == 0:
            return Path(found)
    raise AssertionError("sam build needs python3.13 (the Lambda runtime's)")


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "layers" / "dependencies" / "requirements.txt").read_text().splitlines():
        name, sep, version = line.partition("==")
        if sep and not line.startswith("#"):
            out[re.sub(r"[-_.]+", "_", name).lower()] = version
    return out


def dist_infos(directory: Path) -> dict[str, str]:
    found = {}
    for entry in directory.glob("*.dist-info"):
        name, _, version = entry.name.removesuffix(".dist-info").rpartition("-")
        found[re.sub(r"[-_.]+", "_", name).lower()] = version
    return found


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert SAM.exists(), f"no SAM CLI at {SAM}: `make unit` installs it into .venv/sam"
    work = tmp_path_factory.mktemp("sam")
    env = {
        **os.environ,
        "PATH": f"{python313().parent}:{os.environ['PATH']}",
        "SAM_CLI_TELEMETRY": "0",
        "HOME": str(work),
    }
    template = ROOT / "template.yaml"
    done = subprocess.run(
        [str(SAM), "build", "--template-file", str(template), "--build-dir", str(work / "build")],
        cwd=work, env=env, capture_output=True, text=True, check=False, timeout=1200,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return work / "build"


def test_sam_validate_with_its_linter_finds_nothing_wrong_in_the_template(tmp_path: Path) -> None:
    # cfn-lint checks both branches of every Fn::If, so the SnapStart=true stack is linted here too.
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "HOME": str(tmp_path), "AWS_DEFAULT_REGION": "us-east-1"}
    command = [str(SAM), "validate", "--lint", "--template-file", str(ROOT / "template.yaml")]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "is a valid SAM Template" in done.stdout + done.stderr


def test_sam_build_packages_each_function_as_the_product_alone(build: Path) -> None:
    for logical_id in functions(load_template(ROOT / "template.yaml")):
        assert {entry.name for entry in (build / logical_id).iterdir()} == PRODUCT, logical_id


def test_the_layer_the_stack_builds_holds_exactly_the_pinned_versions_for_lambdas_arm64(build: Path) -> None:
    layer = build / "DependenciesLayer" / "python"
    assert dist_infos(layer) == pins()
    native = [p.name for p in layer.rglob("*.so")]
    assert native
    assert all("aarch64" in name or "abi3" in name for name in native), native
    assert not any(name.startswith(("boto3", "botocore")) for name in dist_infos(layer))


@pytest.fixture(scope="module")
def host_layer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same requirements built by the same Makefile for this machine, so that they can run here."""
    artifacts = tmp_path_factory.mktemp("host-layer")
    subprocess.run(
        ["make", "-s", "-C", str(ROOT / "layers" / "dependencies"), "build-DependenciesLayer",
         f"ARTIFACTS_DIR={artifacts}", f"PYTHON={python313()}", "PLATFORM=manylinux2014_x86_64"],
        check=True, timeout=1200,
    )  # fmt: skip
    subprocess.run(
        [str(python313()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target",
         str(artifacts / "PillowLayer"), "-r", str(ROOT / "layers" / "pillow" / "requirements.txt")],
        check=True, timeout=600,
    )  # fmt: skip
    runtime = artifacts / "runtime"  # stands in for the boto3 the Lambda runtime brings
    boto3_pin = next(
        line for line in (ROOT / "constraints.txt").read_text().splitlines() if line.startswith("boto3==")
    )
    subprocess.run(
        [str(python313()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target",
         str(runtime), "-c", str(ROOT / "constraints.txt"), boto3_pin],
        check=True, timeout=600,
    )  # fmt: skip
    return artifacts


SMOKE = """
import importlib, json, sys, zoneinfo
zoneinfo.reset_tzpath(to=[])  # no system tz database, as on some Lambda images: the tzdata package
assert zoneinfo.ZoneInfo("Europe/Paris").key == "Europe/Paris"
for name in sys.argv[1:]:
    importlib.import_module(name)
from handlers.api import lambda_handler
class Context:
    function_name, memory_limit_in_mb, aws_request_id = "ApiFunction", 512, "smoke"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:ApiFunction"
    def get_remaining_time_in_millis(self): return 10_000
event = {"resource": "/openapi.json", "path": "/openapi.json", "httpMethod": "GET", "headers": {},
         "requestContext": {"requestId": "smoke", "stage": "dev"}, "body": None, "isBase64Encoded": False}
answer = lambda_handler(event, Context())
assert answer["statusCode"] == 200, answer
print(json.dumps({"python": sys.version.split()[0], "paths": len(json.loads(answer["body"])["paths"])}))
"""


def test_every_built_function_imports_and_answers_under_python313_with_the_layers_versions(
    build: Path, host_layer: Path
) -> None:
    template = load_template(ROOT / "template.yaml")
    for logical_id, spec in functions(template).items():
        module = spec.handler.rpartition(".")[0]
        package = build / logical_id
        # Its own layers besides the shared one (CardIngestFunction's PillowLayer), built for here too.
        own = [
            str(host_layer / layer["Ref"])
            for layer in template["Resources"][logical_id]["Properties"].get("Layers", [])
        ]
        path = [str(package), str(host_layer / "python"), *own, str(host_layer / "runtime")]
        env = {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": os.pathsep.join(path),
            "LAMBDA_TASK_ROOT": str(package),
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "smoke",
            "AWS_SECRET_ACCESS_KEY": "smoke",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_SERVICE_NAME": "dixit",
            "TABLE_NAME": "smoke",
        }
        done = subprocess.run(
            [str(python313()), "-s", "-c", SMOKE, module],
            env=env, capture_output=True, text=True, check=False, timeout=300, cwd=package,
        )  # fmt: skip
        assert done.returncode == 0, f"{logical_id}: {done.stderr[-3000:]}"
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["python"].startswith("3.13")
        assert result["paths"] > 20
