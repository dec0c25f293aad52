"""Which values are tensors and which are static under Dynamo, inferred from the source.

A kind is one of the small ints below, or a Condition (a frozenset of call references)
meaning "a tensor if one of these project functions returns a tensor"; the project phase
resolves conditions across files. When the analyzer does not know, the kind is UNKNOWN and
no rule flags on it.
"""
from __future__ import annotations

from contextlib import contextmanager

from dataclasses import dataclass, field, replace

import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer.knowledge import tensor_api as api
from tclint.analyzer.kind_codes import BOOL_TENSOR, INPUT, MODULE, NDARRAY, STATIC, TENSOR, UNKNOWN
from tclint.analyzer.lambda_values import LambdaNames
from tclint.analyzer.names import ImportTable, dotted_name
from tclint.analyzer.values import Kind, Record, Value, build

TENSORS = (TENSOR, BOOL_TENSOR, INPUT)
# torch functions that join tensors into one of their dtype
_JOINS = frozenset({"cat", "concat", "concatenate", "stack", "row_stack", "vstack", "hstack", "dstack",
                    "column_stack"})
VALUES_INDICES = "torch.return_types"  # the module of the named tuples `x.max(1)` and `x.sort()` return
# Annotations that declare a tensor (as qualified names)
TENSOR_ANNOTATIONS = frozenset({"torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "torch.BoolTensor",
                                "torch.nn.Parameter"})


# Container annotations whose elements tclint reads (the last part of their name).
_SEQUENCE_ANNOTATIONS = frozenset({"List", "list", "Sequence", "MutableSequence"})
_MAPPING_ANNOTATIONS = frozenset({"Dict", "dict", "Mapping", "MutableMapping"})

# Methods of dicts that tensors lack: an input called with one is a dict.
_MAPPING_METHODS = frozenset({"items", "keys", "values", "get"})
# ndarray methods that hand back plain Python values (the others give arrays)
_NDARRAY_PYTHON_METHODS = frozenset({"tobytes", "__len__", "__repr__", "__str__"})
# ndarray attributes that are arrays themselves
_NDARRAY_ARRAY_ATTRS = frozenset({"T", "real", "imag"})

# Methods that tensors and modules both have, returning the same kind of thing: a value
# whose receiver may be a tensor may be one too (`self.table.alpha.to(device)`).
_SAME_KIND_METHODS = frozenset({"to"})


# Predicates with a known value while Dynamo traces: True for "are we compiling?", False
# for TorchScript's. A library's own wrapper around them is known by what its body returns
# (FunctionSummary.under_dynamo); only a wrapper outside the linted code, whose body is not
# seen, is recognised by these names.
TRUE_UNDER_DYNAMO = frozenset({
    "torch.compiler.is_compiling", "torch.compiler.is_dynamo_compiling", "torch._dynamo.is_compiling",
    "torch._utils.is_compiling", "torch.compiler.is_exporting",
})
HALF_DTYPES = frozenset({"torch.float16", "torch.half"})
TRUE_UNDER_DYNAMO_WRAPPERS = frozenset({"is_compiling", "is_dynamo_compiling", "is_torchdynamo_compiling", "is_tracing"})
FALSE_UNDER_DYNAMO = frozenset({"torch.jit.is_scripting", "torch.jit.is_tracing"})


@dataclass(frozen=True)
class Pending:
    """A test whose value under Dynamo is `value` if one of the project functions `refs`
    is an "am I compiling" predicate (decided in the project phase)."""

    refs: frozenset
    value: bool


def is_module_base(qualname: str) -> bool:
    """`torch.nn.Module` or one of torch.nn's module classes (`nn.Linear`, `nn.Sequential`), as
    the table written from torch names them."""
    return qualname.startswith("torch.nn.") and qualname.rpartition(".")[2] in api.NN_MODULE_CLASSES


_NOT_PROJECT = (
    "torch.", "builtins.", "typing.", "collections.", "functools.", "math.", "os.", "sys.", "re.",
    "json.", "time.", "random.",
)


class MaskCondition(frozenset):
    """A Condition on a comparison (`a[0] != a[1]`): where it holds, the value is a boolean
    mask. Set operations give plain Conditions."""

    __slots__ = ()


@dataclass
class ClassScope:
    key: str
    name: str
    attrs: dict[str, object] = field(default_factory=dict)  # self.attr -> kind
    bases: tuple[str, ...] = ()  # qualified names, as far as imports tell
    built_from: dict[str, str] = field(default_factory=dict)  # self.attr -> class it was built from
    # a torch.Tensor subclass's own methods of names tensors have (`def sum(self)`)
    tensor_overrides: frozenset = frozenset()


@dataclass
class FunctionScope:
    key: str
    name: str
    node: cst.FunctionDef
    class_scope: ClassScope | None
    parent: FunctionScope | None
    root_like: bool
    env: dict[str, object] = field(default_factory=dict)
    # parameters of unknown kind, not rebound yet -> the condition "a caller passes a tensor"
    param_refs: dict[str, refs.Param] = field(default_factory=dict)
    # inputs taken for tensors (INPUT), not rebound yet: passed on, the project phase knows
    # they are only assumed ones (a callee's `k=0` says otherwise)
    input_refs: dict[str, refs.Param] = field(default_factory=dict)
    # every named parameter but `self`, not rebound yet -> its Param (what callers pass there, unchanged)
    own_params: dict[str, refs.Param] = field(default_factory=dict)
    instance_classes: dict[str, str] = field(default_factory=dict)  # local var -> dotted class
    returned_objects: dict[str, refs.CallRef] = field(default_factory=dict)  # local var -> the project call it came from
    # local var -> the project call whose result, or `~` of it, it holds: a boolean mask where
    # the callee returns one (`mask = ~out_of_bounds(x)`)
    mask_calls: dict[str, refs.ReturnsMask] = field(default_factory=dict)
    returned_built: list[frozenset | None] = field(default_factory=list)  # each return: what made its instance (summary.returns_built)
    returns: list[object] = field(default_factory=list)
    return_fields: list[tuple | None] = field(default_factory=list)  # the fields' kinds of each returned tuple
    # names bound by unpacking a project call's result (`a, b = self.split(x)`), not rebound
    # yet -> the condition "that field of what it returns is a tensor"
    unpacked: dict[str, frozenset] = field(default_factory=dict)
    self_name: str | None = None
    # names bound to an "am I compiling" value (`tracing = is_compiling() or ...`)
    dynamo_names: dict[str, object] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # local name -> where its value came from
    dynamo_returns: list[object] = field(default_factory=list)  # value_under_dynamo of each return
    kwargs_name: str | None = None  # the `**kwargs` parameter, if any
    # parameters with no default or a falsy one (None, False, 0, ""), not rebound yet -> the
    # guard "every compiled caller leaves it falsy" (its `none` form: "... None")
    flags: dict[str, refs.LeftFalsy] = field(default_factory=dict)
    # names that may hold a member of a str Enum -> where it comes from (call_refs.STR_ENUM_REFS,
    # the method asked of it filled in by the rule): a parameter that is no known tensor, or a
    # local bound to a member, a `self.attr`, what a project function returns
    members: dict[str, frozenset] = field(default_factory=dict)
    # names whose attributes are read with a name no tensor has (`out.logits`): never tensors
    objects: set[str] = field(default_factory=set)
    # parameters annotated as containers of tensors (`params: Dict[str, Tensor]`), not rebound
    # yet -> (what an element is, whether the container is a mapping)
    elements: dict[str, tuple[object, bool]] = field(default_factory=dict)
    # the calls made here, as recorded: (call site, its node)
    sites: list[tuple] = field(default_factory=list)

    def lookup(self, name: str):
        scope: FunctionScope | None = self
        while scope is not None:
            if name in scope.env:
                return scope.env[name]
            scope = scope.parent
        return None


def combine(a, b):
    """The kind of an arithmetic combination of two values."""
    if a in TENSORS or b in TENSORS:
        return TENSOR
    if NDARRAY in (a, b):
        return NDARRAY if {a, b} <= {NDARRAY, STATIC} else UNKNOWN
    a_cond = isinstance(a, frozenset)
    b_cond = isinstance(b, frozenset)
    if a_cond or b_cond:
        if a_cond and b_cond:
            return a | b
        other = b if a_cond else a
        if other == STATIC:
            return a if a_cond else b
        return UNKNOWN
    if a == STATIC and b == STATIC:
        return STATIC
    return UNKNOWN


def _bitwise_mask(a, b):
    """`m1 & m2` of two masks is a mask; of masks that hold where callers pass tensors, a
    mask where either does (a plain set union would drop that it is a mask)."""
    if a == BOOL_TENSOR and (b == BOOL_TENSOR or isinstance(b, MaskCondition)):
        return BOOL_TENSOR
    if b == BOOL_TENSOR and isinstance(a, MaskCondition):
        return BOOL_TENSOR
    if isinstance(a, MaskCondition) and isinstance(b, MaskCondition):
        return MaskCondition(a | b)
    return None


def join(a, b):
    """The kind of a value that is either `a` or `b` (branches, reassignments)."""
    if a == b:
        return a
    if a is None:
        return b
    if b is None:
        return a
    if a in TENSORS and b in TENSORS:
        return TENSOR
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        return a | b
    return UNKNOWN


class Facts:
    """Answers "what kind of value is this expression?" for the visitor's current scope."""

    def __init__(self, module: str, imports: ImportTable):
        self.module = module
        self.imports = imports
        self.module_names: dict[str, object] = {}  # module-level assigned names -> kind
        self.local_defs: set[str] = set()  # module-level def/class names
        self.local_classes: dict[str, tuple[str, ...]] = {}  # those of them that are classes -> their bases
        self.module_instances: dict[str, str] = {}  # module-level var -> dotted class it holds
        self.record_classes: dict[str, tuple[str, ...]] = {}  # namedtuple/dataclass -> field names
        # (function key, local name) -> call references of what the name may hold when called
        # (`scale = make_scaler(2)`, `fn = getattr(self, name)`), filled in by the visitor
        self.local_callables: dict[tuple[str, str], frozenset] = {}
        self.lambdas = LambdaNames()  # names bound to lambdas, filled in by the visitor
        # module-level names bound to an "am I compiling" predicate (True) or TorchScript's
        # (False): `_impl = getattr(torch.compiler, "is_compiling", None) or ...`
        self.dynamo_predicates: dict[str, bool] = {}
        self.function: FunctionScope | None = None
        self.class_scope: ClassScope | None = None
        self._memo: dict[int, object] = {}
        self._narrowed: dict[str, str] = {}  # local name -> the project class an `isinstance` test narrowed it to

    # -- names -----------------------------------------------------------------
    def qualname(self, node: cst.BaseExpression) -> str | None:
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head = dotted.partition(".")[0]
        if self.function is not None and self.function.lookup(head) is not None:
            return None  # a local variable shadows imports
        if head in self.local_defs:
            return f"{self.module}.{dotted}" if self.module else dotted
        return self.imports.qualify(dotted)

    def builds_instance(self, qual: str) -> bool:
        """Calling `qual` builds an instance of a class. A def or class at this file's top level
        says which it is, whatever its name's spelling (`class solver`, `def MakeScores`). For a
        name from elsewhere a capitalised last part only picks how the call is recorded (an
        instance whose methods are `Method(qual, ...)`, or a factory's `ReturnedMethod`): the
        project phase resolves either to what calling it builds (ProjectIndex.built_by)."""
        prefix = f"{self.module}." if self.module else ""
        name = qual[len(prefix):] if qual.startswith(prefix) else None
        if name is not None and name in self.local_defs:
            return name in self.local_classes
        return qual.rpartition(".")[2].lstrip("_")[:1].isupper()

    def local_module_class(self, qual: str, _seen: frozenset = frozenset()) -> bool | None:
        """Whether a class this file defines is an nn.Module, by its bases; None when a base
        comes from elsewhere (another file decides)."""
        prefix = f"{self.module}." if self.module else ""
        name = qual[len(prefix):] if qual.startswith(prefix) else None
        if name not in self.local_classes or qual in _seen:
            return None
        found = False
        for base in self.local_classes[name]:
            if is_module_base(base):
                return True
            if base not in ("object", "builtins.object"):
                inner = self.local_module_class(base, _seen | {qual})
                if inner is None:
                    return None
                found |= inner
        return found

    def is_self(self, node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Name)
            and self.function is not None
            and node.value == self.function.self_name
            and self.function.class_scope is not None
        )

    def self_is_module(self):
        """True when `self` here is an nn.Module by its class's own bases, else the condition
        that the project phase decides from the bases in other files."""
        scope = self.function.class_scope if self.function is not None else self.class_scope
        if scope is None or any(is_module_base(b) for b in scope.bases):
            return True
        return frozenset((refs.ModuleClass(scope.key),))

    # -- kinds -----------------------------------------------------------------
    def kind(self, node: cst.BaseExpression):
        key = id(node)
        memo = self._memo
        if key in memo:
            return memo[key]
        result = self._kind(node)
        memo[key] = result
        return result

    def reset_memo(self) -> None:
        self._memo.clear()

    def tensor_condition(self, node: cst.BaseExpression):
        """True if `node` is a tensor, a Condition if it may be, None otherwise."""
        k = self.kind(node)
        if k in (TENSOR, BOOL_TENSOR):
            return True
        if isinstance(k, frozenset):
            return k
        return None

    def value_under_dynamo(self, test: cst.BaseExpression):
        """The value of `is_compiling()`-style tests while Dynamo traces: True, False, a
        Pending one for a call of a project function, or None when it is not such a test."""
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated = not negated
            test = test.expression
        value = self._under_dynamo(test)
        if negated and value is not None:
            return not value if isinstance(value, bool) else Pending(value.refs, not value.value)
        return value

    def predicate_under_dynamo(self, expr: cst.BaseExpression) -> bool | None:
        """What calling `expr` returns while Dynamo traces, when `expr` names a known
        predicate: `torch.compiler.is_compiling`, `getattr(torch._dynamo, "is_compiling",
        None)`, either of two such (`a or b`), or a module-level name bound to one."""
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
            left, right = self.predicate_under_dynamo(expr.left), self.predicate_under_dynamo(expr.right)
            return left if left == right else None
        if isinstance(expr, cst.Name) and (self.function is None or self.function.lookup(expr.value) is None):
            found = self.dynamo_predicates.get(expr.value)
            if found is not None:
                return found
        qual = self.qualname(expr)
        if (isinstance(expr, cst.Call) and self.qualname(expr.func) == "builtins.getattr" and len(expr.args) >= 2
                and isinstance(expr.args[1].value, cst.SimpleString)):
            owner = self.qualname(expr.args[0].value)
            qual = f"{owner}.{expr.args[1].value.evaluated_value}" if owner else None
        if qual in TRUE_UNDER_DYNAMO:
            return True
        if qual in FALSE_UNDER_DYNAMO:
            return False
        return None

    def _under_dynamo(self, test: cst.BaseExpression):
        if isinstance(test, cst.IfExp):
            # `bool(_impl()) if _impl is not None else False`, `_impl` a known predicate
            chosen = self._bound_predicate_test(test.test)
            if chosen is not None:
                return self.value_under_dynamo(test.body if chosen else test.orelse)
            return None
        if isinstance(test, cst.BooleanOperation):
            # `is_compiling() or is_jit_tracing()` is True under Dynamo; `and` needs both
            decisive = isinstance(test.operator, cst.Or)
            left, right = self.value_under_dynamo(test.left), self.value_under_dynamo(test.right)
            if decisive in (left, right):
                return decisive
            pending = [v for v in (left, right) if isinstance(v, Pending) and v.value is decisive]
            return Pending(frozenset().union(*(p.refs for p in pending)), decisive) if pending else None
        if isinstance(test, cst.Name) and self.function is not None:
            return self.function.dynamo_names.get(test.value)
        if isinstance(test, cst.Comparison):
            return self._half_precision_test(test)
        if not isinstance(test, cst.Call):
            return None
        qual = self.qualname(test.func) or ""
        if qual == "builtins.bool" and len(test.args) == 1:
            return self.value_under_dynamo(test.args[0].value)
        if isinstance(test.func, cst.Name):
            known = self.predicate_under_dynamo(test.func)
            if known is not None:
                return known
        if qual in FALSE_UNDER_DYNAMO:
            return False
        if qual in TRUE_UNDER_DYNAMO:
            return True
        if qual and self.is_project_name(qual):
            return Pending(frozenset((refs.Named(qual),)), True)
        return None

    def _bound_predicate_test(self, test: cst.BaseExpression) -> bool | None:
        """`_impl is not None` (or `is None`, or `_impl`) for a name bound to a known
        predicate: the name holds a function, so the test is decided."""
        if isinstance(test, cst.Name):
            return True if self.predicate_under_dynamo(test) is not None else None
        if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None"
                and self.predicate_under_dynamo(test.left) is not None):
            operator = test.comparisons[0].operator
            return True if isinstance(operator, cst.IsNot) else False if isinstance(operator, cst.Is) else None
        return None

    def _half_precision_test(self, test: cst.Comparison) -> bool | None:
        """`x.dtype == torch.float16`: False as tclint reads code, for float32 or bfloat16
        tensors. Dynamo specializes on dtypes, so what such a test guards (fp16 overflow
        clamps, `... and torch.isinf(x).any()`) is never traced for them."""
        if len(test.comparisons) != 1:
            return None
        target = test.comparisons[0]
        sides = (test.left, target.comparator)
        if not any(isinstance(e, cst.Attribute) and e.attr.value == "dtype" for e in sides):
            return None
        if not any(self.qualname(e) in HALF_DTYPES for e in sides):
            return None
        if isinstance(target.operator, (cst.Equal, cst.Is)):
            return False
        if isinstance(target.operator, (cst.NotEqual, cst.IsNot)):
            return True
        return None

    def param_condition(self, node: cst.BaseExpression):
        """For a value built only from the current function's parameters, `self`'s attributes
        and Python values (`ratio == 0`, `t[0] > t[1]`, `self.scale > 1`): the condition "a
        compiled caller passes a tensor there" or "the object stores one there". None for
        anything else."""
        fn = self.function
        if fn is None:
            return None
        found: set = set()

        def walk(e) -> bool:
            if isinstance(e, cst.Name):
                ref = fn.param_refs.get(e.value)
                if ref is not None:
                    found.add(ref)
                    return True
                if e.value in fn.unpacked:
                    found.update(fn.unpacked[e.value])
                    return True
            elif isinstance(e, (cst.Subscript, cst.Call)) and (keyword := self._keyword_read(e)) is not None:
                found.add(refs.Param(fn.key, -1, keyword))  # what a caller passes under that keyword
                return True
            elif isinstance(e, cst.Subscript):
                return walk(e.value)
            elif (isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name)
                  and e.value.value in fn.param_refs and self.kind(e) == UNKNOWN):
                found.add(replace(fn.param_refs[e.value.value], field=e.attr.value))  # a field of a passed record
                return True
            elif isinstance(e, cst.Attribute) and self.kind(e) == UNKNOWN:
                ref = self.attribute_condition(e)
                if ref is not None:
                    found.add(ref)
                    return True
            elif (isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value in _SAME_KIND_METHODS
                  and self.kind(e) == UNKNOWN):
                return walk(e.func.value)
            elif isinstance(e, cst.BinaryOperation):
                return walk(e.left) and walk(e.right)
            elif isinstance(e, cst.UnaryOperation):
                return walk(e.expression)
            elif isinstance(e, cst.BooleanOperation):
                excluded = _tensor_excluded(self, e)
                if excluded is not None:
                    with self._narrowed_static(excluded):
                        return walk(e.left) and walk(e.right)
                return walk(e.left) and walk(e.right)
            elif isinstance(e, cst.Comparison):
                if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in e.comparisons):
                    return True  # a Python bool (`mask is not None and mask > 0` tests the right side)
                return walk(e.left) and all(walk(t.comparator) for t in e.comparisons)
            k = self.kind(e)
            if isinstance(k, frozenset):  # `self.state.t1`: a tensor where its source is one
                found.update(k)
                return True
            return k == STATIC

        if not (walk(node) and found):
            return None
        return MaskCondition(found) if _compares(node) else frozenset(found)

    @contextmanager
    def _narrowed_static(self, name: str):
        """`name` holds a Python value here (a test ruled a tensor out)."""
        fn = self.function
        saved = fn.env.get(name), fn.param_refs.pop(name, None), fn.unpacked.pop(name, None)
        fn.env[name] = STATIC
        try:
            yield
        finally:
            fn.env.pop(name)
            for table, value in zip((fn.env, fn.param_refs, fn.unpacked), saved):
                if value is not None:
                    table[name] = value

    @contextmanager
    def narrowed_instance(self, name: str, cls: str):
        """`name` holds an instance of the project class `cls` here (an `isinstance` test
        said so), even where it is known as a tensor (a Tensor subclass)."""
        saved = self._narrowed.get(name)
        self._narrowed[name] = cls
        try:
            yield
        finally:
            if saved is None:
                self._narrowed.pop(name)
            else:
                self._narrowed[name] = saved

    def _keyword_read(self, node: cst.Subscript | cst.Call) -> str | None:
        """`kwargs["mask"]`, `kwargs.get("mask")` or `kwargs.pop("mask", None)` on the
        function's `**kwargs`: the keyword read."""
        name = self.function.kwargs_name
        if name is None:
            return None
        if isinstance(node, cst.Subscript):
            if not _string_key(node):
                return None
            base, key = node.value, node.slice[0].slice.value
        elif (isinstance(node.func, cst.Attribute) and node.func.attr.value in ("get", "pop") and node.args
              and node.args[0].keyword is None):
            base, key = node.func.value, node.args[0].value
        else:
            return None
        if not (isinstance(base, cst.Name) and base.value == name and isinstance(key, cst.SimpleString)):
            return None
        value = key.evaluated_value
        return value if isinstance(value, str) else None

    def attribute_condition(self, node: cst.BaseExpression) -> refs.Attr | None:
        """`self.name` or `self.name.field` in a method: the condition that the class, a base
        or a subclass stores a tensor there (in another method, a class body, another file)."""
        field = ""
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Attribute) and self.is_self(node.value.value):
            node, field = node.value, node.attr.value
        if not (isinstance(node, cst.Attribute) and self.is_self(node.value)) or node.attr.value == "training":
            return None
        return refs.Attr(self.function.class_scope.key, node.attr.value, field)

    # -- the API rules read ---------------------------------------------------------
    def value(self, node: cst.BaseExpression) -> Value:
        """What `node` holds: its Kind, the condition it holds under, where it came from."""
        k = self.kind(node)
        origin = self._origin(node)
        if k == TENSOR:
            return Value(Kind.TENSOR, origin=origin)
        if k == BOOL_TENSOR:
            return Value(Kind.MASK, origin=origin)
        if k == NDARRAY:
            return Value(Kind.NDARRAY, origin=origin)
        if k == INPUT:
            return Value(Kind.TENSOR, assumed=True, origin="passed to the compiled function")
        if isinstance(k, frozenset):
            if isinstance(k, MaskCondition):
                return Value(Kind.MASK, condition=k, origin=origin)
            return Value(Kind.TENSOR, condition=k, origin=origin, mask_when=self._returned_mask(node))
        if isinstance(k, Record):
            return Value(Kind.OBJECT, record=k)
        if k == STATIC:
            return Value(Kind.STATIC)
        if k == MODULE:
            return Value(Kind.MODULE)
        cond = self.param_condition(node)
        if cond is not None:
            if isinstance(cond, MaskCondition):
                return Value(Kind.MASK, condition=cond, from_parameters=True)
            return Value(Kind.TENSOR, condition=cond, from_parameters=True, mask_when=self._unpacked_mask(node))
        return Value(Kind.UNKNOWN)

    def project_call_ref(self, node: cst.BaseExpression) -> refs.CallRef | None:
        """The one project function or method a call expression runs, by its reference."""
        if not isinstance(node, cst.Call):
            return None
        kind = self.kind(node)
        if isinstance(kind, frozenset) and not isinstance(kind, MaskCondition) and len(kind) == 1:
            ref = next(iter(kind))
            return ref if isinstance(ref, refs.CALL_REFS) else None
        return None

    def _returned_mask(self, node: cst.BaseExpression) -> MaskCondition | None:
        """For a project call's result, `~` of it, or a name bound to either: the condition
        that the callee returns a boolean mask."""
        node = without_inverts(node)
        mask = self.returns_mask_ref(node)
        if mask is None and isinstance(node, cst.Name):
            scope = self.function
            while scope is not None and node.value not in scope.env:
                scope = scope.parent
            mask = scope.mask_calls.get(node.value) if scope is not None else None
        return MaskCondition((mask,)) if mask is not None else None

    def returns_mask_ref(self, node: cst.BaseExpression) -> refs.ReturnsMask | None:
        """For a project call: the condition that it returns a boolean mask, with the
        arguments it passes tensors (a callee's `return x < low` is a mask where `x` is one)."""
        ref = self.project_call_ref(node)
        if ref is None:
            return None
        tensors = frozenset(i if a.keyword is None else a.keyword.value for i, a in enumerate(node.args)
                            if not a.star and self.kind(a.value) in TENSORS)
        return refs.ReturnsMask(ref, tensors)

    def _unpacked_mask(self, node: cst.BaseExpression) -> MaskCondition | None:
        """For a name unpacked from a project call's tuple (`valid, idx = first_nonzero(x)`):
        the condition that the callee returns a boolean mask in that field."""
        if not isinstance(node, cst.Name) or self.function is None:
            return None
        fields = self.function.unpacked.get(node.value, ())
        return MaskCondition(replace(r, mask=True) for r in fields if not r.element) or None

    def origin_of(self, node: cst.BaseExpression) -> str | None:
        """Where the value of an expression comes from, for messages."""
        if not isinstance(node, cst.Call):
            return None
        qual = self.qualname(node.func)
        if qual is not None:
            return f"returned by `{qual if qual.startswith('torch.') else qual.rpartition('.')[2]}`"
        if isinstance(node.func, cst.Attribute):
            receiver = node.func.value
            if self.is_self(receiver):
                return f"returned by `self.{node.func.attr.value}`"
            if isinstance(receiver, cst.Name):
                return f"from `{receiver.value}.{node.func.attr.value}()`"
        return None

    def _origin(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Name):
            scope = self.function
            while scope is not None:
                if node.value in scope.env:
                    return scope.origins.get(node.value)
                scope = scope.parent
            return None
        return self.origin_of(node)

    def loop_bindings(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> list:
        """[(target, kind)] for `for target in iterable`, through `enumerate` and `zip`
        (`for i, (a, b) in enumerate(zip(alpha, beta))`: `a` is an element of `alpha`)."""
        if isinstance(iterable, cst.Call) and isinstance(target, (cst.Tuple, cst.List)):
            qual = self.qualname(iterable.func)
            args = [a.value for a in iterable.args if a.keyword is None and not a.star]
            plain = len(args) == len(iterable.args) and not any(
                isinstance(el, cst.StarredElement) for el in target.elements)
            if plain and qual == "builtins.enumerate" and len(args) == 1 and len(target.elements) == 2:
                return [(target.elements[0].value, STATIC), *self.loop_bindings(target.elements[1].value, args[0])]
            if plain and qual == "builtins.zip" and len(args) == len(target.elements):
                return [b for el, arg in zip(target.elements, args) for b in self.loop_bindings(el.value, arg)]
        return [(target, self._element_kind(iterable))]

    def _element_kind(self, iterable: cst.BaseExpression):
        elements = self._element_of(iterable)
        if elements is not None:
            return STATIC if elements[1] else elements[0]  # a mapping gives its keys
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and not iterable.args:
            elements = self._element_of(iterable.func.value)
            if elements is not None and elements[1] and iterable.func.attr.value == "values":
                return elements[0]
        kind = self.source_kind(iterable)
        if kind == INPUT:
            return INPUT  # an element of what is only assumed to be a tensor is only assumed one
        if kind in TENSORS:
            return TENSOR
        if isinstance(kind, frozenset):
            return kind  # elements of what a caller may pass as a tensor
        if kind in (MODULE, NDARRAY):
            return kind  # a NumPy array's rows are arrays, down to 0-dim ones
        if isinstance(iterable, cst.Call) and self.qualname(iterable.func) == "builtins.range":
            return STATIC
        return UNKNOWN

    def element_value(self, comp: cst.GeneratorExp | cst.ListComp | cst.SetComp) -> Value:
        """What each element of a comprehension holds (`a < b for a, b in zip(t[:-1], t[1:])`:
        a mask). Its own names are bound for the look only; the visitor binds them for good
        when it gets there, after the statement around it."""
        env = self.function.env if self.function is not None else None
        if env is None:
            return Value(Kind.UNKNOWN)
        saved = dict(env)
        try:
            for_in = comp.for_in
            while for_in is not None:
                for name, kind in self.loop_bindings(for_in.target, for_in.iter):
                    if isinstance(name, cst.Name):
                        env[name.value] = kind
                for_in = for_in.inner_for_in
            self.reset_memo()
            element = self.value(comp.elt)
        finally:
            env.clear()
            env.update(saved)
            self.reset_memo()
        return element

    def source_kind(self, node: cst.BaseExpression):
        """The kind a value carries to where it is stored: for an unknown built from the
        function's parameters (`t[0]`, `-t`), the condition that a caller passes tensors."""
        k = self.kind(node)
        if k == UNKNOWN:
            return self.param_condition(node) or UNKNOWN
        return k

    def _kind(self, node):
        if isinstance(node, cst.Name):
            return self._name_kind(node)
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
                             cst.ConcatenatedString, cst.FormattedString, cst.Lambda)):
            return STATIC
        if isinstance(node, cst.Attribute):
            return self._attribute_kind(node)
        if isinstance(node, cst.Call):
            return self._call_kind(node)
        if isinstance(node, cst.BinaryOperation):
            left, right = self.kind(node.left), self.kind(node.right)
            if isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
                mask = _bitwise_mask(left, right)
                if mask is not None:
                    return mask
            return combine(left, right)
        if isinstance(node, cst.Comparison):
            return self._comparison_kind(node)
        if isinstance(node, cst.UnaryOperation):
            if isinstance(node.operator, cst.Not):
                # a Python bool: `not t` reads the tensor there (a finding of its own), and
                # what Dynamo resumes with is the bool
                return STATIC
            inner = self.kind(node.expression)
            if isinstance(node.operator, cst.BitInvert) and inner == BOOL_TENSOR:
                return BOOL_TENSOR
            return TENSOR if inner in (INPUT, BOOL_TENSOR) else inner
        if isinstance(node, cst.BooleanOperation):
            # `not is_compiling() and x.any()`: under Dynamo the right side never runs
            short_circuit = False if isinstance(node.operator, cst.And) else True
            if self.value_under_dynamo(node.left) is short_circuit:
                return STATIC
            narrowed = _class_narrowed(self, node)
            if narrowed is not None:  # `isinstance(y, Sub) and y.from_forward()`: Sub's method
                left = self.kind(node.left)
                with self.narrowed_instance(*narrowed):
                    return combine(left, self.kind(node.right))
            excluded = _tensor_excluded(self, node)
            if excluded is not None:  # `not torch.is_tensor(x) and x == 0`: no tensor `x` on the right
                with self._narrowed_static(excluded):
                    return combine(self.kind(node.left), self.kind(node.right))
            return combine(self.kind(node.left), self.kind(node.right))
        if isinstance(node, cst.Subscript):
            return self._subscript_kind(node)
        if isinstance(node, cst.IfExp):
            return join(self.kind(node.body), self.kind(node.orelse))
        if isinstance(node, cst.Dict):
            return self._dict_kind(node)
        if isinstance(node, (cst.Tuple, cst.List, cst.Set, cst.ListComp,
                             cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            return STATIC  # a container: its truthiness is static even if it holds tensors
        if isinstance(node, cst.NamedExpr):
            return self.kind(node.value)
        return UNKNOWN

    def _name_kind(self, node: cst.Name):
        name = node.value
        if name in ("True", "False", "None"):
            return STATIC
        if self.function is not None:
            k = self.function.lookup(name)
            if k is not None:
                return k
        k = self.module_names.get(name)
        if k is not None:
            return k
        return UNKNOWN

    def _attribute_kind(self, node: cst.Attribute):
        attr = node.attr.value
        if isinstance(node.value, (cst.Name, cst.Attribute, cst.Call)):
            base = self.kind(node.value)
            if isinstance(base, Record):
                return base.field(attr)
        if self.is_self(node.value):
            if attr == "training":
                return STATIC
            cls = self.function.class_scope
            k = cls.attrs.get(attr)
            return UNKNOWN if k is None else k
        qual = self.qualname(node)
        if qual is not None and (qual.startswith("torch.") or qual in api.PYTHON_CONSTANTS):
            return STATIC  # torch.float32, torch.nn.functional as a value, math.inf, ...
        base = self.kind(node.value)
        if attr in api.STATIC_TENSOR_ATTRS:
            return STATIC if base in TENSORS or base in (UNKNOWN, STATIC) or isinstance(base, frozenset) else UNKNOWN
        if base in TENSORS:
            return TENSOR if attr in api.TENSOR_TENSOR_ATTRS else UNKNOWN
        if base == NDARRAY and attr in _NDARRAY_ARRAY_ATTRS:
            return NDARRAY
        if base == MODULE and attr in ("weight", "bias"):
            return TENSOR
        if base == STATIC:
            return STATIC
        return UNKNOWN

    def _comparison_kind(self, node: cst.Comparison):
        result = self.kind(node.left)
        for target in node.comparisons:
            if isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)):
                return STATIC
            if isinstance(target.comparator, _STRINGS) or isinstance(node.left, _STRINGS):
                return STATIC  # `reduction_type != "already_reduced"`: a string, not a tensor
            result = combine(result, self.kind(target.comparator))
        if result == TENSOR and self._only_inputs(node):
            return UNKNOWN
        if result in TENSORS:
            return BOOL_TENSOR
        return MaskCondition(result) if isinstance(result, frozenset) else result

    def _only_inputs(self, node: cst.Comparison) -> bool:
        """`i > j` between bare inputs: as often sizes passed in as numbers as tensors
        (`target != ignore_index`, an input against a number, is a mask)."""
        operands = [node.left, *(t.comparator for t in node.comparisons)]
        return all(isinstance(o, cst.Name) and self.kind(o) == INPUT for o in operands)

    def _dict_kind(self, node: cst.Dict):
        """`{"order": torch.randperm(3), "p": 0.5}`: a record of its string keys when one holds
        a (maybe) tensor, so `params["order"]` is that tensor; other dicts are static."""
        fields = []
        for el in node.elements:
            if not (isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)
                    and isinstance(el.key.evaluated_value, str)):
                return STATIC
            fields.append((el.key.evaluated_value, self.kind(el.value)))
        if any(k in TENSORS or isinstance(k, frozenset) for _, k in fields):
            return Record("builtins.dict", tuple(fields))
        return STATIC

    def _subscript_kind(self, node: cst.Subscript):
        if self.function is not None and self._keyword_read(node) is not None:
            return UNKNOWN  # what callers pass under that keyword (param_condition)
        elements = self._element_of(node.value)
        if elements is not None and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            return elements[0]  # `params["order"]`, `feats[-1]` (a slice is still the container)
        base = self.kind(node.value)
        if isinstance(base, Record):
            return _record_item(base, node)
        if base == INPUT and _string_key(node):
            return UNKNOWN  # `cfg["num_frames"]`: an input that is a dict holds anything
        if base in TENSORS:
            return TENSOR
        if base == NDARRAY:
            return NDARRAY
        if (base == UNKNOWN or isinstance(base, frozenset)) and _tensor_index(node):
            return TENSOR
        if isinstance(base, frozenset):
            return base  # an element of a maybe-tensor is one where it is
        if base == MODULE:
            return MODULE
        if base == STATIC:
            return STATIC
        return UNKNOWN

    def _call_kind(self, node: cst.Call):
        func = node.func
        if isinstance(func, cst.Name):
            called = self.lambdas.call_kind(self, node)
            if called is not None:
                return called
        qual = self.qualname(func)
        if qual is not None:
            return self._qualified_call_kind(qual, node)
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            receiver = func.value
            if method in ("item", "tolist"):
                return STATIC  # a Python number or list, whatever it was read from
            if method in ("get", "pop") and self.function is not None and self._keyword_read(node) is not None:
                return UNKNOWN  # what callers pass under that keyword (param_condition)
            elements = self._element_of(receiver)
            if elements is not None and method in ("get", "pop") and node.args:
                return elements[0]
            if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Name) and receiver.func.value == "super":
                return self._project_call(refs.SuperMethod(self.class_dotted(), method)) if self.class_dotted() else UNKNOWN
            own_tensor = self.is_self(receiver) and _tensor_method_of_self(self.function.class_scope, method)
            if self.is_self(receiver) and not own_tensor:
                cls = self.function.class_scope
                if cls.attrs.get(method) == MODULE:
                    return TENSOR
                return self._project_call(refs.Method(self.class_dotted(), method))
            base = TENSOR if own_tensor else self.kind(receiver)
            if (isinstance(receiver, cst.Name) and receiver.value in self._narrowed
                    and method not in api.TENSOR_ATTRIBUTES):  # the narrowed class's own method, not a tensor's
                return self._project_call(refs.Method(self._narrowed[receiver.value], method))
            if base == INPUT and method in _MAPPING_METHODS:
                return UNKNOWN  # `batch.items()`: the input is a dict, not the tensor assumed
            if base in TENSORS:
                pair = self._values_indices(method, base, node.args)
                if pair is not None:
                    return pair
                if method in api.STATIC_TENSOR_METHODS:
                    return STATIC
                if method == "type" and not node.args:
                    return STATIC
                if method in api.BOOL_METHODS or (method in ("any", "all") and base == BOOL_TENSOR):
                    return BOOL_TENSOR
                return TENSOR
            if base == MODULE:
                return TENSOR if method in ("forward", "__call__") else UNKNOWN
            if base == NDARRAY:  # `r.any()`, `a.sum()`, `a.astype(...)`: still an array Dynamo traces
                return STATIC if method in _NDARRAY_PYTHON_METHODS else NDARRAY
            if isinstance(receiver, cst.Name) and self.function is not None:
                cls_name = self.function.instance_classes.get(receiver.value)
                if cls_name is not None:
                    return self._project_call(refs.Method(cls_name, method))
            if method in api.STATIC_TENSOR_METHODS and method not in ("item", "tolist"):
                return STATIC if base in (UNKNOWN, STATIC) else UNKNOWN
            if (base == UNKNOWN or isinstance(base, frozenset)) and method in api.TENSORISH_METHODS:
                return BOOL_TENSOR if method in api.BOOL_METHODS else TENSOR
            made_by = None
            if isinstance(receiver, cst.Name) and self.function is not None:
                made_by = self.function.returned_objects.get(receiver.value)  # `s = make(2); s.run(x)`
            elif isinstance(receiver, cst.Call) and isinstance(base, frozenset) and len(base) == 1:
                made_by = next(iter(base))  # `make(2).run(x)`
            if isinstance(made_by, refs.CALL_REFS) and not isinstance(base, MaskCondition):
                return self._project_call(refs.ReturnedMethod(made_by, method))
            if base == STATIC:
                return STATIC
            return UNKNOWN
        if isinstance(func, cst.Name):
            if self.is_self(func):  # `self(...)` returns what the class's forward returns
                return self._project_call(refs.Method(self.class_dotted(), "forward"))
            if self.function is not None:  # `check(x)` with `check = StopCheck()`; `scale = make_scaler(2)`
                cls_name = self.function.instance_classes.get(func.value)
                if cls_name is not None:
                    return self._project_call(refs.Method(cls_name, "__call__"))
                stored = self.local_callables.get((self.function.key, func.value))
                if stored:
                    return frozenset(stored)
                passed = self.param_callable(func.value)
                if passed is not None:  # `f_new, g_new = obj_func(x)`: what the functions callers pass return
                    return frozenset((passed,))
            k = self.kind(func)
            if k == MODULE:
                return TENSOR
        if isinstance(func, cst.Subscript) and self.kind(func.value) == MODULE:
            return TENSOR  # self.layers[i](x)
        return UNKNOWN

    def _qualified_call_kind(self, qual: str, node: cst.Call):
        fields = self.record_classes.get(qual)
        if fields is not None:
            return build(qual, fields, node, self.source_kind)
        if qual.startswith("builtins."):
            return self._builtin_call_kind(qual[9:], node)
        if qual in api.NON_TENSOR_FUNCTIONS:
            return STATIC
        module, _, name = qual.rpartition(".")
        if module in api.TENSOR_NAMESPACES:
            if module == "torch" and node.args and node.args[0].keyword is None:
                pair = self._values_indices(name, self.kind(node.args[0].value), node.args[1:])
                if pair is not None:
                    return pair
            if qual in api.TENSOR_TYPES:
                return TENSOR
            if qual in api.NAMESPACE_CLASSES:
                return STATIC
            if qual in api.BOOL_FUNCTIONS or self._bool_dtype(node) or self._joins_masks(name, node):
                return BOOL_TENSOR
            if name.startswith(("is_", "get_", "set_", "use_")):
                return STATIC
            return TENSOR
        if module == "torch.nn" and name in api.NN_TENSOR_CLASSES:
            return TENSOR
        if module == "torch.nn" and name in api.NN_MODULE_CLASSES:
            return MODULE
        if module.split(".")[0] == "numpy" and name[:1].islower() and qual not in api.NUMPY_PYTHON_VALUES \
                and not module.startswith("numpy.random"):
            return NDARRAY  # (NumPy's random draws have a rule of their own)
        if qual.startswith("torch.") or qual.startswith(("math.", "numpy.")):
            return UNKNOWN
        if self.is_project_name(qual):
            built = self._keyword_record(qual, node)
            return built if built is not None else self._project_call(refs.Named(qual))
        return UNKNOWN

    def _joins_masks(self, name: str, node: cst.Call) -> bool:
        """`torch.cat([m1, m2])`, `torch.stack([... for ...])`: masks joined are a mask."""
        if name not in _JOINS or not node.args or node.args[0].keyword is not None:
            return False
        parts = node.args[0].value
        if isinstance(parts, (cst.ListComp, cst.GeneratorExp)):
            return self.kind(parts.elt) == BOOL_TENSOR
        if isinstance(parts, (cst.List, cst.Tuple)) and parts.elements:
            return all(not isinstance(el, cst.StarredElement) and self.kind(el.value) == BOOL_TENSOR
                       for el in parts.elements)
        return False

    def _values_indices(self, op: str, receiver, args) -> Record | None:
        """`m.max(1)`, `torch.sort(x)`: the (values, indices) named tuple the op returns, its
        values of the receiver's kind (a mask's are a mask); None for another call."""
        if receiver not in TENSORS or any(a.star for a in args):
            return None
        if op in api.VALUES_INDICES_WITH_DIM:
            positional = [a for a in args if a.keyword is None]
            if not (any(a.keyword is not None and a.keyword.value == "dim" for a in args)
                    or positional and self._an_int(positional[0].value)):
                return None
        elif op not in api.VALUES_INDICES_OPS:
            return None
        values = BOOL_TENSOR if receiver == BOOL_TENSOR else TENSOR
        return Record(f"{VALUES_INDICES}.{op}", (("values", values), ("indices", TENSOR)))

    def _an_int(self, node: cst.BaseExpression) -> bool:
        """A static value, or a parameter of this function declared an int or defaulting to
        one (`dim: int = -1`: a helper's literal default leaves its kind to callers)."""
        if self.kind(node) == STATIC:
            return True
        fn = self.function
        if not (isinstance(node, cst.Name) and fn is not None and fn.node is not None and node.value in fn.param_refs):
            return False
        params = fn.node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.name.value == node.value:
                default = param.default.expression if isinstance(param.default, cst.UnaryOperation) else param.default
                annotation = dotted_name(param.annotation.annotation) if param.annotation is not None else None
                return annotation == "int" or annotation is None and isinstance(default, cst.Integer)
        return False

    def _keyword_record(self, qual: str, node: cst.Call) -> Record | None:
        """`_Tableau(alpha=torch.tensor(...), ...)` of a class from another file, built from
        keywords only: an object whose fields hold what was passed under their names."""
        if not (self.builds_instance(qual) and node.args
                and all(a.keyword is not None for a in node.args)):
            return None
        fields = tuple((a.keyword.value, self.source_kind(a.value)) for a in node.args)
        if any(k in TENSORS or isinstance(k, frozenset) for _, k in fields):
            return Record(qual, fields)
        return None

    def _bool_dtype(self, node: cst.Call) -> bool:
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "dtype":
                return self.qualname(arg.value) == "torch.bool"
        return False

    def _builtin_call_kind(self, name: str, node: cst.Call):
        if name in ("len", "isinstance", "issubclass", "hasattr", "callable", "id", "type", "all", "any",
                    "str", "repr", "format", "int", "float", "bool", "complex", "range",
                    "hash", "round", "divmod"):
            return STATIC
        if name in ("abs", "max", "min", "sum", "pow"):
            kinds = [self.kind(a.value) for a in node.args if a.keyword is None]
            result = STATIC
            for k in kinds:
                result = combine(result, k)
            return result if node.args else STATIC
        return UNKNOWN

    @staticmethod
    def is_project_name(qual: str) -> bool:
        # Anything not from torch or the standard library might be a project function;
        # the project phase drops references it cannot resolve.
        return not qual.startswith(_NOT_PROJECT)

    def _project_call(self, ref: refs.CallRef):
        return frozenset((ref,))

    def own_param(self, node: cst.BaseExpression) -> refs.Param | None:
        """The parameter of this function a bare name still holds, unchanged."""
        if isinstance(node, cst.Name) and self.function is not None:
            return self.function.own_params.get(node.value)
        return None

    def param_callable(self, name: str) -> refs.ParamCallable | None:
        """`fn` is a parameter of this function or, in a closure, of one enclosing it."""
        scope = self.function
        while scope is not None:
            ref = scope.param_refs.get(name)
            if ref is not None:
                return refs.ParamCallable(ref.function, ref.position, ref.name)
            if name in scope.env:
                return None  # bound here: not the parameter any more
            scope = scope.parent
        return None

    @staticmethod
    def inner_scope(parent: FunctionScope | None) -> FunctionScope:
        """An empty scope inside `parent` (None: the module), for a lambda's parameters."""
        return FunctionScope(
            key=parent.key if parent is not None else "", name="<lambda>", node=None,
            class_scope=parent.class_scope if parent is not None else None, parent=parent, root_like=False,
            self_name=parent.self_name if parent is not None else None)

    def class_dotted(self) -> str | None:
        scope = self.function.class_scope if self.function is not None else self.class_scope
        return scope.key if scope is not None else None

    # -- parameters --------------------------------------------------------------
    def param_kind(self, param: cst.Param, root_like: bool):
        default = param.default
        if default is not None and _is_literal(default) and not (isinstance(default, cst.Name) and default.value == "None"):
            # `flag: Tensor | None = False` is a Python value in practice; in a helper, what
            # its callers pass decides (`BrownianInterval(t0=ts[0])` against `t0: float = 0.`)
            return STATIC if root_like else UNKNOWN
        annotation = param.annotation.annotation if param.annotation is not None else None
        if annotation is not None:
            return self.annotation_kind(annotation)
        if default is not None:
            return STATIC if self.kind(default) == STATIC and not isinstance(default, cst.Name) else UNKNOWN
        if root_like:
            return INPUT
        return UNKNOWN

    def annotation_elements(self, annotation: cst.BaseExpression) -> tuple[object, bool] | None:
        """`List[Tensor]`, `Tuple[Tensor, ...]`, `Dict[str, Tensor]` (maybe Optional): the
        kind of an element and whether the container is a mapping, when every element is
        declared a tensor. The container itself stays a static value (its truth is its length)."""
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            sides = [e for e in (annotation.left, annotation.right) if not (isinstance(e, cst.Name) and e.value == "None")]
            return self.annotation_elements(sides[0]) if len(sides) == 1 else None
        if not isinstance(annotation, cst.Subscript):
            return None
        outer = (dotted_name(annotation.value) or "").rpartition(".")[2]
        args = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
        if len(args) != len(annotation.slice):
            return None
        if outer == "Optional" and len(args) == 1:
            return self.annotation_elements(args[0])
        if outer in _MAPPING_ANNOTATIONS and len(args) == 2:
            element, mapping = args[1], True
        elif outer in _SEQUENCE_ANNOTATIONS and len(args) == 1:
            element, mapping = args[0], False
        elif outer in ("Tuple", "tuple") and args:
            if len(args) == 2 and isinstance(args[1], cst.Ellipsis):
                args = args[:1]
            kinds = {self.annotation_kind(a) for a in args}
            element, mapping = (args[0] if len(kinds) == 1 else None), False
        else:
            return None
        kind = self.annotation_kind(element) if element is not None else UNKNOWN
        return (kind, mapping) if kind in (TENSOR, BOOL_TENSOR) else None

    def _element_of(self, container: cst.BaseExpression):
        """What one element of a container of tensors holds (a parameter declared one, a list
        built here), or None. A name unpacked from a project call's tuple (`n, sums =
        self.group(g)`) holds tensors where that field of what the callee returns holds a
        list of them, or a tensor. A name that is a tensor on some path (unpacked in one arm,
        a tensor before) is indexed as a tensor."""
        if isinstance(container, cst.Name) and self.function is not None:
            unpacked = self.function.unpacked.get(container.value)
            if unpacked and self.function.env.get(container.value) not in TENSORS:
                return frozenset(replace(r, element=True) for r in unpacked), False
            return self.function.elements.get(container.value)
        return None

    def annotation_kind(self, annotation: cst.BaseExpression):
        text = dotted_name(annotation)
        if isinstance(annotation, cst.Subscript):
            # Optional[Tensor], Union[Tensor, None]
            text = dotted_name(annotation.value)
            if text in ("Optional", "typing.Optional", "Union", "typing.Union"):
                elems = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
                return _tensor_or_none([self.annotation_kind(e) for e in elems], elems)
            return STATIC if text in ("list", "List", "tuple", "Tuple", "dict", "Dict") else UNKNOWN
        if isinstance(annotation, cst.BinaryOperation):  # Tensor | None
            elems = [annotation.left, annotation.right]
            return _tensor_or_none([self.annotation_kind(e) for e in elems], elems)
        if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            return UNKNOWN
        if text is None:
            return UNKNOWN
        if text in ("None",):
            return STATIC
        if text in ("int", "float", "bool", "str", "bytes", "complex"):
            return STATIC
        qual = self.qualname(annotation) or text
        if qual in TENSOR_ANNOTATIONS or qual == "Tensor":
            return BOOL_TENSOR if qual == "torch.BoolTensor" else TENSOR
        if qual in ("torch.dtype", "torch.device", "torch.Size"):
            return STATIC
        if qual in ("torch.nn.Module", "torch.nn.modules.module.Module"):
            return MODULE
        if "." in qual and self.is_project_name(qual):
            return frozenset((refs.TensorType(qual),))  # perhaps an alias of torch.Tensor
        return UNKNOWN


_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def _tensor_excluded(facts: Facts, node: cst.BooleanOperation) -> str | None:
    """The name the right side of `not torch.is_tensor(x) and ...` (or `isinstance(x,
    torch.Tensor) or ...`) reads only when it is not a tensor."""
    test, negated = node.left, False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, not negated
    if facts.function is None or negated is not isinstance(node.operator, cst.And):
        return None
    if not (isinstance(test, cst.Call) and test.args and isinstance(test.args[0].value, cst.Name)):
        return None
    qual = facts.qualname(test.func)
    if qual == "torch.is_tensor" and len(test.args) == 1 or (
            qual == "builtins.isinstance" and len(test.args) == 2 and facts.qualname(test.args[1].value) == "torch.Tensor"):
        return test.args[0].value.value
    return None


def _tensor_method_of_self(cls: ClassScope, method: str) -> bool:
    """`self.sum()` in a direct torch.Tensor subclass that defines no `sum` of its own: a
    tensor method on a tensor."""
    return "torch.Tensor" in cls.bases and method in api.TENSOR_ATTRIBUTES and method not in cls.tensor_overrides


def _class_narrowed(facts: Facts, node: cst.BooleanOperation) -> tuple[str, str] | None:
    """The name and project class the right side of `isinstance(y, Sub) and ...` (the
    test anywhere in a chain of `and`s on the left) reads `y` as."""
    return class_test(facts, node.left) if isinstance(node.operator, cst.And) else None


def class_test(facts: Facts, node: cst.BaseExpression) -> tuple[str, str] | None:
    """The name and project class where `node` holds: `isinstance(y, Sub)`, alone or
    anywhere in a chain of `and`s."""
    if facts.function is None:
        return None
    for test in _conjuncts(node):
        if (isinstance(test, cst.Call) and len(test.args) == 2 and isinstance(test.args[0].value, cst.Name)
                and facts.qualname(test.func) == "builtins.isinstance"):
            cls = facts.qualname(test.args[1].value)
            if cls is not None and "." in cls and facts.is_project_name(cls):
                return test.args[0].value.value, cls
    return None


def _conjuncts(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def values_indices(kind) -> bool:
    """The (values, indices) named tuple a torch op returns (`x.max(1)`): its items are
    tensors, so what returns one returns tensors to whoever indexes or unpacks it."""
    return isinstance(kind, Record) and kind.cls.startswith(VALUES_INDICES + ".")


def without_inverts(node: cst.BaseExpression) -> cst.BaseExpression:
    """What `~` applies to, through any number of them (`~~m` is `m`)."""
    while isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        node = node.expression
    return node


def is_literal(node: cst.BaseExpression | None) -> bool:
    """A number, string, True, False or None (possibly negated)."""
    return node is not None and _is_literal(node)


def _is_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)) or (
        isinstance(node, cst.Name) and node.value in ("True", "False", "None"))


def _tensor_or_none(kinds: list, elems: list):
    """`Tensor | None` is a tensor when given; `int | Tensor` could be either; an alias from
    another file keeps its condition."""
    rest = [k for k, e in zip(kinds, elems) if not (isinstance(e, cst.Name) and e.value == "None")]
    if not rest or not all(k in TENSORS or isinstance(k, frozenset) for k in rest):
        return UNKNOWN
    conditions = [k for k in rest if isinstance(k, frozenset)]
    return frozenset().union(*conditions) if conditions else TENSOR


def _compares(node: cst.BaseExpression) -> bool:
    """A comparison, or masks of comparisons combined (`(x > lo) & (x < hi)`, `~(x > lo)`)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
        return _compares(node.left) and _compares(node.right)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        return _compares(node.expression)
    return isinstance(node, cst.Comparison) and not any(
        isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in node.comparisons)


def _record_item(record: Record, node: cst.Subscript):
    """`state[2]` or `row["t1"]`: one field of a record."""
    index = node.slice[0].slice if len(node.slice) == 1 else None
    value = index.value if isinstance(index, cst.Index) else None
    if isinstance(value, cst.Integer):
        items = record.items()
        i = int(value.value)
        return items[i] if i < len(items) else UNKNOWN
    if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
        return record.field(value.evaluated_value)
    return UNKNOWN


def _string_key(node: cst.Subscript) -> bool:
    first = node.slice[0].slice
    return isinstance(first, cst.Index) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString,
                                                                      cst.FormattedString))


def _tensor_index(node: cst.Subscript) -> bool:
    """`x[:, 0]`, `x[..., None]`, `x[None]`: indexing only tensors and arrays support."""
    elements = node.slice
    for el in elements:
        index = el.slice
        if isinstance(index, cst.Slice) and len(elements) > 1:
            return True
        if isinstance(index, cst.Index) and (
                isinstance(index.value, cst.Ellipsis)
                or isinstance(index.value, cst.Name) and index.value.value == "None"):
            return True
    return False
