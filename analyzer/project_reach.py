"""The compiled region of the last project phase, kept while what the walk read stands.

regions.reach walks breadth-first from the roots over each reached function's resolved
calls. Its result depends only on the roots (in order), the functions Dynamo puts in the
graph whole, and per reached function: its summary, the callees of its call sites, how many
candidates a site picked at run time has, and whether a site lies in an arm Dynamo does not
trace. An edit that leaves all of these as they were (an import nobody's calls resolve
through, a def nobody calls, most edits in a big workspace) gets the last walk back, in the
same order, so chains and first callers equal a fresh run's; the callers map built over it
stands too. Anything else walks again.
"""
from __future__ import annotations

from tclint.analyzer import regions
from tclint.analyzer.call_refs import Entries, MethodPattern, ParamCallable, Returned, ReturnedMethod

# call references whose candidate count reads what other functions pass or return
_DISPATCHED = (MethodPattern, Entries, Returned, ReturnedMethod, ParamCallable)


class KeptReach:
    def __init__(self) -> None:
        self._roots: list | None = None
        self._in_graph: set[str] = set()
        self._absent: list[str] = []  # roots that named no function
        self._reached: dict | None = None
        # reached key -> (its summary, its sites' callees, the (index, candidates, untraced)
        # of each site whose candidates or arm can change without either)
        self._edges: dict[str, tuple] = {}
        self._special: dict[str, tuple] = {}  # key -> (summary, indexes of such sites)
        self._index: regions.ProjectIndex | None = None  # the last walk's, for its callers map
        self._last: regions.ProjectIndex | None = None  # the run before, where this run has its callers map

    @property
    def reached(self):
        """The keys of the last walk's compiled region (none before a walk)."""
        return self._reached.keys() if self._reached is not None else frozenset()

    def reach(self, index: regions.ProjectIndex, roots: list[regions.Root]) -> dict:
        """regions.reach(index, roots), the last one's where nothing it read changed."""
        self._last = None
        in_graph = {key for fs in index.files for ref in fs.in_graph for key in regions._compile_targets(index, ref)}
        absent = [r.function for r in roots if r.function not in index.functions]
        if (self._reached is not None and roots == self._roots and in_graph == self._in_graph
                and absent == self._absent and self._edges_stand(index)):
            last = self._index
            if last is not None and last._callers_map is not None and last.reached == set(self._reached):
                index._callers_map = last._callers_map  # built over the same region and sites
                self._last = last
            self._index = index
            return self._reached
        reached = regions.reach(index, roots)
        self._roots, self._in_graph, self._absent, self._reached = list(roots), in_graph, absent, reached
        self._edges = {key: self._edge(index, key) for key in reached}
        self._special = {key: self._special[key] for key in reached}
        self._index = index
        return reached

    def region_found(self, index: regions.ProjectIndex) -> None:
        """The run's region and roots are set on `index`: it keeps the last run's answers of
        whether a parameter is left falsy, where they hold (ProjectIndex.keep_falsy_answers)."""
        if self._last is not None:
            index.keep_falsy_answers(self._last)
            self._last = None

    def _edge(self, index: regions.ProjectIndex, key: str) -> tuple:
        fn = index.functions[key][1]
        return fn, index.site_callees(key, fn), self._special_values(index, key, fn)

    def _special_values(self, index, key: str, fn) -> tuple:
        kept = self._special.get(key)
        if kept is None or kept[0] is not fn:
            kept = self._special[key] = (fn, tuple(i for i, site in enumerate(fn.calls)
                                                   if site.unless or isinstance(site.ref, _DISPATCHED)))
        out = []
        for i in kept[1]:
            site = fn.calls[i]
            out.append((index.dispatch_candidates(site.ref),
                        bool(site.unless) and index.compiling_predicate(site.unless)))
        return tuple(out)

    def _edges_stand(self, index: regions.ProjectIndex) -> bool:
        functions = index.functions
        for key, (fn, callees, special) in self._edges.items():
            now = functions.get(key)
            if now is None:
                return False
            if now[1] is not fn:
                if now[1] != fn:  # a re-summarized file's function, unchanged: the same spans and sites
                    return False
                fn = now[1]
                self._edges[key] = (fn, callees, special)
            found = index.site_callees(key, fn)
            if found is not callees and found != callees:
                return False
            if special and self._special_values(index, key, fn) != special:
                return False
        return True
