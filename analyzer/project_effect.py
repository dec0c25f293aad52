"""Whether a re-summarized file changes the project phase at all.

A module-level `x = f(...)` is recorded in the file's `callable_tables` (what calling `x`, or
a method of `x`, may run). Most such values are of calls outside the project:
`logger = logging.get_logger(__name__)` runs nothing the project defines, with or without
the entry. An edit that only adds, drops or changes such entries (`... or None`) leaves
every finding as it was, and the project phase need not run again.

So does an edit that only adds, drops or moves findings that wait for a caller passing None
under torch.compile (TC239 through calls, `NoneArg`) in functions that no compiled call can
pass such a None, or for a caller passing a member of a str Enum (TC245/TC246 on a parameter
with no such default, `StrEnumArg`) in functions that no compiled call passes one (ArgReceivers):
editing a parameter's first use (`value` -> `value + 0`) is common.

And so does an edit that only adds, drops or rebinds imports or `A = B` aliases of names
the last project phase never looked up in the module (the project reads them only through
ProjectIndex.module_of, which notes every name it is asked: analyzer/project_reads.py), or
that adds or removes top-level defs whose names it never looked up: nothing resolved to
them, so nothing reached them.
"""
from __future__ import annotations

import dataclasses

from typing import Callable, NamedTuple

from tclint.analyzer.call_refs import Named, NoneArg, Returned, StrEnumArg
from tclint.analyzer.project_members import MemberReceivers
from tclint.analyzer.project_reads import NAME
from tclint.analyzer.regions import ProjectIndex
from tclint.analyzer.summary import FileSummary

_FIELDS = tuple(f.name for f in dataclasses.fields(FileSummary))


# What ProjectIndex builds over every file and only reads after: shared with the kept ones.
_SHARED = ("defs_by_name", "aliases")


def same_in_effect(old: FileSummary, new: FileSummary, files: list[FileSummary], tables: tuple,
                   kept: dict | None = None, receivers: Received | None = None,
                   read: Callable[[tuple], bool] | None = None) -> bool:
    """Whether `new` (the file `old` was) changes nothing the project phase works out.
    `files` and `tables` (project_tables.key_tables) are the project with `old` in it;
    `kept`: the name caches of its last index (resolutions.Resolutions.names), if any;
    `receivers`: ArgReceivers.last of its last project phase, if known; `read`: whether its
    last project phase read a name (Resolutions.read), if known."""
    differ = {name for name in _FIELDS if getattr(old, name) != getattr(new, name)}
    if differ - {"functions", "callable_tables", "imports", "aliases"}:
        return False
    for field in differ & {"imports", "aliases"}:
        before, after = getattr(old, field), getattr(new, field)
        if read is None or any(read((NAME, new.module, name)) for name in before.keys() | after.keys()
                               if before.get(name) != after.get(name)):
            return False
    if "functions" in differ and not (_unread_defs_only(old, new, read) or
                                      receivers is not None and _waits_only_in(old, new, receivers)):
        return False
    names = {name for name in old.callable_tables.keys() | new.callable_tables.keys()
             if old.callable_tables.get(name) != new.callable_tables.get(name)}
    if not names:
        return True
    modules = tables[0]
    if modules.get(old.module) is not old:
        return False  # a module another file claims first: not read (but not worth the care)
    after = dict(modules)
    after[new.module] = new
    shared = {name: (kept or {}).get(name) for name in _SHARED}
    before_index = ProjectIndex(files, shared, tables)
    after_index = ProjectIndex(files, shared, (after, *tables[1:]))
    for name in names:
        values = old.callable_tables.get(name, frozenset()) | new.callable_tables.get(name, frozenset())
        for index in (before_index, after_index):
            if not all(_runs_nothing(index, value) for value in values):
                return False
        # `module.name(...)`: the table's entries when it has one, else what the module's
        # package says `name` is
        dotted = f"{new.module}.{name}"
        if before_index._module_value_call(dotted) != after_index._module_value_call(dotted):
            return False
    return True


class Received(NamedTuple):
    none: frozenset[str]  # functions a compiled call may pass a None under torch.compile
    members: frozenset[str]  # functions a compiled call passes what may be a str Enum member


class ArgReceivers:
    """The functions that a call of the compiled region (`index.reached`) may pass a None
    under torch.compile (CallSite.none_args): a None it makes, or one passed on from a
    function that receives one, as a parameter or in its `**kwargs`. A finding waiting for such a None (NoneArg) in any other
    function does not hold (ProjectIndex._caller_passing_none finds no caller). A workspace
    has a million call sites, a few thousand of them such calls: they are kept, by the
    function a None passes on from, and brought up to date only for the files re-summarized
    since the last run, so a run follows only the calls that receivers pass on through.
    Likewise the functions a call passes what may be a member of a str Enum (CallSite.members,
    its own parameter passed on included): no other function's StrEnumArg with no member
    default holds."""

    def __init__(self) -> None:
        self._files: dict[str, tuple] = {}  # path -> (the summary its calls below are of, the functions they pass on from)
        self._makes: dict[str, list] = {}  # path -> [(function, call)] of calls passing a None they make
        self._passes: dict[str, dict[str, list]] = {}  # function -> path -> [(caller, call)] passing its None on
        self._members = MemberReceivers()
        self.last: Received | None = None  # of the last run

    def found(self, index: ProjectIndex) -> None:
        self._refresh(index.files)
        reached = index.reached or set()
        receivers: set[str] = set()
        for calls in self._makes.values():
            for key, ref in calls:
                if key in reached:
                    receivers.update(index.resolve_ref(ref))
        todo = list(receivers)
        while todo:
            for calls in self._passes.get(todo.pop(), {}).values():
                for key, ref in calls:
                    if key in reached:
                        fresh = [callee for callee in index.resolve_ref(ref) if callee not in receivers]
                        receivers.update(fresh)
                        todo += fresh
        self.last = Received(frozenset(receivers), self._members.found(index, reached))

    def clear(self) -> None:
        """Forget the kept files (the project's files changed): the next run works it out."""
        self._files, self._makes, self._passes = {}, {}, {}
        self._members.clear()

    def resolved_otherwise(self) -> None:
        """The project index dropped kept resolutions (resolutions.Resolutions.index)."""
        self._members.resolved_otherwise()

    def _refresh(self, files: list[FileSummary]) -> None:
        paths = set()
        for fs in files:
            paths.add(fs.path)
            known = self._files.get(fs.path)
            if known is None or known[0] is not fs:
                self._forget(fs.path)
                self._add(fs)
        for path in [p for p in self._files if p not in paths]:
            self._forget(path)

    def _add(self, fs: FileSummary) -> None:
        makes, passes = [], {}
        self._members.add(fs)
        for fn in fs.functions.values():
            for site in fn.calls:
                if site.forwards_kwargs:  # `inner(x, **kwargs)`: passes on a None it may receive by keyword
                    passes.setdefault(fn.key, []).append((fn.key, site.ref))
                for _, condition in site.none_args:
                    if _waits_for_none_arg(condition):
                        for ref in condition:
                            passes.setdefault(ref.function, []).append((fn.key, site.ref))
                    else:  # always, or while a compiling test holds (taken to)
                        makes.append((fn.key, site.ref))
        self._files[fs.path] = (fs, frozenset(passes))
        if makes:
            self._makes[fs.path] = makes
        for function, calls in passes.items():
            self._passes.setdefault(function, {})[fs.path] = calls

    def _forget(self, path: str) -> None:
        fs, functions = self._files.pop(path, (None, ()))
        self._makes.pop(path, None)
        if fs is not None:
            self._members.forget(fs)
        for function in functions:
            by_path = self._passes[function]
            del by_path[path]
            if not by_path:
                del self._passes[function]


def _waits_for_none_arg(condition: frozenset) -> bool:
    return bool(condition) and all(isinstance(ref, NoneArg) for ref in condition)


def _waits_for_an_argument(condition: frozenset) -> bool:
    """Whether the finding holds only if a caller passes a None under torch.compile or a str
    Enum member (not left at a default that is one: an entry point's unknown caller would)."""
    return bool(condition) and all(isinstance(ref, NoneArg) or isinstance(ref, StrEnumArg) and not ref.default
                                   for ref in condition)


def _waits_only_in(old: FileSummary, new: FileSummary, receivers: Received) -> bool:
    """The functions of `old` and `new` differ only in findings that wait for a None or a str
    Enum member passed to a function that no compiled call passes one (outside `receivers`)."""
    if old.functions.keys() != new.functions.keys():
        return False
    for key, before in old.functions.items():
        after = new.functions[key]
        if before == after:
            continue
        waiting = [c for c in before.candidates + after.candidates if _waits_for_an_argument(c.condition)]
        if any(ref.function in (receivers.none if isinstance(ref, NoneArg) else receivers.members)
               for c in waiting for ref in c.condition):
            return False
        if dataclasses.replace(before, candidates=_live(before)) != dataclasses.replace(after, candidates=_live(after)):
            return False
    return True


def _unread_defs_only(old: FileSummary, new: FileSummary, read: Callable[[tuple], bool] | None) -> bool:
    """The functions of `old` and `new` differ only in top-level defs (and what they nest)
    added or removed, whose names the last run never looked up, in the module or as a
    re-export. Such a def must pass no function to a call (what a parameter runs is read from
    every such call in the project) and patch no Dynamo setting (an eager caller's patch holds
    for the whole project)."""
    before, after = old.functions, new.functions
    if read is None or before.keys() == after.keys():
        return False
    if any(before[key] is not after[key] and before[key] != after[key] for key in before.keys() & after.keys()):
        return False
    prefix = new.module + "."
    names = set()
    for key in before.keys() ^ after.keys():
        fn = before.get(key) or after[key]
        if (not key.startswith(prefix) or fn.class_key or fn.dynamo_patch
                or any(site.callables for site in fn.calls)):
            return False
        names.add(key[len(prefix):].partition(".")[0])
    return not any(read((NAME, new.module, name)) or read(("def", name)) for name in names)


def _live(fn) -> list:
    """`fn`'s findings less those that wait for a None or a str Enum member passed to it."""
    return [c for c in fn.candidates if not _waits_for_an_argument(c.condition)]


def _runs_nothing(index: ProjectIndex, value) -> bool:
    """Calling `value`, or a method of what it returned, runs no project function. Only
    for a name or what calling a name returns (other values are taken to run something)."""
    call = value.call if isinstance(value, Returned) else value
    if not isinstance(call, Named) or index.callables(value):
        return False
    built = index.resolve_dotted(call.dotted)
    return built is None or built[0] != "class"  # `STORE = Store()`: STORE.get() runs Store.get
