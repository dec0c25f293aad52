"""What each module binds through `from m import *`, worked out once per project index.

`from .sub import *` binds what `sub` lists in a literal `__all__`, or without one each of
`sub`'s top-level names that does not start with `_`, those `sub` binds by star imports of
its own included; of two star imports binding a name, the later one wins. transformers'
`models/__init__.py` star-imports every model package, and each of these its modules:
searching that graph again for each name looked up made the cold CLI 2.5 times slower. So
each module's table (name -> the module that binds the name itself) is built once, after
those of the modules it star-imports (a cycle of star imports together, until it settles),
and a lookup is one dict access.

The project phase keeps resolutions between runs with the names they read
(analyzer/project_reads.py). A lookup reads `(STARRED, module, name)` and `(STARRED,
module)`, not the modules along the way: an edit of a module's top-level `name` changes the
former for the module and each module that star-imports it, directly or through others; an
edit of its star imports or its `__all__` the latter (`star_reads`).
"""
from __future__ import annotations

from typing import Iterable

from tclint.analyzer.summary import STAR, FileSummary

STARRED = "star"  # the read of a star-import lookup (see above)
_EXPORT_LISTS = (STAR, "__all__")  # top-level names (resolution_inputs) that change what a module exports whole


class StarExports:
    def __init__(self, modules: dict[str, FileSummary], tables: dict[str, dict[str, str]] | None = None):
        """`modules`: module name -> summary (ProjectIndex.modules, unrecorded); `tables`: the
        tables an earlier index of modules that say the same about names built (`tables`)."""
        self._modules = modules
        self.tables: dict[str, dict[str, str]] = {} if tables is None else tables  # module -> name -> its binder
        self._exported: dict[str, dict[str, str]] = {}  # module -> what a star import of it binds

    def binder(self, module: str, name: str) -> str | None:
        """The module that binds `module.name` itself: `module`, where it binds `name` (a def,
        a class, an import, an alias or a table), else the module of the last of its star
        imports that binds it, if one does."""
        fs = self._modules.get(module)
        if fs is None or not fs.star_imports:
            return None
        if _binds(fs, name):
            return module
        if module not in self.tables:
            self._build(module)
        return self.tables[module].get(name)

    def exported(self, module: str) -> dict[str, str]:
        """What `from module import *` binds: name -> the module that binds it itself ({}
        where the project does not hold `module`)."""
        if module not in self._modules:
            return {}
        if module not in self.tables:
            self._build(module)
        return self._exports(module)

    def _build(self, start: str) -> None:
        """The tables of `start` and of the modules it star-imports, directly or through
        others, that have none yet: by strongly connected components (Tarjan's, without
        recursion), each after the components it reaches."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack, on_stack = [start], {start}
        work = [(start, iter(self._sources(start)))]
        index[start] = low[start] = 0
        while work:
            module, sources = work[-1]
            for source in sources:
                if source in self.tables:
                    continue
                if source not in index:
                    index[source] = low[source] = len(index)
                    stack.append(source)
                    on_stack.add(source)
                    work.append((source, iter(self._sources(source))))
                    break
                if source in on_stack:
                    low[module] = min(low[module], index[source])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    at = stack.index(module)
                    self._settle(stack[at:])
                    on_stack.difference_update(stack[at:])
                    del stack[at:]

    def _sources(self, module: str) -> tuple[str, ...]:
        fs = self._modules.get(module)
        return tuple(s for s in fs.star_imports if s in self._modules) if fs is not None else ()

    def _settle(self, component: list[str]) -> None:
        """The tables of modules that star-import each other (or one alone): worked out again
        in a fixed order until none changes, at most once more than there are modules (names
        travel one module a round; a name that only goes round the cycle keeps what it had)."""
        members = sorted(component)
        for module in members:
            self.tables[module] = {}
        cyclic = len(members) > 1 or members[0] in self._sources(members[0])
        for _ in range(len(members) + 1 if cyclic else 1):
            settled = True
            for module in members:
                table = {}
                for source in self._sources(module):
                    table.update(self._exports(source))
                if table != self.tables[module]:
                    self.tables[module] = table
                    self._exported.pop(module, None)
                    settled = False
            if settled:
                break

    def _exports(self, module: str) -> dict[str, str]:
        """What `from module import *` binds: name -> the module that binds it itself."""
        found = self._exported.get(module)
        if found is None:
            fs = self._modules[module]
            own = _own_names(fs)
            through = self.tables.get(module, {})
            if fs.exports is not None:
                found = {n: module if n in own else through[n] for n in fs.exports if n in own or n in through}
            else:
                found = {n: binder for n, binder in through.items() if not n.startswith("_")}
                found.update((n, module) for n in own if not n.startswith("_"))
            self._exported[module] = found
        return found


def _binds(fs: FileSummary, name: str) -> bool:
    """Whether a module binds its top-level `name` itself (_own_names, for one name)."""
    key = f"{fs.module}.{name}"
    return name in fs.imports or name in fs.aliases or name in fs.callable_tables or key in fs.functions or (
        key in fs.classes)


def _own_names(fs: FileSummary) -> set[str]:
    """The top-level names a module binds itself that the summary knows of."""
    prefix = fs.module + "."
    names = {*fs.imports, *fs.aliases, *fs.callable_tables}
    names.update(key[len(prefix):] for key in (*fs.functions, *fs.classes)
                 if key.startswith(prefix) and "." not in key[len(prefix):])
    return names


def star_importers(files: Iterable[FileSummary]) -> dict[str, set[str]]:
    """module -> the modules that star-import it."""
    out: dict[str, set[str]] = {}
    for fs in files:
        for source in fs.star_imports:
            out.setdefault(source, set()).add(fs.module)
    return out


def star_reads(importers: dict[str, set[str]], module: str, names: Iterable[str]) -> set[tuple]:
    """The reads of star-import lookups (STARRED) an edit of `module`'s top-level `names`
    can answer otherwise: those of the module and of each that star-imports it, directly or
    through others (`importers`: star_importers)."""
    names = set(names)
    if not names:
        return set()
    reached, todo = {module}, [module]
    while todo:
        for importer in importers.get(todo.pop(), ()):
            if importer not in reached:
                reached.add(importer)
                todo.append(importer)
    whole = bool(names & set(_EXPORT_LISTS))
    return {(STARRED, m) for m in reached} if whole else {(STARRED, m, n) for m in reached for n in names}
