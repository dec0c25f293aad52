"""The compiled region of the last project phase, kept while what the walk read stands.

regions.reach walks breadth-first from the roots over each reached function's resolved
calls. Its result depends only on the roots (in order), the functions Dynamo puts in the
graph whole, and per reached function: its summary, the callees of its call sites, how many
candidates a site picked at run time has, and whether a site lies in an arm Dynamo does not
trace. An edit that leaves all of these as they were (an import nobody's calls resolve
through, a def nobody calls, most edits in a big workspace) gets the last walk back, in the
same order, so chains and first callers equal a fresh run's; the callers map built over it
stands too. Any other edit walks again, over the calls kept from the last walk (each
function's traced calls and how many candidates each call position has), working out again
only those of the functions whose part of it changed or that it reaches anew: the same walk
over the same calls, so the same region in the same order, at a small part of the cost (a
`@torch.compile` added in one file of transformers' models). `moved` then says which
functions' chains may differ from the last run's, for the findings kept with their chains.
"""
from __future__ import annotations

from operator import itemgetter

from tclint.analyzer import regions
from tclint.analyzer.call_refs import reads_call_sites


class KeptReach(regions.Walk):
    def __init__(self) -> None:
        super().__init__(None)
        self._roots: list | None = None
        self._in_graph: set[str] = set()
        self._absent: list[str] = []  # roots that named no function
        self._reached: dict | None = None
        # reached key -> (its summary, its sites' callees, whether each site in an "am I
        # compiling" arm is untraced: that can change without either). How many candidates
        # a site has (regions.ProjectIndex.dispatch_candidates) is its callees' count.
        self._edges: dict[str, tuple] = {}
        self._special: dict[str, tuple] = {}  # key -> (summary, indexes of its sites in such arms)
        # reached keys whose edge their kept callee list does not settle: a site in such an
        # arm, or one resolved from what callers pass (never kept: call_refs.reads_call_sites)
        self._volatile: set[str] = set()
        # (the keys of the files summarized otherwise, those whose kept callee list was
        # dropped) since the last walk: only their edges and the volatile ones may have
        # changed; None: any may (names worked out afresh)
        self._since: tuple[set, set] | None = None
        self._index: regions.ProjectIndex | None = None  # the last walk's, for its callers map
        self._calls: dict[str, list] = {}  # key -> its traced calls (Walk.calls), while its edge stands
        self._counts: dict[str, dict] = {}  # key -> its candidates per position (Walk.candidates), likewise
        # (the last run's region, the keys whose chain may differ from theirs in it), where
        # this run's region was walked over the kept calls; None: every key's may
        self.moved: tuple[dict, set[str]] | None = None

    @property
    def reached(self):
        """The keys of the last walk's compiled region (none before a walk)."""
        return self._reached.keys() if self._reached is not None else frozenset()

    def reach(self, index: regions.ProjectIndex, roots: list[regions.Root]) -> dict:
        """regions.reach(index, roots): the last one's where nothing it read changed, else
        walked over the kept calls of the functions whose edges stand."""
        self.moved = None
        in_graph = {key for fs in index.files for ref in fs.in_graph for key in regions._compile_targets(index, ref)}
        absent = [r.function for r in roots if r.function not in index.functions]
        remade = self._refresh(index)  # key -> its edge before
        last = self._reached
        if last is not None and not remade and roots == self._roots and in_graph == self._in_graph \
                and absent == self._absent:
            self._keep_callers(index)
            return last
        self.index = index
        reached = regions.reach(index, roots, self, in_graph)
        if last is not None:
            self.moved = (last, _moved(last, reached, remade))
        # What the region lost and gained, by set operations over the keys (a walk reaches
        # 12,000 functions on transformers' models, and a new root changes few of them).
        edges = self._edges
        gone = {key: edges.pop(key) for key in edges.keys() - reached.keys()}
        for key in reached.keys() - edges.keys():
            edges[key] = self._edge(index, key)
        if last is not None:
            self._patch_callers(index, last, {**gone, **remade},
                                (reached.keys() - last.keys()) | (remade.keys() & reached.keys()))
        for kept in (self._special, self._calls, self._counts):
            for key in kept.keys() - reached.keys():
                del kept[key]
        self._volatile.intersection_update(reached)
        self._roots, self._in_graph, self._absent, self._reached = list(roots), in_graph, absent, reached
        self._index = index
        return reached

    def changed_since(self, replaced: list | None, callees_dropped: set[str]) -> None:
        """What the project index made for this run changed (resolutions.Resolutions.index):
        the (old, new) summaries `replaced`, None where it started afresh, and the functions
        whose kept callee lists it dropped. Several indexes before a walk add up."""
        if replaced is None or self._since is None:
            self._since = None
            return
        keys, dropped = self._since
        for old, new in replaced:
            keys.update(old.functions)
            keys.update(new.functions)
        dropped |= callees_dropped

    def calls(self, key: str) -> list:
        found = self._calls.get(key)
        if found is None:
            found = self._calls[key] = super().calls(key)
        return found

    def candidates(self, key: str) -> dict:
        found = self._counts.get(key)
        if found is None:
            found = self._counts[key] = super().candidates(key)
        return found

    def _keep_callers(self, index: regions.ProjectIndex) -> None:
        """The last walk's callers map for `index`, where it was built over the same region
        and sites (every reached function's edge stands)."""
        last = self._index
        if last is not None and last._callers_map is not None and last.reached == self._reached.keys():
            index._callers_map = last._callers_map
        self._index = index

    def _edge(self, index: regions.ProjectIndex, key: str) -> tuple:
        fn = index.functions[key][1]
        return fn, index.site_callees(key, fn), self._special_values(index, key, fn)

    def _special_values(self, index, key: str, fn) -> tuple:
        kept = self._special.get(key)
        if kept is None or kept[0] is not fn:
            kept = self._special[key] = (fn, tuple(i for i, site in enumerate(fn.calls) if site.unless))
            if kept[1] or any(reads_call_sites(site.ref) for site in fn.calls):
                self._volatile.add(key)
            else:
                self._volatile.discard(key)
        return tuple(index.compiling_predicate(fn.calls[i].unless) for i in kept[1])

    def _patch_callers(self, index: regions.ProjectIndex, region: dict, gone: dict[str, tuple], came: set[str]) -> None:
        """The callers map of `index` as the last run's (over `region`) with what changed
        made again: the calls of the functions `gone` (their edge then, by key: no longer
        reached or walked otherwise) out, those of the functions that `came` (reached anew
        or walked otherwise) in. Each callee's callers stay in key order, each caller's
        sites in order, as ProjectIndex.callers builds them; a callee none of them calls
        keeps its very list (KeptValues compares the lists by identity first)."""
        last = self._index
        if last is None or last._callers_map is None or last.reached != region.keys():
            return
        changed = gone.keys() | came
        if not changed:  # the same region and calls: the very map (KeptValues compares it by identity)
            index._callers_map = last._callers_map
            return
        added: dict[str, list] = {}
        for key in sorted(came):
            fn, callees, _ = self._edges[key]
            for site, resolved in zip(fn.calls, callees):
                for callee in resolved:
                    added.setdefault(callee, []).append((key, site))
        touched = set(added)
        for _, callees, _ in gone.values():
            for resolved in callees:
                touched.update(resolved)
        callers = dict(last._callers_map)
        index.callers_patch = (last._callers_map, touched)
        for callee in touched:
            entries = [e for e in callers.get(callee, ()) if e[0] not in changed] + added.get(callee, [])
            if entries:
                callers[callee] = sorted(entries, key=itemgetter(0))  # stable: a caller's sites stay in order
            else:
                callers.pop(callee, None)
        index._callers_map = callers

    def _refresh(self, index: regions.ProjectIndex) -> dict[str, tuple]:
        """Drops the kept edges and calls of the functions whose edge no longer stands (gone,
        summarized otherwise, calling otherwise); {key: its edge} of those it dropped. Asks
        only of the edges that changed_since names, and the volatile ones."""
        functions = index.functions
        since, self._since = self._since, (set(), set())
        edges = self._edges
        if since is not None:
            edges = {key: edges[key] for key in (*since[0], *since[1], *self._volatile) if key in edges}
        dropped = {}
        for key, (fn, callees, special) in edges.items():
            now = functions.get(key)
            if now is not None and now[1] is not fn and now[1] == fn:
                fn = now[1]  # a re-summarized file's function, unchanged: the same spans and sites
                self._edges[key] = (fn, callees, special)
            if now is None or now[1] is not fn:
                dropped[key] = (fn, callees, special)
                continue
            found = index.site_callees(key, fn)
            if found is not callees and found != callees or special and self._special_values(index, key, fn) != special:
                dropped[key] = (fn, callees, special)
        for key in dropped:
            del self._edges[key]
            self._calls.pop(key, None)
            self._counts.pop(key, None)
        return dropped


def _moved(before: dict, after: dict, remade: set[str]) -> set[str]:
    """The keys of `after` whose chain (regions.chain_of; project_findings' check of it) may
    differ from theirs in `before`: reached otherwise, a root whose function was summarized
    otherwise (its position), or below one of those (a caller comes before its callees)."""
    moved: set[str] = set()
    for key, how in after.items():
        if how != before.get(key) or how.caller in moved or how.caller is None and key in remade:
            moved.add(key)
    return moved
