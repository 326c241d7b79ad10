"""What `sam build` puts in a function's package: the product's own packages, nothing a developer uses.

`sam build` runs src/Makefile's build-<function> target for each function (BuildMethod: makefile): it
copies the product's packages and compiles their bytecode for the runtime. Every library comes from the
layer the stack builds (DependenciesLayer, layers/dependencies: the run-time closure at constraints.txt's
versions) and boto3 from the Lambda runtime, so neither the copied tree nor the installed requirements
may bring dev-only modules or the AWS SDK. tests/stack/test_sam_build.py runs the real `sam build`.
Nor a test double: under src/ each store port (app/<feature>/ports.py) has its DynamoDB adapter and
nothing else, and the doubles in tests/fakes stay out of the package.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

from local_stack.template import functions, load_template

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = {"dixit", "app", "handlers"}
#: Provided at run time by the dependencies layer or by the python3.13 runtime (boto3).
PROVIDED = {
    "aws_lambda_powertools",
    "pydantic",
    "pydantic_core",
    "aws_xray_sdk",
    "fastjsonschema",
    "typing_extensions",
    "tzdata",
    "pywebpush",
    "py_vapid",
    "http_ece",
    "cryptography",
    "requests",
    "boto3",
    "botocore",
}
#: Modules only one function imports, from the layer only that function has (template.yaml's PillowLayer).
FUNCTION_LAYERS = {
    "app/decks/ingest.py": {"PIL"},
}
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


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ApiFunction's package as `sam build` makes it, built once for the tests that look inside."""
    artifacts = tmp_path_factory.mktemp("ApiFunction")
    version = "{}.{}".format(*sys.version_info[:2])
    subprocess.run([*build_command(artifacts), f"PYTHON={sys.executable}", f"RUNTIME={version}"], check=True)
    return artifacts


def test_the_build_ships_the_product_packages_each_module_with_bytecode_used_as_is(built: Path) -> None:
    assert {entry.name for entry in built.iterdir()} == PRODUCT
    sources = sorted(built.rglob("*.py"))
    assert sources
    for source in sources:
        compiled = Path(importlib.util.cache_from_source(str(source)))
        flags = int.from_bytes(compiled.read_bytes()[4:8], "little")
        # PEP 552: bit 0 hash-based, bit 1 check_source; unchecked-hash never looks at the zip's file times.
        assert flags == 0b01, f"{source.relative_to(built)}: flags {flags:#b}"


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


def test_every_function_runs_with_the_layer_the_stack_builds_for_its_runtime_and_architecture() -> None:
    template = load_template(ROOT / "template.yaml")
    function_globals = template["Globals"]["Function"]
    assert function_globals["Runtime"] == "python3.13"
    assert function_globals["Architectures"] == ["arm64"]
    assert function_globals["Layers"] == [{"Ref": "DependenciesLayer"}]
    layer = template["Resources"]["DependenciesLayer"]
    assert layer["Metadata"] == {"BuildMethod": "makefile", "BuildArchitecture": "arm64"}


def test_the_layers_requirements_are_the_run_time_closure_at_the_pinned_versions() -> None:
    spec = importlib.util.spec_from_file_location("pins", ROOT / "layers" / "dependencies" / "pins.py")
    assert spec is not None
    assert spec.loader is not None
    pins = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pins)
    committed = (ROOT / "layers" / "dependencies" / "requirements.txt").read_text()
    assert committed == pins.requirements(), "run `make lock`"
    names = {canonical(line.partition("==")[0]) for line in committed.splitlines() if "==" in line}
    assert {"aws-lambda-powertools", "pydantic", "tzdata", "pywebpush"} <= names
    assert not names & {"boto3", "botocore", "s3transfer"}
    for line in committed.splitlines():
        if "==" in line:
            assert metadata.version(line.partition("==")[0]) == line.partition("==")[2], line


# The in-memory doubles of the store ports live under tests/fakes and never reach a package.

FAKES = ROOT / "tests" / "fakes"
DOUBLE_NAME = re.compile(r"^(Memory|InMemory|Fake|Stub|Dummy)[A-Z]|(Memory|Fake|Stub)(Store|Table)$")


# Ports of app/<feature>/ports.py that the game table does not hold: S3 and SQS stand behind these, and
# tests/app/aws/test_card_links.py and tests/app/webhooks cover their adapters.
NOT_TABLE_PORTS = frozenset({"ObjectStore", "WebhookQueue"})


def store_ports() -> dict[str, frozenset[str]]:
    """Each table Protocol of app/<feature>/ports.py, with the methods an implementation must define."""
    ports: dict[str, frozenset[str]] = {}
    for path in sorted((ROOT / "src" / "app").glob("*/ports.py")):
        for node in ast.parse(path.read_text()).body:
            if node_is_table_port(node):
                methods = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
                ports[node.name] = frozenset(m for m in methods if not m.startswith("_"))
    return ports


@dataclass(frozen=True)
class StoreClass:
    path: str  # relative to the tree searched
    name: str
    bases: tuple[str, ...]
    ports: tuple[str, ...]  # the ports whose every method it defines


def node_is_table_port(node: ast.stmt) -> bool:
    # Only a `…Store` Protocol is a table port: the others are the narrow bundles use cases take
    # (Games, Opening, WallClock …), which name the stores they reach rather than define methods.
    return (
        isinstance(node, ast.ClassDef)
        and node.name.endswith("Store")
        and any(ast.unparse(b) == "Protocol" for b in node.bases)
        and node.name not in NOT_TABLE_PORTS
    )


def store_classes(tree: Path) -> list[StoreClass]:
    """Every class under `tree` that defines all of a store port's methods, or is named like a double."""
    ports = store_ports()
    found = []
    for path in sorted(tree.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = tuple(ast.unparse(b) for b in node.bases)
            if "Protocol" in bases:
                continue  # a port itself
            methods = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
            implements = tuple(sorted(name for name, wanted in ports.items() if wanted <= methods))
            if implements or DOUBLE_NAME.search(node.name):
                where = path.relative_to(tree).as_posix()
                found.append(StoreClass(where, node.name, bases, implements))
    return found


def test_every_store_port_has_an_in_memory_double_under_tests_fakes() -> None:
    ports = store_ports()
    features = ["Game", "Inbox", "Player", "Webhook", "Feed", "Deck", "Notification"]
    assert set(ports) >= {f"{feature}Store" for feature in features}
    doubles = store_classes(FAKES)
    assert {port for double in doubles for port in double.ports} == set(ports)
    # The search below finds doubles where there are some: each of these is named like one, too.
    assert all(DOUBLE_NAME.search(double.name) for double in doubles if double.ports)


def test_under_src_every_store_implementation_is_a_dynamodb_adapter_and_none_is_a_double() -> None:
    found = store_classes(ROOT / "src")
    assert {port for cls in found for port in cls.ports} == set(store_ports())
    for cls in found:
        assert cls.path.startswith("app/aws/dynamodb/"), cls
        assert "TableAdapter" in cls.bases, cls
        assert not DOUBLE_NAME.search(cls.name), cls


def test_the_built_package_holds_nothing_from_tests_fakes(built: Path) -> None:
    shipped = sorted(p for p in built.rglob("*") if p.is_file())
    assert shipped
    assert not [p for p in shipped if {"tests", "fakes"} & set(p.relative_to(built).parts)]
    fakes = {path.read_bytes() for path in FAKES.glob("*.py") if path.stat().st_size}
    assert not [p for p in shipped if p.suffix == ".py" and p.read_bytes() in fakes]
    doubles = {cls.name for cls in store_classes(FAKES)}
    assert doubles
    in_package = store_classes(built)
    assert not {cls.name for cls in in_package} & doubles
    assert all("TableAdapter" in cls.bases for cls in in_package), in_package
    for source in (p for p in shipped if p.suffix == ".py"):
        assert "tests" not in imported_roots(source), source.relative_to(built)
