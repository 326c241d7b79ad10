"""dixit.lean_dataclass behaves as dataclasses.dataclass: the same class shape built by each, compared.

Hypothesis draws the shapes (fields with and without defaults or factories, left out of init, repr,
comparison or hash, keyword-only; frozen or not, slots or not, a method of the class's own) and the
values; every observable answer of the two classes must agree.
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import inspect
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dixit.lean_dataclass import dataclass as lean

NAMES = ("alpha", "beta", "gamma", "delta", "epsilon")
VALUES = st.one_of(st.integers(-3, 3), st.text(max_size=2), st.none(), st.tuples(st.integers(0, 2)))


@st.composite
def shapes(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(0, len(NAMES)))
    fields = [
        {
            "name": name,
            "default": draw(st.sampled_from(["none", "none", "value", "factory"])),
            "value": draw(VALUES),
            "init": draw(st.booleans()) or draw(st.booleans()),
            "repr": draw(st.booleans()),
            "compare": draw(st.booleans()),
            "hash": draw(st.sampled_from([None, None, True, False])),
            "kw_only": draw(st.booleans()) and draw(st.booleans()),
        }
        for name in NAMES[:count]
    ]
    return {
        "fields": fields,
        "frozen": draw(st.booleans()),
        "slots": draw(st.booleans()),
        "documented": draw(st.booleans()),
        "own": draw(st.sampled_from([None, "__eq__", "__repr__", "__hash__"])),
    }


def build(decorator: Any, shape: dict[str, Any]) -> Any:
    """The shape's class, made by `decorator`, or the exception its decoration raised."""
    namespace: dict[str, Any] = {"__module__": __name__, "__qualname__": "Shape", "__annotations__": {}}
    for f in shape["fields"]:
        namespace["__annotations__"][f["name"]] = "int"
        options = {k: f[k] for k in ("init", "repr", "compare", "hash", "kw_only")}
        if f["default"] == "value":
            options["default"] = f["value"]
        elif f["default"] == "factory":
            options["default_factory"] = (lambda value: lambda: value)(f["value"])
        namespace[f["name"]] = dataclasses.field(**options)
    if shape["documented"]:
        namespace["__doc__"] = "A shape."
    if shape["own"] == "__eq__":
        namespace["__eq__"] = lambda self, other: "own eq"
    elif shape["own"] == "__repr__":
        namespace["__repr__"] = lambda self: "own repr"
    elif shape["own"] == "__hash__":
        namespace["__hash__"] = lambda self: 7
    try:
        return decorator(frozen=shape["frozen"], slots=shape["slots"])(type("Shape", (), namespace))
    except Exception as refused:
        return refused


def outcome(call: Any) -> Any:
    try:
        return ("value", call())
    except Exception as refused:
        return ("raised", type(refused))


def refusal(change: Any, record: Any, name: str) -> Any:
    """What setting a field (to 1) or deleting it answers: nothing, or its refusal's type."""
    if change is setattr:
        return outcome(lambda: setattr(record, name, 1))
    return outcome(lambda: delattr(record, name))


def instances(cls: Any, shape: dict[str, Any], values: list[Any]) -> Any:
    init = [f for f in shape["fields"] if f["init"]]
    positional = [v for f, v in zip(init, values, strict=False) if not f["kw_only"]]
    keywords = {f["name"]: v for f, v in zip(init, values, strict=False) if f["kw_only"]}
    return outcome(lambda: cls(*positional, **keywords))


@given(shapes(), st.lists(VALUES, min_size=5, max_size=5), st.lists(VALUES, min_size=5, max_size=5))
def test_every_answer_of_a_lean_class_is_the_standard_ones(
    shape: dict[str, Any], first: list[Any], second: list[Any]
) -> None:
    standard, ours = build(dataclasses.dataclass, shape), build(lean, shape)
    if isinstance(standard, Exception):
        assert type(ours) is type(standard)
        return
    assert dataclasses.is_dataclass(ours)
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(standard)]
    assert ours.__match_args__ == standard.__match_args__
    assert ours.__doc__ == standard.__doc__
    assert hasattr(ours, "__slots__") == hasattr(standard, "__slots__")
    assert (ours.__hash__ is None) == (standard.__hash__ is None)
    assert ours.__dataclass_params__.frozen == standard.__dataclass_params__.frozen

    # Too few arguments for the shape, or exactly enough.
    assert instances(ours, shape, first[:1])[0] == instances(standard, shape, first[:1])[0]
    made = [(instances(cls, shape, first), instances(cls, shape, second)) for cls in (standard, ours)]
    (standard_a, standard_b), (ours_a, ours_b) = made
    assert ours_a[0] == standard_a[0]
    assert ours_b[0] == standard_b[0]
    if standard_a[0] == "raised":
        return
    a, b, std_a, std_b = ours_a[1], ours_b[1], standard_a[1], standard_b[1]
    # Its __init__ is compiled now that it was first called: its signature is dataclasses'.
    assert str(inspect.signature(ours)) == str(inspect.signature(standard))
    assert outcome(lambda: repr(a)) == outcome(lambda: repr(std_a))
    assert outcome(lambda: a == b) == outcome(lambda: std_a == std_b)
    assert outcome(lambda: a == a) == outcome(lambda: std_a == std_a)
    assert outcome(lambda: a != b) == outcome(lambda: std_a != std_b)
    assert outcome(lambda: a == object()) == outcome(lambda: std_a == object())
    assert outcome(lambda: hash(a)) == outcome(lambda: hash(std_a))
    assert outcome(lambda: dataclasses.asdict(a)) == outcome(lambda: dataclasses.asdict(std_a))
    assert outcome(lambda: repr(copy.copy(a))) == outcome(lambda: repr(copy.copy(std_a)))
    assert outcome(lambda: repr(copy.deepcopy(a))) == outcome(lambda: repr(copy.deepcopy(std_a)))
    for name in (f["name"] for f in shape["fields"]):
        assert refusal(setattr, a, name) == refusal(setattr, std_a, name)
        assert refusal(delattr, a, name) == refusal(delattr, std_a, name)
    changes = {f["name"]: 2 for f in shape["fields"] if f["init"]}
    assert outcome(lambda: repr(dataclasses.replace(a, **changes))) == outcome(
        lambda: repr(dataclasses.replace(std_a, **changes))
    )


def test_a_frozen_record_refuses_assignment_with_dataclasses_own_error() -> None:
    @lean(frozen=True, slots=True)
    class Seat:
        player_id: str
        score: int = 0

    seat = Seat("p1")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'score'"):
        seat.score = 3  # type: ignore[misc]
    assert dataclasses.replace(seat, score=3) == Seat("p1", 3)
    assert {Seat("p1"), Seat("p1"), Seat("p2")} == {Seat("p1"), Seat("p2")}
    assert repr(seat).endswith("<locals>.Seat(player_id='p1', score=0)")


def test_a_shape_it_does_not_cover_goes_to_dataclasses() -> None:
    @lean(frozen=True, order=True)
    class Ordered:
        rank: int

    @lean
    class Checked:
        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    assert Ordered(1) < Ordered(2)
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)


def test_only_init_is_compiled_and_only_when_a_record_is_first_built() -> None:
    compiled: list[str] = []
    original = builtins.exec

    def counting(source: Any, *args: Any) -> Any:
        compiled.append(str(source))
        return original(source, *args)

    def inits() -> int:
        return sum("def __init__(self, first, second=" in source for source in compiled)

    builtins.exec = counting
    try:

        @lean(frozen=True, slots=True)
        class Record:
            first: int
            second: str = ""

        made = inits()
        records = [Record(1), Record(1, ""), Record(first=2)]
    finally:
        builtins.exec = original
    # (Python 3.13's dataclasses also compiles an empty function of its own, for the methods it adds.)
    methods = ("__eq__", "__repr__", "__hash__", "__setattr__", "__delattr__")
    assert [method for method in methods if any(f"def {method}" in source for source in compiled)] == []
    assert made == 0
    assert inits() == 1
    assert records[0] == records[1] != records[2]
    assert hash(records[0]) == hash(records[1])
    assert str(inspect.signature(Record)) == "(first: 'int', second: 'str' = '') -> None"


def test_a_subclass_building_first_compiles_its_records_init_not_its_own() -> None:
    @lean(frozen=True, slots=True)
    class Record:
        first: int

    class Named(Record):
        __slots__ = ()

    assert (
        repr(Named(1))
        == "test_a_subclass_building_first_compiles_its_records_init_not_its_own.<locals>.Named(first=1)"
    )
    assert "__init__" not in Named.__dict__
    assert Record(2).first == 2
