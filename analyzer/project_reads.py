"""Which names each kept resolution read, so that an edit drops only what it can change.

The project index caches what it works out from names: call references resolved, dotted
names, class orders, decorator wrappers, method families (ProjectIndex.name_caches), and here
which classes are nn.Modules (asked of every class, for the roots, on every run).
`TrackedIndex` records, for each entry it computes, the names it read:
- (NAME, module, name): what a module says of its top-level `name` (an import, an alias, a
  table, a def or class and all that is under it), for a name looked up in a module, and for
  a function or class key looked up, each split of the key into a dotted prefix and the name
  after it (the module that defines the key is one of the prefixes): an import added to a
  file drops only what looked up that name there;
- a module name, for a module's summary read whole;
- ("method", name): which classes define a method `name` (`obj.name()` on an object of
  unknown class, the overrides of `self.name()`);
- ("def", name): which modules define a top-level `name` (re-exports through an `__init__.py`
  that is not linted);
- (STARRED, module, name) and (STARRED, module): which module `module.name` is bound in
  through star imports (analyzer/star_exports.py);
- SUBCLASSES, for the subclasses of a class read other than for its methods' overrides;
- EVERYTHING, for a walk over every function or class.
An entry that reads another entry reads what that one read. analyzer/resolutions.py drops the
entries that read a name an edit changed, and keeps the rest.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

from tclint.analyzer.call_refs import CallRef, reads_call_sites
from tclint.analyzer.per_file import PerFile
from tclint.analyzer.project_passers import Passers
from tclint.analyzer.regions import ProjectIndex
from tclint.analyzer.star_exports import STARRED
from tclint.analyzer.summary import FileSummary

EVERYTHING = ("everything",)
NAME = "name"
SUBCLASSES = ("subclasses",)


class TrackedIndex(ProjectIndex):
    def __init__(self, files: list[FileSummary], names: dict, reads: dict[tuple, frozenset],
                 groups: "Groups", tables: tuple | None = None, values=None, passing: PerFile | None = None):
        """`reads`: entry -> the names it read, for the entries of `names`; `groups`: names
        read -> the entries that read just those (both kept between runs, filled in here). An
        entry is (cache name, its key in that cache). `tables`: see ProjectIndex. `values`:
        the answers about values kept from earlier runs, with their own reads and groups
        (analyzer/project_values.py KeptValues). `passing`: each file's calls of a parameter
        that pass it functions (parameter_passing_sites), kept between runs."""
        super().__init__(files, names, tables)
        self.values = values
        if values is not None:
            self._returns, self._attributes = values.caches["returns"], values.caches["attributes"]
            self._compiling, self._sources = values.caches["compiling"], values.caches["sources"]
            self._falsy_kept = values.caches["falsy"]
        else:
            self._sources = {}
        self._module_classes: dict[str, bool] = names.get("module_classes", {})
        self._file_roots: dict[str, tuple] = names.get("roots", {})  # path -> (summary, assume forwards, roots)
        # function key -> (its summary, resolve_ref of each call site), and call reference ->
        # the keys whose entry used it: forgetting a resolution forgets those entries.
        self._callees: dict[str, tuple] = names.get("callees", {})
        self._callee_users: dict[CallRef, set[str]] = names.get("callee_users", {})
        self._kept_passers: Passers = names.get("passers") or Passers()
        self._passing = passing
        self.callees_dropped: set[str] = set()  # the functions whose kept callee list forget() dropped
        self.reads = reads
        self.groups = groups
        # the names read by each entry being computed, innermost last; always this list (set
        # aside in place), which the views note into without holding the index: an index is
        # no cycle, so it goes when dropped even where the heap is frozen (server/heap.py)
        self._frames: list[set] = []
        self._plain = (self.modules, self.functions, self.classes, self.methods_by_name)
        everything = partial(_note_everything, self._frames)
        self._views = tuple(_Reads(d, partial(note, self._frames), everything) for d, note in zip(
            self._plain, (_note_module, _note_key, _note_key, _note_method)))
        self._interned: dict[frozenset, frozenset] = {}
        self.unframed: set = set()  # names read by no entry (a pass asking outside one): module_of
        self._overriding = 0  # inside _overrides, which notes ("method", name) instead of SUBCLASSES
        # (the map, the callees whose lists differ) where the callers map is another's patched
        # (project_reach.KeptReach): every other callee keeps that map's very list
        self.callers_patch: tuple[dict, set[str]] | None = None

    # -- recording ----------------------------------------------------------------------
    def _start(self) -> None:
        if not self._frames:
            self.modules, self.functions, self.classes, self.methods_by_name = self._views
        self._frames.append(set())

    def _finish(self, entry: tuple) -> None:
        read = self._frames.pop()
        read_now = self._interned.setdefault(frozenset(read), frozenset(read))
        if self.values is not None and entry[0] in self.values.caches:
            self.values.reads[entry] = read_now
            self.values.groups.add(read_now, entry)
        else:
            self.reads[entry] = read_now
            self.groups.add(read_now, entry)
        if self._frames:
            self._frames[-1] |= read
        else:
            self.modules, self.functions, self.classes, self.methods_by_name = self._plain

    def _reuse(self, entry: tuple) -> None:
        if self._frames:
            reads = self.values.reads if self.values is not None and entry[0] in self.values.caches else self.reads
            self._frames[-1].update(reads.get(entry, ()))  # none: the guard of a cyclic base

    def _note_method(self, name: str) -> None:
        _note_method(self._frames, name)

    def _note_everything(self) -> None:
        _note_everything(self._frames)

    def _unnoted(self):
        """What is worked out inside reads nothing for the entries being computed: their
        frames set aside (in place) and the plain tables in, until `_noted_again`."""
        frames = self._frames[:]
        self._frames.clear()
        views = self.modules, self.functions, self.classes, self.methods_by_name
        self.modules, self.functions, self.classes, self.methods_by_name = self._plain
        return frames, views

    def _noted_again(self, saved) -> None:
        frames, views = saved
        self._frames[:] = frames
        self.modules, self.functions, self.classes, self.methods_by_name = views

    def _computed(self, entry: tuple, compute: Callable[[], Any]) -> Any:
        self._start()
        try:
            return compute()
        finally:
            self._finish(entry)

    def name_caches(self) -> dict:
        return {**super().name_caches(), "module_classes": self._module_classes, "roots": self._file_roots,
                "callees": self._callees,
                "callee_users": self._callee_users, "passers": self._kept_passers}

    # -- what an edit drops (analyzer/resolutions.py) ---------------------------------------
    def forget(self, entry: tuple) -> None:
        cache, key = entry
        if cache == "resolved":
            users = self._callee_users.pop(key, ())
            for user in users:
                self._callees.pop(user, None)
            self.callees_dropped.update(users)
            self._kept_passers.forget_ref(key)
        {"resolved": self._resolved, "dotted": self._dotted, "mro": self._mro, "wrappers": self._wrappers,
         "families": self._families, "module_classes": self._module_classes,
         "roots": self._file_roots}[cache].pop(key, None)

    def forget_subclasses(self) -> None:
        self._subclasses = None  # rebuilt from the classes' orders on first use

    def defs_by_name_table(self) -> dict[str, list[str]] | None:
        return self._defs_by_name

    # -- the cached lookups ---------------------------------------------------------------
    def _cached(self, cache: str, table: dict, key, compute: Callable[[], Any]) -> Any:
        """The entry `key` of a name cache: kept (what it read is read again), or computed
        with its reads noted (`compute` stores it in `table`)."""
        if key not in table:
            return self._computed((cache, key), compute)
        self._reuse((cache, key))
        return table[key]

    def resolve_ref(self, ref: CallRef) -> tuple[str, ...]:
        # _cached, inlined: the project phase asks this of every call site it walks, some
        # 80,000 times on transformers' models, nearly all kept.
        found = self._resolved.get(ref)
        if found is None:
            return self._computed(("resolved", ref), lambda: super(TrackedIndex, self).resolve_ref(ref))
        if self._frames:
            self._reuse(("resolved", ref))
        return found

    def site_callees(self, key: str, fn) -> list[tuple[str, ...]]:
        """Kept per function while its summary and its call sites' resolutions stand: the
        project phase asks this of every reached function three times a run."""
        kept = self._callees.get(key)
        if kept is not None and kept[0] is fn:
            if self._frames:
                for site in fn.calls:
                    self._reuse(("resolved", site.ref))
            return kept[1]
        found = super().site_callees(key, fn)
        if any(reads_call_sites(site.ref) for site in fn.calls):
            return found  # what a parameter is given depends on the callers' sites: never kept
        self._callees[key] = (fn, found)
        for site in fn.calls:
            self._callee_users.setdefault(site.ref, set()).add(key)
        return found

    def _parameter_passing_sites(self):
        # Kept per file: a big workspace's every function was looked at again by each index
        # (the walk asks it of every call of a parameter it checks again).
        if self._passing is None:
            return super()._parameter_passing_sites()
        if self._frames:
            self._note_everything()
        functions = self._plain[1]
        return [site for fs in self.files for key, fn, sites in self._passing.of(fs) if functions[key][1] is fn
                for site in sites]

    def sites_passing_functions(self):
        """Kept between runs (analyzer/project_passers.py). Which sites pass functions reads
        every function of the project."""
        if self._frames:
            self._note_everything()
        if self._passers is None:
            saved = self._unnoted()
            try:
                self._passers = self._kept_passers.refresh(self.functions, self.files, self.resolve_ref)
            finally:
                self._noted_again(saved)
        return self._passers

    def resolve_dotted(self, dotted: str, depth: int = 0) -> tuple[str, str] | None:
        if depth:
            return super().resolve_dotted(dotted, depth)
        return self._cached("dotted", self._dotted, dotted, lambda: super(TrackedIndex, self).resolve_dotted(dotted))

    def mro(self, class_key: str) -> list[str]:
        return self._cached("mro", self._mro, class_key, lambda: super(TrackedIndex, self).mro(class_key))

    def wrappers(self, key: str) -> list[str]:
        return self._cached("wrappers", self._wrappers, key, lambda: super(TrackedIndex, self).wrappers(key))

    def _one_family(self, name: str, package: str = "") -> bool:
        return self._cached("families", self._families, (name, package),
                            lambda: super(TrackedIndex, self)._one_family(name, package))

    def is_module_class(self, class_key: str) -> bool:
        """Cached here (every run asks it of every class with a forward, for the roots)."""
        def compute() -> bool:
            found = self._module_classes[class_key] = super(TrackedIndex, self).is_module_class(class_key)
            return found

        return self._cached("module_classes", self._module_classes, class_key, compute)

    def file_roots(self, fs: FileSummary, assume_forward_compiled: bool):
        """Kept per file (every run asks it of every file) while its summary and the
        resolutions it read stand."""
        kept = self._file_roots.get(fs.path)
        if kept is not None and kept[0] is fs and kept[1] == assume_forward_compiled:
            self._reuse(("roots", fs.path))
            return kept[2]

        def compute():
            found = super(TrackedIndex, self).file_roots(fs, assume_forward_compiled)
            self._file_roots[fs.path] = (fs, assume_forward_compiled, found)
            return found

        return self._computed(("roots", fs.path), compute)

    def module_of(self, module: str, name: str) -> FileSummary | None:
        (self._frames[-1] if self._frames else self.unframed).add((NAME, module, name))
        return self._plain[0].get(module)

    def star_binder(self, module: str, name: str) -> str | None:
        frame = self._frames[-1] if self._frames else self.unframed
        frame.add((STARRED, module))
        frame.add((STARRED, module, name))
        return super().star_binder(module, name)

    def _reexported(self, dotted: str) -> tuple[str, str] | None:
        if self._frames:  # the table of top-level names is built from the files, not read here
            self._frames[-1].add(("def", dotted.rpartition(".")[2]))
        return super()._reexported(dotted)

    def subclasses(self, class_key: str) -> list[str]:
        if self._subclasses is None:
            # Built over every class, with none of its reads noted here: each class's order
            # records its own, and a change of one notes SUBCLASSES (resolutions.py).
            saved = self._unnoted()
            try:
                super().subclasses(class_key)
            finally:
                self._noted_again(saved)
        if self._frames and not self._overriding:
            self._frames[-1].add(SUBCLASSES)
        return super().subclasses(class_key)

    def _overrides(self, class_key: str, name: str) -> list[str]:
        """Which subclasses define `name` changes only where ("method", name) does."""
        if self._frames:
            self._note_method(name)
        self._overriding += 1
        try:
            return super()._overrides(class_key, name)
        finally:
            self._overriding -= 1


    # -- answers about values (analyzer/project_values.py) ------------------------------------
    def returns_tensor(self, key: str, _active: set | None = None) -> bool:
        return self._cached("returns", self._returns, key,
                            lambda: super(TrackedIndex, self).returns_tensor(key, _active))

    def _attribute_source(self, ref, active: set):
        return self._cached("attributes", self._attributes, ref,
                            lambda: super(TrackedIndex, self)._attribute_source(ref, active))

    def _is_compiling(self, ref: CallRef, active: set) -> bool:
        return self._cached("compiling", self._compiling, ref,
                            lambda: super(TrackedIndex, self)._is_compiling(ref, active))

    def tensor_source(self, condition, _active: set | None = None):
        if _active is not None:  # inside another answer's search: only what it finds is kept
            return super().tensor_source(condition, _active)

        def compute():
            found = self._sources[condition] = super(TrackedIndex, self).tensor_source(condition)
            return found

        return self._cached("sources", self._sources, condition, compute)

    @property
    def root_keys(self):
        return _Reads(self._roots, self._note_root, self._note_everything) if self._frames else self._roots

    @root_keys.setter
    def root_keys(self, keys: set[str]) -> None:
        self._roots = keys

    def _left_falsy_in_region(self, ref) -> bool:
        # Kept between runs with the roots and callers it read: a root added elsewhere keeps
        # the answers about the parameters of functions whose callers stay.
        if self.values is None or self.reached is None:
            return super()._left_falsy_in_region(ref)

        def compute() -> bool:
            found = self._falsy_kept[ref] = self._left_falsy(ref)
            return found

        return self._cached("falsy", self._falsy_kept, ref, compute)

    def _note_root(self, key: str) -> None:
        self._frames[-1].add(("root", key))

    def _note_callers(self, key: str) -> None:
        self._frames[-1].add(("callers", key))

    def callers_map(self) -> dict:
        """The callers map over the compiled region, built with no reads noted (each answer
        notes the functions whose callers it read)."""
        if self._callers_map is None:
            saved = self._unnoted()
            try:
                super().callers()
            finally:
                self._noted_again(saved)
        return self._callers_map

    def callers(self):
        found = self.callers_map()
        return _Reads(found, self._note_callers, self._note_everything) if self._frames else found


class Groups:
    """The entries that read just the same names, by those names: an edit tests each set of
    names once, and finds the sets that hold a changed name without looking at the others
    (a big workspace keeps some 130,000)."""

    def __init__(self) -> None:
        self._entries: dict[frozenset, set] = {}  # names read -> the entries that read just those
        self._with: dict = {}  # a name -> the sets of names that hold it

    def add(self, read: frozenset, entry: tuple) -> None:
        entries = self._entries.get(read)
        if entries is None:
            entries = self._entries[read] = set()
            for name in read:
                self._with.setdefault(name, set()).add(read)
        entries.add(entry)

    def holds(self, name) -> bool:
        """Whether an entry kept here read `name`."""
        return name in self._with

    def take(self, names: set) -> list[tuple]:
        """The entries that read one of `names`, no longer kept here."""
        hit = {read for name in names for read in self._with.get(name, ())}
        out = []
        for read in hit:
            out.extend(self._entries.pop(read))
            for name in read:
                holders = self._with[name]
                holders.discard(read)
                if not holders:
                    del self._with[name]
        return out


def _note_module(frames: list[set], module: str) -> None:
    frames[-1].add(module)


def _note_key(frames: list[set], key: str) -> None:
    # The key is some module's top-level name, or under one: one module split per dot.
    frame = frames[-1]
    i = key.find(".")
    while i != -1:
        j = key.find(".", i + 1)
        frame.add((NAME, key[:i], key[i + 1:j] if j != -1 else key[i + 1:]))
        i = j


def _note_method(frames: list[set], name: str) -> None:
    frames[-1].add(("method", name))


def _note_everything(frames: list[set]) -> None:
    frames[-1].add(EVERYTHING)


class _Reads:
    """A dict whose lookups note what they read (iteration reads EVERYTHING)."""

    __slots__ = ("_d", "_note", "_all")

    def __init__(self, d: dict, note: Callable[[Any], None], note_all: Callable[[], None]) -> None:
        self._d = d
        self._note = note
        self._all = note_all

    def __getitem__(self, key):
        self._note(key)
        return self._d[key]

    def get(self, key, default=None):
        self._note(key)
        return self._d.get(key, default)

    def __contains__(self, key) -> bool:
        self._note(key)
        return key in self._d

    def __iter__(self):
        self._all()
        return iter(self._d)

    def items(self):
        self._all()
        return self._d.items()

    def values(self):
        self._all()
        return self._d.values()

    def __len__(self) -> int:
        self._all()
        return len(self._d)


def parameter_passing_sites(fs: FileSummary) -> list[tuple[str, Any, list]]:
    """[(function key, its summary, its calls of a parameter that pass it functions)] of `fs`,
    in order (ProjectIndex._parameter_passing_sites keeps those of the functions it claims)."""
    out = []
    for key, fn in fs.functions.items():
        if fn.passes_to_parameter:
            sites = [site for site in fn.calls if site.callables and reads_call_sites(site.ref)]
            if sites:
                out.append((key, fn, sites))
    return out
