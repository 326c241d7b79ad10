"""A run of the bench against itself reads "within noise" on every row (issue 36).

Two sides of the same tree, measured as `make bench` measures (fresh processes, interleaved, each run's
CPU scaled by its reference), on the cheapest group: the rules core's bot games, in their quick form.
Whatever the machine is doing meanwhile, the verdict must not read the same code as a change.
"""

from __future__ import annotations

from tests.bench.test_bench_rules import BENCH, run

ROUNDS = 5


def test_the_same_tree_twice_is_within_noise_on_every_row() -> None:
    sides = [run.Side("same", BENCH.parent), run.Side("same again", BENCH.parent)]
    samples = run.collect(sides, ("engine",), ROUNDS, quick=True)
    rows = samples["same"]
    assert len(rows) >= 3
    assert all(len(values) == ROUNDS for values in rows.values())
    verdicts = {name: run.verdict(rows[name], samples["same again"][name]) for name in rows}
    assert verdicts == dict.fromkeys(rows, "within noise")
