"""Per-file summaries: what phase 1 (one parse, one visitor pass) hands to the project phase.

Everything here is small and picklable so it can cross process boundaries and be cached
by content hash; the project phase never looks at syntax trees. (Plain dataclasses, not
slotted ones: those unpickle several times slower, and a warm run unpickles them all.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tclint.analyzer.call_refs import CallRef
from tclint.analyzer.diagnostic import Fix, Severity, Span
from tclint.analyzer.knowledge.hazards import GraphBreak

# A tensor condition: the finding holds if any of these references returns a tensor (a callee),
# is passed one by a compiled caller (a `Param`), or returns a NumPy value (a `NumpyResult`).
Condition = frozenset  # frozenset[call_refs.ConditionRef]
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
    training_only: bool = False  # under `if self.training:` (see Diagnostic)
    building_exception: bool = False  # inside `raise ...(...)` (see Diagnostic)
    # Dropped if one of these project functions is an "am I compiling" predicate, or one of
    # these parameters is falsy (or None) at every compiled call (`LeftFalsy`): the finding
    # sits in an arm Dynamo then never traces.
    unless: frozenset = frozenset()
    # Inside a loop body of its function, or a break Dynamo cannot resume after for another
    # reason (rules' `ends_frame`): a break there makes Dynamo skip the rest of the frame.
    in_loop: bool = False


@dataclass
class CallSite:
    ref: CallRef
    span: Span
    args: tuple[ArgKind, ...] = ()  # positional arguments, up to the first `*args`
    keywords: dict[str, ArgKind] = field(default_factory=dict)
    unless: frozenset = frozenset()  # as Candidate.unless
    in_loop: bool = False  # as Candidate.in_loop
    spreads: bool = False  # `f(*args)` or `f(**options)`: may pass any parameter
    # `s.run(x)` on an object this function built (`s = S()`, `S().run(x)`): Dynamo cannot
    # rebuild it to resume after a break inside the method
    built_here: bool = False
    # Arguments (position or keyword) that may be falsy: a literal None (None here), another
    # falsy constant (False here), or a parameter of the caller's own (its LeftFalsy guard)
    falsy: tuple = ()  # tuple[tuple[int | str, LeftFalsy | bool | None], ...]
    # Arguments (position or keyword) that are never None: True for a value that cannot be
    # (a number, a shape, a tensor, `self`), or the caller's own parameter (its GivenNotNone guard)
    not_none: tuple = ()  # tuple[tuple[int | str, GivenNotNone | bool], ...]
    # Arguments (position or keyword) that are None under torch.compile, with the condition
    # (refs, any of which makes it so; none: always): a value the caller fills in only when
    # not compiling, or a parameter of its own that may get one (call_refs.NoneArg)
    none_args: tuple = ()  # tuple[tuple[int | str, frozenset], ...]
    # `f(x, **kwargs)` passing on the caller's own `**kwargs`: a keyword the caller was
    # given reaches `f` too
    forwards_kwargs: bool = False
    # Arguments (position or keyword) that may be members of a str Enum, with where they come
    # from (FileAnalyzer.member_sources: `Cls.MEMBER`, the caller's own parameter, ...)
    members: tuple = ()  # tuple[tuple[int | str, frozenset[STR_ENUM_REFS]], ...]
    # Arguments (position or keyword) that are objects of a project class built before the
    # compiled code runs (`self.timer`, a module-level instance): the class's dotted name, or
    # the caller's own parameter passed on (its PrebuiltArg)
    prebuilt: tuple = ()  # tuple[tuple[int | str, str | PrebuiltArg], ...]
    # Arguments (position or keyword) that are a parameter of the caller's own, unchanged (its
    # Param): an input of the compiled function where the caller is an entry point
    params: tuple = ()  # tuple[tuple[int | str, Param], ...]
    # Arguments (position or keyword) that are no Python constant: True for a tensor, a module
    # or `self`, or the caller's own parameter passed on (a `Param`: what its callers pass)
    objects: tuple = ()  # tuple[tuple[int | str, True | Param], ...]
    # Functions passed (position or keyword, frozenset[CallRef]): `apply(helper, x)`, a table
    # of functions, a parameter passed on; what the callee may call (call_refs.ParamCallable)
    callables: tuple = ()
    # Arguments (position or keyword) that are `torch.optim` optimizers or schedulers: True, or
    # the caller's own parameter passed on (its OptimizerArg: what its callers pass); see optimizers.py
    optimizers: tuple = ()


@dataclass
class Block:
    """A `try` body, or a `with` body under a context manager of the project: Dynamo cannot
    resume inside one, so a break in it compiles the frame up to its checkpoint if the graph
    holds two operations by then (unresumable_blocks). The checkpoint is the block's own line,
    or the outermost `for` or `with` statement around it: those keep a value on Dynamo's stack
    (the iterator, the context's exit), and it resumes only where the stack is empty."""

    span: Span  # the whole statement; a `try` only up to the end of its body (or `else`, under a `finally`)
    context: CallRef | None = None  # what the `with` item calls; None for a `try`
    ops: int = 0  # tensor operations of the frame before the checkpoint, outside branches, up to two
    # the function's calls made before the checkpoint, outside branches, since the frame last
    # resumed (indexes into FunctionSummary.calls)
    calls_before: tuple[int, ...] = ()
    checkpoint: Span | None = None  # the keyword of the `for`/`with` around it that is the checkpoint
    checkpoint_keyword: str = ""  # "for" or "with" (its text)
    # an operator on an object of a project class (`+`): the block is the statement holding
    # it, and `context` the method it runs (`Method(cls, "__add__")`)
    operator: str = ""


@dataclass
class Comprehension:
    """A list, set or dict comprehension whose iterator Dynamo cannot take as a frame's input
    (comprehension_frames): it iterates a list, a dict (or a view of one) or a module
    container, and its own frame would hold a tensor, so Dynamo compiles that frame."""

    span: Span  # the whole comprehension
    iterates: str  # what it iterates, for the message: "a list", "a dict", "modules"


@dataclass
class Arm:
    """One arm of an `if` that has an `else` or `elif`, or with `after`, the code after the
    `if` statement (`span`) whose other arm returns (loop_skips: a break in one arm hides
    nothing in the other)."""

    span: Span
    after: bool = False

    def lines(self) -> tuple[int, int]:
        return (self.span.end_line + 1, 1 << 30) if self.after else (self.span.line, self.span.end_line)


@dataclass
class Held:
    """Where a name holding a bound method of an object the function built (`c = s.run`,
    or `s.run` passed as an argument) is bound (`binds`) or read (held_methods)."""

    name: str
    binds: bool
    span: Span = None
    method: object = None  # for a binding: the Method it may be (a CallRef)


@dataclass(frozen=True)
class StoredDefault:
    """A parameter of a class's `__init__` (or a dataclass field) whose default is a function
    the object stores: `position` among the positional parameters after `self` (None for a
    keyword-only one); `function` the default's dotted name, to be resolved to a project
    function, or None for a lambda."""

    name: str
    position: int | None
    function: str | None = None


@dataclass
class ReturnedCall:
    """`return Cls(...)` (alone, in a returned tuple or list, or through a local bound once
    to it): what is called and how many of its parameters the call fills."""

    callee: str  # the dotted name called
    positional: int
    keywords: frozenset
    span: Span = None  # the return statement


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
    # Where every return is a boolean mask or a comparison of parameters (`return x < low`),
    # the parameters (Params) each such return compares: a call passing a tensor to one of
    # each returns a mask
    mask_params: tuple = ()  # tuple[frozenset[Param], ...]
    # Where every return statement returns a tuple of the same length: what each field holds,
    # "tensor", "tensors" (a list of tensors), a Condition or "unknown" (a size, None, or
    # returns that disagree).
    returns_fields: tuple = ()
    # Where every return statement returns an instance made by calling a class here or in a
    # project factory: what made them, as calls (frozenset[CallRef]): `Named(S)` for
    # `return S(k)` (or `s` after `s = S(k)`), `Entries(SOLVERS)` for `return SOLVERS[k](x)`,
    # `Named(make)` for `return make(k)` (what `make` returns, in turn)
    returns_built: frozenset = frozenset()
    # Parameters that hold tensors when the function is an entry point (called from
    # outside the linted code): positional, un-annotated, no default, and the body uses
    # them as nothing else (param_uses.py).
    inputs: frozenset = frozenset()
    # Parameters that a number default (`k=0`) or the body's uses say hold no tensor: an
    # entry point's input passed on to one is taken for what it says.
    non_tensor_params: frozenset = frozenset()
    # Its value while Dynamo traces, from what it returns: True for a wrapper of
    # torch.compiler.is_compiling(), False for one of torch.jit.is_scripting(), a frozenset
    # of call references for "True if one of these is such a wrapper", None otherwise.
    under_dynamo: object = None
    # Project decorators, outermost first: Named("pkg.deco") for `@deco` (applied to the
    # function), Returned(Named("pkg.factory")) for `@factory(...)` (its result is applied).
    # Calling the decorated name runs the wrappers they return.
    decorators: tuple[CallRef, ...] = ()
    # Callables the function returns: a nested def or project function (Named), a bound
    # method (Method), `functools.partial(g, ...)` as g, or what a call it returns returns (Returned).
    returns_callables: frozenset = frozenset()  # frozenset[CallRef]
    # a `@property` getter: calling `obj.name(...)` calls what it returns
    is_property: bool = False
    # for a function with `**kwargs`: the parameters a keyword binds (the others land in it)
    keyword_params: tuple | None = None
    context_manager: bool = False  # decorated with contextlib.contextmanager
    blocks: list[Block] = field(default_factory=list)
    # (the `if` arm, the `else`/`elif` arm) of each `if` with both, and (an arm that returns,
    # the code after the `if`): a break in one that ends the frame hides nothing in the other
    forks: list[tuple[Arm, Arm]] = field(default_factory=list)
    held_methods: list[Held] = field(default_factory=list)
    passes_to_parameter: bool = False  # calls a parameter, passing it functions (`subproblem(x, closure)`)
    comprehensions: list[Comprehension] = field(default_factory=list)
    # What it may return that is a member of a str Enum, and what it may store in `self.name`
    # that is one (FileAnalyzer.member_sources, no method asked yet)
    returns_members: frozenset = frozenset()
    stores_members: dict[str, frozenset] = field(default_factory=dict)
    # Calls its return statements return (`return Cls(h)`), each spanning its statement: an
    # object built here that holds a function default cannot be rebuilt (stored_defaults)
    returned_calls: list = field(default_factory=list)  # list[ReturnedCall]


@dataclass
class ClassSummary:
    key: str  # "pkg.mod:Class"
    name: str
    bases: list[str]  # qualified names, as far as imports tell
    span: Span | None = None  # the class's name
    methods: dict[str, str] = field(default_factory=dict)  # name -> function key
    submodules: dict[str, str] = field(default_factory=dict)  # self.attr -> dotted name of its class
    method_aliases: dict[str, str] = field(default_factory=dict)  # self.attr = self.method -> method
    # self.attr = factory(...) / self.attr = some_function: what calling `self.attr` may run
    attr_callables: dict[str, frozenset] = field(default_factory=dict)  # frozenset[CallRef]
    optional_keys: bool = False  # a TypedDict declared with `total=False`
    abstract: bool = False  # an ABC with an abstract method of its own: never instantiated itself
    # self.attr = <an object of unknown class> (a parameter, a call's result): calling
    # `self.attr(...)` runs some class's `__call__`
    object_attrs: frozenset = frozenset()
    # Attributes that may hold tensors, as a call passes them (ArgKind: True, a Condition, or a
    # record's fields): class-body constants and `self.name = ...` in any method, joined.
    # Read through `Attr` conditions, which span the class's bases and subclasses.
    attr_kinds: dict[str, ArgKind] = field(default_factory=dict)
    # How `__init__` (its own, or a dataclass's generated one) stores function defaults on the
    # object (StoredDefault); None where the class defines no `__init__`
    stored_defaults: tuple | None = None


@dataclass
class CompileSite:
    """`torch.compile(x)`, `@torch.compile` or `x.compile()`: the target and where it happens."""

    target: CallRef  # a function, or a class (Named("pkg.mod.Class")) meaning its forward
    span: Span


STAR = "*"  # the top-level name under which a module's star imports are read (resolutions)


@dataclass
class FileSummary:
    path: str
    module: str
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    # module-level names bound by imports: local name -> qualified name (re-exports)
    imports: dict[str, str] = field(default_factory=dict)
    # module-level names bound to another name: `Tensor = torch.Tensor` -> "torch.Tensor"
    aliases: dict[str, str] = field(default_factory=dict)
    # the modules `from m import *` binds names of here, in order (re-exports)
    star_imports: tuple[str, ...] = ()
    # those of them directly in the module's body (not under `if TYPE_CHECKING:` or a `try`):
    # they bind names whenever the module runs, and the file phase is told them (star_context.py)
    bound_star_imports: tuple[str, ...] = ()
    # the names a literal `__all__` lists (what a star import of this module binds); None without one
    exports: tuple[str, ...] | None = None
    # module-level tables of project functions: `STEPS = {"euler": euler}` -> their references
    callable_tables: dict[str, frozenset] = field(default_factory=dict)
    compile_sites: list[CompileSite] = field(default_factory=list)
    hook_functions: list[CallRef] = field(default_factory=list)
    # functions handed to `torch.compiler.allow_in_graph`: Dynamo puts a call to one in the
    # graph whole and never traces its body
    in_graph: list[CallRef] = field(default_factory=list)
    # module-level calls that pass functions (`_param = effectful(STORE.get_param)`): what
    # the callee's parameters may be (call_refs.ParamCallable)
    module_calls: list[CallSite] = field(default_factory=list)
    module_candidates: list[Candidate] = field(default_factory=list)
    # Dynamo config assignments found at module level (e.g. capture_scalar_outputs=True)
    dynamo_config: dict[str, object] = field(default_factory=dict)
    syntax_error: tuple[str, Span] | None = None
    internal_error: str | None = None  # tclint itself failed on this file
    suppressions: list = field(default_factory=list)  # suppressions.Suppression

    def patched_functions(self) -> list[tuple[str, dict[str, object]]]:
        """[(function key, its `config.patch` settings)] of the functions that have one."""
        return [(key, fn.dynamo_patch) for key, fn in self.functions.items() if fn.dynamo_patch]
