"""`dataclass` as the standard library has it, with its methods shared rather than compiled for each class.

Why: `dataclasses` writes every method it adds as source text and compiles it, class by class: six
compilations for a frozen class (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`,
`__delattr__`), each about a tenth of a millisecond. With some fifty records imported by the API function,
that was the largest part of its cold start's own work (issue 36, docs/performance.md). Here `__init__`
alone is compiled, since it runs for every record a request builds and must stay as fast as the standard
one, and only when the class is first instantiated; the other methods are closures over the class's field
names, made without compiling anything.

The behaviour is the standard library's (tests/rules/test_lean_dataclass.py compares the two over
generated class shapes); type checkers see the standard decorator itself. A class this does not cover
(options other than `frozen` and `slots`, `__post_init__`, `InitVar`, dataclass bases, its own
`__setattr__` on a frozen class) is handed to `dataclasses.dataclass` unchanged.
"""

from __future__ import annotations

import dataclasses
import reprlib
import sys
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False, **options: Any):
        def wrap(cls: type) -> type:
            if options or not _covered(cls, frozen):
                return dataclasses.dataclass(cls, frozen=frozen, slots=slots, **options)
            return _lean(cls, frozen, slots)

        return wrap if cls is None else wrap(cls)


_MISSING = dataclasses.MISSING
_Key = Callable[[Any], tuple[Any, ...]]


def _covered(cls: type, frozen: bool) -> bool:
    own = cls.__dict__
    return not (
        hasattr(cls, "__post_init__")
        or any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:])
        or any("InitVar" in str(annotation) for annotation in own.get("__annotations__", {}).values())
        or "self" in own.get("__annotations__", {})
        or (frozen and ("__setattr__" in own or "__delattr__" in own))
    )


def _lean(cls: type, frozen: bool, slots: bool) -> type:
    own = dict(cls.__dict__)
    documented = bool(own.get("__doc__"))
    # dataclasses' own rule: a class's __hash__ is its own unless it is the None that defining __eq__ set.
    own_hash = own.get("__hash__", _MISSING)
    keeps_hash = not (own_hash is _MISSING or (own_hash is None and "__eq__" in own))

    # Fields, __match_args__, __slots__ and the class's dataclass markers, without a method compiled (and
    # without the docstring dataclasses would write from the signature of an __init__ not yet there).
    if not documented:
        cls.__doc__ = "(written below)"
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    params.init = params.repr = params.eq = True
    params.frozen = frozen
    fields = dataclasses.fields(cls)

    if "__init__" not in own:
        _check_defaults_order(fields)
        _add(cls, "__init__", _compiled_when_first_called(cls, fields, frozen))
    if "__repr__" not in own:
        _add(cls, "__repr__", _repr(tuple(f.name for f in fields if f.repr)))
    if "__eq__" not in own:
        _add(cls, "__eq__", _eq(tuple(f.name for f in fields if f.compare)))
    if not keeps_hash:
        hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        cls.__hash__ = _hash(_key(hashed)) if frozen else None  # type: ignore[assignment]
    if frozen:
        names = frozenset(f.name for f in fields)
        _add(cls, "__setattr__", _frozen_setattr(cls, names))
        _add(cls, "__delattr__", _frozen_delattr(cls, names))
        if slots and "__getstate__" not in own:
            setattr(cls, "__getstate__", _getstate)  # noqa: B010 - a method the class has not yet
        if slots and "__setstate__" not in own:
            setattr(cls, "__setstate__", _setstate)  # noqa: B010
    if not documented:
        cls.__doc__ = _signature_doc(cls.__name__, fields)
    return cls


def _add(cls: type, name: str, method: Any) -> None:
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, method)


def _key(names: tuple[str, ...]) -> _Key:
    """A record's values of `names`, as a tuple whatever their number (as dataclasses compares them)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


def _check_defaults_order(fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """dataclasses' refusal, at class creation: a positional argument without a default after one with."""
    defaulted = False
    for f in fields:
        if f.init and not f.kw_only:
            if f.default is _MISSING and f.default_factory is _MISSING and defaulted:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            defaulted = defaulted or f.default is not _MISSING or f.default_factory is not _MISSING


def _compiled_when_first_called(cls: type, fields: tuple[dataclasses.Field[Any], ...], frozen: bool) -> Any:
    """An __init__ that compiles the class's own on its first call and hands over to it for good.

    Why: compiling is most of what a record costs at import, and a request builds few of the records its
    modules define (one move of twelve, no sign-in code on a move); one never built is never compiled.
    A class's signature (inspect.signature) reads `(*args, **kwargs)` until then; nothing here reads it.
    """

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _init(fields, frozen)
        _add(cls, "__init__", init)
        init(self, *args, **kwargs)

    return __init__


def _init(fields: tuple[dataclasses.Field[Any], ...], frozen: bool) -> Any:
    """The one compiled method, written as dataclasses writes it (same arguments, same assignments)."""
    scope: dict[str, Any] = {"__factory__": _HAS_FACTORY, "__object__": object}
    arguments, keywords, body = ["self"], list[str](), list[str]()
    for f in fields:
        value = f.name
        if f.default is not _MISSING:
            scope[f"__default_{f.name}__"] = f.default
        elif f.default_factory is not _MISSING:
            scope[f"__default_{f.name}__"] = f.default_factory
        if f.init:
            if f.default is not _MISSING:
                argument = f"{f.name}=__default_{f.name}__"
            elif f.default_factory is not _MISSING:
                argument = f"{f.name}=__factory__"
                value = f"__default_{f.name}__() if {f.name} is __factory__ else {f.name}"
            else:
                argument = f.name
            (keywords if f.kw_only else arguments).append(argument)
        elif f.default is not _MISSING:
            value = f"__default_{f.name}__"
        elif f.default_factory is not _MISSING:
            value = f"__default_{f.name}__()"
        else:
            continue
        body.append(
            f"__object__.__setattr__(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}"
        )
    signature = ", ".join(arguments + (["*", *keywords] if keywords else []))
    source = f"def __init__({signature}):\n    " + ("\n    ".join(body) or "pass") + "\n"
    exec(source, scope)  # noqa: S102 - text built here from field names, as dataclasses does
    init = scope["__init__"]
    init.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return init


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(names: tuple[str, ...]) -> Callable[[Any, object], Any]:
    if sys.version_info >= (3, 13):
        # As 3.13's dataclasses: a record is equal to itself at once, and fields compare one by one
        # (`self.a == other.a and self.b == other.b`), the first unequal one ending it.
        def __eq__(self: Any, other: object) -> Any:
            if self is other:
                return True
            if other.__class__ is not self.__class__:
                return NotImplemented
            equal: Any = True
            for name in names:
                equal = getattr(self, name) == getattr(other, name)
                if not equal:
                    return equal
            return equal

    else:
        key = _key(names)

        # As 3.11's: the tuples of their fields compared.
        def __eq__(self: Any, other: object) -> Any:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

    return __eq__


def _hash(key: _Key) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _frozen_setattr(cls: type, names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    return __setattr__


def _frozen_delattr(cls: type, names: frozenset[str]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    return __delattr__


# A frozen record with slots pickles and copies as dataclasses' does: its values in field order, set back
# past the frozen __setattr__.
def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=False):
        object.__setattr__(self, f.name, value)


def _signature_doc(name: str, fields: tuple[dataclasses.Field[Any], ...]) -> str:
    """`Name(a: 'int', b: 'str' = '')`, as dataclasses writes it from inspect.signature, built directly."""
    from inspect import formatannotation  # already imported by the framework: no cost

    positional, keywords = list[str](), ["*"]
    for f in fields:
        if not f.init:
            continue
        shown = f"{f.name}: {formatannotation(f.type)}"
        if f.default is not _MISSING:
            shown += f" = {f.default!r}"
        elif f.default_factory is not _MISSING:
            shown += " = <factory>"
        (keywords if f.kw_only else positional).append(shown)
    return f"{name}({', '.join(positional + (keywords if len(keywords) > 1 else []))})"
