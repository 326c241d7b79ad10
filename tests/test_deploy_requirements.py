"""`sam build` installs src/requirements.txt: it must name every runtime dependency, at the tested pins."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IN_LAMBDA_RUNTIME = {"boto3"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;#]+)", line.strip())
        if match:
            found[canonical(match.group(1))] = match.group(2)
    return found


def test_every_runtime_dependency_is_bundled_for_lambda() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = {canonical(re.split(r"[\[<>=~! ]", dep, maxsplit=1)[0]) for dep in project["dependencies"]}
    assert needed - IN_LAMBDA_RUNTIME == set(pins(ROOT / "src" / "requirements.txt"))


def test_bundled_versions_are_the_ones_the_tests_ran_against() -> None:
    tested = pins(ROOT / "constraints.txt")
    for name, version in pins(ROOT / "src" / "requirements.txt").items():
        assert tested.get(name) == version, f"{name}: bundled {version}, tested {tested.get(name)}"
