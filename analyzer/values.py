"""What a value is, as rules read it (Value, from Facts.value), and the Python objects
whose fields the analyzer knows: instances of a namedtuple, NamedTuple or dataclass built
in the linted code (`_State(y0, f0, t[0], ...)`).

A Record is one more kind beside tensor_facts' small ints and Conditions: reading a field
gives the kind of what the constructor was passed for it (`state.t1` is a tensor when a
tensor was passed as `t1`), and unpacking gives the fields in order. Fields the
constructor did not receive are unknown.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import libcst as cst

from tclint.analyzer.names import dotted_name

UNKNOWN = 0  # tensor_facts.UNKNOWN, repeated to keep the import one way

NAMEDTUPLE_FACTORIES = frozenset({"collections.namedtuple", "typing.NamedTuple"})
RECORD_BASES = frozenset({"typing.NamedTuple", "NamedTuple", "typing.TypedDict", "TypedDict"})
DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "dataclass"})


@dataclass(frozen=True)
class Record:
    """An instance of `cls` (a qualified name) with the kinds its fields were built from."""

    cls: str
    fields: tuple[tuple[str, object], ...]

    def field(self, name: str):
        for field_name, kind in self.fields:
            if field_name == name:
                return kind
        return UNKNOWN

    def items(self) -> list:
        return [kind for _, kind in self.fields]


def build(cls: str, names: tuple[str, ...], call: cst.Call, kind_of) -> Record:
    """The Record `cls(*args, **kwargs)` builds, given the class's field names in order."""
    kinds = dict.fromkeys(names, UNKNOWN)
    position = 0
    for arg in call.args:
        if arg.star:
            break
        if arg.keyword is not None:
            if arg.keyword.value in kinds:
                kinds[arg.keyword.value] = kind_of(arg.value)
        elif position < len(names):
            kinds[names[position]] = kind_of(arg.value)
            position += 1
    return Record(cls, tuple(kinds.items()))


def namedtuple_fields(call: cst.Call, qualify) -> tuple[str, ...] | None:
    """The field names of `namedtuple("N", "a, b c")` or `namedtuple("N", ["a", "b"])`."""
    if qualify(call.func) not in NAMEDTUPLE_FACTORIES or len(call.args) < 2:
        return None
    spec = call.args[1].value
    if isinstance(spec, cst.SimpleString):
        text = spec.evaluated_value
        return tuple(text.replace(",", " ").split()) if isinstance(text, str) else None
    if isinstance(spec, (cst.List, cst.Tuple)):
        names = []
        for el in spec.elements:
            if not isinstance(el.value, cst.SimpleString):
                return None
            if isinstance(el.value, cst.SimpleString) and isinstance(el.value.evaluated_value, str):
                names.append(el.value.evaluated_value)
        return tuple(names)
    return None


def class_fields(node: cst.ClassDef, qualify) -> tuple[str, ...] | None:
    """Field names of a class statement that defines a record: a subclass of a namedtuple
    factory call, a NamedTuple or TypedDict, or a @dataclass; None for other classes."""
    for base in node.bases:
        if isinstance(base.value, cst.Call):
            names = namedtuple_fields(base.value, qualify)
            if names is not None:
                return names
    annotated = any((qualify(b.value) or dotted_name(b.value)) in RECORD_BASES for b in node.bases) or is_dataclass(
        node, qualify)
    if not annotated or not isinstance(node.body, cst.IndentedBlock):
        return None
    names = []
    for stmt in node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if "ClassVar" not in (dotted_name(_outer(small.annotation.annotation)) or ""):
                        names.append(small.target.value)
    return tuple(names)


def is_dataclass(node: cst.ClassDef, qualify) -> bool:
    """A class statement decorated `@dataclass` or `@dataclass(...)`."""
    return any((qualify(_decorator_target(d)) or dotted_name(_decorator_target(d))) in DATACLASS_DECORATORS
               for d in node.decorators)


def _decorator_target(dec: cst.Decorator) -> cst.BaseExpression:
    expr = dec.decorator
    return expr.func if isinstance(expr, cst.Call) else expr


def _outer(annotation: cst.BaseExpression) -> cst.BaseExpression:
    return annotation.value if isinstance(annotation, cst.Subscript) else annotation


class Kind(str, Enum):
    TENSOR = "a tensor"
    MASK = "a boolean mask"
    NDARRAY = "a NumPy value"  # traced by Dynamo as a tensor: its truth is data
    STATIC = "a static value"  # shapes, dtypes, config, numbers: Dynamo specializes on them
    MODULE = "a module"
    OBJECT = "an object"  # of a class whose fields are known (Record)
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Value:
    """What an expression holds, as every rule should read it (Facts.value).

    `condition`: the kind holds only where one of these call references does (a caller
    passes a tensor there, a helper returns one); the project phase decides. `assumed`: a
    compiled function's un-annotated input, taken for a tensor where only a tensor makes
    sense (`.item()`), not where a number would do as well (`if x:`). `origin` says where
    the kind comes from, for messages: "returned by `_norm`".
    """

    kind: Kind
    condition: frozenset | None = None
    assumed: bool = False
    from_parameters: bool = False  # unknown but for `condition`: built from parameters or `self`'s attributes
    origin: str | None = None
    record: Record | None = None
    # a tensor under `condition` that is a boolean mask where one of these references holds
    # (a name unpacked from a helper's tuple whose field there may be a mask)
    mask_when: frozenset | None = None

    @property
    def is_tensor(self) -> bool:
        """A tensor or mask, possibly under a condition, not only assumed."""
        return self.kind in (Kind.TENSOR, Kind.MASK) and not self.assumed

    @property
    def known_tensor(self) -> bool:
        """A tensor or mask with no condition attached (an assumed input included)."""
        return self.kind in (Kind.TENSOR, Kind.MASK) and self.condition is None

    @property
    def known_mask(self) -> bool:
        return self.kind is Kind.MASK and self.condition is None

    @property
    def unknown(self) -> bool:
        """Nothing known but what callers may pass (a condition on the parameters)."""
        return self.kind is Kind.UNKNOWN or self.from_parameters

    @property
    def truth_is_data(self) -> bool:
        """Testing its truth reads data under Dynamo: a tensor, a mask, or a NumPy value."""
        return self.is_tensor or self.kind is Kind.NDARRAY

    def describe(self, name: str | None) -> str | None:
        """"`err`, a tensor returned by `_norm`", when there is something to say."""
        if self.origin is None or name is None:
            return None
        return f"`{name}`, {self.kind.value} {self.origin}"
