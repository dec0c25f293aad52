"""Per-file summaries: what phase 1 (one parse, one visitor pass) hands to the project phase.

Everything here is small and picklable so it can cross process boundaries and be cached
by content hash; the project phase never looks at syntax trees. (Plain dataclasses, not
slotted ones: those unpickle several times slower, and a warm run unpickles them all.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tclint.analyzer.diagnostic import Fix, Severity, Span
from tclint.analyzer.knowledge.hazards import GraphBreak

# A call reference names a callee the project phase resolves across files:
#   "f:pkg.mod.name"          a module-level function or class (by qualified name)
#   "m:pkg.mod:Class:method"  a method looked up along Class's bases
#   "s:pkg.mod:Class:method"  super().method from Class
#   "n:method"                obj.method() on an object of unknown class, by method name
#   "r:<call ref>"            what calling <call ref> returns, called in turn (a wrapper a
#                             decorator returns, a nested def a factory returns, an instance's
#                             `__call__`); only in `decorators`, `returns_callables` and
#                             `ClassSummary.attr_callables`
CallRef = str
# A tensor condition: the finding holds if any of these callees returns a tensor, or if a
# compiled caller passes a tensor to one of these parameters:
#   "a:pkg.mod.helper:1:ratio"  parameter `ratio`, second positional (after `self`, if any)
#   "a:pkg.mod.helper:1:state.t1"  field `t1` of what is passed as `state`
#   "d:f:pkg.mod.helper"        the callee returns a NumPy value (added by rules that read
#                               a value's truth, which is data for those too)
Condition = frozenset  # frozenset[CallRef]
# What a call passes: True (a tensor), a Condition (maybe a tensor), None (not one), or for
# a record the fields that hold (maybe) tensors: (("t1", True), ("y", Condition)).
ArgKind = object


@dataclass
class Candidate:
    """A finding predicted in a function; kept if the function is in a compiled region."""

    code: str
    span: Span
    message: str
    condition: Condition | None = None
    fix: Fix | None = None
    graph_break: GraphBreak | None = None  # when not the rule's default
    # Findings outside any function (e.g. recompilation hazards) are reported as is.
    always: bool = False
    severity: Severity | None = None  # when not the rule's default
    # Dropped if one of these project functions is an "am I compiling" predicate: the
    # finding sits in an arm Dynamo then never traces.
    unless: frozenset = frozenset()
    # Inside a loop body of its function: a break there makes Dynamo skip the rest of the frame.
    in_loop: bool = False


@dataclass
class CallSite:
    ref: CallRef
    span: Span
    args: tuple[ArgKind, ...] = ()  # positional arguments, up to the first `*args`
    keywords: dict[str, ArgKind] = field(default_factory=dict)
    unless: frozenset = frozenset()  # as Candidate.unless
    in_loop: bool = False  # as Candidate.in_loop


@dataclass
class FunctionSummary:
    key: str  # "pkg.mod:Class.method"
    name: str
    span: Span  # the name in the def, for chain steps
    class_key: str | None
    compiled: bool = False  # decorated with torch.compile
    disabled: bool = False  # decorated with torch.compiler.disable / torch._dynamo.disable
    dynamo_patch: dict[str, object] = field(default_factory=dict)  # @torch._dynamo.config.patch(...)
    calls: list[CallSite] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    # What the function returns: "tensor", "ndarray" (a NumPy value), "static", "unknown",
    # or a Condition.
    returns: object = "unknown"
    # Parameters that hold tensors when the function is an entry point (called from
    # outside the linted code): positional, un-annotated, no default, not named for a size.
    inputs: frozenset = frozenset()
    # Its value while Dynamo traces, from what it returns: True for a wrapper of
    # torch.compiler.is_compiling(), False for one of torch.jit.is_scripting(), a frozenset
    # of call references for "True if one of these is such a wrapper", None otherwise.
    under_dynamo: object = None
    # Project decorators, outermost first: "f:pkg.deco" for `@deco` (applied to the function),
    # "r:f:pkg.factory" for `@factory(...)` (its result is applied). Calling the decorated
    # name runs the wrappers they return.
    decorators: tuple = ()
    # Callables the function returns: a nested def or project function ("f:..."), a bound
    # method ("m:..."), `functools.partial(g, ...)` as g, or what a call it returns returns ("r:...").
    returns_callables: frozenset = frozenset()


@dataclass
class ClassSummary:
    key: str  # "pkg.mod:Class"
    name: str
    bases: list[str]  # qualified names, as far as imports tell
    span: Span | None = None  # the class's name
    methods: dict[str, str] = field(default_factory=dict)  # name -> function key
    submodules: dict[str, CallRef] = field(default_factory=dict)  # self.attr -> "f:..." class ref
    method_aliases: dict[str, str] = field(default_factory=dict)  # self.attr = self.method -> method
    # self.attr = factory(...) / self.attr = some_function: what calling `self.attr` may run
    attr_callables: dict[str, frozenset] = field(default_factory=dict)


@dataclass
class CompileSite:
    """`torch.compile(x)`, `@torch.compile` or `x.compile()`: the target and where it happens."""

    target: CallRef  # a function ref, or a class ref ("f:pkg.mod.Class") meaning its forward
    span: Span


@dataclass
class FileSummary:
    path: str
    module: str
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    # module-level names bound by imports: local name -> qualified name (re-exports)
    imports: dict[str, str] = field(default_factory=dict)
    compile_sites: list[CompileSite] = field(default_factory=list)
    hook_functions: list[CallRef] = field(default_factory=list)
    module_candidates: list[Candidate] = field(default_factory=list)
    # Dynamo config assignments found at module level (e.g. capture_scalar_outputs=True)
    dynamo_config: dict[str, object] = field(default_factory=dict)
    syntax_error: tuple[str, Span] | None = None
    internal_error: str | None = None  # tclint itself failed on this file
    suppressions: list = field(default_factory=list)  # suppressions.Suppression
