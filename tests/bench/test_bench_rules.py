"""The bench's arithmetic: DynamoDB's sizing rules and when a difference counts as noise (no timing here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


capacity = load("capacity")
run = load("run")


def test_an_item_is_billed_for_its_attribute_names_and_values() -> None:
    item = {"pk": {"S": "GAME#1"}, "n": {"N": "12345"}, "ok": {"BOOL": True}}
    assert capacity.item_size(item) == (2 + 6) + (1 + 4) + (2 + 1)


def test_lists_and_maps_carry_three_bytes_plus_one_per_element() -> None:
    assert capacity.value_size({"L": [{"S": "ab"}, {"S": "c"}]}) == 3 + (1 + 2) + (1 + 1)
    assert capacity.value_size({"M": {"k": {"S": "ab"}}}) == 3 + 1 + 1 + 2


def test_text_is_sized_in_utf8_bytes_not_characters() -> None:
    assert capacity.value_size({"S": "échos"}) == 6


def test_writes_round_up_per_kilobyte_and_reads_per_four() -> None:
    assert capacity.write_units(1) == 1
    assert capacity.write_units(1025) == 2
    assert capacity.read_units(4096, consistent=True) == 1
    assert capacity.read_units(4097, consistent=False) == 1.0
    assert capacity.read_units(0, consistent=False) == 0.5


def _ledger(projection: str) -> capacity.Ledger:
    return capacity.Ledger(
        raw=None,
        properties={
            "KeySchema": [{"AttributeName": "pk"}, {"AttributeName": "sk"}],
            "GlobalSecondaryIndexes": [
                {"KeySchema": [{"AttributeName": "g"}], "Projection": {"ProjectionType": projection}}
            ],
        },
    )


BEFORE = {"pk": {"S": "a"}, "sk": {"S": "b"}, "g": {"S": "1"}}


def test_an_index_whose_key_changes_costs_a_delete_and_a_put() -> None:
    for projection in ("KEYS_ONLY", "ALL"):
        ledger = _ledger(projection)
        assert ledger._index_units(BEFORE, {**BEFORE, "g": {"S": "2"}}) == 2
        assert ledger._index_units(BEFORE, {"pk": {"S": "a"}, "sk": {"S": "b"}}) == 1
        assert ledger._index_units({"pk": {"S": "a"}}, {"pk": {"S": "a"}}) == 0


def test_a_keys_only_entry_is_not_written_when_only_other_attributes_change() -> None:
    assert _ledger("KEYS_ONLY")._index_units(BEFORE, {**BEFORE, "x": {"S": "y"}}) == 0
    assert _ledger("ALL")._index_units(BEFORE, {**BEFORE, "x": {"S": "y"}}) == 1
    assert _ledger("ALL")._index_units(BEFORE, dict(BEFORE)) == 0


def test_a_difference_beyond_both_spreads_is_better_or_worse() -> None:
    base = [100.0, 101.0, 102.0, 103.0, 104.0]
    assert run.verdict(base, [110.0, 111.0, 112.0, 113.0, 114.0]) == "worse +10 %"
    assert run.verdict(base, [90.0, 91.0, 92.0, 93.0, 94.0]) == "better -10 %"
    # A wide run still tells a change wider than itself.
    assert run.verdict([100.0, 103.0, 110.0], [125.0, 126.0, 127.0]) == "worse +22 %"


def test_overlapping_spreads_are_within_noise() -> None:
    base = [100.0, 101.0, 102.0, 103.0, 104.0]
    assert run.verdict(base, [102.0, 103.0, 104.0, 105.0, 106.0]) == "within noise"
    assert run.verdict(base, [98.0, 99.0, 100.0, 101.0, 102.0]) == "within noise"


def test_ranges_apart_by_less_than_a_spread_are_within_noise() -> None:
    """Issue 36's "worse +2 %" on a run against itself: apart, but by less than either run's own width."""
    base = [100.0, 101.0, 102.0, 103.0, 104.0]
    assert run.verdict(base, [104.5, 105.0, 105.5, 106.0, 106.5]) == "within noise"
    # Apart by more than the narrow run's width, not the wide one's: still noise.
    assert run.verdict([100.0, 100.5, 101.0], [102.0, 104.0, 110.0]) == "within noise"
    # Interquartile ranges apart (102..102 and 104..104), whole ranges overlapping: noise.
    assert run.verdict([100.0, 102.0, 102.0, 102.0, 106.0], [103.0, 104.0, 104.0, 104.0, 108.0]) == (
        "within noise"
    )


def test_rows_measured_once_are_the_same_or_differ_without_a_better_or_worse() -> None:
    assert run.verdict([3.0], [3.0]) == "same"
    assert run.verdict([0.0], [0.0]) == "same"
    assert run.verdict([6.0], [3.0]) == "differs -50 %"


def test_the_handler_is_held_to_its_floor_and_not_to_the_trivial_route() -> None:
    assert run.target("handler/floor CPU, vote (x)", {}) == ("≤ 1.5", 1.5)
    assert run.target("handler/floor CPU, view (x)", {}) == ("≤ 1.4", 1.4)
    assert run.target("handler/floor CPU, poll 304 (x)", {}) == ("≤ 1.2", 1.2)
    assert run.target("handler/trivial CPU, vote (x)", {}) is None
    assert run.target("cold import ratio, handlers.api / framework in use (x)", {}) == ("≤ 1.15", 1.15)


def _floor() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        return load("floor")
    finally:
        sys.path.remove(str(BENCH))


def test_a_replayed_write_goes_to_the_copy_table_with_everything_else_kept() -> None:
    floor = _floor()
    replayer = object.__new__(floor.Floor)
    update = {"TableName": "dixit-bench", "Key": {"pk": {"S": "G"}}, "ConditionExpression": "v = :v"}
    moved = replayer.to_copy("UpdateItem", update)
    assert moved == {**update, "TableName": floor.COPY_TABLE}
    assert update["TableName"] == "dixit-bench"
    transaction = {"TransactItems": [{"Put": {"TableName": "dixit-bench", "Item": {"pk": {"S": "G"}}}}]}
    assert replayer.to_copy("TransactWriteItems", transaction)["TransactItems"][0]["Put"]["TableName"] == (
        floor.COPY_TABLE
    )
    assert len(floor.COPY_TABLE) == len("dixit-bench")
