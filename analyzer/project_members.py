"""The functions a call of the compiled region passes what may be a member of a str Enum
(CallSite.members, its own parameter passed on included), kept from one project phase to the
next (project_effect.ArgReceivers.last: no other function's StrEnumArg with no member
default holds).

A transformers/models workspace has tens of thousands of such calls (most pass a parameter
on), and resolving every reached one each run cost some 40 ms an edit. What each reached
function's calls resolve to is counted per callee and patched: the functions that joined or
left the region, those of the files re-summarized, and those with a call whose callees
depend on what callers pass (call_refs.reads_call_sites, resolved anew with each index).
Counts start afresh where the index dropped any kept resolution.
"""
from __future__ import annotations

from tclint.analyzer.call_refs import reads_call_sites
from tclint.analyzer.summary import FileSummary


class MemberReceivers:
    def __init__(self) -> None:
        self._sites: dict[str, dict[str, list]] = {}  # function -> path -> its calls passing a possible member
        self._volatile: set[str] = set()  # functions with such a call that reads_call_sites
        self._touched: set[str] = set()  # functions whose calls changed since the last count
        self._counted: dict[str, list] = {}  # reached function -> the callees of each of its calls, as counted
        self._counts: dict[str, int] = {}  # callee -> how many counted calls may run it

    def add(self, fs: FileSummary) -> None:
        for fn in fs.functions.values():
            refs = [site.ref for site in fn.calls if site.members]
            if refs:
                self._sites.setdefault(fn.key, {})[fs.path] = refs
                self._touched.add(fn.key)
                if any(reads_call_sites(ref) for ref in refs):
                    self._volatile.add(fn.key)

    def forget(self, fs: FileSummary) -> None:
        for key in fs.functions:
            by_path = self._sites.get(key)
            if by_path is not None and by_path.pop(fs.path, None) is not None:
                self._touched.add(key)
                if not by_path:
                    del self._sites[key]
                    self._volatile.discard(key)

    def resolved_otherwise(self) -> None:
        """The index dropped kept resolutions: count every call again."""
        self._counted, self._counts = {}, {}

    def clear(self) -> None:
        self._sites, self._volatile, self._touched = {}, set(), set()
        self.resolved_otherwise()

    def found(self, index, reached) -> frozenset[str]:
        """The callees of the calls of `reached` functions passing a possible member."""
        want = reached & self._sites.keys()
        for key in (self._counted.keys() - want) | ((self._touched | self._volatile) & self._counted.keys()):
            self._count(self._counted.pop(key), -1)
        for key in want - self._counted.keys():
            callees = self._counted[key] = [index.resolve_ref(ref) for refs in self._sites[key].values()
                                            for ref in refs]
            self._count(callees, 1)
        self._touched = set()
        return frozenset(self._counts)

    def _count(self, calls: list, step: int) -> None:
        counts = self._counts
        for callees in calls:
            for callee in callees:
                n = counts.get(callee, 0) + step
                if n:
                    counts[callee] = n
                else:
                    del counts[callee]
