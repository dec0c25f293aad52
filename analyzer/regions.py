"""Phase 2: the project index, the compiled regions, and the findings they keep.

Runs on FileSummaries only. Roots are compiled functions, compiled modules' forwards,
every nn.Module forward (unless `assume-forward-compiled = false`), forward hooks and
configured roots; a breadth-first walk over resolved calls gives every function in a
compiled region together with the chain of calls that reaches it.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import NamedTuple, Sequence

from tclint.analyzer.call_refs import (
    AnyMethod, ArmTensor, Attr, CallRef, CompilingTest, GivenNotNone, Entries, Getter, InputParam, KeywordObject, LeftFalsy, Method, MethodPattern, ModuleClass, NoneArg, OptimizerArg, ParamCallable, RnnOnly, Named, NumpyResult, OptionalKeys, Param, Returned,
    PrebuiltArg, ReturnedField, ReturnedMethod, ReturnedParam, ReturnsMask, STR_ENUM_REFS,
    SuperMethod, TensorType, field_condition, reads_call_sites,
)
from tclint.analyzer.knowledge.hazards import RNN_MODULE_CLASSES
from tclint.analyzer.knowledge.tensor_api import TENSOR_ATTRIBUTES, TENSORISH_METHODS
from tclint.analyzer.namespace_packages import namespace_aliases
from tclint.analyzer.project_given import given_not_none, passed_key
from tclint.analyzer.optimizers import optimizer_passed
from tclint.analyzer.project_prebuilt import prebuilt_passed
from tclint.analyzer.project_str_enums import member_source
from tclint.analyzer.project_tables import key_tables
from tclint.analyzer.star_exports import StarExports
from tclint.analyzer.summary import CallSite, FileSummary, FunctionSummary
from tclint.analyzer.tensor_facts import TENSOR_ANNOTATIONS, TRUE_UNDER_DYNAMO_WRAPPERS, is_module_base

# `obj.method()` with obj's class unknown is followed when at most this many classes
# define `method`, or all of them are one family.
MAX_CLASSES_BY_NAME = 3
# ... or when every one of them is an nn.Module, up to this many: a model built from modules
# passed in (`self.flows[i].inverse(x)`, `self.controller.adapt_step_size(...)`) may run any
# of them in its compiled code; a name defined more widely says too little about the object.
MAX_MODULE_CLASSES_BY_NAME = 40
AUTOGRAD_FUNCTION_BASES = ("torch.autograd.Function", "torch.autograd.function.Function")


@dataclass(frozen=True)
class Root:
    function: str
    reason: str  # "compiled at train.py:40", "nn.Module forward", ...


class Reach(NamedTuple):
    """How a function is reached: from `caller` through a call at `path:line`. A tuple, not a
    frozen dataclass: a walk makes one per reached function (12,000 on transformers' models)
    and KeptReach compares each with the last walk's, which a dataclass's __init__ and __eq__
    made several times slower."""

    caller: str | None
    path: str
    line: int
    column: int
    root: Root
    candidates: int = 1  # how many functions the call may run, one picked at run time


class ProjectIndex:
    def __init__(self, files: list[FileSummary], names: dict | None = None, tables: tuple | None = None):
        """`names`: what an earlier index of files that resolve names alike worked out about
        names (see name_caches; analyzer/resolutions.py), filled in further here. `tables`:
        (modules, functions, classes, methods_by_name) of these files, as
        project_tables.key_tables builds them (and keeps them patched between runs)."""
        self.files = files
        names = {} if names is None else names
        self.modules, self.functions, self.classes, self.methods_by_name = tables or key_tables(files)
        self._defs_by_name: dict[str, list[str]] | None = names.get("defs_by_name")
        self._mro: dict[str, list[str]] = names.get("mro", {})
        self._subclasses: dict[str, list[str]] | None = names.get("subclasses")
        self._returns: dict[str, bool] = {}
        self._attributes: dict[Attr, tuple[str, str] | None] = {}
        # Set by the project phase once the compiled region is known: only calls made
        # there pass tensors that matter.
        self.reached: set[str] | None = None
        self.root_keys: set[str] = set()  # entry points: their inputs come from outside
        self._callers_map: dict[str, list[tuple[str, CallSite]]] | None = None
        self._aliases: dict[str, str] | None = names.get("aliases")
        self._compiling: dict[CallRef, bool] = {}
        # (reached, root_keys, answers of _left_falsy) for the region and roots they were asked in
        self._falsy: tuple = (None, None, {})
        # what the searches below cut short (a cycle back to what is being worked out): see _settled
        self._cut_log: list = []
        self._wrappers: dict[str, list[str]] = names.get("wrappers", {})
        self._families: dict[str, bool] = names.get("families", {})
        self._resolved: dict[CallRef, tuple[str, ...]] = names.get("resolved", {})
        self._dotted: dict[str, tuple[str, str] | None] = names.get("dotted", {})
        self._stars = StarExports(self.modules, names.get("stars"))
        self._param_callables: dict[CallRef, tuple[str, ...]] = {}
        self._passers: dict[str, list[CallSite]] | None = None
        self._late_passers: dict[str, list[CallSite]] | None = None

    def name_caches(self) -> dict:
        """What this index worked out from names alone (the files' modules, imports,
        definitions and classes; see analyzer/resolutions.py), for a later index of files
        that say the same about names: none of it depends on function bodies."""
        return {"defs_by_name": self._defs_by_name, "mro": self._mro, "subclasses": self._subclasses,
                "aliases": self._aliases, "wrappers": self._wrappers, "families": self._families,
                "resolved": self._resolved, "dotted": self._dotted, "stars": self._stars.tables}

    # -- names ----------------------------------------------------------------------
    def short_name(self, key: str) -> str:
        """A function's key without its module, for messages: `Solver.step`."""
        prefix = self.functions[key][0].module + "."
        return key[len(prefix):] if key.startswith(prefix) else key

    def resolve_dotted(self, dotted: str, depth: int = 0) -> tuple[str, str] | None:
        """("function" | "class", key) for a dotted name, following re-exports."""
        if depth == 0:
            if dotted not in self._dotted:
                self._dotted[dotted] = self._resolve_dotted(dotted, 0)
            return self._dotted[dotted]
        return self._resolve_dotted(dotted, depth)

    def _resolve_dotted(self, dotted: str, depth: int) -> tuple[str, str] | None:
        if dotted in self.functions:
            return "function", dotted
        if dotted in self.classes:
            return "class", dotted
        if depth > 8:
            return None
        if dotted.endswith(".apply"):
            # `MyFunction.apply(x)` runs the autograd Function's forward, which Dynamo traces
            owner = self.resolve_dotted(dotted[:-6], depth + 1)
            if owner and owner[0] == "class" and self.is_autograd_function(owner[1]):
                forward = self.method(owner[1], "forward")
                return ("function", forward) if forward else None
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:i])
            fs = self.module_of(module, parts[i])
            if fs is None:
                real = self._namespace_aliases().get(module)  # `pkg.helpers` for a PEP 420 `helpers`
                if real is not None:
                    return self.resolve_dotted(".".join([real, *parts[i:]]), depth + 1)
                continue
            alias = fs.imports.get(parts[i])
            if alias is None:
                binder = self.star_binder(module, parts[i])
                if binder is None or binder == module:
                    return None
                return self.resolve_dotted(".".join([binder, *parts[i:]]), depth + 1)
            return self.resolve_dotted(".".join([alias, *parts[i + 1:]]), depth + 1)
        return self._reexported(dotted)

    def star_binder(self, module: str, name: str) -> str | None:
        """The module that binds `module.name` itself, following `from m import *`
        (StarExports.binder)."""
        return self._stars.binder(module, name)

    def module_of(self, module: str, name: str) -> FileSummary | None:
        """The summary of `module`, asked what it says of its top-level `name` (an import, an
        alias, a table): a TrackedIndex notes that one name read, not the whole module."""
        return self.modules.get(module)

    def _reexported(self, dotted: str) -> tuple[str, str] | None:
        """`pkg.utils.helper` when `pkg/utils/__init__.py` is not linted: the one top-level
        function or class named `helper` in a module under `pkg.utils`, if there is one."""
        package, _, name = dotted.rpartition(".")
        if not package:
            return None
        if self._defs_by_name is None:
            self._defs_by_name = {}
            for fs in self.files:
                prefix = fs.module + "."
                for key in (*fs.functions, *fs.classes):
                    if key.startswith(prefix) and "." not in key[len(prefix):]:
                        self._defs_by_name.setdefault(key[len(prefix):], []).append(key)
        found = [k for k in self._defs_by_name.get(name, ()) if k.startswith(package + ".")]
        if len(found) != 1:
            return None
        return ("function", found[0]) if found[0] in self.functions else ("class", found[0])

    def dealias(self, dotted: str, depth: int = 0) -> str:
        """What a module-level name finally stands for, through imports and `A = B`
        aliases in the linted files: `pkg.types.Tensor` -> `torch.Tensor`."""
        module, _, name = dotted.rpartition(".")
        fs = self.module_of(module, name)
        if fs is None or depth > 8:
            return dotted
        target = fs.aliases.get(name) or fs.imports.get(name)
        return dotted if target is None or target == dotted else self.dealias(target, depth + 1)

    def _namespace_aliases(self) -> dict[str, str]:
        if self._aliases is None:
            self._aliases = namespace_aliases(self.files)
        return self._aliases

    def mro(self, class_key: str) -> list[str]:
        cached = self._mro.get(class_key)
        if cached is not None:
            return cached
        self._mro[class_key] = [class_key]  # guards against cyclic bases
        order = [class_key]
        _, cls = self.classes[class_key]
        for base in cls.bases:
            resolved = self.resolve_dotted(base)
            if resolved and resolved[0] == "class":
                for k in self.mro(resolved[1]):
                    if k not in order:
                        order.append(k)
        self._mro[class_key] = order
        return order

    def external_bases(self, class_key: str) -> list[str]:
        out = []
        for k in self.mro(class_key):
            for base in self.classes[k][1].bases:
                resolved = self.resolve_dotted(base)
                if not resolved or resolved[0] != "class":
                    out.append(base)
        return out

    def is_autograd_function(self, class_key: str) -> bool:
        return any(b in AUTOGRAD_FUNCTION_BASES or b.endswith("autograd.Function") for b in self.external_bases(class_key))

    def is_module_class(self, class_key: str) -> bool:
        if self.is_autograd_function(class_key):
            return False
        external = self.external_bases(class_key)
        if any(is_module_base(b) for b in external):
            return True
        # A class with a forward and a base outside the linted tree (e.g. a library's
        # PreTrainedModel) is treated as a module.
        return any(b not in ("object",) for b in external) and self.method(class_key, "forward") is not None

    def is_rnn_only(self, class_key: str) -> bool:
        """Every instance is an nn.LSTM, nn.GRU or nn.RNN: the class derives from one, or it is
        abstract and every concrete project class derived from it does (RnnOnly)."""
        if RNN_MODULE_CLASSES & set(self.external_bases(class_key)):
            return True
        concrete = [k for k in self.subclasses(class_key) if not self.classes[k][1].abstract]
        return self.classes[class_key][1].abstract and bool(concrete) and all(
            RNN_MODULE_CLASSES & set(self.external_bases(k)) for k in concrete)

    def method(self, class_key: str, name: str, skip_first: bool = False) -> str | None:
        order = self.mro(class_key)
        for k in order[1:] if skip_first else order:
            key = self.classes[k][1].methods.get(name)
            if key is not None:
                return key
        return None

    def subclasses(self, class_key: str) -> list[str]:
        if self._subclasses is None:
            self._subclasses = {}
            for key in self.classes:
                for base in self.mro(key)[1:]:
                    self._subclasses.setdefault(base, []).append(key)
        return self._subclasses.get(class_key, [])

    def _overrides(self, class_key: str, name: str) -> list[str]:
        """What `self.name` runs in each subclass other than the class's own: the subclass's
        override, or one it inherits from another base (`class GP(Base, ExactGP)` gives
        `self(X)` in `Base` ExactGP's `__call__`)."""
        own = self.method(class_key, name)
        found = (self.method(sub, name) for sub in self.subclasses(class_key))
        return list(dict.fromkeys(k for k in found if k is not None and k != own))

    def submodule_class(self, class_key: str, attr: str) -> str | None:
        for k in self.mro(class_key):
            target = self.classes[k][1].submodules.get(attr)
            if target is not None:
                resolved = self.resolve_dotted(target)
                if resolved and resolved[0] == "class":
                    return resolved[1]
        return None

    def resolve_ref(self, ref: CallRef) -> tuple[str, ...]:
        """The function keys a call reference can run: a decorated function's wrappers, and
        the function itself (which a wrapper calls), unless every wrapper is disabled."""
        # what a parameter is given depends on call sites: cached with this index only
        cache = self._param_callables if reads_call_sites(ref) else self._resolved
        found = cache.get(ref)
        if found is None:
            found = cache[ref] = tuple(self._resolve_wrapped(ref))
        return found

    def site_callees(self, key: str, fn: FunctionSummary) -> list[tuple[str, ...]]:
        """resolve_ref of each of the function's call sites, in order."""
        return [self.resolve_ref(site.ref) for site in fn.calls]

    def _resolve_wrapped(self, ref: CallRef) -> list[str]:
        keys = self._resolve_plain(ref)
        if not any(self.functions[k][1].decorators for k in keys):
            return keys
        out: list[str] = []
        for key in keys:
            wrappers = self.wrappers(key)
            if not wrappers or not all(self.functions[w][1].disabled for w in wrappers):
                out.append(key)
            out.extend(w for w in wrappers if w not in out)
        return out

    def _all_modules(self, methods) -> bool:
        return len(methods) <= MAX_MODULE_CLASSES_BY_NAME and all(
            self.is_module_class(self.functions[k][1].class_key) for k in methods)

    def _by_name(self, name: str, package: str) -> list[str]:
        """The methods called `name`: all of them, or with `package`, those whose module is in
        that top-level package."""
        found = self.methods_by_name.get(name, [])
        if not package:
            return found
        return [k for k in found if self.functions[k][0].module.partition(".")[0] == package]

    def _one_family(self, name: str, package: str = "") -> bool:
        """Every class defining method `name` (in `package`, if given) derives from one of
        them: `op.solve()` on an object of unknown class is that family's method, however
        many override it."""
        found = self._families.get((name, package))
        if found is None:
            classes = [self.functions[k][1].class_key for k in self._by_name(name, package)]
            found = any(all(base in self.mro(c) for c in classes) for base in classes if base in self.classes)
            self._families[(name, package)] = found
        return found

    def wrappers(self, key: str) -> list[str]:
        """The functions calling a decorated function runs instead of it: what applying each
        project decorator returns (a wrapper def, a class's `__call__`)."""
        found = self._wrappers.get(key)
        if found is None:
            found = []
            for dec in self.functions[key][1].decorators:
                for k in sorted(self.callables(Returned(dec))):
                    if k in self.functions and k not in found and k != key:
                        found.append(k)
            self._wrappers[key] = found
        return found

    def callables(self, ref: CallRef, _active: set | None = None) -> set[str]:
        """Function or class keys that calling the value `ref` names runs; `Returned(ref)` is
        the value calling `ref` returns (`functools.partial(g)` runs g, an instance its `__call__`)."""
        active = _active if _active is not None else set()
        if ref in active:
            return set()
        active.add(ref)
        if isinstance(ref, Returned):
            found = set()
            for k in self.callables(ref.call, active):
                found |= self.returned_callables(k, active, ref.passed)
        elif isinstance(ref, Entries):
            found = set()
            module, _, name = self.dealias(ref.dotted).rpartition(".")
            fs = self.module_of(module, name)
            for entry in fs.callable_tables.get(name, ()) if fs is not None else ():
                found |= self.callables(entry, active)
        elif isinstance(ref, Named):
            resolved = self.resolve_dotted(ref.dotted)
            found = {resolved[1]} if resolved else set(self._module_value_call(ref.dotted))
        elif isinstance(ref, ParamCallable):
            found = set()
            for site in [*self.sites_passing_functions().get(ref.function, ()),
                         *self._parameter_calls_passing().get(ref.function, ())]:
                for where, passed in site.callables:
                    if where == ref.position or where == ref.name:
                        for value in passed:
                            found |= self.callables(value, active)
        else:
            found = set(self._resolve_plain(ref))
        active.discard(ref)
        return found

    def sites_passing_functions(self) -> dict[str, list[CallSite]]:
        """callee -> the call sites that pass it functions or optimizers (CallSite.optimizers),
        anywhere in the project (a call of a parameter is not followed to find them: its callees come from
        these sites; see _parameter_calls_passing)."""
        if self._passers is None:
            self._passers = {}
            sites = [site for _, fn in self.functions.values() for site in fn.calls]
            sites += [site for fs in self.files for site in fs.module_calls]  # `_p = effectful(f)`
            for site in sites:
                if (site.callables or site.optimizers) and not reads_call_sites(site.ref):
                    for callee in self.resolve_ref(site.ref):
                        self._passers.setdefault(callee, []).append(site)
        return self._passers

    def _parameter_calls_passing(self) -> dict[str, list[CallSite]]:
        """callee -> the calls of a parameter that pass it functions (`m = subproblem(x,
        closure)`), with this index only: their callees come from the other sites, and from
        each other (twice over: `closure(x)` in what `subproblem` runs)."""
        if self._late_passers is None:
            self._late_passers = {}
            sites = self._parameter_passing_sites()
            for _ in range(2 if sites else 0):
                self._param_callables.clear()  # resolved from the sites known so far
                for site in sites:
                    for callee in self.resolve_ref(site.ref):
                        passers = self._late_passers.setdefault(callee, [])
                        if not any(s is site for s in passers):
                            passers.append(site)
            self._param_callables.clear()
        return self._late_passers

    def _parameter_passing_sites(self) -> list[CallSite]:
        """The calls of a parameter that pass it functions, in the order of the functions."""
        return [site for _, fn in self.functions.values() if fn.passes_to_parameter for site in fn.calls
                if site.callables and reads_call_sites(site.ref)]

    def returned_callables(self, key: str, _active: set | None = None, passed: tuple = ()) -> set[str]:
        """What a value returned by calling `key` runs when it is called in turn; `passed`:
        what the call passes that names functions (Returned.passed), for a returned parameter."""
        if key in self.classes:
            call = self.method(key, "__call__")
            return {call} if call else set()
        found = set()
        for ref in self.functions[key][1].returns_callables:
            if isinstance(ref, ReturnedParam):
                for where, values in passed:
                    if where == ref.position or where == ref.name:
                        for value in values:
                            found |= self.callables(value, _active)
            else:
                found |= self.callables(ref, _active)
        return found

    def _resolve_plain(self, ref: CallRef) -> list[str]:
        if isinstance(ref, (Returned, Entries, ParamCallable)):  # what a call returned, a function from a table
            return sorted({run for k in self.callables(ref) if (run := self._run_by_calling(k))})
        if isinstance(ref, AnyMethod):
            # A name tensors have too (`z.conj()`) is mostly a tensor's method: another package's
            # class of that name is a guess, followed only among the calling package's own.
            own_only = ref.package and ref.name in TENSOR_ATTRIBUTES
            for package in (ref.package,) if own_only else ("", ref.package) if ref.package else ("",):
                found = self._by_name(ref.name, package)
                if found and (len(found) <= MAX_CLASSES_BY_NAME or self._one_family(ref.name, package)
                              or self._all_modules(found)):
                    return list(found)
            return []
        if isinstance(ref, MethodPattern):
            return self._pattern_methods(ref)
        if isinstance(ref, ReturnedMethod):
            classes = self.built_by(ref.call)
            if not classes:
                return self._resolve_plain(ref.fallback) if ref.fallback else []
            return sorted({run for cls in classes for run in self._resolve_plain(Method(cls, ref.name))})
        if isinstance(ref, Named):
            resolved = self.resolve_dotted(ref.dotted)
            if resolved is None:
                return self._module_value_call(ref.dotted)
            if resolved[0] == "function":
                return [resolved[1]]
            init = self.method(resolved[1], "__init__")
            return [init] if init else []
        name = ref.name
        resolved = self.resolve_dotted(ref.cls)
        if resolved and resolved[0] == "function" and not isinstance(ref, SuperMethod):
            # `y = MakeSolver(k); y.step()`, a name from another file taken for a class
            # (Facts.builds_instance): the method of the instances that calling it builds
            return self._resolve_plain(ReturnedMethod(Named(ref.cls), name))
        if not resolved or resolved[0] != "class":
            return []
        cls = resolved[1]
        if isinstance(ref, SuperMethod):
            found = self.method(cls, name, skip_first=True)
            return [found] if found else []
        found = self.method(cls, name)
        if isinstance(ref, Getter):
            return [found] if found and self.functions[found][1].is_property else []
        if found and self.functions[found][1].is_property:
            # `self.loss_function(...)`: the getter runs, then what it returns is called
            called = {run for k in self.returned_callables(found) if (run := self._run_by_calling(k))}
            return [found, *sorted(called - {found})]
        if found:
            # `self.step()` in a base class also runs the subclasses' overrides.
            return [found, *self._overrides(cls, name)]
        overrides = self._overrides(cls, name)
        if overrides:
            return overrides  # an abstract hook implemented by subclasses
        sub = self.submodule_class(cls, name)
        if sub is not None:
            run = self.method(sub, "forward") or self.method(sub, "__call__")
            return [run] if run else []
        for k in self.mro(cls):  # `self.step_fn = self._euler_step` in __init__, then `self.step_fn(x)`
            alias = self.classes[k][1].method_aliases.get(name)
            if alias is not None and alias != name:
                found = self.method(cls, alias)
                return [found] if found else []
        if name == "__call__" and self.is_module_class(cls):
            fwd = self.method(cls, "forward")  # calling a module instance runs its forward
            return [fwd] if fwd else []
        # `self.grid = self._grid_from(step)` in __init__, where `_grid_from` returns a nested def
        stored = set()
        for k in self.mro(cls):
            for value in self.classes[k][1].attr_callables.get(name, ()):
                stored |= self.callables(value)
        if not stored and any(name in self.classes[k][1].object_attrs for k in self.mro(cls)):
            # `self.bm = bm` in __init__, then `self.bm(t)`: an object's `__call__`, followed
            # as `obj.method()` is, when few classes (or one family) define it
            return self._resolve_plain(AnyMethod("__call__"))
        return sorted({run for k in stored if (run := self._run_by_calling(k))})

    def built_by(self, call: CallRef, _active: set | None = None) -> set[str]:
        """The class keys of the fresh instances calling `call` gives: the classes it calls
        (`S(k)`; `solver_fn(...)`, with `solver_fn` a class that `select(...)` returned or a
        table held), and those the functions it runs return, made in turn by calls
        (FunctionSummary.returns_built: `return SOLVERS[name](dtype)`, `return make(k)`)."""
        active = _active if _active is not None else set()
        if call in active:
            return set()
        active.add(call)
        built = {k for k in self.callables(call) if k in self.classes}
        for key in self.resolve_ref(call):
            for made_by in self.functions[key][1].returns_built:
                built |= self.built_by(made_by, active)
        return built

    def _module_value_call(self, dotted: str) -> list[str]:
        """`_param(...)` where the module holds `_param = effectful(f)` (what that call returned
        runs), and `STORE.get(...)` where it holds `STORE = Store()` (the class's method)."""
        module, _, name = self.dealias(dotted).rpartition(".")
        fs = self.module_of(module, name)
        if fs is not None and name in fs.callable_tables:
            return self._resolve_plain(Entries(f"{module}.{name}"))
        owner, _, method = dotted.rpartition(".")
        module, _, name = self.dealias(owner).rpartition(".")
        fs = self.module_of(module, name)
        found: list[str] = []
        for value in fs.callable_tables.get(name, ()) if fs is not None else ():
            built = self.resolve_dotted(value.call.dotted) if isinstance(value, Returned) and isinstance(
                value.call, Named) else None
            if built and built[0] == "class":
                found.extend(k for k in self._resolve_plain(Method(built[1], method)) if k not in found)
        return found

    def _pattern_methods(self, ref: MethodPattern) -> list[str]:
        """Every method of the class, its bases and its subclasses whose name fits the pattern,
        as `self.<name>()` would run it."""
        resolved = self.resolve_dotted(ref.cls)
        if not resolved or resolved[0] != "class":
            return []
        names = {name for k in (*self.mro(resolved[1]), *self.subclasses(resolved[1]))
                 for name in self.classes[k][1].methods
                 if len(name) > len(ref.prefix) + len(ref.suffix)
                 and name.startswith(ref.prefix) and name.endswith(ref.suffix)}
        found: list[str] = []
        for name in sorted(names):
            found.extend(k for k in self._resolve_plain(Method(ref.cls, name)) if k not in found)
        return found

    def dispatch_candidates(self, ref: CallRef) -> int:
        """How many functions a call picked at run time may run (a name built from a string,
        a table's entries, what a call returned); 1 for a call whose callee (or override) the code names."""
        if isinstance(ref, (MethodPattern, Entries, Returned, ParamCallable)):
            return max(1, len(self.resolve_ref(ref)))
        return 1

    def _run_by_calling(self, key: str) -> str | None:
        """The function calling a function or class key runs (a class: its `__init__`)."""
        return key if key in self.functions else self.method(key, "__init__")

    def compiling_predicate(self, refs: frozenset) -> bool:
        """True if one of `refs` is an "am I compiling" predicate, known by what its body
        returns (a function outside the linted code only by its name), or a parameter left
        falsy (or None) by every compiled caller (`LeftFalsy`, known once the compiled region is)."""
        return any(self._left_falsy_in_region(ref) if isinstance(ref, (LeftFalsy, GivenNotNone))
                   else self._is_compiling(ref, set()) for ref in refs)

    def _left_falsy_in_region(self, ref: LeftFalsy) -> bool:
        """_left_falsy(ref), worked out once per compiled region and set of roots: the reach,
        the findings loop and the passes each ask it of the same sites. (A TrackedIndex keeps
        them between runs, with the roots and callers each read: project_reads.)"""
        reached, roots, answers = self._falsy
        if reached is not self.reached or roots is not self.root_keys:
            reached, roots, answers = self._falsy = (self.reached, self.root_keys, {})
        found = answers.get(ref)
        if found is None:
            found = answers[ref] = self._left_falsy(ref)
        return found

    def _left_falsy(self, ref: LeftFalsy, _active: set | None = None) -> bool:
        """Every compiled caller leaves the parameter falsy (None, for `ref.none`): leaves it
        at such a default, passes such a constant, or passes on a parameter of its own that
        is left so."""
        active = _active if _active is not None else set()
        if isinstance(ref, GivenNotNone):
            return given_not_none(self, ref, active)
        if self.reached is None or ref.function in self.root_keys or ref in active:
            return False  # while reaching, or an entry point: its callers are not all known
        sites = self.callers().get(ref.function, ())
        active.add(ref)
        try:
            for _, site in sites:
                if site.spreads:
                    return False
                key = passed_key(ref, site)
                if key == ref.name and key not in site.keywords:
                    if ref.default == "None" or ref.default and not ref.none:
                        continue  # left at its default
                    return False
                passed = dict(site.falsy)
                if key not in passed:
                    return False
                value = passed[key]  # None, False (another falsy constant) or the caller's guard
                if value is False and ref.none or isinstance(value, LeftFalsy) and not self._left_falsy(
                        replace(value, none=ref.none), active):
                    return False
            return bool(sites)
        finally:
            active.discard(ref)

    def _is_compiling(self, ref: CallRef, active: set) -> bool:
        if ref in self._compiling:
            return self._compiling[ref]
        if ref in active:
            self._cut_log.append(ref)
            return False
        mark = len(self._cut_log)
        active.add(ref)
        keys = self._resolve_plain(ref)
        if keys:
            values = [self.functions[k][1].under_dynamo for k in keys]
            result = all(v is True or isinstance(v, frozenset) and any(self._is_compiling(r, active) for r in v)
                         for v in values)
        else:
            result = isinstance(ref, Named) and ref.dotted.rpartition(".")[2] in TRUE_UNDER_DYNAMO_WRAPPERS
        active.discard(ref)
        if self._settled(mark, active) or result:
            self._compiling[ref] = result
        return result

    def _settled(self, mark: int, active: set) -> bool:
        """Whether the answer worked out since the cut log stood at `mark` holds however the
        search got there. A True always does (each search only ORs and ANDs what it finds); a
        False is provisional while a cycle it cut is still being worked out above it (a search
        started here would go on through that entry): kept, it would make answers depend on
        which question a run asked first. The cuts still open are handed up to that entry."""
        open_cuts = {entry for entry in self._cut_log[mark:] if entry in active}
        del self._cut_log[mark:]
        self._cut_log.extend(open_cuts)
        return not open_cuts

    def returns_tensor(self, key: str, _active: set | None = None) -> bool:
        if key in self._returns:
            return self._returns[key]
        active = _active if _active is not None else set()
        if key in active:
            self._cut_log.append(key)
            return False
        mark = len(self._cut_log)
        active.add(key)
        fn = self.functions[key][1]
        result = fn.returns in ("tensor", "mask") or (
            isinstance(fn.returns, frozenset) and self.condition_holds(fn.returns, active))
        active.discard(key)
        if self._settled(mark, active) or result:
            self._returns[key] = result
        return result

    def condition_holds(self, condition, _active: set | None = None) -> bool:
        return self.tensor_source(condition, _active) is not None

    def tensor_source(self, condition, _active: set | None = None) -> tuple[str, str] | None:
        """(who, what it does) that makes a condition true, if anything: a function that
        "returns a tensor", a submodule call (`self.attr`), or a caller that "passes a
        tensor as `x`"."""
        active = _active if _active is not None else set()
        for ref in sorted(condition, key=str):
            if isinstance(ref, NumpyResult):  # only where a value's truth is read: see Condition
                for key in self.resolve_ref(ref.call):
                    if self.functions[key][1].returns == "ndarray":
                        return key, "returns a NumPy value, which Dynamo traces as a tensor"
                continue
            if isinstance(ref, CompilingTest):
                if self._is_compiling(ref.call, set()):
                    keys = self._resolve_plain(ref.call)
                    return (keys[0] if keys else str(ref.call)), "returns True while Dynamo traces"
                continue
            if isinstance(ref, Param):
                if not ref.field and ref.function in self.root_keys and ref.name in self.functions[ref.function][1].inputs:
                    return ref.function, f"receives `{ref.name}` as an input"
                caller = self._caller_passing_tensor(ref, active)
                if caller is not None:
                    return caller, f"passes a tensor as `{ref.path}`"
                continue
            if isinstance(ref, InputParam):
                root = self._passes_input(ref, active)
                if root is not None:
                    return root, (f"receives `{ref.name}` as an input" if root == ref.function
                                  else f"passes its input on to `{ref.name}` unchanged")
                continue
            if isinstance(ref, KeywordObject):
                found = self._keyword_object(ref, active)
                if found is not None:
                    return found
                continue
            if isinstance(ref, ArmTensor):
                if not self.compiling_predicate(ref.guards):
                    return ref.function, f"binds `{ref.name}` to a tensor in an arm its compiled callers may run"
                continue
            if isinstance(ref, NoneArg):
                caller = self._caller_passing_none(ref, active)
                if caller is not None:
                    return caller, f"passes `{ref.name}` as None under torch.compile"
                continue
            if isinstance(ref, TensorType):
                if self.dealias(ref.dotted) in TENSOR_ANNOTATIONS:
                    return ref.dotted, "is torch.Tensor"
                continue
            if isinstance(ref, OptionalKeys):
                resolved = self.resolve_dotted(ref.cls)
                if resolved and resolved[0] == "class" and any(
                        self.classes[k][1].optional_keys for k in self.mro(resolved[1])):
                    return resolved[1], "is a TypedDict with optional keys"
                continue
            if isinstance(ref, ModuleClass):
                resolved = self.resolve_dotted(ref.cls)
                if resolved and resolved[0] == "class" and self.is_module_class(resolved[1]):
                    return resolved[1], "is an nn.Module"
                continue
            if isinstance(ref, RnnOnly):
                resolved = self.resolve_dotted(ref.cls)
                if resolved and resolved[0] == "class" and self.is_rnn_only(resolved[1]):
                    return resolved[1], "is only ever an LSTM, GRU or RNN (abstract, as its subclasses are)"
                continue
            if isinstance(ref, OptimizerArg):
                found = optimizer_passed(self, ref, active)
                if found is not None:
                    return found
                continue
            if isinstance(ref, PrebuiltArg):
                found = prebuilt_passed(self, ref, active)
                if found is not None:
                    return found
                continue
            if isinstance(ref, STR_ENUM_REFS):
                found = member_source(self, ref, active)
                if found is not None:
                    return found
                continue
            if isinstance(ref, Attr):
                found = self._attribute_source(ref, active)
                if found is not None:
                    return found
                continue
            if isinstance(ref, ReturnedField):
                found = self._field_source(ref, active)
                if found is not None:
                    return found
                continue
            if isinstance(ref, ReturnsMask):
                for key in self.resolve_ref(ref.call):
                    fn = self.functions[key][1]
                    if fn.returns == "mask" or fn.mask_params and all(
                            any(p.position in ref.tensors or p.name in ref.tensors for p in compared)
                            for compared in fn.mask_params):
                        return key, "returns a boolean mask"
                continue
            if isinstance(ref, Method) and self._is_submodule_call(ref):
                return f"self.{ref.name}", "returns a tensor"
            returned = self._tensor_method_of_returned(ref) if isinstance(ref, Method) else None
            if returned is not None:
                return returned, f"returns no instance of a class: `.{ref.name}()` is a tensor method"
            for key in self.resolve_ref(ref):
                if self.functions[key][1].name != "__init__" and self.returns_tensor(key, active):
                    return key, "returns a tensor"
        return None

    def _caller_passing_none(self, ref: NoneArg, active: set) -> str | None:
        """The first compiled caller whose call passes None under torch.compile as the
        parameter (CallSite.none_args), itself or through callers that pass on their own
        `**kwargs` (`inner(x, **kwargs)`, given `mask=mask` by a caller), if any."""
        if ref in active:
            return None
        active.add(ref)
        try:
            for caller, site in self.callers().get(ref.function, ()):
                key = ref.position if 0 <= ref.position < len(site.args) else ref.name
                for passed, condition in site.none_args:
                    if passed == key and (not condition or any(
                            self._is_compiling(r.call, set()) if isinstance(r, CompilingTest)
                            else self._caller_passing_none(r, active) is not None for r in condition)):
                        return caller
                if key == ref.name and key not in site.keywords and site.forwards_kwargs and key not in (
                        self.functions[caller][1].keyword_params or ()) and \
                        self._caller_passing_none(NoneArg(caller, -1, key), active) is not None:
                    return caller
            return None
        finally:
            active.discard(ref)

    def _field_source(self, ref: ReturnedField, active: set) -> tuple[str, str] | None:
        """A callee `ref.call` may run whose returned tuples hold a tensor at `ref.index`."""
        if ref in active:
            self._cut_log.append(ref)
            return None
        active.add(ref)
        try:
            for key in self.resolve_ref(ref.call):
                fields = self.functions[key][1].returns_fields
                held = fields[ref.index] if ref.index < len(fields) else None
                if ref.element and held == "tensors":
                    return key, f"returns a list of tensors as field {ref.index} of its tuple"
                if ref.mask:
                    if held == "mask":
                        return key, f"returns a boolean mask as field {ref.index} of its tuple"
                elif held in ("tensor", "mask") or isinstance(held, frozenset) and self.condition_holds(held, active):
                    return key, f"returns a tensor as field {ref.index} of its tuple"
            return None
        finally:
            active.discard(ref)

    def _attribute_source(self, ref: Attr, active: set) -> tuple[str, str] | None:
        """The class that stores a tensor where `ref` says: the attribute's class, one of its
        bases or one of its subclasses (any of them may be the instance's class), by an
        assignment or a property's getter."""
        if ref in self._attributes:
            return self._attributes[ref]
        resolved = self.resolve_dotted(ref.cls)
        if ref in active:
            self._cut_log.append(ref)
            return None
        if not (resolved and resolved[0] == "class"):
            return None
        mark = len(self._cut_log)
        active.add(ref)
        found = None
        try:
            for key in (*self.mro(resolved[1]), *self.subclasses(resolved[1])):
                stored = self.classes[key][1].attr_kinds.get(ref.name)
                if ref.field:
                    stored = _field_of(stored, ref.field)
                if stored is True or isinstance(stored, frozenset) and self.condition_holds(stored, active):
                    found = key, f"stores a tensor in `{ref.name}{'.' + ref.field if ref.field else ''}`"
                    break
                getter = None if ref.field else self.classes[key][1].methods.get(ref.name)
                if getter and self.functions[getter][1].is_property and self.returns_tensor(getter, active):
                    found = getter, f"returns a tensor from the property `{ref.name}`"
                    break
            return found
        finally:
            active.discard(ref)
            if self._settled(mark, active) or found is not None:
                self._attributes[ref] = found

    def _caller_passing_tensor(self, ref: Param, active: set) -> str | None:
        """A compiled caller that passes a tensor to the parameter `ref` names."""
        if ref in active:
            self._cut_log.append(ref)
            return None
        active.add(ref)
        callee, name, field, position = ref.function, ref.name, ref.field, ref.position
        fn = self.functions[callee][1]
        if position > 0 and fn.name == "forward" and fn.class_key and self.is_autograd_function(fn.class_key):
            position -= 1  # `Fn.apply(a, b)` runs `forward(ctx, a, b)`
        for caller, site in self.callers().get(callee, ()):
            passed = site.args[position] if 0 <= position < len(site.args) else site.keywords.get(name)
            if passed is None and name not in site.keywords and site.forwards_kwargs:
                passed = frozenset((Param(caller, -1, name),))  # if the caller was given it as a keyword
            if field:
                passed = _field_of(passed, field)
            elif isinstance(passed, tuple):
                passed = None  # a record, not a tensor
            if isinstance(passed, frozenset) and name in fn.non_tensor_params:
                passed = frozenset(r for r in passed if not self._entry_input(r))  # `k=0`, `range(k)`: a number
            if passed is True or isinstance(passed, frozenset) and self.condition_holds(passed, active):
                active.discard(ref)
                return caller
        active.discard(ref)
        return None

    def _entry_input(self, ref) -> bool:
        """`ref` is an entry point's un-annotated input, only assumed to be a tensor."""
        return (isinstance(ref, Param) and not ref.field and ref.function in self.root_keys
                and ref.name in self.functions[ref.function][1].inputs)

    def _keyword_object(self, ref: KeywordObject, active: set) -> tuple[str, str] | None:
        """A compiled caller that passes a value that is no Python constant under a keyword
        landing in `ref.function`'s `**kwargs`: itself, or through callers that pass on their
        own `**kwargs` (`super().__init__(x, kernel=kernel, **params)`)."""
        named = self.functions[ref.function][1].keyword_params
        if ref in active:  # nothing here is kept, so a cycle cut needs no note (`_settled`)
            return None
        if named is None or ref.function in self.root_keys:
            return None  # no `**kwargs`, or an entry point: what its callers pass is not known
        active.add(ref)
        try:
            for caller, site in self.callers().get(ref.function, ()):
                for key, passed in site.objects:
                    if isinstance(key, str) and key not in named and (
                            passed is True or self._passes_object(passed, active)):
                        return caller, f"passes `{key}=` a value that is no Python constant into `**kwargs`"
                if site.forwards_kwargs:
                    found = self._keyword_object(KeywordObject(caller), active)
                    if found is not None:
                        return found
            return None
        finally:
            active.discard(ref)

    def _passes_input(self, ref: InputParam, active: set) -> str | None:
        """The entry point whose input the parameter `ref` names holds, unchanged: its own
        function, or one that a chain of compiled callers passes it on from (CallSite.params)."""
        if ref.function in self.root_keys:
            return ref.function
        if ref in active:  # nothing here is kept, so a cycle cut needs no note (`_settled`)
            return None
        active.add(ref)
        try:
            for _, site in self.callers().get(ref.function, ()):
                for key, passed in site.params:
                    if key in (ref.name, ref.position):
                        root = self._passes_input(InputParam(passed.function, passed.position, passed.name), active)
                        if root is not None:
                            return root
            return None
        finally:
            active.discard(ref)

    def _passes_object(self, ref: Param, active: set) -> bool:
        """A compiled caller passes the parameter `ref` names a value that is no Python
        constant (a tensor, a module, an object), itself or as its own parameter passed on."""
        if ref in active or ref.function in self.root_keys:
            return False
        active.add(ref)
        try:
            for _, site in self.callers().get(ref.function, ()):
                for key, passed in site.objects:
                    if key in (ref.name, ref.position) and (passed is True or self._passes_object(passed, active)):
                        return True
            return False
        finally:
            active.discard(ref)

    def callers(self) -> dict[str, list[tuple[str, CallSite]]]:
        """callee -> [(caller, call site)] over the compiled region (all functions until
        `reached` is set), built once, callers in a stable order: messages name the first."""
        if self._callers_map is None:
            self._callers_map = {}
            for key in sorted(self.reached) if self.reached is not None else self.functions:
                fn = self.functions[key][1]
                for site, callees in zip(fn.calls, self.site_callees(key, fn)):
                    for callee in callees:
                        self._callers_map.setdefault(callee, []).append((key, site))
        return self._callers_map

    def file_roots(self, fs: FileSummary, assume_forward_compiled: bool) -> tuple[list[Root], list[Root]]:
        """The roots a file holds: (its compile sites' and hooks', the forwards of the
        nn.Module classes it claims first); find_roots takes every file's first ones first."""
        roots: list[Root] = []
        for site in fs.compile_sites:
            where = f"compiled at {PurePath(fs.path).name}:{site.span.line}"
            for key in _compile_targets(self, site.target):
                roots.append(Root(key, where))
        for ref in fs.hook_functions:
            for key in self.resolve_ref(ref):
                roots.append(Root(key, "registered as a module hook"))
        forwards: list[Root] = []
        if assume_forward_compiled:
            for key, cls in fs.classes.items():
                fwd = cls.methods.get("forward")
                if fwd is not None and self.classes[key][0] is fs and self.is_module_class(key):
                    forwards.append(Root(fwd, "an nn.Module forward, assumed compiled"))
        return roots, forwards

    def _tensor_method_of_returned(self, ref: Method) -> str | None:
        """`y = MakeScores(x); y.sum()`, a name from another file taken for a class that is a
        function: where it builds no instance, the function, whose result's tensor method this
        is (as `.sum()` of what any other function returns is taken for a tensor's)."""
        if ref.name not in TENSORISH_METHODS or isinstance(ref, SuperMethod):
            return None
        resolved = self.resolve_dotted(ref.cls)
        if resolved and resolved[0] == "function" and not self.built_by(Named(ref.cls)):
            return resolved[1]
        return None

    def _is_submodule_call(self, ref: Method) -> bool:
        resolved = self.resolve_dotted(ref.cls)
        return bool(resolved and resolved[0] == "class" and self.method(resolved[1], ref.name) is None
                    and self.submodule_class(resolved[1], ref.name) is not None)


def find_roots(index: ProjectIndex, assume_forward_compiled: bool, configured: list[str]) -> list[Root]:
    roots: list[Root] = []
    forwards: list[Root] = []
    for fs in index.files:
        own, own_forwards = index.file_roots(fs, assume_forward_compiled)
        roots += own
        forwards += own_forwards
    roots += forwards
    for spec in configured:
        key = spec.replace(":", ".")
        if key in index.functions:
            roots.append(Root(key, "a configured root"))
        elif key in index.classes:
            fwd = index.method(key, "forward")
            if fwd:
                roots.append(Root(fwd, "a configured root"))
    return roots


def _compile_targets(index: ProjectIndex, ref: CallRef) -> Sequence[str]:
    if isinstance(ref, Named):
        resolved = index.resolve_dotted(ref.dotted)
        if resolved is None:
            return []
        if resolved[0] == "function":
            return [resolved[1]]
        fwd = index.method(resolved[1], "forward")
        return [fwd] if fwd else []
    return index.resolve_ref(ref)


def reach(index: ProjectIndex, roots: list[Root], walk: "Walk | None" = None,
          in_graph: set[str] | None = None) -> dict[str, Reach]:
    """Every function in a compiled region, with how it is first reached. `walk`: each
    function's traced calls, where the caller keeps them between runs (project_reach);
    `in_graph`: the functions Dynamo puts in the graph whole, where the caller has them."""
    walk = walk if walk is not None else Walk(index)
    reached: dict[str, Reach] = {}
    queue: deque[str] = deque()
    # Explicit compile sites first, so chains name them rather than the forward assumption.
    for root in sorted(roots, key=lambda r: 0 if r.reason.startswith("compiled") else 1):
        if root.function in reached or root.function not in index.functions:
            continue
        fs, _ = index.functions[root.function]
        reached[root.function] = Reach(None, fs.path, 0, 0, root)
        queue.append(root.function)
    if in_graph is None:
        in_graph = {key for fs in index.files for ref in fs.in_graph for key in _compile_targets(index, ref)}
    while queue:
        key = queue.popleft()
        candidates = None  # counted once a site reaches a function first (most reach none)
        for site, callee in walk.calls(key):
            if callee in reached or callee in in_graph:
                continue
            if candidates is None:
                candidates = walk.candidates(key)
            reached[callee] = Reach(key, index.functions[key][0].path, site.span.line, site.span.column,
                                    reached[key].root, candidates[(site.span.line, site.span.column)])
            queue.append(callee)
    return reached


class Walk:
    """What reach reads of each function it reaches, worked out from the index."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index

    def calls(self, key: str) -> list[tuple[CallSite, str]]:
        """(call site, callee) of each call Dynamo traces into, in order: none in a
        torch.compiler.disable'd function, none in an arm Dynamo does not trace."""
        index = self.index
        fn = index.functions[key][1]
        if fn.disabled:
            return []
        return [(site, callee) for site, callees in zip(fn.calls, index.site_callees(key, fn))
                if not (site.unless and index.compiling_predicate(site.unless)) for callee in callees]

    def candidates(self, key: str) -> dict[tuple[int, int], int]:
        """How many functions each call position of `key` may run: a call of a function picked
        at run time (from a table, by a built name) is one site per entry or one site naming
        several methods, and each callee is one of the candidates."""
        candidates: dict[tuple[int, int], int] = {}
        for site in self.index.functions[key][1].calls:
            where = (site.span.line, site.span.column)
            candidates[where] = candidates.get(where, 0) + self.index.dispatch_candidates(site.ref)
        return candidates


def chain_of(index: ProjectIndex, reached: dict[str, Reach], key: str) -> list[tuple[str, Reach]]:
    """[(function key, how it is reached)] from the root down to `key`."""
    steps = []
    seen = set()
    while key is not None and key not in seen:
        seen.add(key)
        r = reached[key]
        steps.append((key, r))
        key = r.caller
    return list(reversed(steps))


def _field_of(kind, field: str):
    """What `value.field` holds, given what `value` holds (summary.ArgKind): a record's field,
    or where `value` is read from a parameter or attribute, that source's field. An attribute
    of a tensor (`t.is_sorted`) or of an unknown is not a tensor."""
    if isinstance(kind, tuple):
        return dict(kind).get(field)
    if isinstance(kind, frozenset):
        return field_condition(kind, field) or None
    return None
