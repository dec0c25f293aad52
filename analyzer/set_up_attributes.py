"""What set-up methods (`__init__`, `reset_parameters`, `build`, `setup`) store on `self`:
the kind of each attribute, the class an object in it was built from (`self.solver = Euler()`,
a parameter's annotation or default instance), the callables stored for later calls, and the
class of each element of a ModuleList or list filled there. Methods called on those attributes
in compiled code are then those classes' methods."""
from __future__ import annotations

import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.knowledge import tensor_api as api
from tclint.analyzer.summary import ClassSummary


def scan_set_up(facts: tf.Facts, scope: tf.ClassScope, summary: ClassSummary, method: cst.FunctionDef) -> None:
    """Reads one set-up method of a class into its scope and summary."""
    self_name = _first_param_name(method)
    if self_name:
        _AttributeScan(facts, scope, summary, self_name, _annotated_classes(method),
                       _default_instances(method), _default_callables(method)).scan(method.body)


def _first_param_name(fn: cst.FunctionDef) -> str | None:
    params = list(fn.params.posonly_params) + list(fn.params.params)
    return params[0].name.value if params else None


def _named_params(fn: cst.FunctionDef) -> list[cst.Param]:
    return [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]


def _annotated_classes(fn: cst.FunctionDef) -> dict[str, cst.BaseExpression]:
    """The parameters annotated with a plain name (`model: Model`): what they may hold is an
    instance of that class (or of a subclass)."""
    return {p.name.value: p.annotation.annotation for p in _named_params(fn)
            if p.annotation is not None and isinstance(p.annotation.annotation, (cst.Name, cst.Attribute))}


def _default_instances(fn: cst.FunctionDef) -> dict[str, cst.BaseExpression]:
    """The parameters with an instance for default (`solver=Euler()`): what they hold is one
    of that class, unless callers pass another; parameter -> the class called."""
    return {p.name.value: p.default.func for p in _named_params(fn)
            if isinstance(p.default, cst.Call) and isinstance(p.default.func, (cst.Name, cst.Attribute))}


def _default_callables(fn: cst.FunctionDef) -> dict[str, cst.BaseExpression]:
    """The parameters with a class or function for default (`solver_cls=Euler`): what calling
    them builds or returns, unless callers pass another."""
    return {p.name.value: p.default for p in _named_params(fn) if isinstance(p.default, (cst.Name, cst.Attribute))}


class _AttributeScan:
    """Reads `self.x = ...` and `self.register_buffer("x", ...)` in set-up methods."""

    def __init__(self, facts: tf.Facts, scope: tf.ClassScope, summary: ClassSummary, self_name: str,
                 annotated: dict[str, cst.BaseExpression], instances: dict[str, cst.BaseExpression],
                 defaults: dict[str, cst.BaseExpression]):
        self.facts = facts
        self.scope = scope
        self.summary = summary
        self.self_name = self_name
        self.annotated = annotated  # parameter -> its annotation
        # parameter -> the class of its default instance, or the class or function it defaults
        # to, until the set-up code rebinds it
        self.instances = instances
        self.defaults = defaults
        self.locals: dict[str, str] = {}  # local name -> the class it was last built from here
        self.filled: set[str] = set()  # attributes set to an empty ModuleList or list, filled by appends
        self.mixed: set[str] = set()  # those of them appended objects of more than one class

    def scan(self, block) -> None:
        body = block.body if isinstance(block, cst.IndentedBlock) else [block]
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    self._small(small)
            elif isinstance(stmt, (cst.If, cst.For, cst.While, cst.With, cst.Try)):
                self.scan(stmt.body)
                orelse = getattr(stmt, "orelse", None)
                while orelse is not None:
                    self.scan(orelse.body)
                    orelse = getattr(orelse, "orelse", None)

    def _small(self, small) -> None:
        if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
            targets = [small.target] if isinstance(small, cst.AnnAssign) else [t.target for t in small.targets]
            for t in targets:
                if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self.self_name:
                    self._assign(t.attr.value, small.value)
                elif isinstance(t, cst.Name):
                    self.instances.pop(t.value, None)
                    self.defaults.pop(t.value, None)
                    built = self.facts.qualname(small.value.func) if isinstance(small.value, cst.Call) else None
                    if built:
                        self.locals[t.value] = built
                    else:
                        self.locals.pop(t.value, None)
        elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            func = call.func
            if (isinstance(func, cst.Attribute) and func.attr.value in ("append", "extend", "insert")
                    and isinstance(func.value, cst.Attribute) and isinstance(func.value.value, cst.Name)
                    and func.value.value.value == self.self_name):
                self._append(func.value.attr.value, call if func.attr.value == "append" else None)
            if (isinstance(func, cst.Attribute) and func.attr.value in ("register_buffer", "register_parameter")
                    and isinstance(func.value, cst.Name) and func.value.value == self.self_name and call.args):
                name = call.args[0].value
                if isinstance(name, cst.SimpleString):
                    value = call.args[1].value if len(call.args) > 1 else None
                    self.scope.attrs[name.evaluated_value] = self._buffer_kind(value)

    def _buffer_kind(self, value: cst.BaseExpression | None):
        """A registered buffer is a tensor; a boolean mask where what is registered is one, or
        None or one (`mask if needed else None`: where the buffer is a tensor, it is the mask)."""
        if value is None:
            return tf.TENSOR
        arms = [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
        kinds = [self.facts.kind(arm) for arm in arms if not (isinstance(arm, cst.Name) and arm.value == "None")]
        return tf.BOOL_TENSOR if kinds and all(k == tf.BOOL_TENSOR for k in kinds) else tf.TENSOR

    def _assign(self, attr: str, value: cst.BaseExpression) -> None:
        facts = self.facts
        if isinstance(value, cst.Name) and value.value == "None":
            return  # `self.x = None` placeholders say nothing about the eventual kind
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == self.self_name:
            self.summary.method_aliases[attr] = value.attr.value  # resolved to a method, if it is one
        stored = self._stored_callables(value)
        if stored:
            self.summary.attr_callables[attr] = self.summary.attr_callables.get(attr, frozenset()) | stored
        kind = self._value_kind(value)
        if kind == tf.UNKNOWN and not stored and attr not in self.summary.method_aliases:
            self.summary.object_attrs = self.summary.object_attrs | {attr}
        if kind is _ELSEWHERE:  # an instance of a class another file defines: called, its class's methods run
            kind = tf.UNKNOWN
        previous = self.scope.attrs.get(attr)
        self.scope.attrs[attr] = kind if previous is None else tf.join(previous, kind)
        if isinstance(value, cst.Name) and (value.value in self.annotated or value.value in self.instances):
            # `self.model = model` with `model: Model`: methods called on it are Model's (or a
            # subclass's); with `solver=Euler()`, Euler's, and calling it runs Euler's forward
            # (or `__call__`). A class of an installed library is no project name and stays unknown
            annotation = self.annotated.get(value.value)
            qual = facts.qualname(annotation if annotation is not None else self.instances[value.value])
            if qual:
                self.scope.built_from[attr] = qual
            if qual and annotation is None and not qual.startswith("torch."):
                self.summary.submodules[attr] = qual
        if isinstance(value, cst.Call):
            qual = facts.qualname(value.func) or self._default_qualname(value.func)
            if qual:
                self.scope.built_from[attr] = qual
            element = _element_class(facts, value, qual)
            if element:  # keyed `attr[]`: the class of each object the ModuleList or list holds
                self.scope.built_from[attr + "[]"] = element
            if qual and not qual.startswith("torch."):
                self.summary.submodules[attr] = qual
            if qual in _OBJECT_LISTS and _empty_list(value):
                self.filled.add(attr)
            else:
                self.filled.discard(attr)
        elif isinstance(value, cst.List) and not value.elements:
            self.filled.add(attr)
        else:
            self.filled.discard(attr)

    def _default_qualname(self, func: cst.BaseExpression) -> str | None:
        """`self.solver = solver_cls()` with `solver_cls=Euler`: the class (or factory) called,
        until the set-up code rebinds the parameter."""
        facts = self.facts
        qual = facts.qualname(self.defaults[func.value]) if isinstance(func, cst.Name) and func.value in self.defaults else None
        return qual if qual and facts.is_project_name(qual) else None  # not `act=None`

    def _append(self, attr: str, call: cst.Call | None) -> None:
        """`self.heads.append(Head())` or `self.heads.append(head)` after `head = Head()`, into
        an empty ModuleList or list: the class of its elements, while every append agrees
        (`call` None: an `extend` or `insert`, which this does not follow)."""
        if attr not in self.filled or attr in self.mixed:
            return
        arg = call.args[0].value if call is not None and len(call.args) == 1 and not call.args[0].keyword \
            and not call.args[0].star else None
        if isinstance(arg, cst.Call):
            element = self.facts.qualname(arg.func)
        else:
            element = self.locals.get(arg.value) if isinstance(arg, cst.Name) else None
        key = attr + "[]"
        if element and self.scope.built_from.get(key, element) == element:
            self.scope.built_from[key] = element
        else:
            self.mixed.add(attr)
            self.scope.built_from.pop(key, None)

    def _stored_callables(self, value) -> frozenset:
        """What calling the attribute later may run: a project function stored in it, or
        what a project factory (`self._make_fn(...)`, `make_fn(...)`) returned."""
        facts = self.facts
        if isinstance(value, cst.IfExp):
            return self._stored_callables(value.body) | self._stored_callables(value.orelse)
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple)):  # `self.steps = {"euler": self._euler}`
            return frozenset().union(*(self._stored_callables(e.value) for e in value.elements
                                       if isinstance(e, (cst.DictElement, cst.Element))))
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == self.self_name:
            return frozenset((refs.Method(self.scope.key, value.attr.value),))
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.self_name:
                return frozenset((refs.Returned(refs.Method(self.scope.key, func.attr.value)),))
            if facts.qualname(func) == "functools.partial" and value.args and not value.args[0].keyword:
                return self._project_named(value.args[0].value)
            return frozenset(refs.Returned(r) for r in self._project_named(func))  # what the factory returns
        return self._project_named(value)

    def _project_named(self, expr: cst.BaseExpression) -> frozenset:
        qual = self.facts.qualname(expr)
        return frozenset((refs.Named(qual),)) if qual and self.facts.is_project_name(qual) else frozenset()

    def _value_kind(self, value):
        facts = self.facts
        if isinstance(value, cst.Call):
            qual = facts.qualname(value.func)
            if qual in facts.record_classes:
                return facts.kind(value)
            if qual:
                if qual.startswith("torch.nn.") and qual.rpartition(".")[2] in api.NN_TENSOR_CLASSES:
                    return tf.TENSOR
                if tf.is_module_base(qual):
                    return tf.MODULE
                module, _, name = qual.rpartition(".")
                if (facts.imports.binds(module) or qual.startswith(facts.module)) and module != "torch" \
                        and facts.builds_instance(qual):
                    is_module = facts.local_module_class(qual)
                    if is_module is None:  # a class from elsewhere: the project phase knows it (submodules)
                        return _ELSEWHERE
                    return tf.MODULE if is_module else tf.STATIC
            k = facts.kind(value)
            return k if k in tf.TENSORS else tf.UNKNOWN
        if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.Tuple, cst.List, cst.Dict)):
            return tf.STATIC
        return tf.UNKNOWN


# The kind of an instance of a class another file defines, a module or not (`self.attn =
# Attention(config)`, `self.config = BertConfig()`): unknown here, whatever its name's spelling.
# Its class is recorded (ClassSummary.submodules), and the project phase resolves what calling
# it runs; unlike another unknown object's, its `__call__` is not looked for by name.
_ELSEWHERE = object()

_OBJECT_LISTS = frozenset({"torch.nn.ModuleList", "torch.nn.modules.container.ModuleList", "builtins.list"})


def _empty_list(value: cst.Call) -> bool:
    """`nn.ModuleList()`, `nn.ModuleList([])`, `list()`."""
    if not value.args:
        return True
    items = value.args[0].value
    return len(value.args) == 1 and isinstance(items, (cst.List, cst.Tuple)) and not items.elements


def _element_class(facts, value: cst.Call, qual: str | None) -> str | None:
    """`nn.ModuleList([Block(...) for _ in range(n)])`, `nn.ModuleList([Block(), Block()])`: the
    one class every element is built from."""
    if qual not in _OBJECT_LISTS or not value.args or value.args[0].keyword:
        return None
    items = value.args[0].value
    if isinstance(items, (cst.ListComp, cst.GeneratorExp)):
        built = {items.elt}
    elif isinstance(items, (cst.List, cst.Tuple)) and items.elements:
        built = {e.value for e in items.elements}
    else:
        return None
    classes = {facts.qualname(b.func) if isinstance(b, cst.Call) else None for b in built}
    return classes.pop() if len(classes) == 1 else None
