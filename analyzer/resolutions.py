"""What the project index resolved, kept from one project phase to the next.

Resolving call references and dotted names, class hierarchies and the wrappers decorators
make (ProjectIndex's name caches) is most of a big workspace's project phase: a transformers
checkout resolves some 120,000 references. All of it depends only on what the files say
about names: each file's path, module, imports, star imports and literal `__all__`,
`A = B` aliases and tables of functions, the keys of its functions with their class, decorators, disabled flag, property flag, the
callables they return and what made the instances they return, and its classes (bases,
methods, submodules, method aliases, stored callables, attributes holding objects), in file
order (the first file to claim a name keeps it).

An edit inside a function body changes none of these, so the next phase reuses all of it.
An edit that changes what a file says about names (an import, a def added or renamed, a
class's bases) drops only the entries that read a name it changed (analyzer/project_reads.py
records them): each top-level name of the module whose import, alias, table, def or class
(with what is under it) changed, the methods it defines, its top-level defs; and, where a
class's order changed, the methods of that class, since its superclasses' overrides changed.
A new, removed or renamed file, a key two files claim, or keys that come in another order
start afresh.
"""
from __future__ import annotations

from typing import Any

from tclint.analyzer.per_file import PerFile
from tclint.analyzer.project_effect import ArgReceivers
from tclint.analyzer.project_findings import KeptFindings
from tclint.analyzer.project_reach import KeptReach
from tclint.analyzer.project_reads import EVERYTHING, NAME, SUBCLASSES, Groups, TrackedIndex, parameter_passing_sites
from tclint.analyzer.project_tables import KeyTables
from tclint.analyzer.project_values import KeptValues
from tclint.analyzer.star_exports import star_importers, star_reads
from tclint.analyzer.summary import STAR, FileSummary

# The caches TrackedIndex keeps per entry, and the tables it rebuilds or patches; any other
# name cache of ProjectIndex is kept only while no file changes its names.
ENTRY_CACHES = ("resolved", "dotted", "mro", "wrappers", "families", "module_classes", "roots")
TABLES = ("subclasses", "defs_by_name", "aliases")
# per function, dropped with the resolutions they used
CALLEES = ("callees", "callee_users", "passers")


class Resolutions:
    def __init__(self) -> None:
        self._order: list[tuple[str, str]] = []  # (path, module) of each file, in order
        self._by_path: dict[str, tuple[FileSummary, tuple]] = {}  # path -> (summary, its inputs)
        self.names: dict[str, Any] = {}  # ProjectIndex.name_caches() of the last index
        self.reads: dict[tuple, frozenset] = {}  # entry of a name cache -> the names it read
        self.groups = Groups()  # names read -> the entries that read just those
        self.last: tuple[int, int] = (0, 0)  # (files whose names changed, entries dropped) by the last index
        self.tables = KeyTables()
        self.region = KeptReach()  # the compiled region, kept while what it read stands
        self.values = KeptValues()  # answers about values, kept while what they read stands
        self.findings = KeptFindings()  # each reached function's own findings, kept while what they read stands
        self.arg_receivers = ArgReceivers()
        self.patched = PerFile(FileSummary.patched_functions)  # for project._dynamo_config
        self.passing = PerFile(parameter_passing_sites)  # for TrackedIndex._parameter_passing_sites
        self._unframed: set = set()  # what the last index read outside its entries (TrackedIndex.unframed)
        self._files: list[FileSummary] = []  # the last index's
        self._importers: dict[str, set[str]] | None = None  # star_importers of these, once asked

    def index(self, files: list[FileSummary]) -> TrackedIndex:
        """A project index of `files` that starts from what still holds of the last one."""
        order = [(fs.path, fs.module) for fs in files]
        by_path: dict[str, tuple[FileSummary, tuple]] = {}
        # (old, new, their resolution inputs) of the files that say otherwise about names
        changed: list[tuple[FileSummary, FileSummary, tuple, tuple]] = []
        replaced: list[tuple[FileSummary, FileSummary]] = []  # (old, new) of every file re-summarized
        touched: set = set()  # every name of the files whose summary differs
        for fs in files:
            known = self._by_path.get(fs.path)
            if known is not None and known[0] is fs:
                by_path[fs.path] = known
                continue
            by_path[fs.path] = (fs, resolution_inputs(fs))
            if known is not None:
                replaced.append((known[0], fs))
                before, after = known[1], by_path[fs.path][1]
                if before != after:
                    changed.append((known[0], fs, before, after))
                if known[0] != fs:
                    touched |= {after[1], *((NAME, after[1], name) for name in before[3].keys() | after[3].keys())}
        fresh = order != self._order
        self._order, self._by_path = order, by_path
        self.values.begin_run()
        if fresh:
            self.names, self.reads, self.groups = {}, {}, Groups()
            self.values.reset()
            self.patched.clear()
            self.passing.clear()
            self.arg_receivers.clear()
        elif changed:
            for name in [n for n in self.names if n not in ENTRY_CACHES + TABLES + CALLEES]:
                del self.names[name]
        tables = self.tables.of(files, replaced, fresh)
        index = TrackedIndex(files, self.names, self.reads, self.groups, tables, self.values, self.passing)
        dropped, dirty = 0, set()
        if changed and not fresh:
            dropped, dirty = _drop_changed(index, changed, self.reads, self.groups)
            if dropped is None:
                self.names, self.reads, self.groups = {}, {}, Groups()
                self.values.reset()
                index = TrackedIndex(files, self.names, self.reads, self.groups, tables, self.values, self.passing)
        if replaced and not fresh:  # what values read of a re-summarized file is its functions' and classes' bodies too
            self.values.drop(dirty | {EVERYTHING} | touched)
        self.last = (len(files) if fresh or dropped is None else len(changed), dropped or 0)
        if dropped is None or dropped:
            self.arg_receivers.resolved_otherwise()
        self.region.changed_since(None if fresh or dropped is None else replaced, index.callees_dropped)
        self._unframed = index.unframed
        self._files, self._importers = files, None
        return index

    def read(self, name: tuple) -> bool:
        """Whether the last project phase read `name` (project_reads): a kept resolution or
        answer about values did, or a pass outside them; a module's top-level name also where
        a lookup through star imports could have found it."""
        if self._held(name):
            return True
        if name[0] != NAME:
            return False
        if self._importers is None:
            self._importers = star_importers(self._files)
        return any(self._held(read) for read in star_reads(self._importers, name[1], (name[2],)))

    def _held(self, name: tuple) -> bool:
        return self.groups.holds(name) or self.values.groups.holds(name) or name in self._unframed

    def region_found(self, index: TrackedIndex) -> None:
        """The run's compiled region and roots are set on `index`: see KeptValues.region_found."""
        self.findings.moved = self.region.moved
        self.values.region_found(index)
        self.arg_receivers.found(index)

    def keep(self, names: dict[str, Any]) -> None:
        """The caches of the index just used (ProjectIndex.name_caches), for the next run."""
        self.names = names


def _drop_changed(index: TrackedIndex, changed: list[tuple[FileSummary, FileSummary, tuple, tuple]],
                  reads: dict[tuple, frozenset], groups: Groups) -> tuple[int | None, set]:
    """Drop the entries that read a name the `changed` (old, new, ...) files say otherwise now;
    (how many, or None when the kept caches cannot be told apart (start afresh); the names
    that changed)."""
    dirty: set = {EVERYTHING}
    importers = star_importers([*index.files, *(old for old, *_ in changed)])  # before the edit or after
    for old, new, (*_, order_before, before), (*_, order_after, after) in changed:
        if (not new.module or None in before or None in after or _claimed_elsewhere(index, old, new)
                or _reordered(order_before, order_after)):
            return None, dirty
        dirty.add(new.module)
        names = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
        dirty |= {(NAME, new.module, name) for name in names}
        dirty |= star_reads(importers, new.module, names)
        before, after = _methods(old), _methods(new)
        dirty |= {("method", name) for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
        old_defs, new_defs = _top_level(old), _top_level(new)
        renamed = {name for name in old_defs.keys() | new_defs.keys() if old_defs.get(name) != new_defs.get(name)}
        dirty |= {("def", name) for name in renamed}
        if old.classes.keys() != new.classes.keys():
            dirty.add(SUBCLASSES)
        _patch_defs_by_name(index, new.module, {name: new_defs.get(name, 0) for name in renamed})
    dropped = 0
    pending = set(dirty)
    orders: dict[str, list] = {}  # class key -> its order before, where that was dropped
    while pending:
        while pending:
            hit = groups.take(pending)
            pending = set()
            for entry in hit:
                if entry[0] == "mro" and entry[1] in index._mro:
                    orders.setdefault(entry[1], index._mro[entry[1]])
                index.forget(entry)
                reads.pop(entry, None)  # an entry computed twice in one run sits in two groups
            dropped += len(hit)
            pending -= dirty
            dirty |= pending
        # A class whose order changed (worked out again now that nothing stale is left that
        # an order reads) changes its subclasses and the overrides of its methods; most orders
        # dropped (an import added to the file) come out the same.
        for key, before in orders.items():
            cls = index.classes.get(key)
            if cls is None or index.mro(key) != before:
                pending |= {SUBCLASSES, *(("method", name) for name in (cls[1].methods if cls else ()))}
        orders = {}
        pending -= dirty
        dirty |= pending
    if SUBCLASSES in dirty:
        index.forget_subclasses()
    return dropped, dirty


def _claimed_elsewhere(index: TrackedIndex, old: FileSummary, new: FileSummary) -> bool:
    """Whether a key of the file (then or now) is another file's in the index: which file
    claims it first is then what changed."""
    for keys, table in ((new.functions, index.functions), (new.classes, index.classes)):
        if any(table[key][0] is not new for key in keys):
            return True
    return any(key in index.functions for key in old.functions.keys() - new.functions.keys()) or any(
        key in index.classes for key in old.classes.keys() - new.classes.keys())


def _methods(fs: FileSummary) -> dict[str, list[tuple[str, str]]]:
    """method name -> [(class key, function key)] in the file's order (ProjectIndex.methods_by_name)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for key, cls in fs.classes.items():
        for name, fn_key in cls.methods.items():
            out.setdefault(name, []).append((key, fn_key))
    return out


def _top_level(fs: FileSummary) -> dict[str, int]:
    """Top-level name -> how many of the file's function and class keys it is (ProjectIndex._reexported)."""
    prefix = fs.module + "."
    out: dict[str, int] = {}
    for key in (*fs.functions, *fs.classes):
        if key.startswith(prefix) and "." not in key[len(prefix):]:
            out[key[len(prefix):]] = out.get(key[len(prefix):], 0) + 1
    return out


def _patch_defs_by_name(index: TrackedIndex, module: str, counts: dict[str, int]) -> None:
    """ProjectIndex's table of top-level names, if built, with the module's keys now `counts`
    times each: its order does not matter (a name counts only where one key has it)."""
    table = index.defs_by_name_table()
    if table is None:
        return
    for name, count in counts.items():
        key = f"{module}.{name}"
        keys = [k for k in table.get(name, ()) if k != key] + [key] * count
        if keys:
            table[name] = keys
        else:
            table.pop(name, None)


def _reordered(old: tuple, new: tuple) -> bool:
    """Whether the function or class keys a file had and has (resolution_inputs' order) come in
    another order (which class comes first orders subclasses and overrides)."""
    for before, after in zip(old, new):
        if before != after:
            both = set(before) & set(after)
            if [k for k in before if k in both] != [k for k in after if k in both]:
                return True
    return False


def resolution_inputs(fs: FileSummary) -> tuple:
    """What in a file's summary name resolution reads (see the module's docstring): (path,
    module, the order of its keys, top-level name -> what the file says of it and of the
    functions and classes under it)."""
    by_name: dict[str, list] = {}
    for kind, table in (("import", fs.imports), ("alias", fs.aliases)):
        for name, target in table.items():
            by_name.setdefault(name, []).append((kind, target))
    for name, entries in fs.callable_tables.items():
        by_name.setdefault(name, []).append(("table", frozenset(entries)))
    if fs.star_imports:
        by_name.setdefault(STAR, []).append(("star", fs.star_imports))
    if fs.exports is not None:
        by_name.setdefault("__all__", []).append(("exports", fs.exports))
    prefix = fs.module + "."
    for key, fn in fs.functions.items():
        by_name.setdefault(_top_name(key, prefix), []).append(
            (key, fn.class_key, tuple(fn.decorators), fn.disabled, frozenset(fn.returns_callables), fn.returns_built,
             fn.is_property))
    for key, cls in fs.classes.items():
        by_name.setdefault(_top_name(key, prefix), []).append(
            (key, cls.name, tuple(cls.bases), tuple(cls.methods.items()), tuple(cls.submodules.items()),
             tuple(cls.method_aliases.items()), tuple((k, frozenset(v)) for k, v in cls.attr_callables.items()),
             cls.object_attrs))
    return fs.path, fs.module, (tuple(fs.functions), tuple(fs.classes)), {
        name: tuple(entries) for name, entries in by_name.items()}


def _top_name(key: str, prefix: str) -> str | None:
    """The module's top-level name a function or class key is under (`Cls` of `mod.Cls.f`)."""
    if not key.startswith(prefix):  # none is made (file_analysis keys by module): start afresh
        return None
    return key[len(prefix):].partition(".")[0]
