"""Whether a re-summarized file changes the project phase at all.

A module-level `x = f(...)` is recorded in the file's `callable_tables` (what calling `x`, or
a method of `x`, may run). Most such values are of calls outside the project:
`logger = logging.get_logger(__name__)` runs nothing the project defines, with or without
the entry. An edit that only adds, drops or changes such entries (`... or None`) leaves
every finding as it was, and the project phase need not run again.

So does an edit that only adds, drops or moves a finding that waits for a caller passing
None under torch.compile (TC239 through calls, `NoneArg`) while no call in the project
passes any such None: editing a parameter's first use (`value` -> `value + 0`) is common.
"""
from __future__ import annotations

import copy
import dataclasses

from tclint.analyzer.call_refs import Named, NoneArg, Returned
from tclint.analyzer.regions import ProjectIndex
from tclint.analyzer.summary import FileSummary

_OTHER_FIELDS = tuple(f.name for f in dataclasses.fields(FileSummary) if f.name != "callable_tables")


# What ProjectIndex builds over every file and only reads after: shared with the kept ones.
_SHARED = ("defs_by_name", "aliases")


def same_in_effect(old: FileSummary, new: FileSummary, files: list[FileSummary], tables: tuple,
                   kept: dict | None = None) -> bool:
    """Whether `new` (the file `old` was) changes nothing the project phase works out.
    `files` and `tables` (project_tables.key_tables) are the project with `old` in it;
    `kept`: the name caches of its last index (resolutions.Resolutions.names), if any."""
    if any(getattr(old, name) != getattr(new, name) for name in _OTHER_FIELDS):
        if old.functions == new.functions or not _same_but_inert(old, new, files):
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


def _same_but_inert(old: FileSummary, new: FileSummary, files: list[FileSummary]) -> bool:
    """`old` and `new` differ only in their functions' findings that wait for a None passed
    under torch.compile, and no call of the project (nor of `new`) passes one."""
    if any(getattr(old, name) != getattr(new, name) for name in _OTHER_FIELDS if name != "functions"):
        return False
    if len(_PASSES_NONE) > len(files) + 64:  # keep only the project's summaries alive
        alive = {id(summary) for summary in files}
        for gone in [k for k in _PASSES_NONE if k not in alive]:
            del _PASSES_NONE[gone]
    if old.functions.keys() != new.functions.keys() or _passes_none(new) or any(map(_passes_none, files)):
        return False
    return all(before == new.functions[key] or _live(before) == _live(new.functions[key])
               for key, before in old.functions.items())


def _live(fn):
    """`fn` less its findings that wait for a None passed under torch.compile."""
    out = copy.copy(fn)
    out.candidates = [c for c in fn.candidates
                      if not c.condition or not all(isinstance(r, NoneArg) for r in c.condition)]
    return out


_PASSES_NONE: dict[int, tuple[FileSummary, bool]] = {}  # id(summary) -> (it, whether it does)


def _passes_none(summary: FileSummary) -> bool:
    """Whether a call in the file passes a value that is None under torch.compile, other than
    a parameter of its own passed on (None only if a call of its function passes one)."""
    kept = _PASSES_NONE.get(id(summary))
    if kept is None or kept[0] is not summary:
        sites = [site for fn in summary.functions.values() for site in fn.calls] + summary.module_calls
        kept = _PASSES_NONE[id(summary)] = (summary, any(
            not condition or not all(isinstance(r, NoneArg) for r in condition)
            for site in sites for _, condition in site.none_args))
    return kept[1]


def _runs_nothing(index: ProjectIndex, value) -> bool:
    """Calling `value`, or a method of what it returned, runs no project function. Only
    for a name or what calling a name returns (other values are taken to run something)."""
    call = value.call if isinstance(value, Returned) else value
    if not isinstance(call, Named) or index.callables(value):
        return False
    built = index.resolve_dotted(call.dotted)
    return built is None or built[0] != "class"  # `STORE = Store()`: STORE.get() runs Store.get
