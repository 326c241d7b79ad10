"""`make bench [BASE=<git ref>]`: measure the work tree and a baseline side by side, print ratios.

The baseline (default HEAD) is checked out into a temporary git worktree and measured in the same
session, so the ratio compares code, not machines or days.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(tree: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(tree)])}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "measure.py")],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    if out.stderr.strip():
        print(out.stderr.strip(), file=sys.stderr)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="HEAD", help="git ref to compare against (default HEAD)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dixit-bench-") as tmp:
        base_tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(base_tree), args.base], cwd=ROOT, check=True
        )
        try:
            base = measure(base_tree)
            current = measure(ROOT)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT, check=False)
    width = max(len(k) for k in current)
    print(f"{'measure':<{width}}  {'base ' + args.base:>14}  {'work tree':>12}  {'ratio':>7}")
    for name, value in current.items():
        before = base.get(name)
        ratio = f"{value / before:6.2f}x" if before else "    new"
        shown = f"{before:14.1f}" if before is not None else f"{'-':>14}"
        print(f"{name:<{width}}  {shown}  {value:12.1f}  {ratio:>7}")
    print("ratio < 1 is faster (or smaller) than the baseline", file=sys.stderr)


if __name__ == "__main__":
    main()
