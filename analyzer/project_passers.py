"""Which call sites pass functions to which callees, kept between project phases.

What a function's parameter runs when called (`fn(x)` in `apply(fn, x)`) comes from every
site in the project that calls that function with functions as arguments
(ProjectIndex.sites_passing_functions; with the sites passing optimizers, analyzer/optimizers.py). Transformers' models hold some 38,000 such sites;
resolving and sorting them again on every edit was a quarter of an edit's project phase.
Here each function's (and each file's module-level) sites are kept with the callees they
resolved to, and redone only where the function's summary changed or a resolution it used
was dropped (analyzer/project_reads.py calls `forget_ref`); only re-summarized files' keys
are looked at. Which site comes first does not matter: their callables are taken as a set.
"""
from __future__ import annotations

from typing import Callable, Iterable

from tclint.analyzer.call_refs import CallRef, reads_call_sites
from tclint.analyzer.summary import CallSite

Source = str  # a function's key, or a file's path for its module-level sites (a key holds no `/`)


class Passers:
    def __init__(self) -> None:
        self._sources: dict[Source, tuple[object, list[tuple[CallSite, tuple[str, ...]]]]] = {}
        self._by_callee: dict[str, dict[Source, list[CallSite]]] = {}
        self._users: dict[CallRef, set[Source]] = {}  # a resolution -> the sources that used it
        self._files: dict[str, tuple[object, list[str]]] = {}  # path -> (its summary, its function keys)
        self._dropped: set[Source] = set()  # sources forget_ref dropped, to resolve again

    def forget_ref(self, ref: CallRef) -> None:
        """A resolution was dropped: the sites that used it are resolved again."""
        for source in self._users.pop(ref, ()):
            self._drop(source)
            self._dropped.add(source)

    def refresh(self, functions: dict, files: Iterable, resolve: Callable[[CallRef], tuple[str, ...]]) -> "Passers":
        """Up to date with `functions` (key -> (file, summary), the first file to claim a key)
        and `files`, resolving new sites with `resolve`. Only the keys of files that are not
        the ones of the last call are looked at: the others' keys are claimed as they were."""
        paths = set()
        for fs in files:
            paths.add(fs.path)
            was = self._files.get(fs.path)
            if was is not None and was[0] is fs:
                continue
            keys = list(fs.functions)
            self._files[fs.path] = (fs, keys)
            self._check(fs.path, fs, fs.module_calls, resolve)
            for key in {*keys, *(was[1] if was is not None else ())}:
                claimed = functions.get(key)
                if claimed is None:
                    self._drop(key)
                else:
                    self._check(key, claimed[1], claimed[1].calls, resolve)
        for path in [p for p in self._files if p not in paths]:
            _, keys = self._files.pop(path)
            self._drop(path)
            for key in keys:
                claimed = functions.get(key)
                if claimed is None:
                    self._drop(key)
                else:
                    self._check(key, claimed[1], claimed[1].calls, resolve)
        for source in self._dropped:
            if source in self._files:
                fs = self._files[source][0]
                self._check(source, fs, fs.module_calls, resolve)
            elif source in functions:
                fn = functions[source][1]
                self._check(source, fn, fn.calls, resolve)
        self._dropped.clear()
        return self

    def _check(self, source: Source, owner, calls: list[CallSite], resolve) -> None:
        was = self._sources.get(source)
        if was is None or was[0] is not owner:
            self._update(source, owner, calls, resolve)

    def get(self, callee: str, default=()) -> list[CallSite]:
        found = self._by_callee.get(callee)
        return [site for sites in found.values() for site in sites] if found else default

    def _update(self, source: Source, owner, calls: list[CallSite], resolve) -> None:
        self._drop(source)
        pairs = [(site, resolve(site.ref)) for site in calls
                 if (site.callables or site.optimizers) and not reads_call_sites(site.ref)]
        self._sources[source] = (owner, pairs)
        for site, callees in pairs:
            self._users.setdefault(site.ref, set()).add(source)
            for callee in callees:
                self._by_callee.setdefault(callee, {}).setdefault(source, []).append(site)

    def _drop(self, source: Source) -> None:
        _, pairs = self._sources.pop(source, (None, ()))
        for site, callees in pairs:
            users = self._users.get(site.ref)
            if users is not None:
                users.discard(source)
            for callee in callees:
                by_source = self._by_callee.get(callee)
                if by_source is not None and by_source.pop(source, None) is not None and not by_source:
                    del self._by_callee[callee]
