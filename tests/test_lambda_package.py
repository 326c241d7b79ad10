"""What `sam build` puts in a function's package: the product's own packages, nothing a developer uses.

`sam build` runs src/Makefile's build-<function> target for each function (BuildMethod: makefile): it
copies the product's packages and compiles their bytecode for the runtime. Powertools,
pydantic and the X-Ray SDK come from the official Powertools layer and boto3 from the Lambda runtime, so
neither the copied tree nor the installed requirements may bring dev-only modules or the AWS SDK.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from local_stack.template import functions, load_template

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = {"dixit", "app", "handlers"}
#: Provided at run time by the Powertools layer (with its dependencies) or by the python3.13 runtime.
PROVIDED = {
    "aws_lambda_powertools",
    "pydantic",
    "pydantic_core",
    "aws_xray_sdk",
    "fastjsonschema",
    "typing_extensions",
    "boto3",
    "botocore",
}
#: Modules only one function imports, from the layer only that function has (template.yaml's PillowLayer).
FUNCTION_LAYERS = {"app/decks/ingest.py": {"PIL"}}
DEV_ONLY = {
    "moto",
    "yaml",
    "local_stack",
    "card_art",
    "dixit_bots",
    "pytest",
    "hypothesis",
    "cfnlint",
    "samtranslator",
    "tests",
    "bench",
}
NEVER_BUNDLED = {"boto3", "botocore", "s3transfer", "aws-lambda-powertools", "pydantic", "pydantic-core"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def code_dirs() -> set[Path]:
    specs = functions(load_template(ROOT / "template.yaml"))
    return {(ROOT / spec.code_uri).resolve() for spec in specs.values()}


def copied_entries(code_dir: Path) -> set[str]:
    """Top-level names `sam build` copies from CodeUri (caches and build metadata are skipped)."""
    return {
        entry.name
        for entry in code_dir.iterdir()
        if entry.name != "__pycache__" and not entry.name.endswith((".egg-info", ".dist-info"))
    }


def requirements(code_dir: Path) -> list[str]:
    path = code_dir / "requirements.txt"
    if not path.exists():
        return []
    names = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(canonical(re.split(r"[\[<>=~!; ]", line, maxsplit=1)[0]))
    return names


def closure(names: list[str]) -> set[str]:
    """The distributions pip would install for ``names``, as this environment resolves them."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [
            canonical(re.split(r"[\[<>=~!; (]", req, maxsplit=1)[0])
            for req in requires
            if "extra ==" not in req
        ]
    return seen


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_every_function_packages_the_source_root() -> None:
    assert code_dirs() == {ROOT / "src"}


@pytest.mark.parametrize("code_dir", sorted(code_dirs()), ids=str)
def test_the_package_holds_only_the_product_packages(code_dir: Path) -> None:
    assert copied_entries(code_dir) <= PRODUCT | {"requirements.txt", "Makefile"}
    assert copied_entries(code_dir) >= PRODUCT


def test_every_function_is_built_by_the_makefile_that_precompiles_its_bytecode() -> None:
    template = load_template(ROOT / "template.yaml")
    makefile = (ROOT / "src" / "Makefile").read_text()
    for name in functions(template):
        assert template["Resources"][name]["Metadata"]["BuildMethod"] == "makefile", name
        assert name in makefile, f"src/Makefile has no build-{name}"


def build_command(artifacts: Path) -> list[str]:
    """What `sam build` runs for ApiFunction."""
    return ["make", "-s", "-C", str(ROOT / "src"), "build-ApiFunction", f"ARTIFACTS_DIR={artifacts}"]


def test_the_build_ships_the_product_packages_each_module_with_bytecode_used_as_is(tmp_path: Path) -> None:
    version = "{}.{}".format(*sys.version_info[:2])
    subprocess.run([*build_command(tmp_path), f"PYTHON={sys.executable}", f"RUNTIME={version}"], check=True)
    assert {entry.name for entry in tmp_path.iterdir()} == PRODUCT
    sources = sorted(tmp_path.rglob("*.py"))
    assert sources
    for source in sources:
        compiled = Path(importlib.util.cache_from_source(str(source)))
        flags = int.from_bytes(compiled.read_bytes()[4:8], "little")
        # PEP 552: bit 0 hash-based, bit 1 check_source; unchecked-hash never looks at the zip's file times.
        assert flags == 0b01, f"{source.relative_to(tmp_path)}: flags {flags:#b}"


def test_the_build_refuses_an_interpreter_that_is_not_the_runtimes(tmp_path: Path) -> None:
    done = subprocess.run(
        [*build_command(tmp_path), f"PYTHON={sys.executable}", "RUNTIME=2.7"],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert "the runtime is 2.7" in done.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("code_dir", sorted(code_dirs()), ids=str)
def test_requirements_bring_neither_the_aws_sdk_nor_what_the_layer_provides(code_dir: Path) -> None:
    installed = closure(requirements(code_dir))
    assert not installed & {canonical(name) for name in NEVER_BUNDLED | DEV_ONLY}, installed


@pytest.mark.parametrize("code_dir", sorted(code_dirs()), ids=str)
def test_product_code_imports_only_the_stdlib_itself_and_what_the_runtime_provides(code_dir: Path) -> None:
    allowed = set(sys.stdlib_module_names) | PRODUCT | PROVIDED | {"__future__"}
    for path in sorted(code_dir.rglob("*.py")):
        for root in imported_roots(path):
            where = path.relative_to(code_dir)
            assert root not in DEV_ONLY, f"{where} imports the dev-only {root}"
            # Type stubs (mypy_boto3_*) are imported under TYPE_CHECKING only and never run.
            layered = FUNCTION_LAYERS.get(where.as_posix(), set())
            assert root in allowed | layered or root.startswith("mypy_boto3_"), f"{where} imports {root}"


def test_the_powertools_layer_is_the_official_one_for_the_runtime_and_architecture() -> None:
    template = load_template(ROOT / "template.yaml")
    function_globals = template["Globals"]["Function"]
    assert function_globals["Runtime"] == "python3.13"
    assert function_globals["Architectures"] == ["arm64"]
    (layer,) = function_globals["Layers"]
    assert (
        ":017000801446:layer:AWSLambdaPowertoolsPythonV3-python313-arm64:${PowertoolsLayerVersion}"
        in (layer["Fn::Sub"])
    )
    assert int(template["Parameters"]["PowertoolsLayerVersion"]["Default"]) >= 1
