"""What the project index resolved, kept from one project phase to the next.

Resolving call references and dotted names, class hierarchies and the wrappers decorators
make (ProjectIndex's name caches) is most of a big workspace's project phase: a transformers
checkout resolves some 120,000 references. All of it depends only on what the files say
about names: each file's path, module, imports, `A = B` aliases and tables of functions, the
keys of its functions with their class, decorators, disabled flag, property flag and the
callables they return, and its classes (bases, methods, submodules, method aliases, stored
callables, attributes holding objects), in
file order (the first file to claim a name keeps it). An edit inside a function body changes
none of these, so the next phase reuses all of it; any other change starts afresh.
"""
from __future__ import annotations

from typing import Any

from tclint.analyzer.summary import FileSummary


class Resolutions:
    def __init__(self) -> None:
        self._inputs: tuple = ()
        self._by_file: dict[int, tuple[FileSummary, tuple]] = {}  # id(summary) -> (summary, its inputs)
        self.names: dict[str, Any] = {}  # ProjectIndex.name_caches() of the last index

    def for_files(self, files: list[FileSummary]) -> dict[str, Any]:
        """The name caches that still hold for `files` (none when names resolve otherwise)."""
        by_file = {}
        for fs in files:
            known = self._by_file.get(id(fs))
            by_file[id(fs)] = known if known is not None and known[0] is fs else (fs, resolution_inputs(fs))
        self._by_file = by_file
        inputs = tuple(by_file[id(fs)][1] for fs in files)
        if inputs != self._inputs:
            self._inputs, self.names = inputs, {}
        return self.names

    def keep(self, names: dict[str, Any]) -> None:
        """The caches of the index just used (ProjectIndex.name_caches), for the next run."""
        self.names = names


def resolution_inputs(fs: FileSummary) -> tuple:
    """What in a file's summary name resolution reads (see the module's docstring)."""
    functions = tuple((key, fn.class_key, tuple(fn.decorators), fn.disabled, frozenset(fn.returns_callables),
                       fn.is_property) for key, fn in fs.functions.items())
    classes = tuple((key, cls.name, tuple(cls.bases), tuple(cls.methods.items()), tuple(cls.submodules.items()),
                     tuple(cls.method_aliases.items()), tuple((k, frozenset(v)) for k, v in cls.attr_callables.items()),
                     cls.object_attrs)
                    for key, cls in fs.classes.items())
    tables = tuple((k, frozenset(v)) for k, v in fs.callable_tables.items())
    return fs.path, fs.module, tuple(fs.imports.items()), tuple(fs.aliases.items()), tables, functions, classes
