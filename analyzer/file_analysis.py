"""Phase 1: one parse and one visitor pass per file, producing a FileSummary.

The pass keeps scopes (module, classes, functions), binds local variables to kinds as it
goes (tensor_facts), records calls into project code and compile sites, and dispatches
every node to the rules' visit/leave methods. Positions are computed once at the end, and
only if something needs them.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Mapping

import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer import comprehension_frames
from tclint.analyzer import param_truth
from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.values import Record, class_fields, is_dataclass, namedtuple_fields
from tclint.analyzer.diagnostic import Fix, Severity, Span, TextEdit
from tclint.analyzer.knowledge import tensor_api as api
from tclint.analyzer.loop_returns import resuming_statements
from tclint.analyzer.never_none import NeverNone
from tclint.analyzer.optimizers import passed_optimizers
from tclint.analyzer.names import ImportTable, dotted_name
from tclint.analyzer.positions import positions as _positions
from tclint.analyzer.rules.base import Rule
from tclint.analyzer.rules._support import param_names, target_names
from tclint.analyzer.set_up_attributes import scan_set_up
from tclint.analyzer.summary import (
    Arm,
    Block,
    CallSite,
    Candidate,
    ClassSummary,
    CompileSite,
    Comprehension,
    FileSummary,
    FunctionSummary,
    Held,
)
from tclint.analyzer.held_methods import HeldReads
from tclint.analyzer import stored_defaults
from tclint.analyzer.training_paths import training_only_block
from tclint.analyzer.param_uses import non_tensor_params
from tclint.analyzer.tree_walk import TRIVIA, walk

COMPILE_NAMES = frozenset({"torch.compile"})
CONTEXT_MANAGER_DECORATOR = "contextlib.contextmanager"
DISABLE_NAMES = frozenset({
    "torch.compiler.disable", "torch._dynamo.disable", "torch._disable_dynamo",
})
# Decorators whose function Dynamo puts in the graph as one call, without tracing its body:
# allow_in_graph, and custom operators (the op's kernel runs outside Dynamo).
ALLOW_IN_GRAPH_NAMES = frozenset({"torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph",
                                  "torch.library.custom_op", "torch._library.custom_ops.custom_op"})
HOOK_REGISTRARS = frozenset({
    "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
})
DYNAMO_CONFIG_PREFIXES = ("torch._dynamo.config.",)
DYNAMO_CONFIG_PATCH = "torch._dynamo.config.patch"
# Method names too common on builtins and library objects to follow by name alone.
GENERIC_METHOD_NAMES = frozenset({
    "get", "set", "update", "append", "extend", "insert", "pop", "remove", "clear", "items",
    "keys", "values", "copy", "add", "discard", "format", "join", "split", "strip", "replace",
    "startswith", "endswith", "read", "write", "close", "open", "run", "call", "apply", "map",
    "index", "count", "sort", "reverse", "encode", "decode", "lower", "upper", "setdefault",
    "register_buffer", "register_parameter", "parameters", "named_parameters", "modules",
    "children", "named_modules", "buffers", "state_dict", "load_state_dict", "train", "eval",
    "to", "cuda", "cpu", "forward", "step", "zero_grad", "item", "size", "dim",
})


PROPERTY_DECORATORS = frozenset({"property", "builtins.property", "functools.cached_property"})


def _property_accessor(node: cst.FunctionDef) -> str | None:
    """"setter" for `@name.setter def name(...)` (or "deleter"), else None."""
    for dec in node.decorators:
        d = dec.decorator
        if (isinstance(d, cst.Attribute) and d.attr.value in ("setter", "deleter")
                and isinstance(d.value, cst.Name) and d.value.value == node.name.value):
            return d.attr.value
    return None


def _decorator_target(dec: cst.Decorator) -> cst.BaseExpression:
    expr = dec.decorator
    return expr.func if isinstance(expr, cst.Call) else expr


@functools.cache
def _node_hooks(rule_class: type) -> tuple[tuple[str, type], ...]:
    """A rule class's visit_/leave_ methods and their node types, looked up once: the
    incremental summarizer makes an analyzer per top-level statement, and dir() is slow."""
    hooks = []
    for attr in dir(rule_class):
        if attr.startswith(("visit_", "leave_")):
            node_type = getattr(cst, attr.split("_", 1)[1], None)
            if node_type is not None:
                hooks.append((attr, node_type))
    return tuple(hooks)


def _node_span(rng) -> Span:
    return Span(rng.start.line, rng.start.column + 1, rng.end.line, rng.end.column + 1)


class FileAnalyzer(cst.CSTVisitor):
    def __init__(self, path: str, module: str, is_package: bool, rule_classes: list[type[Rule]],
                 outer_defs: dict[str, bool] | None = None, star_names: dict[str, dict[str, str]] | None = None):
        """`outer_defs`: top-level definitions of the file that lie outside the parsed text
        (name -> decorated with torch.compile), when only part of a file is analyzed;
        `star_names`: what its star imports bind (ImportTable)."""
        super().__init__()
        self.summary = FileSummary(path=path, module=module)
        self.imports = ImportTable(module, is_package, star_names)
        self.facts = tf.Facts(module, self.imports)
        self._never_none = NeverNone(self.facts)  # locals never None, for CallSite.not_none
        self.compiled_defs: set[str] = set()  # top-level functions decorated with torch.compile
        for name, compiled in (outer_defs or {}).items():
            self.facts.local_defs.add(name)
            if compiled:
                self.compiled_defs.add(name)
        self._pending: list[tuple] = []  # (target, node, payload) resolved to spans at the end
        self._class_stack: list[tf.ClassScope] = []
        self._function_stack: list[tf.FunctionScope] = []
        self._containers: list = []  # enclosing classes and functions, innermost last
        self._eager_blocks: set[int] = set()  # ids of subtrees only run eagerly
        self._narrowed: dict[int, tuple[str, object]] = {}  # id of an if-arm -> (name, the kind isinstance() proves)
        # if-bodies under `isinstance(param, torch.Tensor)`: what they return mirrors the
        # argument's type, so it says nothing about what the function returns for numbers
        self._tensor_branches: set[int] = set()
        self._tensor_branch_depth = 0
        self._narrow_saved: list[tuple[str, object]] = []
        # (function key, local) bound to a project call somewhere; function key -> [(local, the return
        # statement returning it)] of those: a call it returns, if bound once (stored_defaults)
        self._call_bound: set[tuple[str, str]] = set()
        self._returned_names: dict[str, list] = {}
        # function key -> the parameters each of its returns compares so far (None: a return
        # that is neither such a comparison nor a mask)
        self._compared_params: dict[str, tuple | None] = {}
        # id of an if-arm -> (name, the project class `isinstance(name, Sub)` narrows it to there)
        self._class_arms: dict[int, tuple[str, str]] = {}
        self._class_arms_entered: list = []
        # Names bound to literal sequences (`models = [A(), B()]`) and loop variables over
        # them, so `torch.compile(m) for m in models` finds its targets.
        self._literal_names: dict[str, list] = {}
        # function key -> its local names bound to a list or dict built there (comprehension_frames)
        self._built_containers: dict[str, dict[str, str]] = {}
        # (function key, local name) -> every project class an assignment builds into it, and
        # every callable one stores in it (`step = self._make_step(...)`, `fn = getattr(self, name)`)
        self._built_classes: dict[tuple[str, str], list[str]] = {}
        # (function key, local) bound to what a callable picked at run time built (_picked_call)
        self._picked_objects: set[tuple[str, str]] = set()
        self._empty_lists: set[tuple[str, str]] = set()  # (function key, local) bound to `[]`, nothing appended yet
        self._picked_callables: set[tuple[str, str]] = set()  # `solver_fn = SOLVERS[m]`, `= select(m)`
        self._bound_built: set[tuple[str, str]] = set()  # `run = s.run` on an object built here
        self._held_names: set[tuple[str, str]] = set()  # (function key, local) that held one (_hold_method)
        self._local_callables = self.facts.local_callables
        self._record_callables: dict[tuple[str, str], frozenset] = {}  # see _record_held
        # (function key, local) bound to `partial(f, a, b)`: what `a, b` pass, ahead of a call's own arguments
        self._partial_args: dict[tuple[str, str], tuple] = {}
        # Module-level literal tables of strings (`MODES = {Mode.A: "_sample", ...}`) -> the
        # strings, for `getattr(self, MODES[mode])`.
        self._string_tables: dict[str, tuple[str, ...]] = {}
        self._callable_tables: dict[str, frozenset] = {}  # module-level `STEPS = {"euler": euler}`
        self._loop_sources: dict[str, list] = {}
        self._eager_depth = 0
        self._training_blocks: set[int] = set()  # ids of subtrees that run only when self.training
        self._training_depth = 0
        # Statements nested in if/for/while/try of the current function run on some paths only.
        self._branch_depth = 0
        self._branch_depths: list[int] = []
        # Loop bodies of the current function (not a loop's `else`, nor a while's first test).
        self._loop_bodies: set[int] = set()
        self._loop_depth = 0
        self._loop_depths: list[int] = []
        # statements of loop bodies -> whether a break there lets Dynamo resume (loop_returns);
        # `_resumes`: one entry per such statement around the node visited, and a mark for
        # each function (`_FRAME`) and each `try` body around it (nothing resumes in one)
        self._resumable: dict[int, bool] = {}
        self._try_bodies: set[int] = set()
        self._resumes: list = [_FRAME]
        # arms Dynamo never traces if one of the refs is an "am I compiling" predicate or a
        # parameter every compiled caller leaves falsy (`LeftFalsy`)
        self._guarded: dict[int, frozenset] = {}
        self._test_guards: dict[int, frozenset] = {}  # an `if` test -> guards deciding its truth
        self._guards: list[frozenset] = []
        self._raise_depth = 0  # inside `raise ...` or an assert's message: code that only builds an exception
        self._assert_messages: set[int] = set()
        # function key -> (tensor operations traced so far in its frame, up to two; the indexes
        # in its calls of the calls made since), both outside branches and since the frame
        # last resumed (see Block)
        self._graph_ops: dict[str, tuple[int, list[int]]] = {}
        # the outermost `for`/`with` statement of the current function around here, with its
        # frame's graph when it starts (see Block); the outer functions' ones
        self._holder: tuple[cst.For | cst.With, int, tuple[int, ...]] | None = None
        self._holders: list = []
        self._checkpoints: list[tuple[Block, cst.For | cst.With]] = []  # blocks whose checkpoint is such a statement
        self._try_ends: list[tuple[Block, cst.CSTNode]] = []  # the last part of a `try` Dynamo cannot resume in
        self._statement: cst.SimpleStatementLine | None = None  # the simple statement being read
        self._nested_code_depth = 0  # inside a lambda or a comprehension: code of its own
        # inside a generator expression: a break there makes Dynamo run the rest of the frame
        # eagerly (it cannot rebuild the half-run generator: "Generator reconstruction with mutations")
        self._generator_depth = 0
        self._stored_subscripts: set[int] = set()  # ids of `a[i]` assigned to (`__setitem__`, not `__getitem__`)
        self._properties: dict[str, frozenset] = {}  # class key -> the names of its `@property` getters
        self._not_read: set[int] = set()  # ids of `obj.attr` called or assigned to: no getter read
        self.rules = [cls(self) for cls in rule_classes]
        self._visit: dict[type, list] = {}
        self._leave: dict[type, list] = {}
        self._module_visit: dict[type, list] = {}
        self._module_leave: dict[type, list] = {}
        for rule in self.rules:
            for attr, node_type in _node_hooks(type(rule)):
                table = (self._visit if attr[0] == "v" else self._leave) if rule.scope == "function" else (
                    self._module_visit if attr[0] == "v" else self._module_leave)
                table.setdefault(node_type, []).append(getattr(rule, attr))

    def unobserved(self) -> frozenset:
        """The trivia node types (tree_walk.TRIVIA) that no handler here looks at: the walk
        skips their subtrees, two thirds of the nodes."""
        observed = {*self._visit, *self._leave, *self._module_visit, *self._module_leave,
                    *_BOOKKEEPING_VISIT, *_BOOKKEEPING_LEAVE, *_BRANCHING, cst.Raise, cst.Assert}
        return TRIVIA - observed

    # -- reporting ---------------------------------------------------------------
    @property
    def function(self) -> tf.FunctionScope | None:
        return self.facts.function

    def add_candidate(self, code, node, message, condition, fix: Fix | None, *,
                      graph_break=None, region_only: bool = True, ends_frame: bool = False) -> None:
        """Record a finding; region-only findings count only if their function is compiled.
        `ends_frame`: a break Dynamo cannot resume after, like one inside a loop body."""
        if self._eager_depth:
            return  # Dynamo never traces code guarded by `not is_compiling()`
        fn = self.facts.function
        if fn is None or not region_only:
            bucket = self.summary.module_candidates
            always = True
        else:
            bucket = self.summary.functions[fn.key].candidates
            always = False
        cand = Candidate(code=code, span=None, message=message, condition=condition, fix=fix,
                         training_only=self._training_depth > 0, building_exception=self._raise_depth > 0,
                         severity=Severity.INFO if self._raise_depth else None,
                         graph_break=graph_break, always=always,
                         unless=self._unless() | self._guarded.get(id(node), frozenset())
                         | self._test_guards.get(id(node), frozenset()),
                         in_loop=self._in_loop() or self._generator_depth > 0 or ends_frame)
        bucket.append(cand)
        self._pending.append((cand, node))
        if not always and condition is None:
            self._graph_ops[fn.key] = (0, [])  # Dynamo resumes after a break with an empty graph

    def pass_none(self, call: cst.Call, arg: cst.Arg, condition: frozenset) -> None:
        """`call`, made by the current function, passes `arg` as None under torch.compile when
        one of `condition` holds (always, when it is empty): a call site's `none_args`."""
        for i, a in enumerate(call.args):
            if a.star:
                return
            if a is arg:
                key = a.keyword.value if a.keyword is not None else i
                for site, node in self.facts.function.sites:
                    if node is call:  # one site per function the call may run
                        site.none_args += ((key, condition),)
                return

    def _unless(self) -> frozenset:
        return frozenset().union(*self._guards) if self._guards else frozenset()

    def span_later(self, obj, node) -> None:
        """Fill ``obj.span`` from ``node``'s position when positions are computed."""
        self._pending.append((obj, node))

    # -- dispatch ----------------------------------------------------------------
    def on_visit(self, node: cst.CSTNode) -> bool:
        t = type(node)
        if t in _BRANCHING:
            self._branch_depth += 1
            if t is not cst.If:  # Dynamo cannot resume inside a loop body or a `try` body either
                self._loop_bodies.add(id(node.body))
            if t is cst.Try or t is cst.TryStar:
                self._try_bodies.add(id(node.body))
            if t is cst.For or t is cst.While:  # unless a `return` comes first (loop_returns)
                self._resumable.update(resuming_statements(node))
        elif t is cst.Raise or self._assert_messages and id(node) in self._assert_messages:
            self._raise_depth += 1
        elif t is cst.Assert and node.msg is not None:
            self._assert_messages.add(id(node.msg))
        if self._eager_blocks and id(node) in self._eager_blocks:
            self._eager_depth += 1
        if self._loop_bodies and id(node) in self._loop_bodies:
            self._loop_depth += 1
        if self._resumable and id(node) in self._resumable:
            self._resumes.append(self._resumable[id(node)])
        if self._try_bodies and id(node) in self._try_bodies:
            self._resumes.append(_TRY_BODY)
        if self._guarded and id(node) in self._guarded:
            self._guards.append(self._guarded[id(node)])
        if self._narrowed and id(node) in self._narrowed:
            self._enter_narrowed(node)
        if self._class_arms and id(node) in self._class_arms:
            self._class_arms_entered.append(self.facts.narrowed_instance(*self._class_arms[id(node)]))
            self._class_arms_entered[-1].__enter__()
            self.facts.reset_memo()
        if self._tensor_branches and id(node) in self._tensor_branches:
            self._tensor_branch_depth += 1
        if self._training_blocks and id(node) in self._training_blocks:
            self._training_depth += 1
        handler = _BOOKKEEPING_VISIT.get(t)
        if handler is not None:
            handler(self, node)
        handlers = self._module_visit.get(t)
        if handlers:
            for h in handlers:
                h(node)
        if self.facts.function is not None:
            handlers = self._visit.get(t)
            if handlers:
                for h in handlers:
                    h(node)
        return True

    # No rule uses attribute-level hooks; libcst's default looks two methods up per attribute.
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave(self, original_node: cst.CSTNode) -> None:
        t = type(original_node)
        if self.facts.function is not None:
            handlers = self._leave.get(t)
            if handlers:
                for h in handlers:
                    h(original_node)
        handlers = self._module_leave.get(t)
        if handlers:
            for h in handlers:
                h(original_node)
        handler = _BOOKKEEPING_LEAVE.get(t)
        if handler is not None:
            handler(self, original_node)
        if t in _BRANCHING:
            self._branch_depth -= 1
        elif t is cst.Raise or self._assert_messages and id(original_node) in self._assert_messages:
            self._raise_depth -= 1
        if self._eager_blocks and id(original_node) in self._eager_blocks:
            self._eager_depth -= 1
        if self._loop_bodies and id(original_node) in self._loop_bodies:
            self._loop_depth -= 1
        if self._resumable and id(original_node) in self._resumable:
            self._resumes.pop()
        if self._try_bodies and id(original_node) in self._try_bodies:
            self._resumes.pop()
        if self._guarded and id(original_node) in self._guarded:
            self._guards.pop()
        if self._narrowed and id(original_node) in self._narrowed:
            self._leave_narrowed()
        if self._class_arms and id(original_node) in self._class_arms:
            self._class_arms_entered.pop().__exit__(None, None, None)
            self.facts.reset_memo()
        if self._tensor_branches and id(original_node) in self._tensor_branches:
            self._tensor_branch_depth -= 1
        if self._training_blocks and id(original_node) in self._training_blocks:
            self._training_depth -= 1

    # -- imports and module-level names -------------------------------------------
    def _visit_module(self, node: cst.Module) -> None:
        # Top-level imports and definitions are known before any function body is read,
        # as they are when the functions run (and as the incremental summarizer sees them).
        for stmt in node.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Import):
                        self.imports.add_import(small)
                    elif isinstance(small, cst.ImportFrom):
                        self.imports.add_import_from(small)
                        source = self.imports.source_module(small) if isinstance(small.names, cst.ImportStar) else None
                        if source and source not in self.summary.bound_star_imports:
                            self.summary.bound_star_imports += (source,)
        for stmt in node.body:
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                self.facts.local_defs.add(stmt.name.value)
            if isinstance(stmt, cst.ClassDef):
                self.facts.local_classes[stmt.name.value] = self._base_names(stmt)
                fields = class_fields(stmt, self.facts.qualname)
                if fields is not None:
                    self.facts.record_classes[self._dotted(stmt.name.value)] = fields
            elif isinstance(stmt, cst.SimpleStatementLine):
                self._note_namedtuple(stmt)
                if isinstance(stmt, cst.FunctionDef) and any(
                        self.facts.qualname(_decorator_target(d)) in COMPILE_NAMES for d in stmt.decorators):
                    self.compiled_defs.add(stmt.name.value)

    def _base_names(self, node: cst.ClassDef) -> tuple[str, ...]:
        """The dotted names of a class's bases (`Base[T]` is `Base`)."""
        bases = (arg.value.value if isinstance(arg.value, cst.Subscript) else arg.value
                 for arg in node.bases if arg.keyword is None)
        return tuple(name for base in bases if (name := self.facts.qualname(base) or dotted_name(base)))

    def _note_namedtuple(self, stmt: cst.SimpleStatementLine) -> None:
        """`State = namedtuple("State", "a, b")` at module level defines a record class."""
        for small in stmt.body:
            if (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                    and isinstance(small.value, cst.Call)):
                fields = namedtuple_fields(small.value, self.facts.qualname)
                if fields is not None:
                    name = small.targets[0].target.value
                    self.facts.local_defs.add(name)
                    self.facts.local_classes[name] = ()
                    self.facts.record_classes[self._dotted(name)] = fields

    def _visit_import(self, node: cst.Import) -> None:
        bound = self.imports.add_import(node)
        if self._at_module_level():
            self.summary.imports.update(bound)

    def _visit_import_from(self, node: cst.ImportFrom) -> None:
        bound = self.imports.add_import_from(node)
        if self._at_module_level():
            self.summary.imports.update(bound)  # re-exports, followed by the project phase
            if isinstance(node.names, cst.ImportStar):
                source = self.imports.source_module(node)
                if source and source not in self.summary.star_imports:
                    self.summary.star_imports += (source,)

    def _at_module_level(self) -> bool:
        return self.facts.function is None and not self._class_stack

    # -- classes -----------------------------------------------------------------
    def _visit_class(self, node: cst.ClassDef) -> None:
        container = self._containers[-1] if self._containers else None
        key = f"{container.key}.{node.name.value}" if container else self._dotted(node.name.value)
        if container is None:
            self.facts.local_defs.add(node.name.value)
            if node.name.value not in self.facts.local_classes:  # under a module-level `if` or `try`
                self.facts.local_classes[node.name.value] = self._base_names(node)
        bases = self._base_names(node)
        scope = tf.ClassScope(key=key, name=node.name.value, bases=bases,
                              tensor_overrides=_tensor_overrides(node) if "torch.Tensor" in bases else frozenset())
        self._class_stack.append(scope)
        self._containers.append(scope)
        self.facts.class_scope = scope
        summary = ClassSummary(key=key, name=node.name.value, bases=bases, optional_keys=any(
            k.keyword is not None and k.keyword.value == "total" and dotted_name(k.value) == "False" for k in node.keywords)
            and any(b.rpartition(".")[2] == "TypedDict" for b in bases))
        self.summary.classes[key] = summary
        self.span_later(summary, node.name)
        if is_dataclass(node, self.facts.qualname):
            summary.stored_defaults = stored_defaults.dataclass_defaults(self.facts, node)
        self._prescan_attributes(node, scope, summary)

    def _leave_class(self, node: cst.ClassDef) -> None:
        self._class_stack.pop()
        self._containers.pop()
        self.facts.class_scope = self._class_stack[-1] if self._class_stack else None

    def _prescan_attributes(self, node: cst.ClassDef, scope: tf.ClassScope, summary: ClassSummary) -> None:
        """Kinds of `self.x` from assignments in the class's methods (before forward runs), and
        which methods are property getters."""
        for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
            if isinstance(stmt, cst.FunctionDef) and any(dotted_name(d.decorator) == "property" for d in stmt.decorators):
                self._properties[scope.key] = self._properties.get(scope.key, frozenset()) | {stmt.name.value}
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                summary.stored_defaults = stored_defaults.init_defaults(self.facts, stmt)
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value in ("__init__", "reset_parameters", "build", "setup"):
                scan_set_up(self.facts, scope, summary, stmt)
            elif isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, (cst.AnnAssign, cst.Assign)):
                        if isinstance(small, cst.AnnAssign) and small.value is None:
                            continue  # `state: _State` only declares what a method assigns later
                        targets = [small.target] if isinstance(small, cst.AnnAssign) else [t.target for t in small.targets]
                        # a class constant: `tableau = _TABLEAU` (a record of tensors), `mid = torch.tensor(...)`
                        kind = self.facts.kind(small.value)
                        if not (kind in tf.TENSORS or isinstance(kind, (frozenset, Record))):
                            kind = tf.STATIC
                        for t in targets:
                            if isinstance(t, cst.Name):
                                scope.attrs.setdefault(t.value, kind)
                                _store_attribute(summary, t.value, kind)

    # -- functions -----------------------------------------------------------------
    def _visit_function(self, node: cst.FunctionDef) -> None:
        parent = self.facts.function
        container = self._containers[-1] if self._containers else None
        cls = container if isinstance(container, tf.ClassScope) else None
        accessor = _property_accessor(node)  # `@name.setter`: not what reading `name` runs
        if cls is not None:
            key = f"{cls.key}.{node.name.value}" + (f".{accessor}" if accessor else "")
        elif parent is not None:
            key = f"{parent.key}.{node.name.value}"
        else:
            key = self._dotted(node.name.value)
            self.facts.local_defs.add(node.name.value)
        compiled = disabled = False
        is_static = context_manager = False
        dynamo_patch: dict[str, object] = {}
        decorators = []
        for dec in node.decorators:
            qual = self.facts.qualname(_decorator_target(dec))
            if qual in COMPILE_NAMES:
                compiled = True
            elif qual in DISABLE_NAMES:
                disabled = True
            elif qual in ALLOW_IN_GRAPH_NAMES:
                self.summary.in_graph.append(refs.Named(key))
            elif qual == DYNAMO_CONFIG_PATCH and isinstance(dec.decorator, cst.Call):
                dynamo_patch.update(_patch_values(dec.decorator))
            elif dotted_name(dec.decorator) == "staticmethod":
                is_static = True
            elif qual == CONTEXT_MANAGER_DECORATOR:
                context_manager = True
            elif qual == "abc.abstractmethod" and cls is not None:
                owner = self.summary.classes[cls.key]
                owner.abstract = "abc.ABC" in owner.bases
            else:
                ref = self._decorator_ref(dec.decorator)
                if ref is not None:
                    decorators.append(ref)
        # an autograd Function's forward gets what `.apply` is given, tensors or not
        root_like = compiled or (cls is not None and node.name.value == "forward" and not any(
            base.endswith("autograd.Function") for base in self.summary.classes[cls.key].bases))
        scope = tf.FunctionScope(
            key=key, name=node.name.value, node=node, class_scope=cls, parent=parent, root_like=root_like,
        )
        params = node.params
        positional = list(params.posonly_params) + list(params.params)
        if cls is not None and positional and not is_static:
            scope.self_name = positional[0].name.value
            scope.env[scope.self_name] = tf.MODULE
            positional = positional[1:]
        self.facts.function = scope  # param defaults are read in the new scope's context
        plain = {p.name.value for p in positional + list(params.kwonly_params) if p.default is None and p.annotation is None}
        used_otherwise = non_tensor_params(node.body, plain, self.facts) if plain else set()
        inputs = set()
        for i, p in enumerate(positional + list(params.kwonly_params)):
            if p.default is None or _falsy_constant(p.default):
                default = "" if p.default is None else "None" if _names(p.default, "None") else "falsy"
                scope.flags[p.name.value] = refs.LeftFalsy(key, i if i < len(positional) else -1, p.name.value,
                                                           default)
            kind = scope.env[p.name.value] = self.facts.param_kind(p, root_like and p.name.value not in used_otherwise)
            if kind == tf.INPUT and i < len(positional):
                scope.input_refs[p.name.value] = refs.Param(key, i, p.name.value)
                inputs.add(p.name.value)
            scope.own_params[p.name.value] = refs.Param(key, i if i < len(positional) else -1, p.name.value)
            if kind not in tf.TENSORS:
                scope.members[p.name.value] = frozenset({refs.StrEnumArg(
                    key, i if i < len(positional) else -1, p.name.value, self.member_class(p.default) or "")})
            if kind in (tf.STATIC, tf.UNKNOWN) and p.annotation is not None:
                elements = self.facts.annotation_elements(p.annotation.annotation)
                if elements is not None:
                    scope.elements[p.name.value] = elements
            if kind == tf.UNKNOWN or isinstance(kind, frozenset):
                index = i if i < len(positional) else -1  # keyword-only: matched by name
                scope.param_refs[p.name.value] = refs.Param(key, index, p.name.value)
                if isinstance(kind, frozenset):  # an annotation that may name torch.Tensor
                    scope.env[p.name.value] = kind | {scope.param_refs[p.name.value]}
                if i < len(positional) and p.name.value not in used_otherwise and self.facts.param_kind(p, True) == tf.INPUT:
                    inputs.add(p.name.value)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                scope.env[star.name.value] = tf.STATIC  # a tuple or dict: its truth is static
        if isinstance(params.star_kwarg, cst.Param):
            scope.kwargs_name = params.star_kwarg.name.value
        summary = FunctionSummary(
            key=key, name=node.name.value, span=None, class_key=cls.key if cls else None,
            compiled=compiled, disabled=disabled, dynamo_patch=dynamo_patch, inputs=frozenset(inputs),
            non_tensor_params=frozenset(used_otherwise) | {
                p.name.value for p in positional + list(params.kwonly_params) if _number(p.default)},
            decorators=tuple(decorators), is_property=any(
                (self.facts.qualname(d.decorator) or dotted_name(d.decorator)) in PROPERTY_DECORATORS
                for d in node.decorators),
            context_manager=context_manager,
            keyword_params=tuple(p.name.value for p in positional + list(params.kwonly_params)
                                 if p not in params.posonly_params) if scope.kwargs_name else None,
        )
        self.summary.functions[key] = summary
        self.span_later(summary, node.name)
        if cls is not None and not accessor:
            self.summary.classes[cls.key].methods[node.name.value] = key
        if compiled:
            site = CompileSite(target=refs.Named(key), span=None)
            self.summary.compile_sites.append(site)
            self.span_later(site, node.name)
        self._function_stack.append(scope)
        self._containers.append(scope)
        self._branch_depths.append(self._branch_depth)
        self._branch_depth = 0
        self._loop_depths.append(self._loop_depth)
        self._loop_depth = 0
        self._resumes.append(_FRAME)
        self._holders.append(self._holder)
        self._holder = None

    def _leave_function(self, node: cst.FunctionDef) -> None:
        scope = self._function_stack.pop()
        self._containers.pop()
        self._branch_depth = self._branch_depths.pop()
        self._loop_depth = self._loop_depths.pop()
        self._resumes.pop()
        self._holder = self._holders.pop()
        summary = self.summary.functions[scope.key]
        result = None
        for k in scope.returns:
            if k in tf.TENSORS:
                # every return a boolean mask: callers' `x[mask]` breaks (FunctionScope.mask_calls)
                result = "mask" if all(r == tf.BOOL_TENSOR for r in scope.returns) else "tensor"
                break
            if isinstance(k, frozenset):
                result = k if not isinstance(result, frozenset) else result | k
            elif k == tf.NDARRAY and result is None:
                result = "ndarray"
        summary.returns = result if result is not None else "unknown"
        compared = self._compared_params.pop(scope.key, None)
        if compared and result != "mask":
            summary.mask_params = compared
        summary.returns_fields = _returned_fields(scope.return_fields)
        if scope.returned_built and None not in scope.returned_built:
            summary.returns_built = frozenset().union(*scope.returned_built)
        summary.under_dynamo = _predicate_value(scope.dynamo_returns)
        if summary.held_methods:
            self._held_reads(summary, node)
        returned = self._returned_names.pop(scope.key, None)
        if returned:  # `out = Cls(h)` ... `return out`: a call a local bound once holds
            calls = stored_defaults.bound_once(node, {name for name, _ in returned})
            for name, ret in returned:
                self._returned_call(summary, calls.get(name), ret)
        if scope.objects:
            _objects_passed(scope)
        self.facts.function = scope.parent

    def _visit_return(self, node: cst.Return) -> None:
        fn = self.facts.function
        if fn is not None and node.value is not None and not self._tensor_branch_depth:
            kind = self.facts.kind(node.value)
            fn.returns.append(tf.TENSOR if tf.values_indices(kind) else kind)
            self._compare_params(fn, node.value, kind)
            fn.returned_built.append(self._instance_makers(node.value))
            value = node.value
            if tf.values_indices(kind):  # `return m.max(dim)`: its values and indices
                fn.return_fields.append(tuple(_MASK if k == tf.BOOL_TENSOR else True for k in kind.items()))
            else:
                fn.return_fields.append(tuple(self._field_kind(e.value) for e in value.elements) if isinstance(
                    value, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in value.elements) else None)
        if fn is not None and node.value is not None:
            summary = self.summary.functions[fn.key]
            for value in stored_defaults.returned_values(node.value):
                if isinstance(value, cst.Name) and (fn.key, value.value) in self._call_bound:
                    self._returned_names.setdefault(fn.key, []).append((value.value, node))
                else:
                    self._returned_call(summary, value, node)
            summary.returns_members = summary.returns_members | self.member_sources(node.value)
            returned = self._returned_callables(node.value, returning=True)
            if returned:
                summary.returns_callables = summary.returns_callables | returned
            fn.dynamo_returns.append(_LITERAL if tf.is_literal(node.value) else self.facts.value_under_dynamo(node.value))

    def _returned_call(self, summary: FunctionSummary, value, ret: cst.Return) -> None:
        """Notes `return Cls(...)` (stored_defaults: an object the frame cannot rebuild)."""
        call = stored_defaults.returned_call(self.facts, value)
        if call is not None:
            summary.returned_calls.append(call)
            self.span_later(call, ret)

    def _compare_params(self, fn: tf.FunctionScope, value: cst.BaseExpression, kind) -> None:
        """Notes the parameters a returned comparison of them compares (`return x < low`): the
        function returns masks where a caller passes a tensor to one of each return's
        (FunctionSummary.mask_params); any other return but a mask rules that out."""
        if fn.key in self._compared_params and self._compared_params[fn.key] is None:
            return
        cond = self.facts.param_condition(value) if kind == tf.UNKNOWN and isinstance(value, cst.Comparison) else None
        if kind == tf.BOOL_TENSOR:
            self._compared_params.setdefault(fn.key, ())
        elif isinstance(cond, tf.MaskCondition) and all(
                isinstance(r, refs.Param) and r.function == fn.key and not r.field for r in cond):
            self._compared_params[fn.key] = self._compared_params.get(fn.key, ()) + (frozenset(cond),)
        else:
            self._compared_params[fn.key] = None

    def _field_kind(self, value: cst.BaseExpression):
        """What a field of a returned tuple holds, as `_arg_kind` says, `_MASK` for a mask, or
        `_TENSOR_LIST` for a list of tensors built here (`sums.append(v.sum())`, `[x * 1, x * 2]`)."""
        if self.facts.kind(value) == tf.BOOL_TENSOR:
            return _MASK
        if isinstance(value, cst.Name):
            elements = self.facts.function.elements.get(value.value)
            if elements is not None and not elements[1] and elements[0] in tf.TENSORS:
                return _TENSOR_LIST
        elif isinstance(value, cst.List) and self._built_elements(value) is not None:
            return _TENSOR_LIST
        if self.facts.kind(value) == tf.INPUT:
            return True  # returned, an input is what the caller gave (`_arg_kind` is for calls)
        return self._arg_kind(value)

    def _in_loop(self) -> bool:
        """In a loop or `try` body where a break makes Dynamo run the rest of the frame eagerly."""
        if not self._loop_depth:
            return False
        for mark in reversed(self._resumes):
            if mark is _FRAME:
                break
            if mark is _TRY_BODY:
                return True
        return self._resumes[-1] is not True

    def _dotted(self, name: str) -> str:
        return f"{self.summary.module}.{name}" if self.summary.module else name

    # -- bindings -----------------------------------------------------------------
    def _leave_assign(self, node: cst.Assign) -> None:
        fn = self.facts.function
        if fn is None and not self._class_stack:
            predicate = self.facts.predicate_under_dynamo(node.value)
            aliased = self.facts.qualname(node.value) if isinstance(node.value, (cst.Name, cst.Attribute)) else None
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    if aliased is not None:
                        self.summary.aliases[target.target.value] = aliased
                    if predicate is None:
                        self.facts.dynamo_predicates.pop(target.target.value, None)
                    else:
                        self.facts.dynamo_predicates[target.target.value] = predicate
        if fn is not None:
            for target in node.targets:
                self._record_setitem(target.target, node.value)
            when = self.facts.value_under_dynamo(node.value)
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    if when is None:
                        fn.dynamo_names.pop(target.target.value, None)
                    else:
                        fn.dynamo_names[target.target.value] = when
        kind = self.facts.source_kind(node.value)
        for target in node.targets:
            self._bind(target.target, kind, node.value)

    def _leave_ann_assign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, self.facts.source_kind(node.value), node.value)

    def _leave_aug_assign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            facts = self.facts
            kind = tf.combine(facts.kind(node.target), facts.kind(node.value))
            if kind == tf.UNKNOWN:  # `total += part` carries a condition as `total = total + part` does
                kind = tf.combine(facts.source_kind(node.target), facts.source_kind(node.value))
            self._bind(node.target, kind, node.value)

    def _leave_named_expr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, self.facts.kind(node.value), node.value)

    def _built_elements(self, value: cst.BaseExpression):
        """The kind of each element of a list or tuple of tensors built here (`[x * 1, x * 2]`,
        `[torch.empty(n) for _ in range(3)]`), or None: the container itself stays static."""
        if isinstance(value, (cst.List, cst.Tuple)) and value.elements and not any(
                isinstance(el, cst.StarredElement) for el in value.elements):
            kinds = {self.facts.kind(el.value) for el in value.elements}
        elif isinstance(value, cst.ListComp) and not any(
                self.facts.function.lookup(name) in tf.TENSORS for name in _comprehension_targets(value)):
            kinds = {self.facts.kind(value.elt)}  # its loop names do not shadow a tensor's
        else:
            return None
        if kinds <= {tf.BOOL_TENSOR}:
            return tf.BOOL_TENSOR
        return tf.TENSOR if kinds <= set(tf.TENSORS) else None

    def _bind(self, target: cst.BaseExpression, kind, value: cst.BaseExpression | None) -> None:
        fn = self.facts.function
        if isinstance(target, cst.Name):
            if fn is not None:
                if isinstance(value, cst.Call) and stored_defaults.returned_call(self.facts, value) is not None:
                    self._call_bound.add((fn.key, target.value))
                members = self.member_sources(value) if value is not None and kind not in tf.TENSORS else None
                previous = fn.env.get(target.value)
                kept = (self._branch_depth and (tf.is_literal(value) or kind == tf.UNKNOWN) and previous is not None
                        and (previous in tf.TENSORS or isinstance(previous, frozenset)))
                if kept:
                    # `ok = err <= 1` then `if big: ok = False`, or `if sparse: x, v = to_dense(x)`:
                    # still a tensor on one path (an input still the input there)
                    kind = previous
                elif self._guards and kind in (tf.TENSOR, tf.BOOL_TENSOR) and previous not in tf.TENSORS \
                        and not fn.root_like:
                    kind = self._arm_kind(fn, target.value, kind, previous)
                self._never_none.bind(target.value, value, self._branch_depth > 0)
                lambdas = self.facts.lambdas
                lambdas.bind(lambdas.local, (fn.key, target.value), value, self._branch_depth > 0,
                             target.value in fn.env)
                fn.env[target.value] = kind
                origin = self.facts.origin_of(value) if value is not None else None
                if origin is None:
                    fn.origins.pop(target.value, None)
                else:
                    fn.origins[target.value] = origin
                fn.param_refs.pop(target.value, None)
                if not kept:
                    fn.input_refs.pop(target.value, None)
                fn.own_params.pop(target.value, None)
                fn.unpacked.pop(target.value, None)
                fn.flags.pop(target.value, None)
                masked = tf.without_inverts(value) if value is not None else None
                mask_call = self.facts.returns_mask_ref(masked) if masked is not None else None
                if mask_call is not None:
                    fn.mask_calls[target.value] = mask_call
                elif not kept:
                    fn.mask_calls.pop(target.value, None)
                if members:  # `m = Mode.A`, `m = self.mode`
                    fn.members[target.value] = members
                else:
                    fn.members.pop(target.value, None)
                fn.elements.pop(target.value, None)
                elements = self._built_elements(value) if value is not None else None
                if elements is not None:
                    fn.elements[target.value] = (elements, False)
                built = comprehension_frames.container(self.facts, value) if value is not None else None
                if built is None:
                    self._built_containers.get(fn.key, {}).pop(target.value, None)
                else:
                    self._built_containers.setdefault(fn.key, {})[target.value] = built
                if isinstance(value, cst.List) and not value.elements:
                    self._empty_lists.add((fn.key, target.value))
                else:
                    self._empty_lists.discard((fn.key, target.value))
                cls_name = self._constructed_class(value)
                if cls_name:
                    fn.instance_classes[target.value] = cls_name
                    self._built_classes.setdefault((fn.key, target.value), []).append(cls_name)
                else:
                    fn.instance_classes.pop(target.value, None)
                made_by = (self.facts.project_call_ref(value) or self._called_param(value)) if not cls_name else None
                if made_by is not None:  # `s = make(2)`: an instance `make` may build
                    fn.returned_objects[target.value] = made_by
                else:
                    fn.returned_objects.pop(target.value, None)
                where = (fn.key, target.value)
                for picked, holds in ((self._picked_objects, self._picked_call(value)),
                                      (self._picked_callables, kind not in tf.TENSORS and not cls_name
                                       and isinstance(value, (cst.Subscript, cst.Call))),
                                      (self._bound_built, isinstance(value, cst.Attribute) and self._built_here(value))):
                    if holds:
                        picked.add(where)
                    else:
                        picked.discard(where)
                self._hold_method(target.value, value, target)
            elif not self._class_stack:
                lambdas = self.facts.lambdas
                lambdas.bind(lambdas.module, target.value, value, self._branch_depth > 0,
                             target.value in self.facts.module_names)
                self.facts.module_names[target.value] = (
                    kind if kind in tf.TENSORS or kind == tf.MODULE or isinstance(kind, Record) else tf.STATIC
                )
                cls_name = self._constructed_class(value)
                if cls_name:
                    self.facts.module_instances[target.value] = cls_name
            self.facts.reset_memo()
        elif isinstance(target, (cst.Tuple, cst.List)):
            element = self._unpacked_kind(kind, value)
            elements = value.elements if isinstance(value, (cst.Tuple, cst.List)) and value is not None else None
            fields = kind.items() if isinstance(kind, Record) else None
            # `a, b = self.split(x)`: each field is what the callee's returned tuples hold there
            calls = []
            if isinstance(value, cst.Call) and isinstance(kind, frozenset) and not isinstance(kind, tf.MaskCondition):
                calls = [r for r in kind if isinstance(r, refs.CALL_REFS)]
                calls = calls if len(calls) == len(kind) else []
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and (calls or kind == tf.UNKNOWN):
                # `x, t_span = solver.sync(x, t_span)` on an object of unknown class, or one a
                # call may have built: the fields of the tuples the project's methods of that
                # name return (when few classes define it), as the call site resolves it
                by_name = self._method_by_name(value.func.value, value.func.attr.value)
                if by_name is not None:
                    calls = [replace(r, fallback=by_name) if isinstance(r, refs.ReturnedMethod) else r
                             for r in calls] or [by_name]
            for i, el in enumerate(target.elements):
                if elements is not None and len(elements) == len(target.elements) and not isinstance(el, cst.StarredElement):
                    # `t, T = t_span[0], t_span[-1]` carries each element's kind as `t = t_span[0]` does
                    self._bind(el.value, self.facts.source_kind(elements[i].value), elements[i].value)
                elif fields is not None and len(fields) == len(target.elements) and not isinstance(el, cst.StarredElement):
                    self._bind(el.value, fields[i], None)
                else:
                    inner = el.value
                    self._bind(inner, element if not isinstance(el, cst.StarredElement) else tf.STATIC, None)
                    if element == tf.UNKNOWN and calls and isinstance(inner, cst.Name) and fn is not None and not any(
                            isinstance(e, cst.StarredElement) for e in target.elements):
                        fn.unpacked[inner.value] = frozenset(refs.ReturnedField(c, i) for c in calls)
        elif isinstance(target, cst.Attribute) and fn is not None and self.facts.is_self(target.value):
            cls = fn.class_scope
            if cls.attrs.get(target.attr.value) is None:
                cls.attrs[target.attr.value] = kind if kind != tf.UNKNOWN else tf.UNKNOWN
            _store_attribute(self.summary.classes[cls.key], target.attr.value, kind)
            members = self.member_sources(value) if value is not None else None
            if members:
                stored = self.summary.functions[fn.key].stores_members
                stored[target.attr.value] = stored.get(target.attr.value, frozenset()) | members

    def _arm_kind(self, fn: tf.FunctionScope, name: str, kind, previous):
        """`if maxlen is None: maxlen = lengths.max()` in a helper: `maxlen` is a tensor where
        the arm runs (call_refs.ArmTensor), and what it held before elsewhere (a parameter:
        a tensor where a caller passes one). Only arms that what callers pass decides count
        (LeftFalsy, GivenNotNone); a compiled function's arms always may run (its callers are
        unknown), so this is asked only of helpers. A tensor bound in two such arms (`if m is
        None: ... else: ...`) is a tensor."""
        guards = frozenset(g for g in self._unless() if isinstance(g, (refs.LeftFalsy, refs.GivenNotNone)))
        if not guards or isinstance(previous, frozenset) and any(
                isinstance(r, refs.ArmTensor) and r.name == name for r in previous):
            return kind
        held = previous if isinstance(previous, frozenset) else frozenset(
            (fn.param_refs[name],)) if name in fn.param_refs else frozenset()
        cond = frozenset((refs.ArmTensor(fn.key, name, guards),)) | held
        mask = kind == tf.BOOL_TENSOR and (not held or isinstance(previous, tf.MaskCondition))
        return tf.MaskCondition(cond) if mask else cond

    def _unpacked_kind(self, kind, value):
        """What each name gets from `a, b = value`. Tuples that modules, helpers and inputs
        hold mix tensors with sizes and None (`x, h, w = self.patch_embed(x)`), so only a
        torch op that splits a tensor (`q, k = x.chunk(2)`, `v, i = x.max(-1)`) gives tensors."""
        if kind in (tf.STATIC, tf.MODULE):
            return kind
        if kind not in (tf.TENSOR, tf.BOOL_TENSOR):
            return tf.UNKNOWN
        if not isinstance(value, cst.Call):
            return tf.TENSOR
        qual = self.facts.qualname(value.func)
        if qual is not None:
            return tf.TENSOR if qual.startswith("torch.") else tf.UNKNOWN
        func = value.func
        is_tensor_method = isinstance(func, cst.Attribute) and self.facts.kind(func.value) in tf.TENSORS
        return tf.TENSOR if is_tensor_method else tf.UNKNOWN

    def _instance_makers(self, value: cst.BaseExpression) -> frozenset | None:
        """What a returned object was made by calling, if it is an instance made here or by a
        project factory: a class (`return S(k)`, `s` after `s = S(k)`), a class a table or a
        local holds (`return SOLVERS[name](dtype)`), or a project function whose own returns
        it passes on (`return make(k)`, `s` after `s = make(k)`). None when unknown, and for
        what a parameter holds (it depends on call sites, and this is resolved with names
        only) or a method of an object a factory made returns (resolving that asks what
        factories make again: ProjectIndex.built_by)."""
        fn = self.facts.function
        built = self._constructed_class(value)
        picked: list = []
        if built is None and isinstance(value, cst.Name):
            built = fn.instance_classes.get(value.value)
            if built is None and value.value in fn.returned_objects:
                picked = [fn.returned_objects[value.value]]
        if built is not None:
            return frozenset((refs.Named(built),)) if self.facts.is_project_name(built) else None
        if isinstance(value, cst.Call):
            ref = self._call_ref(value, self.facts.qualname(value.func))
            picked = [ref] if ref is not None else self._local_call_refs(value.func)
        picked = [r for r in picked if not isinstance(r, (refs.ParamCallable, refs.ReturnedMethod))]
        return frozenset(picked) or None

    def _constructed_class(self, value) -> str | None:
        if isinstance(value, cst.Call):
            qual = self.facts.qualname(value.func)
            if qual and self.facts.builds_instance(qual):
                return qual
        return None

    def _visit_for(self, node: cst.For) -> None:
        self._bind_elements(node.target, node.iter)
        self._bind_element_class(node.target, node.iter)

    def _bind_element_class(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> None:
        """`for blk in self.blocks:`, `[head(x) for head in self.heads]`: the loop target is an
        object of the class each element of `self.blocks` is built from."""
        fn = self.facts.function
        if fn is not None and isinstance(target, cst.Name):
            element = self._attribute_class(iterable, element=True)
            if element:  # its methods, and calling it (`blk(x)`: the class's `__call__`)
                fn.instance_classes[target.value] = element
                self._built_classes.setdefault((fn.key, target.value), []).append(element)

    def _attribute_class(self, expr: cst.BaseExpression, element: bool) -> str | None:
        """The project class of the object set-up code stores in `self.name` (`self.ema = EMA()`),
        or with `element`, of each object in it (`self.blocks = nn.ModuleList([Block() ...])`)."""
        if not (isinstance(expr, cst.Attribute) and self.facts.is_self(expr.value)):
            return None
        built = self.facts.function.class_scope.built_from.get(expr.attr.value + ("[]" if element else ""))
        if built and self.facts.builds_instance(built) and self.facts.is_project_name(built):
            return built
        return None

    def _attribute_maker(self, expr: cst.BaseExpression) -> refs.CallRef | None:
        """The project function whose result set-up code stores in `self.name`
        (`self.solver = str_to_solver(kind)`): the object is an instance it returns."""
        if not (isinstance(expr, cst.Attribute) and self.facts.is_self(expr.value)):
            return None
        built = self.facts.function.class_scope.built_from.get(expr.attr.value)
        return refs.Named(built) if built and self.facts.is_project_name(built) else None

    def _bind_elements(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> None:
        """Bind a loop target to what iterating `iterable` gives (see Facts.loop_bindings)."""
        for name, kind in self.facts.loop_bindings(target, iterable):
            self._bind(name, kind, None)

    def _visit_comprehension(self, node) -> None:
        self._note_comprehension_frame(node)
        self._enter_nested_code(node)
        # Bind targets before the element expression, which libcst visits first.
        comp = node.for_in
        while comp is not None:
            self._note_loop_source(comp.target, comp.iter)
            self._bind_elements(comp.target, comp.iter)
            self._bind_element_class(comp.target, comp.iter)
            comp = comp.inner_for_in

    def _note_comprehension_frame(self, node) -> None:
        """A comprehension Dynamo may have to compile as a frame of its own (comprehension_frames)."""
        fn = self.facts.function
        if fn is None or self._eager_depth or not isinstance(node, comprehension_frames.COMPREHENSIONS):
            return
        iterates = comprehension_frames.iterated(self.facts, node, self._built_containers.get(fn.key, {}))
        if iterates is not None and comprehension_frames.holds_tensor(self.facts, node):
            comp = Comprehension(span=None, iterates=iterates)
            self.summary.functions[fn.key].comprehensions.append(comp)
            self.span_later(comp, node)

    def _visit_with(self, node: cst.With) -> None:
        self._enter_stack_holder(node)
        for item in node.items:
            if item.asname is not None:
                self._bind(item.asname.name, tf.UNKNOWN, None)
            call = item.item
            if isinstance(call, cst.Call) and self.facts.qualname(call.func) == DYNAMO_CONFIG_PATCH:
                # Which compiled calls the block makes is not known here: it counts for the project.
                self.summary.dynamo_config.update(_patch_values(call))
            self._record_context_manager(item.item)
        first = node.items[0].item
        if isinstance(first, cst.Call):
            context = self._call_ref(first, self.facts.qualname(first.func))
            if context is not None:
                self._note_block(node, context)

    def _visit_try(self, node: cst.Try) -> None:
        block = self._note_block(node, None)
        if block is not None:
            # Dynamo resumes after a break in `finally`, and in `else` unless a `finally` encloses it; one
            # in a handler happens only if the body raises (then the handlers an `else` follows count)
            self._try_ends.append((block, node.orelse if node.orelse and node.finalbody else node.body))

    def _note_block(self, node: cst.Try | cst.With | cst.SimpleStatementLine, context: refs.CallRef | None,
                    operator: str = "") -> Block | None:
        """A block Dynamo may not resume in, with what its frame's graph holds at the
        block's checkpoint (itself, or the outermost `for`/`with` around it)."""
        fn = self.facts.function
        if fn is None or self._eager_depth:
            return None
        if self._holder is not None and self._holder[0] is not node:
            holder, ops, calls = self._holder
            block = Block(span=None, context=context, ops=ops, calls_before=calls, operator=operator,
                          checkpoint_keyword="for" if isinstance(holder, cst.For) else "with")
            self._checkpoints.append((block, holder))
        else:
            ops, calls = self._graph_ops.get(fn.key, (0, ()))
            block = Block(span=None, context=context, ops=ops, calls_before=tuple(calls), operator=operator)
        self.summary.functions[fn.key].blocks.append(block)
        self.span_later(block, node)
        return block

    def _visit_operator(self, node: cst.BinaryOperation | cst.UnaryOperation) -> None:
        """`a + b`, `-a` on an object of a project class runs the class's method, which
        Dynamo inlines; but it cannot resume inside an operator (unlike a call), so the
        statement is an unresumable block (unresumable_blocks) as well as a call."""
        dunder = _OPERATOR_METHODS.get(type(node.operator))
        if dunder is None or self._statement is None:
            return
        binary = isinstance(node, cst.BinaryOperation)
        receiver = node.left if binary else node.expression
        cls = self._instance_class(receiver) if self.facts.function is not None else None
        if cls is None or not self.facts.is_project_name(cls):
            return
        # the block first: the frame's calls before it do not hold this one
        self._note_block(self._statement, refs.Method(cls, dunder), operator=_OPERATOR_TEXT[type(node.operator)])
        self._record_method_call(node, receiver, dunder, node.right if binary else None, ends_frame=True)

    def _visit_subscript(self, node: cst.Subscript) -> None:
        """`a[i]` runs `__getitem__` and `a < b` runs `__lt__` of a project class: calls
        Dynamo resumes after (unlike an operator's, see _visit_operator)."""
        if id(node) in self._stored_subscripts or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        self._record_method_call(node, node.value, "__getitem__", node.slice[0].slice.value)

    def _visit_comparison(self, node: cst.Comparison) -> None:
        first = node.comparisons[0]
        method = _COMPARISON_METHODS.get(type(first.operator))
        if method is not None:
            self._record_method_call(node, node.left, method, first.comparator)

    def _record_method_call(self, node: cst.BaseExpression, receiver: cst.BaseExpression, method: str,
                            argument: cst.BaseExpression | None, ends_frame: bool = False) -> str | None:
        """The call of `method` an operator makes on an object of a project class, as a call
        site; the class, if it is one."""
        fn = self.facts.function
        if fn is None or self._eager_depth or self._nested_code_depth:
            return None
        cls = self._instance_class(receiver)
        if cls is None or not self.facts.is_project_name(cls):
            return None
        site = CallSite(ref=refs.Method(cls, method), span=None, unless=self._unless(),
                        in_loop=self._in_loop() or ends_frame, args=(self._arg_kind(argument),) if argument else ())
        summary = self.summary.functions[fn.key]
        calls = summary.calls
        if site.callables and refs.reads_call_sites(site.ref):
            summary.passes_to_parameter = True
        if not self._branch_depth:
            self._graph_ops.setdefault(fn.key, (0, []))[1].append(len(calls))
        calls.append(site)
        self.span_later(site, node)
        return cls

    def _instance_class(self, expr: cst.BaseExpression) -> str | None:
        """The class of an object built in the code: `self`, a name bound to `C(...)` here or
        at module level, or `C(...)` itself."""
        facts = self.facts
        if facts.is_self(expr):
            return facts.class_dotted()
        if isinstance(expr, cst.Name):
            cls = facts.function.instance_classes.get(expr.value)
            if cls is None and facts.function.lookup(expr.value) is None:
                cls = facts.module_instances.get(expr.value)
            return cls
        return self._constructed_class(expr)

    def _visit_statement(self, node: cst.SimpleStatementLine) -> None:
        self._statement = node

    def _leave_statement(self, node: cst.SimpleStatementLine) -> None:
        self._statement = None

    def _enter_nested_code(self, node) -> None:
        self._nested_code_depth += 1
        self._generator_depth += isinstance(node, cst.GeneratorExp)

    def _leave_nested_code(self, node) -> None:
        self._nested_code_depth -= 1
        self._generator_depth -= isinstance(node, cst.GeneratorExp)

    def _enter_stack_holder(self, node: cst.For | cst.With) -> None:
        """A `for` keeps its iterator on Dynamo's stack, a `with` its context's exit: Dynamo
        takes no checkpoint inside either (it takes one only where the stack is empty)."""
        fn = self.facts.function
        if fn is not None and self._holder is None:
            ops, calls = self._graph_ops.get(fn.key, (0, ()))
            self._holder = (node, ops, tuple(calls))

    def _leave_stack_holder(self, node: cst.For | cst.With) -> None:
        if self._holder is not None and self._holder[0] is node:
            self._holder = None

    def _count_graph_op(self, node: cst.BaseExpression) -> None:
        """Counts (up to two) the tensor operations of the current frame so far, outside
        branches (which may not run)."""
        fn = self.facts.function
        if fn is None or self._eager_depth or self._branch_depth:
            return
        count, calls = self._graph_ops.setdefault(fn.key, (0, []))
        if count < 2 and self.facts.kind(node) in (tf.TENSOR, tf.BOOL_TENSOR):
            self._graph_ops[fn.key] = (count + 1, calls)

    def _record_setitem(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`self[k] = v`, `store[k] = v` on an object of a project class: its `__setitem__`
        runs, called from here."""
        if self._eager_depth or not isinstance(target, cst.Subscript) or len(target.slice) != 1:
            return
        facts = self.facts
        obj = target.value
        if facts.is_self(obj):
            cls = facts.class_dotted()
        elif isinstance(obj, cst.Name):
            cls = facts.function.instance_classes.get(obj.value)
            if cls is None and facts.function.lookup(obj.value) is None:
                cls = facts.module_instances.get(obj.value)
        else:
            cls = None
        index = target.slice[0].slice
        if cls is None or not facts.is_project_name(cls) or not isinstance(index, cst.Index):
            return
        site = CallSite(ref=refs.Method(cls, "__setitem__"), span=None, unless=self._unless(),
                        args=(self._arg_kind(index.value), self._arg_kind(value)), in_loop=self._in_loop())
        self.summary.functions[facts.function.key].calls.append(site)
        self.span_later(site, target)

    def _record_context_manager(self, expr: cst.BaseExpression) -> None:
        """`with Timer():` runs the project class's `__enter__`, which Dynamo inlines: it is
        called from here. (`__exit__` is not followed: when `__enter__` breaks, Dynamo runs the
        whole block eagerly and never traces `__exit__`. A context manager built before the
        compiled code, `with self.timer:`, breaks at the `with` itself.)"""
        fn = self.facts.function
        if fn is None or self._eager_depth or not isinstance(expr, cst.Call):
            return
        qual = self.facts.qualname(expr.func)
        if qual and self.facts.is_project_name(qual):
            site = CallSite(ref=refs.Method(qual, "__enter__"), span=None, in_loop=self._in_loop())
            self.summary.functions[fn.key].calls.append(site)
            self.span_later(site, expr)

    # -- calls and compile sites -------------------------------------------------
    def _visit_call(self, node: cst.Call) -> None:
        facts = self.facts
        fn = facts.function
        qual = facts.qualname(node.func)
        if qual in COMPILE_NAMES:
            self._record_compile(node)
        elif qual in ALLOW_IN_GRAPH_NAMES and node.args:
            ref = self._callable_ref(node.args[0].value)
            if ref:
                self.summary.in_graph.append(ref)
        if isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            if method == "compile" and not node.args and qual is None:
                self._record_module_compile(node)
            elif method in HOOK_REGISTRARS and node.args:
                ref = self._callable_ref(node.args[0].value)
                if ref:
                    self.summary.hook_functions.append(ref)
        if fn is None and not self._eager_depth and not self._class_stack:
            self._record_module_call(node, qual)
        if isinstance(node.func, cst.Attribute):
            self._not_read.add(id(node.func))
            if fn is not None and isinstance(node.func.value, cst.Name) and node.func.attr.value == "append":
                self._appended(fn, node.func.value.value, node)
        if fn is None or self._eager_depth:
            return
        self._held_arguments(node)
        ref = self._call_ref(node, qual)
        args = self._arg_kinds(node)
        bound = self._partial_args.get((fn.key, node.func.value), ()) if isinstance(node.func, cst.Name) else ()
        args = bound + args  # `merge = partial(merge_dims, 0, 1); merge(t)` passes t third
        arms = self._arm_methods(node.func, ref)
        # which arm's object the call gets is unknown: its break is no Reconstruction failure to report (TC225)
        built_here = self._built_here(node.func) and not arms
        for ref in [ref, *arms] if ref is not None else self._local_call_refs(node.func):
            site = CallSite(ref=ref, span=None, args=args,
                            keywords={a.keyword.value: self._arg_kind(a.value) for a in node.args if a.keyword},
                            unless=self._unless(), in_loop=self._in_loop() or self._generator_depth > 0,
                            spreads=any(a.star for a in node.args), falsy=self._falsy_args(node),
                            not_none=self._never_none.args(node),
                            members=self._member_args(node),
                            objects=self._object_args(node), prebuilt=self._prebuilt_args(node),
                            params=() if bound else self._param_args(node),
                            built_here=built_here,
                            forwards_kwargs=any(a.star == "**" and _names(a.value, fn.kwargs_name) for a in node.args),
                            callables=self._passed_callables(node),
                            optimizers=passed_optimizers(self.facts, node))
            self._add_site(site, node)

    def _arm_methods(self, func: cst.BaseExpression, ref: refs.CallRef) -> list[refs.CallRef]:
        """`jac.setup(x)` after `jac = BroydenFirst()` in one arm and `jac = LinearMixing()` in
        another: the method of the classes the other arms built (`ref` is the last one's). Which
        one the call gets is known at run time only."""
        fn = self.facts.function
        if not (isinstance(ref, refs.Method) and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                and fn.instance_classes.get(func.value.value) == ref.cls):
            return []
        built = self._built_classes.get((fn.key, func.value.value), ())
        return [refs.Method(c, ref.name) for c in dict.fromkeys(built)
                if c != ref.cls and self.facts.is_project_name(c)]

    def _appended(self, fn: tf.FunctionScope, name: str, node: cst.Call) -> None:
        """`outs.append(t)` on a list bound to `[]` here: while only tensors are appended, its
        elements are tensors."""
        key = (fn.key, name)
        if key not in self._empty_lists and name not in fn.elements or fn.elements.get(name, (None, False))[1]:
            return
        kind = self.facts.kind(node.args[0].value) if len(node.args) == 1 and not node.args[0].star else tf.UNKNOWN
        kind = tf.TENSOR if kind == tf.INPUT else kind
        if kind in tf.TENSORS and (key in self._empty_lists or fn.elements[name][0] == kind):
            fn.elements[name] = (kind, False)
        elif kind in tf.TENSORS:
            fn.elements[name] = (tf.TENSOR, False)  # tensors and masks
        else:
            fn.elements.pop(name, None)
        self._empty_lists.discard(key)

    def _add_site(self, site: CallSite, node: cst.CSTNode) -> None:
        fn = self.facts.function
        summary = self.summary.functions[fn.key]
        calls = summary.calls
        if site.callables and refs.reads_call_sites(site.ref):
            summary.passes_to_parameter = True
        if not self._branch_depth:
            self._graph_ops.setdefault(fn.key, (0, []))[1].append(len(calls))
        calls.append(site)
        if isinstance(node, cst.Call):
            fn.sites.append((site, node))
        self.span_later(site, node)

    def _visit_attribute(self, node: cst.Attribute) -> None:
        fn = self.facts.function
        if fn is not None and isinstance(node.value, cst.Name) and node.attr.value not in api.TENSOR_ATTRIBUTES \
                and not node.attr.value.startswith("__"):
            fn.objects.add(node.value.value)
        if (fn is not None and not self._eager_depth and fn.class_scope is not None and _names(node.value, fn.self_name)
                and id(node) not in self._not_read and self._is_property(fn.class_scope, node.attr.value)):
            # `b = self.beta`: the getter runs, as a call would
            self._add_site(CallSite(ref=refs.Getter(fn.class_scope.key, node.attr.value), span=None,
                                    unless=self._unless(), in_loop=self._in_loop()), node)

    def _is_property(self, scope: tf.ClassScope, name: str) -> bool:
        """`name` is a `@property` of the class or of a base defined in this file."""
        return any(name in self._properties.get(key, ()) for key in (scope.key, *scope.bases))

    def _built_here(self, func: cst.BaseExpression) -> bool:
        """A method called on an object built in this function: `S().run`, or `s.run` after
        `s = S()` here, or `run` after `run = s.run`."""
        if isinstance(func, cst.Name):
            return (self.facts.function.key, func.value) in self._bound_built
        if not isinstance(func, cst.Attribute):
            return False
        receiver = func.value
        if isinstance(receiver, cst.Name):
            return (receiver.value in self.facts.function.instance_classes
                    or (self.facts.function.key, receiver.value) in self._picked_objects)
        return self._constructed_class(receiver) is not None or self._picked_call(receiver)

    def _hold_method(self, name: str, value, node: cst.CSTNode) -> bool:
        """`c = s.run` (or `s.run` passed as an argument, named by itself) on an object of a
        project class this function built: Dynamo cannot rebuild the bound method to resume
        after a break while it is held (held_methods)."""
        receiver = value.value if isinstance(value, cst.Attribute) else None
        fn = self.facts.function
        cls = (fn.instance_classes.get(receiver.value) if isinstance(receiver, cst.Name)
               else self._constructed_class(receiver) if receiver is not None else None)
        where = (fn.key, name)
        if cls is not None and self.facts.is_project_name(cls):
            held = Held(name, binds=True, method=refs.Method(cls, value.attr.value))
            self._held_names.add(where)
        elif where in self._held_names:
            held = Held(name, binds=True)  # bound anew: what it held is no longer read
        else:
            return False
        self.summary.functions[fn.key].held_methods.append(held)
        self.span_later(held, node)
        return held.method is not None

    def _held_reads(self, summary: FunctionSummary, node: cst.FunctionDef) -> None:
        """Where the function reads the locals that held a bound method (held_methods)."""
        reads = HeldReads({h.name for h in summary.held_methods if h.binds})
        node.body.visit(reads)
        for held, name in reads.reads:
            summary.held_methods.append(held)
            self.span_later(held, name)

    def _held_arguments(self, node: cst.Call) -> None:
        """`g(x, s.run)`: a bound method held while the call runs, bound and read there."""
        for a in node.args:
            if isinstance(a.value, cst.Attribute):
                name = dotted_name(a.value) or a.value.attr.value
                if self._hold_method(name, a.value, a.value):
                    read = Held(name, binds=False)
                    self.summary.functions[self.facts.function.key].held_methods.append(read)
                    self.span_later(read, a.value)

    def _picked_call(self, value) -> bool:
        """A call of a class picked at run time: `SOLVERS[method](...)`, or `solver_fn(...)`
        after `solver_fn = SOLVERS[method]` or `solver_fn = select(method)` here."""
        if not isinstance(value, cst.Call):
            return False
        func = value.func
        if isinstance(func, cst.Subscript):
            return True
        if not isinstance(func, cst.Name) or self.facts.function is None:
            return False
        return (self.facts.function.key, func.value) in self._picked_callables

    def _falsy_args(self, node: cst.Call) -> tuple:
        """(position or keyword, what it is) for each argument that may be falsy: None for a
        literal None, False for another falsy constant, the caller's LeftFalsy guard for a
        parameter of its own (not rebound)."""
        out = []
        for i, a in enumerate(node.args):
            if a.star:
                break
            key = a.keyword.value if a.keyword is not None else i
            if _falsy_constant(a.value):
                out.append((key, None if _names(a.value, "None") else False))
            elif isinstance(a.value, cst.Name) and a.value.value in self.facts.function.flags:
                out.append((key, self.facts.function.flags[a.value.value]))
        return tuple(out)

    def _member_args(self, node: cst.Call) -> tuple:
        """(position or keyword, where it comes from) for each argument that may be a member
        of a str Enum (member_sources)."""
        return tuple((key, sources) for key, value in _keyed_args(node) if (sources := self.member_sources(value)))

    def member_sources(self, node: cst.BaseExpression) -> frozenset:
        """Where a value may come from that is a member of a str Enum, as conditions with no
        method asked yet (call_refs.STR_ENUM_REFS): `Cls.MEMBER` or `Cls(value)` of a project
        class (StrEnumClass), a parameter or a local bound to such a value (FunctionScope.members),
        `self.name` (StrEnumAttr), what a project function returns (StrEnumReturned). Whether
        the class is a str Enum, the project phase says."""
        fn = self.facts.function
        if fn is None:
            return frozenset()
        if isinstance(node, cst.Name):
            return fn.members.get(node.value, frozenset())
        cls = self.member_class(node)
        if cls is not None:
            return frozenset({refs.StrEnumClass(cls)})
        if isinstance(node, cst.Attribute) and self.facts.is_self(node.value):
            return frozenset({refs.StrEnumAttr(self.facts.class_dotted(), node.attr.value)})
        built = self._constructed_class(node)
        if built is not None:  # an Enum's look-up by value takes one argument
            by_value = len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None
            if by_value and self.facts.is_project_name(built):
                return frozenset({refs.StrEnumClass(built, built=True)})
            return frozenset()
        called = self.facts.project_call_ref(node)
        return frozenset({refs.StrEnumReturned(called)}) if called is not None else frozenset()

    def member_class(self, node: cst.BaseExpression | None) -> str | None:
        """The dotted name of `Cls` in `Cls.MEMBER`, where it names something of the project
        (whether it is a str Enum, the project phase says)."""
        if not isinstance(node, cst.Attribute):
            return None
        qual = self.facts.qualname(node.value)
        return qual if qual is not None and self.facts.is_project_name(f"{qual}.{node.attr.value}") else None

    def _object_args(self, node: cst.Call) -> tuple:
        """(position or keyword, True or the caller's Param) for each argument that is no
        Python constant: a tensor, a module or `self` (True), or a parameter of the caller of
        unknown kind passed on (its Param: what the caller's own callers pass)."""
        fn = self.facts.function
        out = []
        for key, value in _keyed_args(node):
            kind = self.facts.kind(value)
            if kind in tf.TENSORS or kind == tf.MODULE:
                out.append((key, True))
            elif isinstance(value, cst.Name) and value.value in fn.param_refs:
                out.append((key, fn.param_refs[value.value]))
        return tuple(out)

    def _param_args(self, node: cst.Call) -> tuple:
        """(position or keyword, the caller's Param) for each argument that is a parameter of
        the caller's own, unchanged."""
        fn = self.facts.function
        return tuple((key, fn.own_params[value.value]) for key, value in _keyed_args(node)
                     if isinstance(value, cst.Name) and value.value in fn.own_params)

    def _prebuilt_args(self, node: cst.Call) -> tuple:
        """(position or keyword, what it is) for each argument that is an object built before
        the compiled code runs (built_before: its class), or a parameter of the caller's own
        passed on (its PrebuiltArg)."""
        fn = self.facts.function
        out = []
        for key, value in _keyed_args(node):
            built = self.built_before(value)
            if built is not None:
                out.append((key, built))
            elif isinstance(value, cst.Name) and value.value in fn.param_refs:
                param = fn.param_refs[value.value]
                out.append((key, refs.PrebuiltArg(param.function, param.position, param.name)))
        return tuple(out)

    def built_before(self, expr: cst.BaseExpression) -> str | None:
        """The project class of an object that exists before the compiled code runs: one that
        set-up code stored in `self.name` (`self.timer = Timer()` in `__init__`), or a
        module-level instance. torch's and the standard library's classes have their own
        handling and are not named."""
        facts = self.facts
        built = None
        if isinstance(expr, cst.Attribute) and facts.is_self(expr.value):
            built = facts.function.class_scope.built_from.get(expr.attr.value)
        elif isinstance(expr, cst.Name) and facts.function is not None and facts.function.lookup(expr.value) is None:
            built = facts.module_instances.get(expr.value)
        if built is None or not facts.is_project_name(built) or not facts.builds_instance(built):
            return None
        return built

    def _arg_kinds(self, node: cst.Call) -> tuple:
        kinds = []
        for a in node.args:
            if a.keyword is not None or a.star:
                break
            kinds.append(self._arg_kind(a.value))
        return tuple(kinds)

    def _arg_kind(self, value: cst.BaseExpression):
        """True when a call passes a tensor, a Condition when it may (an input passed on as
        itself: the Param of this function, so that the callee's `k=0` can say otherwise), and
        for a record (namedtuple, dataclass) the fields that hold one: (("t1", True), ...)."""
        kind = self.facts.kind(value)
        if kind == tf.UNKNOWN:
            return self.facts.param_condition(value)
        if kind == tf.INPUT and isinstance(value, cst.Name) and value.value in self.facts.function.input_refs:
            return frozenset((self.facts.function.input_refs[value.value],))
        return _passed(kind, self.facts.attribute_condition(value))

    def _call_ref(self, node: cst.Call, qual: str | None) -> refs.CallRef | None:
        facts = self.facts
        func = node.func
        if qual is not None:
            if facts.is_project_name(qual):
                return refs.Named(qual)
            return None
        if isinstance(func, cst.Attribute):
            return self._method_ref(func)
        if isinstance(func, cst.Name) and facts.function is not None:
            nested = self._nested_def(func.value)
            if nested is not None:
                return refs.Named(nested)
        return None

    def _method_ref(self, func: cst.Attribute) -> refs.CallRef | None:
        """The method that `func` (`obj.name`, not a module's function) names: what calling
        it runs, called at once or after it is bound to a name (`run = s.run; run(x)`)."""
        facts = self.facts
        receiver = func.value
        method = func.attr.value
        if isinstance(receiver, cst.Call) and dotted_name(receiver.func) == "super":
            cls = facts.class_dotted()
            return refs.SuperMethod(cls, method) if cls else None
        if facts.is_self(receiver):
            return refs.Method(facts.class_dotted(), method)
        held = (self._attribute_class(receiver.value, element=True) if isinstance(receiver, cst.Subscript)
                else self._attribute_class(receiver, element=False))
        if held:  # `self.ema.update()`, `self.blocks[0].reset()`
            return refs.Method(held, method)
        made_by = self._attribute_maker(receiver)
        if made_by is not None and method not in api.TENSORISH_METHODS:  # `self.solver.step()`
            return refs.ReturnedMethod(made_by, method, self._method_by_name(receiver, method),
                                       stored=True)
        if isinstance(receiver, cst.Name) and facts.function is not None:
            cls_name = facts.function.instance_classes.get(receiver.value)
            if cls_name is None and facts.function.lookup(receiver.value) is None:
                cls_name = facts.module_instances.get(receiver.value)  # `solver = Solver()` at module level
            if cls_name:
                return refs.Method(cls_name, method)
            made_by = facts.function.returned_objects.get(receiver.value)
            if made_by is not None and method not in api.TENSORISH_METHODS:
                return refs.ReturnedMethod(made_by, method, self._method_by_name(receiver, method))
        built = self._constructed_class(receiver)
        if built and facts.is_project_name(built):  # `S(3).run(x)`
            return refs.Method(built, method)
        made_by = self.facts.project_call_ref(receiver)
        if made_by is not None and method not in api.TENSORISH_METHODS:  # `make(2).run(x)`
            return refs.ReturnedMethod(made_by, method, self._method_by_name(receiver, method))
        return self._method_by_name(receiver, method)

    def _record_module_call(self, node: cst.Call, qual: str | None) -> None:
        """A module-level call that passes functions to a project function."""
        passed = self._passed_callables(node)
        if passed and qual is not None and self.facts.is_project_name(qual):
            site = CallSite(ref=refs.Named(qual), span=None, callables=passed)
            self.summary.module_calls.append(site)
            self.span_later(site, node)

    def _passed_callables(self, node: cst.Call) -> tuple:
        """(position or keyword, the functions it may be) for each argument naming functions."""
        out = []
        position = 0
        for a in node.args:
            if a.star:
                break
            passed = self._arg_callables(a.value)
            if passed:
                out.append((a.keyword.value if a.keyword is not None else position, passed))
            position += a.keyword is None
        return tuple(out)

    def _arg_callables(self, expr: cst.BaseExpression) -> frozenset:
        """The project functions an argument may be: a function or method by name, a bound
        method of an object of a known class, a local holding functions, a literal table,
        `partial(f, ...)`, or this function's own parameter passed on."""
        fn = self.facts.function
        if isinstance(expr, cst.Name) and fn is not None:
            param = self.facts.param_callable(expr.value)
            if param is not None:
                return frozenset((param,))
            where = (fn.key, expr.value)
            local = self._local_callables.get(where, frozenset()) | self._record_callables.get(where, frozenset())
            named = self._named_callable(expr)
            return local | {named} if named is not None else local
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and not self.facts.is_self(expr.value):
            cls_name = fn.instance_classes.get(expr.value.value) if fn is not None else None
            if cls_name is None and (fn is None or fn.lookup(expr.value.value) is None):
                cls_name = self.facts.module_instances.get(expr.value.value)
            if cls_name and self.facts.is_project_name(cls_name):
                return frozenset((refs.Method(cls_name, expr.attr.value),))
        if isinstance(expr, (cst.Dict, cst.List, cst.Tuple)):
            return self._table_callables(expr)
        if isinstance(expr, (cst.Name, cst.Attribute)) or (
                isinstance(expr, cst.Call) and self.facts.qualname(expr.func) == "functools.partial"):
            return self._returned_callables(expr)
        return frozenset()

    def _called_param(self, value) -> refs.ParamCallable | None:
        """`m = subproblem(x)` with `subproblem` a parameter: `m` is an instance of the classes
        callers pass there (`_minimize(x, subproblem=CGSubproblem)`), if they pass classes."""
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            return self.facts.param_callable(value.func.value)
        return None

    def _nested_def(self, name: str) -> str | None:
        """The key of a def named `name` in the current function or one enclosing it."""
        scope = self.facts.function
        while scope is not None:
            nested = f"{scope.key}.{name}"
            if nested in self.summary.functions:
                return nested
            scope = scope.parent
        return None

    def _local_call_refs(self, func: cst.BaseExpression) -> list[refs.CallRef]:
        """`check(...)` where `check = StopCheck(...)` (in any arm): the classes' `__call__`;
        `step(...)` where `step = self._make_step(...)` or `getattr(self, name)`: what they hold;
        `STEPS[k](...)`, `self.steps[k](...)`: the functions the table holds."""
        if isinstance(func, cst.Subscript):
            table = func.value
            while isinstance(table, cst.Subscript):  # `ROUTINES[loss][backend](...)`
                table = table.value
            return self._table_call_refs(table)
        if isinstance(func, cst.Call) and self.facts.qualname(func.func) == "builtins.getattr" and len(func.args) >= 2:
            return sorted(self._getattr_methods(func.args[0].value, func.args[1].value), key=str)
        if not isinstance(func, cst.Name) or self.facts.function is None:
            return []
        if self.facts.is_self(func):  # `self(X)`: the instance's `__call__` (a module's forward)
            cls = self.facts.class_dotted()
            return [refs.Method(cls, "__call__")] if cls else []
        where = (self.facts.function.key, func.value)
        classes = self._built_classes.get(where)
        if classes is None and self.facts.function.lookup(func.value) is None:
            built = self.facts.module_instances.get(func.value)
            classes = [built] if built else None
        called = [refs.Method(cls_name, "__call__") for cls_name in dict.fromkeys(classes or ())
                  if self.facts.is_project_name(cls_name)]
        local = sorted(self._local_callables.get(where, ()), key=str)
        if not called and not local and (param := self.facts.param_callable(func.value)) is not None:
            return [param]  # `fn(x)`: what the callers pass as `fn`
        if not called and not local and self.facts.function.lookup(func.value) is None:
            return sorted(self._callable_tables.get(func.value, ()), key=str)  # `_param = effectful(f)` above
        return called + local

    def _table_call_refs(self, table: cst.BaseExpression) -> list[refs.CallRef]:
        fn = self.facts.function
        if fn is None:
            return []
        if isinstance(table, cst.Attribute) and self.facts.is_self(table.value):
            return [refs.Method(self.facts.class_dotted(), table.attr.value)]
        if not isinstance(table, cst.Name):
            return []
        if fn.lookup(table.value) is not None:
            where = (fn.key, table.value)
            local = sorted(self._local_callables.get(where, frozenset()) | self._record_callables.get(where, frozenset()),
                           key=str)
            param = None if local else self.facts.param_callable(table.value)
            return [param] if param is not None else local
        return sorted(self._callable_tables.get(table.value, ()), key=str)

    def _note_local_callables(self, node: cst.Assign) -> None:
        fn = self.facts.function
        if fn is None:
            return
        stored = self._value_callables(node.value)
        held = self._record_held(node.value)
        bound = self._partial_bound(node.value)
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                where = (fn.key, t.target.value)
                if bound is None:
                    self._partial_args.pop(where, None)
                else:
                    self._partial_args[where] = bound
                if stored:
                    self._local_callables[where] = self._local_callables.get(where, frozenset()) | stored
                if held:
                    self._record_callables[where] = self._record_callables.get(where, frozenset()) | held

    def _partial_bound(self, value: cst.BaseExpression) -> tuple | None:
        """What `partial(f, a, b)` passes ahead of a call's own positional arguments."""
        if not (isinstance(value, cst.Call) and self.facts.qualname(value.func) == "functools.partial"):
            return None
        bound = []
        for a in value.args[1:]:
            if a.star:
                return None
            if a.keyword is None:
                bound.append(self._arg_kind(a.value))
        return tuple(bound)

    def _value_callables(self, value: cst.BaseExpression) -> frozenset:
        """What calling a name bound to `value` may run (see returns_callables)."""
        if isinstance(value, cst.IfExp):
            return self._value_callables(value.body) | self._value_callables(value.orelse)
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple)):
            return self._table_callables(value)
        if isinstance(value, cst.Name) and (param := self.facts.param_callable(value.value)) is not None:
            return frozenset((param,))  # `msg = initial_msg`: what the callers pass
        if isinstance(value, cst.Attribute) and self.facts.qualname(value) is None:
            ref = self._method_ref(value)  # `closure = sf.closure`: a bound method
            return frozenset((ref,)) if ref is not None else frozenset()
        return self._returned_callables(value)

    def _record_held(self, value: cst.BaseExpression) -> frozenset:
        """The functions a record holds by key, read back as `msg["fn"](...)`: `Message(fn=fn,
        args=args)` (a TypedDict, a dataclass), `dict(fn=f)`. Calling the record itself does
        not run them."""
        if isinstance(value, cst.Call) and (self._constructed_class(value)
                                            or self.facts.qualname(value.func) == "builtins.dict"):
            return frozenset().union(*(self._arg_callables(a.value) for a in value.args if a.keyword))
        return frozenset()

    def _table_callables(self, table: cst.Dict | cst.List | cst.Tuple) -> frozenset:
        """The project functions a literal dict (its values), list or tuple holds, and those
        of the tables nested in it."""
        found = set()
        for e in table.elements:
            if not isinstance(e, (cst.DictElement, cst.Element)):
                continue
            if isinstance(e.value, (cst.Dict, cst.List, cst.Tuple)):
                found |= self._table_callables(e.value)
            elif (ref := self._named_callable(e.value)) is not None:
                found.add(ref)
        return frozenset(found)

    def _getattr_methods(self, obj: cst.BaseExpression, name: cst.BaseExpression) -> frozenset:
        """`getattr(self, "name")`, `getattr(type(self), TABLE[key])`: the methods it may name."""
        facts = self.facts
        if isinstance(obj, cst.Call) and facts.qualname(obj.func) == "builtins.type" and len(obj.args) == 1:
            obj = obj.args[0].value
        elif isinstance(obj, cst.Attribute) and obj.attr.value == "__class__":
            obj = obj.value
        cls = facts.class_dotted()
        if not facts.is_self(obj) or cls is None:
            return frozenset()
        if isinstance(name, cst.SimpleString):
            names = (name.evaluated_value,)
        elif isinstance(name, cst.Subscript) and isinstance(name.value, cst.Name):
            names = self._string_tables.get(name.value.value, ())
        else:
            pattern = _name_pattern(name)
            return frozenset((refs.MethodPattern(cls, *pattern),)) if pattern else frozenset()
        return frozenset(refs.Method(cls, n) for n in names if isinstance(n, str) and n.isidentifier())

    def _named_callable(self, expr: cst.BaseExpression) -> refs.CallRef | None:
        """A reference to the project function, class or method an expression names."""
        if isinstance(expr, cst.Name) and self.facts.function is not None:
            nested = self._nested_def(expr.value)
            if nested is not None:
                return refs.Named(nested)
        if isinstance(expr, cst.Attribute) and self.facts.is_self(expr.value):
            return refs.Method(self.facts.class_dotted(), expr.attr.value)
        qual = self.facts.qualname(expr)
        return refs.Named(qual) if qual and self.facts.is_project_name(qual) else None

    def _decorator_ref(self, expr: cst.BaseExpression) -> refs.CallRef | None:
        """`@deco` -> the decorator; `@factory(...)` -> what the factory returns (`Returned`)."""
        if isinstance(expr, cst.Call):
            ref = self._named_callable(expr.func)
            return refs.Returned(ref) if ref is not None else None
        return self._named_callable(expr)

    def _returned_callables(self, expr: cst.BaseExpression, returning: bool = False) -> frozenset:
        """What a returned expression runs if the caller calls it (see returns_callables).
        `returning`: `expr` is what the function returns, so its own parameter stands for what
        the caller passes (ReturnedParam); a local bound to one, or an argument, is not that."""
        if isinstance(expr, cst.IfExp):
            return self._returned_callables(expr.body, returning) | self._returned_callables(expr.orelse, returning)
        if returning and isinstance(expr, cst.Name) and (param := self._own_param(expr)) is not None:
            return frozenset((param,))  # `return method`: what the caller passes
        if isinstance(expr, cst.Subscript):  # `return LOSS_MAPPING[kind]`
            if isinstance(expr.value, (cst.Dict, cst.List, cst.Tuple)):  # `{"a": STEPS, "b": f}[kind]`
                return self._literal_entries(expr.value)
            if returning and isinstance(expr.value, cst.Name) and (param := self._own_param(expr.value)) is not None:
                return frozenset((param,))  # `return methods[name]`: an entry of what the caller passes
            # a parameter's (ParamCallable) reads call sites: what a call returns is resolved with names only
            local = [r for r in self._table_call_refs(expr.value) if not isinstance(r, refs.ParamCallable)]
            if local:
                return frozenset(local)
            qual = self.facts.qualname(expr.value)
            return frozenset((refs.Entries(qual),)) if qual and self.facts.is_project_name(qual) else frozenset()
        if isinstance(expr, cst.Call):
            qual = self.facts.qualname(expr.func)
            if qual == "builtins.getattr" and len(expr.args) >= 2:
                return self._getattr_methods(expr.args[0].value, expr.args[1].value)
            if qual == "functools.partial":
                ref = self._named_callable(expr.args[0].value) if expr.args and not expr.args[0].keyword else None
            else:
                ref = self._call_ref(expr, qual)
                ref = refs.Returned(ref, self._named_passed(expr)) if ref is not None else None
        else:
            ref = self._named_callable(expr)
        return frozenset((ref,)) if ref is not None else frozenset()

    def _named_passed(self, node: cst.Call) -> tuple:
        """The functions a call passes (_passed_callables), those its callers' arguments do not
        decide: what it returns stays resolved with names only (call_refs.reads_call_sites)."""
        out = []
        for where, passed in self._passed_callables(node):
            named = frozenset(v for v in passed if not refs.reads_call_sites(v))
            if named:
                out.append((where, named))
        return tuple(out)

    def _literal_entries(self, table: cst.Dict | cst.List | cst.Tuple) -> frozenset:
        """What an entry of a literal table may run: the functions it holds, and the entries
        of this module's tables of functions it holds (`{"rootfinder": _RF_METHODS}[kind]`)."""
        found = set(self._table_callables(table))
        fn = self.facts.function
        for e in table.elements:
            if isinstance(e, (cst.DictElement, cst.Element)) and isinstance(e.value, cst.Name) and (
                    fn is None or fn.lookup(e.value.value) is None):
                found |= self._callable_tables.get(e.value.value, frozenset())
        return frozenset(found)

    def _own_param(self, name: cst.Name) -> refs.ReturnedParam | None:
        """`name` is a parameter of this function (a closure's enclosing one's is not what its
        caller passes)."""
        fn = self.facts.function
        param = fn.own_params.get(name.value) if fn is not None else None
        return refs.ReturnedParam(param.position, param.name) if param is not None else None

    def _method_by_name(self, receiver: cst.BaseExpression, method: str) -> refs.CallRef | None:
        """`obj.method()` on an object of unknown class: the project's methods of that name.

        Resolved in the project phase only when few classes define the name, so a solver's
        `integrate` is followed but a ubiquitous `update` is not.
        """
        if method.startswith("__") or method in api.TENSORISH_METHODS or method in GENERIC_METHOD_NAMES:
            return None
        kind = self.facts.kind(receiver)
        if kind == tf.STATIC or kind in tf.TENSORS:
            return None
        return refs.AnyMethod(method, self.summary.module.partition(".")[0])

    def _callable_ref(self, expr: cst.BaseExpression) -> refs.CallRef | None:
        """A reference to the function or class an expression names, if it names one."""
        if isinstance(expr, cst.Call):
            qual = self.facts.qualname(expr.func)
            return refs.Named(qual) if qual else None
        if isinstance(expr, cst.Attribute) and self.facts.is_self(expr.value):
            return refs.Method(self.facts.class_dotted(), expr.attr.value)
        if isinstance(expr, cst.Name):
            scope = self.facts.function
            instances = scope.instance_classes if scope is not None else self.facts.module_instances
            cls_name = instances.get(expr.value)
            if cls_name:
                return refs.Named(cls_name)
        qual = self.facts.qualname(expr)
        return refs.Named(qual) if qual else None

    def _record_compile(self, node: cst.Call) -> None:
        if not node.args or node.args[0].keyword is not None:
            return
        for target in self._compile_targets(node.args[0].value):
            site = CompileSite(target=target, span=None)
            self.summary.compile_sites.append(site)
            self.span_later(site, node)

    def _record_module_compile(self, node: cst.Call) -> None:
        for target in self._compile_targets(node.func.value):
            site = CompileSite(target=target, span=None)
            self.summary.compile_sites.append(site)
            self.span_later(site, node)

    def _compile_targets(self, expr: cst.BaseExpression) -> list[str]:
        """What `torch.compile(expr)` compiles, following loop variables over literals."""
        if isinstance(expr, cst.Name):
            source = self._loop_sources.get(expr.value)
            if source is not None:
                out = []
                for el in source:
                    out.extend(self._compile_targets(el))
                return out
        ref = self._callable_ref(expr)
        return [ref] if ref else []

    def _note_loop_source(self, target, iterable) -> None:
        if isinstance(target, cst.Name):
            elements = self._literal_elements(iterable)
            if elements is not None:
                self._loop_sources[target.value] = elements

    def _literal_elements(self, iterable) -> list | None:
        if isinstance(iterable, (cst.Tuple, cst.List)):
            return [e.value for e in iterable.elements]
        if isinstance(iterable, cst.Name):
            return self._literal_names.get(iterable.value)
        return None

    def _visit_for_sources(self, node: cst.For) -> None:
        self._enter_stack_holder(node)
        self._note_loop_source(node.target, node.iter)
        self._visit_for(node)

    def _leave_assign_sources(self, node: cst.Assign) -> None:
        if isinstance(node.value, (cst.Tuple, cst.List)):
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    self._literal_names[t.target.value] = [e.value for e in node.value.elements]
        if self._at_module_level() and isinstance(node.value, cst.Call):
            # `_param = effectful(f)`, `STORE = Store()`: what calling (or a method of) the name runs
            returned = self._returned_callables(node.value)
            for t in node.targets:
                if returned and isinstance(t.target, cst.Name):
                    self._callable_tables[t.target.value] = returned
                    self.summary.callable_tables[t.target.value] = returned
        if self._at_module_level() and any(isinstance(t.target, cst.Name) and t.target.value == "__all__"
                                           for t in node.targets):
            self.summary.exports = _literal_strings(node.value)
        if self._at_module_level() and isinstance(node.value, (cst.Dict, cst.Tuple, cst.List)):
            strings = tuple(e.value.evaluated_value for e in node.value.elements
                            if isinstance(getattr(e, "value", None), cst.SimpleString))
            functions = self._table_callables(node.value)
            for t in node.targets:
                if strings and isinstance(t.target, cst.Name):
                    self._string_tables[t.target.value] = strings
                if functions and isinstance(t.target, cst.Name):
                    self._callable_tables[t.target.value] = functions
                    self.summary.callable_tables[t.target.value] = functions
        self._note_local_callables(node)
        self._leave_assign(node)

    # -- code Dynamo never traces ---------------------------------------------------------
    def _visit_if(self, node: cst.If) -> None:
        fn = self.facts.function
        # a break that ends the frame (in a loop body, or TC247's) hides nothing in the other
        # arm, nor after the `if` when its arm returns, and a bound method read only there is
        # not held across it (held_methods)
        if fn is not None:
            forks = self.summary.functions[fn.key].forks
            if node.orelse is not None:
                forks.append((Arm(span=None), Arm(span=None)))
                self.span_later(forks[-1][0], node.body)
                self.span_later(forks[-1][1], node.orelse)
            for arm in (node.body, node.orelse.body if isinstance(node.orelse, cst.Else) else None):
                if arm is not None and _returns(arm):
                    forks.append((Arm(span=None), Arm(span=None, after=True)))
                    self.span_later(forks[-1][0], arm)
                    self.span_later(forks[-1][1], node)
        when = self.facts.value_under_dynamo(node.test)
        if when is False:
            self._eager_blocks.add(id(node.body))
        elif when is True and node.orelse is not None:
            self._eager_blocks.add(id(node.orelse))
        elif isinstance(when, tf.Pending):
            # `if not is_tracing(x) and mask.all():` where `is_tracing` turns out to be an
            # "am I compiling" predicate: the test's rest and the body never run under Dynamo
            self._guard(node.test, when.refs)
            self._guard(node.orelse if when.value else node.body, when.refs)
        decided = self._decided(node.test)
        self._test_guards[id(node.test)] = frozenset(decided)  # its truth is read only if passed
        self._guard(node.body, frozenset(r for r, v in decided.items() if v is False))
        self._guard(node.orelse, frozenset(r for r, v in decided.items() if v is True))
        training = training_only_block(node)
        if training is not None:
            self._training_blocks.add(id(training))
        narrowed_class = tf.class_test(self.facts, node.test)
        if narrowed_class is not None:  # `if isinstance(y, Sub):` its body calls Sub's methods on `y`
            self._class_arms[id(node.body)] = narrowed_class
        narrowed = _python_value_test(self.facts, node.test)
        if narrowed is not None and self.facts.function is not None:
            self._narrowed[id(node.body)] = (narrowed, tf.STATIC)
        fn = self.facts.function
        tested = _tensor_test(self.facts, node.test) if fn is not None else None
        if tested is not None and tested in param_names(fn.node):
            self._tensor_branches.add(id(node.body))
        self._tensor_arms(node)

    def _tensor_arms(self, node: cst.If | cst.IfExp) -> None:
        """`if isinstance(v, torch.Tensor):` given what is known of `v`: an arm the test
        rules out never runs, and in the other-than-tensor arm `v` is a Python value."""
        test, negated = node.test, False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, negated = test.expression, not negated
        name = _tensor_test(self.facts, test) if self.facts.function is not None else None
        if name is None:
            return
        tensor_arm, other_arm = (node.orelse, node.body) if negated else (node.body, node.orelse)
        kind = self.facts.function.lookup(name)
        if kind in (tf.TENSOR, tf.BOOL_TENSOR):
            if other_arm is not None:
                self._eager_blocks.add(id(other_arm))
        elif kind == tf.STATIC or kind == tf.MODULE or isinstance(kind, Record):
            if tensor_arm is not None:
                self._eager_blocks.add(id(tensor_arm))
        else:
            if other_arm is not None:
                self._narrowed[id(other_arm)] = (name, tf.STATIC)
            fn = self.facts.function
            if tensor_arm is not None and fn.root_like and name in fn.param_refs:
                # an entry point's input: where the arm runs, it holds a tensor
                self._narrowed[id(tensor_arm)] = (name, tf.TENSOR)

    def _enter_narrowed(self, node: cst.CSTNode) -> None:
        """Inside `if isinstance(v, int):` the name `v` holds a Python value."""
        name, kind = self._narrowed[id(node)]
        env = self.facts.function.env
        self._narrow_saved.append((name, env.get(name), kind))
        env[name] = kind
        self.facts.reset_memo()

    def _leave_narrowed(self) -> None:
        """Back to what `v` held before the test, unless the arm bound `v` anew (`if not
        isinstance(t, torch.Tensor): t = torch.tensor(t)`): then it holds that, as after an
        assignment in any arm."""
        name, previous, narrowed = self._narrow_saved.pop()
        env = self.facts.function.env
        if env.get(name) == narrowed:
            if previous is None:
                env.pop(name, None)
            else:
                env[name] = previous
        self.facts.reset_memo()

    def _visit_boolean_operation(self, node: cst.BooleanOperation) -> None:
        left = self.facts.value_under_dynamo(node.left)
        if left is not isinstance(node.operator, cst.And) and isinstance(left, bool):
            self._eager_blocks.add(id(node.right))  # `not is_compiling() and ...`: never traced
        elif isinstance(left, tf.Pending) and left.value is not isinstance(node.operator, cst.And):
            self._guard(node.right, left.refs)
        # `scale is None or scale == 1 or t.sum() == 0`: the rest runs only if `scale` was passed
        short = isinstance(node.operator, cst.Or)
        self._guard(node.right, frozenset(r for r, v in self._decided(node.left).items() if v is short))

    def _guard(self, node: cst.CSTNode | None, refs_: frozenset) -> None:
        if node is not None and refs_:
            self._guarded[id(node)] = self._guarded.get(id(node), frozenset()) | refs_

    def _decided(self, test: cst.BaseExpression) -> dict:
        """{guard: the truth of `test`} for the `LeftFalsy` guards under which `test` is
        decided without reading any value: `p` and `not p` for a parameter `p` left falsy,
        `p is None` and `p is not None` for one left None or given a value that is never
        None (`GivenNotNone`), and `and`/`or`/`not` of them, where `p` was not rebound."""
        fn = self.facts.function
        if fn is None or not fn.flags:
            return {}
        decided = {}
        for name in param_truth.tested_names(test) & fn.flags.keys():
            guard = fn.flags[name]
            truth = param_truth.truth_when(test, name, param_truth.FALSY)
            if truth is None and guard.default != "falsy":
                guard = replace(guard, none=True)
                truth = param_truth.truth_when(test, name, param_truth.NONE)
            if truth is not None:
                decided[guard] = truth
            given = param_truth.truth_when(test, name, param_truth.NOT_NONE)
            if given is not None:  # `maxlen is None` where every caller passes a size
                decided[refs.GivenNotNone(guard.function, guard.position, name)] = given
        return decided

    def _visit_block(self, node: cst.IndentedBlock) -> None:
        # `if torch.compiler.is_compiling(): return ...` leaves the rest of the block eager-only.
        body = node.body
        for i, stmt in enumerate(body):
            if isinstance(stmt, cst.If) and stmt.orelse is None and _ends_block(stmt.body):
                when = self.facts.value_under_dynamo(stmt.test)
                if when is True:
                    self._eager_blocks.update(id(rest) for rest in body[i + 1:])
                    break
                if isinstance(when, tf.Pending) and when.value:
                    self._guarded.update((id(rest), when.refs) for rest in body[i + 1:])
                    break

    # -- assignments the project phase needs -----------------------------------------
    def _visit_assign(self, node: cst.Assign) -> None:
        self._stored_subscripts.update(id(t.target) for t in node.targets if isinstance(t.target, cst.Subscript))
        self._not_read.update(id(t.target) for t in node.targets if isinstance(t.target, cst.Attribute))
        self._note_dynamo_config(node)
        if self._at_module_level() and isinstance(node.value, cst.Attribute) and node.value.attr.value == "apply":
            # `my_op = MyFunction.apply`: calls of `my_op` run the autograd Function's forward
            qual = self.facts.qualname(node.value)
            for t in node.targets:
                if qual and isinstance(t.target, cst.Name):
                    self.summary.imports[t.target.value] = qual

    def _note_dynamo_config(self, node: cst.Assign) -> None:
        """`torch._dynamo.config.X = v`, at module level or in set-up code such as `main()`."""
        for t in node.targets:
            qual = self.facts.qualname(t.target) if isinstance(t.target, cst.Attribute) else None
            if qual and qual.startswith(DYNAMO_CONFIG_PREFIXES):
                value = _literal_value(node.value)
                if value is not _NO_VALUE:
                    self.summary.dynamo_config[qual.rsplit(".", 1)[1]] = value

    # -- finishing --------------------------------------------------------------------
    def placed_nodes(self) -> list[cst.CSTNode]:
        """The nodes whose positions finish() reads."""
        return [node for _, node in self._pending] + [node for _, node in self._checkpoints] + [
            node for _, node in self._try_ends] + [
            obj.fix.node for obj, _ in self._pending if isinstance(obj, Candidate) and isinstance(obj.fix, FixRequest)]

    def finish(self, module: cst.Module, positions: Mapping | None = None) -> FileSummary:
        """`positions`: node -> CodeRange in `module`, where the caller keeps them from an
        earlier analysis of the same tree (computed here otherwise)."""
        if self._pending:
            positions = _positions(module, self.placed_nodes()) if positions is None else positions
            for obj, node in self._pending:
                obj.span = _node_span(positions[node])
                if isinstance(obj, Candidate) and isinstance(obj.fix, FixRequest):
                    obj.fix = obj.fix.build(self.summary.path, _node_span(positions[obj.fix.node]))
            for block, node in self._checkpoints:
                start = _node_span(positions[node])
                block.checkpoint = Span(start.line, start.column, start.line, start.column + len(block.checkpoint_keyword))
            for block, body in self._try_ends:
                block.span = block.span._replace(end_line=_node_span(positions[body]).end_line)
        return self.summary


@dataclass
class FixRequest:
    """A fix that replaces `node` with `lines`; every line after the first is indented like
    the node (its position is known only when positions are computed)."""

    title: str
    node: cst.CSTNode
    lines: tuple[str, ...]

    def build(self, path: str, span: Span) -> Fix:
        indent = " " * (span.column - 1)
        text = "\n".join([self.lines[0], *(indent + line for line in self.lines[1:])])
        return Fix(self.title, (TextEdit(path, span, text),))


_NO_VALUE = object()
_LITERAL = object()  # a `return False` / `return None` fallback path
_FRAME = object()  # FileAnalyzer._resumes: a function starts
_TRY_BODY = object()  # FileAnalyzer._resumes: a `try` body starts
_TENSOR_LIST = "tensors"  # a returned tuple's field that is a list of tensors (FunctionSummary.returns_fields)
_MASK = "mask"  # a returned tuple's field that is a boolean mask (FunctionSummary.returns_fields)


def _literal_strings(value: cst.BaseExpression) -> tuple[str, ...] | None:
    """The strings of a literal list or tuple of them (`__all__ = ["A", "B"]`), else None."""
    if not isinstance(value, (cst.List, cst.Tuple)):
        return None
    strings = tuple(e.value.evaluated_value for e in value.elements if isinstance(e.value, cst.SimpleString))
    return strings if len(strings) == len(value.elements) and all(isinstance(v, str) for v in strings) else None


def _returned_fields(returned: list) -> tuple:
    """The fields of the tuples a function returns (`FunctionSummary.returns_fields`): what
    each holds where every return statement agrees, else "unknown"."""
    if not returned or any(r is None or len(r) != len(returned[0]) for r in returned):
        return ()
    fields = []
    for kinds in zip(*returned):
        if all(k == _MASK for k in kinds):
            fields.append(_MASK)
        elif all(k is True or k == _MASK for k in kinds):
            fields.append("tensor")
        elif all(k == _TENSOR_LIST for k in kinds):
            fields.append(_TENSOR_LIST)
        elif all(k is True or k == _MASK or isinstance(k, frozenset) and k for k in kinds):
            fields.append(frozenset().union(*(k for k in kinds if isinstance(k, frozenset))))
        else:
            fields.append("unknown")
    return tuple(fields)


def _predicate_value(returns: list):
    """What a function returns under Dynamo when its returns are "am I compiling" tests and
    literal fallbacks (`try: return torch.compiler.is_compiling() except: return False`)."""
    tests = [r for r in returns if r is not _LITERAL]
    if not tests or any(r is None for r in tests):
        return None
    if all(r is True for r in tests) or all(r is False for r in tests):
        return tests[0]
    if all(isinstance(r, tf.Pending) and r.value for r in tests):
        return frozenset().union(*(r.refs for r in tests))
    return None

_PYTHON_TYPES = frozenset({"int", "float", "bool", "str", "bytes", "list", "tuple", "dict", "set", "complex"})


def _python_value_test(facts, test: cst.BaseExpression) -> str | None:
    """`isinstance(name, int)` (or a tuple of builtin value types): the name it proves static."""
    if not (isinstance(test, cst.Call) and facts.qualname(test.func) == "builtins.isinstance" and len(test.args) == 2):
        return None
    target, types_ = test.args[0].value, test.args[1].value
    names = [e.value for e in types_.elements] if isinstance(types_, cst.Tuple) else [types_]
    if isinstance(target, cst.Name) and names and all(
            isinstance(n, cst.Name) and n.value in _PYTHON_TYPES for n in names):
        return target.value
    return None


def _tensor_test(facts, test: cst.BaseExpression) -> str | None:
    """`isinstance(name, torch.Tensor)`: the name it tests."""
    if (isinstance(test, cst.Call) and facts.qualname(test.func) == "builtins.isinstance" and len(test.args) == 2
            and isinstance(test.args[0].value, cst.Name) and facts.qualname(test.args[1].value) == "torch.Tensor"):
        return test.args[0].value.value
    return None


def _ends_block(block: cst.BaseSuite) -> bool:
    stmts = block.body
    if not stmts:
        return False
    last = stmts[-1]
    return isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and any(
        isinstance(s, (cst.Return, cst.Raise)) for s in last.body)


def _literal_value(node: cst.BaseExpression):
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.Integer):
        return int(node.value)
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return [dotted_name(e.value) for e in node.elements if dotted_name(e.value)]
    return _NO_VALUE


def _patch_values(call: cst.Call) -> dict[str, object]:
    """The literal settings of `torch._dynamo.config.patch(k=v)` or `patch({"k": v})`."""
    values = {}
    for arg in call.args:
        if arg.keyword is not None:
            pairs = [(arg.keyword.value, arg.value)]
        elif isinstance(arg.value, cst.Dict):
            pairs = [(el.key.evaluated_value, el.value) for el in arg.value.elements
                     if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)]
        else:
            continue
        for key, node in pairs:
            value = _literal_value(node)
            if value is not _NO_VALUE:
                values[key] = value
    return values


_FORMAT_FIELD = re.compile(r"\{[^{}]*\}|%s")


def _name_pattern(expr: cst.BaseExpression) -> tuple[str, str] | None:
    """(prefix, suffix) of a name built at run time around a string: `"{}_reduction".format(t)`,
    `f"{t}_reduction"`, `"check_" + t`, `"%s_loss" % t`; None when neither part is known."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format" \
            and isinstance(expr.func.value, cst.SimpleString):
        parts = _FORMAT_FIELD.split(expr.func.value.evaluated_value)
    elif isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo) \
            and isinstance(expr.left, cst.SimpleString):
        parts = _FORMAT_FIELD.split(expr.left.evaluated_value)
    elif isinstance(expr, cst.FormattedString):
        parts, text = [], ""
        for part in expr.parts:
            if isinstance(part, cst.FormattedStringText):
                text += part.value
            else:
                parts.append(text)
                text = ""
        parts.append(text)
    elif isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        left = expr.left.evaluated_value if isinstance(expr.left, cst.SimpleString) else None
        right = expr.right.evaluated_value if isinstance(expr.right, cst.SimpleString) else None
        if (left is None) == (right is None):
            return None
        prefix, suffix = _name_pattern(expr.right if left is not None else expr.left) or ("", "")
        parts = [(left or "") + prefix, suffix + (right or "")]
    else:
        return None
    prefix, suffix = parts[0], parts[-1]
    if len(parts) < 2 or not (prefix or suffix) or not (prefix + suffix).replace("_", "a").isalnum():
        return None
    return prefix, suffix


def _names(expr: cst.BaseExpression, name: str | None) -> bool:
    return name is not None and isinstance(expr, cst.Name) and expr.value == name


def _comprehension_targets(node: cst.ListComp) -> set[str]:
    names: set[str] = set()
    clause = node.for_in
    while clause is not None:
        names |= target_names(clause.target)
        clause = clause.inner_for_in
    return names


def _number(expr: cst.BaseExpression | None) -> bool:
    """`3`, `-1`, `0.5`: a number literal."""
    if isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _falsy_constant(expr: cst.BaseExpression) -> bool:
    """None, False, 0, 0.0, "" or (): a default that leaves `if p:` untaken."""
    if isinstance(expr, cst.Name):
        return expr.value in ("None", "False")
    if isinstance(expr, (cst.Integer, cst.Float)):
        return float(expr.evaluated_value) == 0
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value in ("", b"")
    return isinstance(expr, cst.Tuple) and not expr.elements


def _objects_passed(scope: tf.FunctionScope) -> None:
    """A name whose attributes no tensor has (`outputs.logits`) holds an object wherever the
    function passes it, whatever its first binding looked like (a model's call returns a
    ModelOutput, not the tensor a module call usually gives)."""
    for site, call in scope.sites:
        position = 0
        for arg in call.args:
            if arg.star:
                break
            if isinstance(arg.value, cst.Name) and arg.value.value in scope.objects:
                if arg.keyword is not None:
                    site.keywords[arg.keyword.value] = None
                elif position < len(site.args):
                    site.args = site.args[:position] + (None,) + site.args[position + 1:]
            position += arg.keyword is None


def _passed(kind, source: refs.Attr | None = None):
    """A kind as a call passes it or an attribute stores it (summary.ArgKind). A record read
    from `self.name` holds, in the fields this file does not know, what the class stores there."""
    if kind in tf.TENSORS:
        return True
    if isinstance(kind, frozenset):
        return kind
    if isinstance(kind, Record):
        fields = []
        for name, k in kind.fields:
            if k in tf.TENSORS or isinstance(k, frozenset):
                fields.append((name, True if k in tf.TENSORS else k))
            elif k == tf.UNKNOWN and source is not None and not source.field:
                fields.append((name, frozenset((replace(source, field=name),))))
        return tuple(fields) or None
    return None


def _keyed_args(node: cst.Call):
    """(position or keyword, value) of each argument, up to the first `*args` or `**kwargs`."""
    for i, a in enumerate(node.args):
        if a.star:
            return
        yield (a.keyword.value if a.keyword is not None else i), a.value


def _store_attribute(cls: ClassSummary, name: str, kind) -> None:
    """Adds what one assignment stores in `name` to what the class's instances may hold there."""
    stored = _passed(kind)
    if stored is not None:
        cls.attr_kinds[name] = _either(cls.attr_kinds.get(name), stored)


def _either(a, b):
    """What an attribute holds when it is assigned `a` in one place and `b` in another."""
    if a is None or a == b:
        return b
    if isinstance(a, tuple) and isinstance(b, tuple):  # records: their fields, field by field
        merged = dict(a)
        for name, kind in b:
            merged[name] = _either(merged.get(name), kind)
        return tuple(merged.items())
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        return a | b
    if isinstance(a, tuple) or isinstance(b, tuple):
        return a if isinstance(a, tuple) else b  # a record here, a tensor there: fields are read
    return True  # a tensor on one path at least


_BRANCHING = (cst.If, cst.For, cst.While, cst.Try, cst.TryStar)


def _returns(block: cst.BaseSuite) -> bool:
    """Whether a block ends in `return` or `raise`: the code after its statement does not run after it."""
    last = block.body[-1] if isinstance(block, cst.IndentedBlock) and block.body else None
    if isinstance(block, cst.SimpleStatementSuite):
        last = block
    return isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and bool(last.body) \
        and isinstance(last.body[-1], (cst.Return, cst.Raise))


# The method an operator runs on an object of a class (`__matmul__` and `__invert__`: Dynamo
# 2.13 traces neither on such an object, see unresumable_blocks)
_OPERATOR_METHODS = {
    cst.Add: "__add__", cst.Subtract: "__sub__", cst.Multiply: "__mul__", cst.Divide: "__truediv__",
    cst.FloorDivide: "__floordiv__", cst.Modulo: "__mod__", cst.Power: "__pow__", cst.MatrixMultiply: "__matmul__",
    cst.LeftShift: "__lshift__", cst.RightShift: "__rshift__", cst.BitAnd: "__and__", cst.BitOr: "__or__",
    cst.BitXor: "__xor__", cst.Minus: "__neg__", cst.Plus: "__pos__", cst.BitInvert: "__invert__",
}
_COMPARISON_METHODS = {
    cst.LessThan: "__lt__", cst.GreaterThan: "__gt__", cst.LessThanEqual: "__le__", cst.GreaterThanEqual: "__ge__",
    cst.Equal: "__eq__", cst.NotEqual: "__ne__",
}
_OPERATOR_TEXT = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//", cst.Modulo: "%",
    cst.Power: "**", cst.MatrixMultiply: "@", cst.LeftShift: "<<", cst.RightShift: ">>", cst.BitAnd: "&",
    cst.BitOr: "|", cst.BitXor: "^", cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~",
}

_BOOKKEEPING_VISIT = {
    cst.Module: FileAnalyzer._visit_module,
    cst.If: FileAnalyzer._visit_if,
    cst.IfExp: FileAnalyzer._tensor_arms,
    cst.BooleanOperation: FileAnalyzer._visit_boolean_operation,
    cst.IndentedBlock: FileAnalyzer._visit_block,
    cst.Import: FileAnalyzer._visit_import,
    cst.ImportFrom: FileAnalyzer._visit_import_from,
    cst.ClassDef: FileAnalyzer._visit_class,
    cst.FunctionDef: FileAnalyzer._visit_function,
    cst.Return: FileAnalyzer._visit_return,
    cst.For: FileAnalyzer._visit_for_sources,
    cst.With: FileAnalyzer._visit_with,
    cst.Try: FileAnalyzer._visit_try,
    cst.Call: FileAnalyzer._visit_call,
    cst.Attribute: FileAnalyzer._visit_attribute,
    cst.Assign: FileAnalyzer._visit_assign,
    cst.ListComp: FileAnalyzer._visit_comprehension,
    cst.SetComp: FileAnalyzer._visit_comprehension,
    cst.GeneratorExp: FileAnalyzer._visit_comprehension,
    cst.DictComp: FileAnalyzer._visit_comprehension,
    cst.Lambda: FileAnalyzer._enter_nested_code,
    cst.SimpleStatementLine: FileAnalyzer._visit_statement,
    cst.BinaryOperation: FileAnalyzer._visit_operator,
    cst.UnaryOperation: FileAnalyzer._visit_operator,
    cst.Subscript: FileAnalyzer._visit_subscript,
    cst.Comparison: FileAnalyzer._visit_comparison,
}
_BOOKKEEPING_LEAVE = {
    cst.For: FileAnalyzer._leave_stack_holder,
    cst.With: FileAnalyzer._leave_stack_holder,
    cst.SimpleStatementLine: FileAnalyzer._leave_statement,
    **dict.fromkeys((cst.Lambda, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp),
                    FileAnalyzer._leave_nested_code),
    cst.ClassDef: FileAnalyzer._leave_class,
    cst.FunctionDef: FileAnalyzer._leave_function,
    cst.Assign: FileAnalyzer._leave_assign_sources,
    cst.AnnAssign: FileAnalyzer._leave_ann_assign,
    cst.AugAssign: FileAnalyzer._leave_aug_assign,
    cst.NamedExpr: FileAnalyzer._leave_named_expr,
    **dict.fromkeys((cst.Call, cst.BinaryOperation, cst.UnaryOperation, cst.Subscript, cst.Comparison),
                    FileAnalyzer._count_graph_op),
}


def _tensor_overrides(node: cst.ClassDef) -> frozenset:
    """The methods a class body defines whose names tensors have too."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    return frozenset(s.name.value for s in body
                     if isinstance(s, cst.FunctionDef) and s.name.value in api.TENSOR_ATTRIBUTES)


def analyze_module(module: cst.Module, path: str, module_name: str, is_package: bool,
                   rule_classes: list[type[Rule]], outer_defs: dict[str, bool] | None = None,
                   star_names: dict[str, dict[str, str]] | None = None) -> FileSummary:
    analyzer = FileAnalyzer(path, module_name, is_package, rule_classes, outer_defs, star_names)
    walk(module, analyzer, analyzer.unobserved())
    return analyzer.finish(module)
