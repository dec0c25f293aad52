"""Call references: how a file's summary names what only the project phase can resolve.

A file sees a call (`helper(x)`, `self.step(x)`, `obj.solve()`) but not the function it runs,
which may live in another file or in a subclass. The summary keeps a reference; the project
phase, which sees every file, resolves it (`ProjectIndex.resolve_ref`). A tensor condition
(`summary.Condition`) holds references too, and two kinds only conditions use: a parameter
(`Param`), a NumPy result (`NumpyResult`), an instance attribute (`Attr`) and a few facts about
classes and annotations.

Frozen records: hashable (conditions are frozensets of them) and plain data for the cache.
`str()` gives a short form for logs and test failures.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Named:
    """A module-level function or class by dotted name, as imports resolve it: `pkg.mod.helper`."""

    dotted: str

    def __str__(self) -> str:
        return self.dotted


@dataclass(frozen=True)
class Method:
    """`name` looked up along the bases of the class `cls` (a dotted name): `self.step()`,
    `solver.step()` where `solver = Solver(...)`; subclasses' overrides run too."""

    cls: str
    name: str

    def __str__(self) -> str:
        return f"{self.cls}.{self.name}"


@dataclass(frozen=True)
class Getter(Method):
    """`self.name` read (not called) where `name` is a `@property` of the class `cls` or of a
    base: the getter runs, and nothing it returns is called."""

    def __str__(self) -> str:
        return f"{self.cls}.{self.name}:get"


@dataclass(frozen=True)
class SuperMethod:
    """`super().name()` in the class `cls`: the first definition after `cls` in its bases."""

    cls: str
    name: str

    def __str__(self) -> str:
        return f"super({self.cls}).{self.name}"


@dataclass(frozen=True)
class AnyMethod:
    """`obj.name()` on an object of unknown class: the project's methods of that name, followed
    only when few classes (or one family) define it; or else, those of `package` (the calling
    file's top-level package) when few of its classes do: a package's code mostly calls its
    own classes, and what a run finds in a package then does not depend on the other
    packages it lints."""

    name: str
    package: str = ""

    def __str__(self) -> str:
        return f"?.{self.name}"


@dataclass(frozen=True)
class Returned:
    """What calling `call` returns, called in turn: the wrapper a decorator returns, a nested
    def a factory returns, an instance's `__call__`. `passed` holds the functions the call
    passes, as CallSite.callables does, but for the caller's own parameters (what those hold
    is resolved from call sites): a callee that returns one of its parameters (ReturnedParam:
    `get_method(methods, name)` returning `methods[name]`) returns those."""

    call: "CallRef"
    passed: tuple = ()

    def __str__(self) -> str:
        return f"({self.call})()"


@dataclass(frozen=True)
class ReturnedParam:
    """In FunctionSummary.returns_callables: the function returns its parameter (`position`
    as in `Param`, or `name`) or an entry of it (`return methods[name]`): what the call passes
    there (Returned.passed)."""

    position: int
    name: str

    def __str__(self) -> str:
        return f"<parameter {self.name}>"


@dataclass(frozen=True)
class Entries:
    """A function taken from the module-level table `dotted` names (`LOSS_MAPPING[kind]`,
    where `LOSS_MAPPING = {"ForCTC": ForCTCLoss, ...}` in another file)."""

    dotted: str

    def __str__(self) -> str:
        return f"{self.dotted}[...]"


@dataclass(frozen=True)
class MethodPattern:
    """`getattr(self, "{}_reduction".format(kind))`: the methods of the class `cls` (its
    bases' and subclasses' too) whose names start with `prefix` and end with `suffix`; which
    one runs depends on a run-time string, so each is a candidate."""

    cls: str
    prefix: str
    suffix: str

    def __str__(self) -> str:
        return f"{self.cls}.{self.prefix}*{self.suffix}"


@dataclass(frozen=True)
class ParamCallable:
    """`fn(x)` or `fns[k](x)` where `fn`/`fns` is a parameter of `function` (or of a function
    enclosing it): what its callers pass there (`apply(helper, x)`, a table of functions).
    `position` as in `Param`. Resolved from call sites, so never cached with names."""

    function: str
    position: int
    name: str

    def __str__(self) -> str:
        return f"{self.function}({self.name})()"


@dataclass(frozen=True)
class ReturnedMethod:
    """`obj.name()` where `obj = call(...)` in the same function and the function `call` runs
    returns an instance it builds (`return S(k)`, `return SOLVERS[kind]()`): `name` of those
    classes. The object is built in the caller's frame when the call is inlined, unless it is
    `stored`: `self.obj.name()` where set-up code ran `self.obj = call(...)`."""

    call: "CallRef"
    name: str
    # where the call returns no instance it builds: `name` as on an object of unknown class,
    # scoped to the calling package as that AnyMethod is (None: not followed by name)
    fallback: "AnyMethod | None" = None
    stored: bool = False

    def __str__(self) -> str:
        return f"({self.call}).{self.name}"


CallRef = Named | Method | Getter | SuperMethod | AnyMethod | Returned | Entries | MethodPattern | ParamCallable | ReturnedMethod
CALL_REFS = (Named, Method, Getter, SuperMethod, AnyMethod, Returned, Entries, MethodPattern, ParamCallable, ReturnedMethod)


def reads_call_sites(ref: CallRef) -> bool:
    """What `ref` runs depends on what callers pass (a parameter called, a method of the
    instance a parameter built): resolved anew with each project index, never kept by name."""
    while isinstance(ref, (Returned, ReturnedMethod)):
        ref = ref.call
    return isinstance(ref, ParamCallable)


@dataclass(frozen=True)
class Param:
    """A condition: a compiled caller passes a tensor as this parameter of `function` (a
    function key), or, with `field`, as that field of the record it passes. `position` is the
    positional index after `self` (-1: keyword-only, matched by name)."""

    function: str
    position: int
    name: str
    field: str = ""

    @property
    def path(self) -> str:
        return f"{self.name}.{self.field}" if self.field else self.name

    def __str__(self) -> str:
        return f"{self.function}({self.path})"


@dataclass(frozen=True)
class NumpyResult:
    """A condition: `call` returns a NumPy value. Only rules that read a value's truth add it:
    Dynamo traces NumPy as tensors, so branching on such a value breaks, but using it does not."""

    call: CallRef

    def __str__(self) -> str:
        return f"numpy:{self.call}"


@dataclass(frozen=True)
class ReturnsMask:
    """A condition: `call` returns a boolean mask (every return statement of the callee
    returns one, or compares a parameter the call passes a tensor: `tensors`, the positions
    and keywords it does), so what a name bound to its result (or to `~` of it) indexes
    breaks (`mask = ~out_of_bounds(x, low, upp)`, then `x[mask]`)."""

    call: CallRef
    tensors: frozenset = frozenset()

    def __str__(self) -> str:
        return f"mask:{self.call}"


@dataclass(frozen=True)
class ModuleClass:
    """A condition: the class `cls` (a dotted name) is an nn.Module, as its bases across
    files say. `self` in a method is a module only then (a config object is not)."""

    cls: str

    def __str__(self) -> str:
        return f"module:{self.cls}"


@dataclass(frozen=True)
class RnnOnly:
    """A condition: every instance of the class `cls` (a dotted name) is an nn.LSTM, nn.GRU
    or nn.RNN, which Dynamo refuses to wrap: it derives from one, or it is abstract and each
    concrete class of the project derived from it does."""

    cls: str

    def __str__(self) -> str:
        return f"rnn:{self.cls}"


@dataclass(frozen=True)
class TensorType:
    """A condition: the annotation `dotted` names torch.Tensor through another file's
    alias (`Tensor = torch.Tensor` in a package's `types.py`)."""

    dotted: str

    def __str__(self) -> str:
        return f"type:{self.dotted}"


@dataclass(frozen=True)
class OptionalKeys:
    """A condition: the class `cls` (a dotted name) is a TypedDict with optional keys
    (`total=False`, its own or a base's), which Dynamo cannot build."""

    cls: str

    def __str__(self) -> str:
        return f"optional-keys:{self.cls}"


@dataclass(frozen=True)
class Attr:
    """A condition: the attribute `name` of an instance of the class `cls` (a dotted name)
    holds a tensor, or with `field`, a record whose field holds one. The class, its bases and
    its subclasses, in any file, may store it: a class-body constant in a subclass
    (`tableau = _TABLEAU`), `self.name = ...` in any method, or a property's getter."""

    cls: str
    name: str
    field: str = ""

    def __str__(self) -> str:
        return f"{self.cls}.{self.name}" + (f".{self.field}" if self.field else "")


@dataclass(frozen=True)
class ReturnedField:
    """A condition: field `index` of the tuple `call` returns holds a tensor, where every
    return statement of the callee returns a tuple of the same length whose field there is
    one (`losses, idx = self.unpack(info)` with `return info["losses"], info["idx"]`). With
    `element`, an element of that field does: a list of tensors there (`return n, sums`
    after `sums.append(v.sum())`), read by `for s in sums` or `sums[0]`. With `mask`, that
    field is a boolean mask (`return m.max(dim)` of a mask `m`, `return keep, idx`)."""

    call: CallRef
    index: int
    element: bool = False
    mask: bool = False

    def __str__(self) -> str:
        return f"({self.call})[{self.index}]" + ("[*]" if self.element else "") + (" mask" if self.mask else "")


@dataclass(frozen=True)
class LeftFalsy:
    """A guard (`Candidate.unless`): every compiled caller of `function` leaves this parameter
    falsy, so code under `if name:` (or after `name and`) never runs. A caller leaves it falsy
    by leaving it at a falsy `default`, or by passing a falsy constant (None, False, 0, "") or
    a parameter of its own that is left falsy. With `none`, None is asked for, not any falsy
    value (code under `name is not None`): the default, a literal None, or a parameter of the
    caller's own left None. `default`: "None", "falsy" (another falsy constant) or "" (none).
    `position` as in `Param`."""

    function: str
    position: int
    name: str
    default: str
    none: bool = False

    def __str__(self) -> str:
        return f"{self.function}({self.name}={'None' if self.none else 'falsy'})"


@dataclass(frozen=True)
class GivenNotNone:
    """A guard (`Candidate.unless`), the inverse of LeftFalsy's None form: every compiled caller
    of `function` passes this parameter a value that is never None (a number, a shape, a
    tensor, `self`, or a parameter of the caller's own that is given one in turn), so code
    under `if name is None:` never runs. `position` as in `Param`."""

    function: str
    position: int
    name: str

    def __str__(self) -> str:
        return f"{self.function}({self.name}=not None)"


@dataclass(frozen=True)
class ArmTensor:
    """A condition: `name` holds a tensor because an arm of `function` bound one there, an arm
    that runs unless one of `guards` holds (`if maxlen is None: maxlen = lengths.max()`, with
    `GivenNotNone` for `maxlen`). Where every compiled caller passes a size, the name keeps
    what they pass."""

    function: str
    name: str
    guards: frozenset

    def __str__(self) -> str:
        return f"{self.function}({self.name} bound unless {sorted(map(str, self.guards))})"


@dataclass(frozen=True)
class NoneArg:
    """A condition: a compiled caller of `function` passes None as this parameter, a value
    it fills in only when not compiling (TC239) or a parameter of its own that gets such a
    None, passed on before anything else reads it. `position` as in `Param`."""

    function: str
    position: int
    name: str

    def __str__(self) -> str:
        return f"{self.function}({self.name}=None under torch.compile)"


@dataclass(frozen=True)
class CompilingTest:
    """A condition: calling `call` returns True while Dynamo traces (an "am I compiling"
    predicate of the project or of a library, known by what its body returns)."""

    call: CallRef

    def __str__(self) -> str:
        return f"compiling:{self.call}"


@dataclass(frozen=True)
class KeywordObject:
    """A condition: a compiled caller of `function` passes, under a keyword its `**kwargs`
    takes, a value that is no Python constant (a tensor, a module, another object), or
    passes on its own `**kwargs` given one. Dynamo cannot sort such items."""

    function: str

    def __str__(self) -> str:
        return f"{self.function}(**object)"


@dataclass(frozen=True)
class StrEnumClass:
    """A condition: `cls` (the dotted name of `Cls` in `Cls.MEMBER` or `Cls(value)`) is a str
    Enum (bases `str` and `enum.Enum`, or `enum.StrEnum`, as its bases across files say) with
    no `method` of its own: Dynamo does not trace a `str` method (nor `in`, `+`, iterating)
    on its members."""

    cls: str
    method: str = ""
    # `Cls(value)`: most such calls build other objects, so the class is not looked for
    # beyond the files read anyway (imported_context.asked_classes)
    built: bool = False

    def __str__(self) -> str:
        return f"str-enum:{self.cls}.{self.method}"


@dataclass(frozen=True)
class StrEnumArg:
    """A condition: a compiled caller of `function` passes a member of a str Enum with no
    `method` of its own (as StrEnumClass) as this parameter, passes on a parameter of its own
    that gets one, or leaves it at a `default` that is one (`mode=BlendMode.CONSTANT`:
    `default` is "BlendMode", dotted, "" for no such default); so does an entry point leaving
    it out. `position` as in `Param`; `method` "" where a caller passes its own parameter on."""

    function: str
    position: int
    name: str
    default: str
    method: str = ""

    def __str__(self) -> str:
        return f"{self.function}({self.name}=str-enum).{self.method}"


@dataclass(frozen=True)
class StrEnumAttr:
    """A condition: a method of the class `cls` (a dotted name), one of its bases or one of its
    subclasses stores in `self.name` a member of a str Enum with no `method` of its own (as
    StrEnumClass): one of the sources FunctionSummary.stores_members records."""

    cls: str
    name: str
    method: str = ""

    def __str__(self) -> str:
        return f"{self.cls}.{self.name}=str-enum.{self.method}"


@dataclass(frozen=True)
class StrEnumReturned:
    """A condition: the project function `call` runs returns a member of a str Enum with no
    `method` of its own (as StrEnumClass): one of its FunctionSummary.returns_members."""

    call: CallRef
    method: str = ""

    def __str__(self) -> str:
        return f"({self.call})()=str-enum.{self.method}"


@dataclass(frozen=True)
class PrebuiltArg:
    """A condition: a compiled caller of `function` passes as this parameter an object of a
    project class with `__enter__` built before the compiled code runs (`self.timer` that
    `__init__` built, a module-level instance: CallSite.prebuilt), or passes on a parameter of
    its own that gets one. `position` as in `Param`."""

    function: str
    position: int
    name: str

    def __str__(self) -> str:
        return f"{self.function}({self.name}=prebuilt)"


@dataclass(frozen=True)
class OptimizerArg:
    """A condition: the callers of `function` pass this parameter a `torch.optim` optimizer
    (built from one of its classes, or a parameter of the caller's own given one in turn:
    CallSite.optimizers). A compiled function's callers all must; an entry point's callers
    run outside compiled code, so one of the project's calls passing one is enough (the
    others are not recorded). `position` as in `Param`."""

    function: str
    position: int
    name: str

    def __str__(self) -> str:
        return f"{self.function}({self.name}=optimizer)"


@dataclass(frozen=True)
class InputParam:
    """A condition: this parameter of `function` holds an input of the compiled function
    itself, unchanged: the function is an entry point and the parameter one of its inputs,
    or a compiled caller passes it such a parameter of its own (CallSite.params).
    `position` as in `Param`."""

    function: str
    position: int
    name: str

    def __str__(self) -> str:
        return f"{self.function}({self.name}=input)"


# Where a member of a str Enum comes from; `method` is what is asked of it ("" until a rule asks)
STR_ENUM_REFS = (StrEnumClass, StrEnumArg, StrEnumAttr, StrEnumReturned)

ConditionRef = (CallRef | Param | NumpyResult | ReturnsMask | ModuleClass | RnnOnly | TensorType | OptionalKeys | Attr | ReturnedField
                | CompilingTest | KeywordObject | NoneArg | StrEnumClass | StrEnumArg | StrEnumAttr | StrEnumReturned
                | PrebuiltArg | InputParam | ArmTensor | OptimizerArg)


def field_condition(condition: frozenset, field: str) -> frozenset:
    """The condition that `value.field` holds a tensor, given the condition that `value` does:
    a parameter or attribute holding a record holds it at that field; what a call returns
    (a tensor, if anything) has no such field."""
    return frozenset(replace(ref, field=field) for ref in condition
                     if isinstance(ref, (Param, Attr)) and not ref.field)


RECORDS = (Named, Method, Getter, SuperMethod, AnyMethod, Returned, ReturnedParam, Entries, MethodPattern, ParamCallable, ReturnedMethod, Param, NumpyResult, ReturnsMask, ModuleClass, RnnOnly,
           TensorType, OptionalKeys, Attr, ReturnedField, LeftFalsy, CompilingTest, KeywordObject, NoneArg, StrEnumClass, StrEnumArg,
           StrEnumAttr, StrEnumReturned, PrebuiltArg, InputParam, GivenNotNone, ArmTensor, OptimizerArg)
