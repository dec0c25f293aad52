"""Each reached function's own findings, kept from one project phase to the next.

What the project phase's findings loop makes of a reached function (project.py; its own
findings, its calls, those in loops, its forks) depends only on:
- its summary and the file that claims its key;
- the rule codes enabled in it;
- the answers about its candidates' and call sites' conditions: "am I compiling" arms,
  what makes a condition true (kept between runs too: analyzer/project_values.py, and
  order-free, so asking them again costs a dict look-up);
- what each call site resolves to, whether those callees are disabled, and which call
  sites lie in arms Dynamo does not trace;
- where it has findings, its chain: the reach steps from its root, and the root's position.
An edit that leaves all of these as they were (every function of the files not edited, in
most edits) gets a copy of the last run's findings; the later passes (resume breaks,
unresumable blocks, loop skips) run over every function as before, since they read the
whole region's breaks.

For the check, each function keeps the answers about values its summary asks for (none for
most: no "am I compiling" arm, no parameter left falsy, no condition on what a value is).
While none of them was dropped since (KeptValues.dropped, its generation), the same summary,
the same codes and the same kept callee list are all that can change its inputs, and the check is a few identity
tests instead of building the inputs again (12,000 functions on transformers' models). Which functions call which, for
the passes that spread breaks up the call graph (loop_skips.Breaking), is kept too, and
brought up to date only for the functions whose calls were made again.
"""
from __future__ import annotations

from tclint.analyzer import regions
from tclint.analyzer.call_refs import GivenNotNone, LeftFalsy
from tclint.analyzer.loop_skips import FunctionFindings
from tclint.analyzer.pass_subjects import KeptSubjects


class KeptFindings:
    def __init__(self) -> None:
        # key -> (its inputs, its chain's inputs or None, the findings made from them, the
        # answers about values its summary asks for with their generation (None: no kept
        # answers), the compiled region its chain was last checked against)
        self._kept: dict[str, tuple[tuple, tuple | None, FunctionFindings, tuple | None, dict]] = {}
        self._sites = CallSites()
        self.subjects = KeptSubjects()  # for the passes after the findings loop
        self.moved: tuple[dict, set[str]] | None = None  # this run's KeptReach.moved

    def call_sites(self, found: dict[str, FunctionFindings]) -> "CallSites":
        """The callers of each function in `found` (this run's findings), for loop_skips.Breaking."""
        self._sites.update(found)
        return self._sites

    def inputs(self, index: regions.ProjectIndex, key: str, path: str, fn, codes) -> tuple:
        """What the findings loop reads of the project for function `key` (see the docstring),
        less its chain. The kept inputs themselves where they certainly stand."""
        kept = self._kept.get(key)
        if (kept is not None and kept[3] is not None and kept[0][0] is fn and kept[0][1] == path
                and (kept[0][2] is codes or kept[0][2] == codes) and index.site_callees(key, fn) is kept[0][3]
                and _answers_stand(index, kept[3])):
            return kept[0]
        candidates = tuple((bool(cand.unless) and index.compiling_predicate(cand.unless),
                            index.tensor_source(cand.condition) if cand.condition is not None else None)
                           for cand in fn.candidates if cand.code in codes)
        callees = index.site_callees(key, fn)
        arms = tuple(bool(site.unless) and index.compiling_predicate(site.unless) for site in fn.calls)
        if kept is not None and kept[0][3] is callees:
            # The same kept list: no resolution it used was dropped, and a callee's disabled
            # flag is a name resolution reads (resolutions.resolution_inputs).
            disabled = kept[0][5]
        else:
            disabled = tuple(index.functions[c][1].disabled for resolved in callees for c in resolved)
        return fn, path, codes, callees, candidates, disabled, arms

    def get(self, index: regions.ProjectIndex, reached: dict, key: str, inputs: tuple) -> FunctionFindings | None:
        """A copy of the findings the last run made from these inputs, if it made them."""
        kept = self._kept.get(key)
        if kept is None or kept[0] is not inputs and not _same(kept[0], inputs):
            return None
        if kept[0] is not inputs:  # worked out again, the same: what it asked is this run's answers now
            kept = self._kept[key] = (inputs, kept[1], kept[2], _questions(index, inputs[0]), kept[4])
        if kept[2].own and kept[4] is not reached:
            # The same region (project_reach.KeptReach gives the last one back while every
            # reached function, its roots' positions too, stands) gives the same chain; so
            # does one walked over the same calls from other roots, but for the keys it moved.
            moved = self.moved
            if (moved is None or kept[4] is not moved[0] or key in moved[1]) and kept[1] != _chain_inputs(
                    index, reached, key):
                return None
            self._kept[key] = (*kept[:4], reached)
        ff = kept[2]
        return FunctionFindings(own=list(ff.own), loop_calls=list(ff.loop_calls), calls=ff.calls, forks=ff.forks)

    def put(self, index: regions.ProjectIndex, reached: dict, key: str, inputs: tuple, ff: FunctionFindings) -> None:
        """Keeps a copy of `ff` as the loop made it (later passes add to the run's own)."""
        chain = _chain_inputs(index, reached, key) if ff.own else None
        self._kept[key] = (inputs, chain, FunctionFindings(own=list(ff.own), loop_calls=list(ff.loop_calls),
                                                            calls=ff.calls, forks=ff.forks), _questions(index, inputs[0]), reached)

    def keep_only(self, found: dict) -> None:
        """Forget the functions this run made no findings for (no longer reached, or disabled)."""
        for key in [key for key in self._kept if key not in found]:
            del self._kept[key]


def _questions(index, fn) -> tuple | None:
    """(the generation of the kept answers, the answers `fn`'s candidates and call sites ask
    for: "am I compiling", is a parameter left falsy, what makes a condition true)."""
    values = getattr(index, "values", None)
    if values is None:
        return None
    asked = set()
    for unless, condition in [(cand.unless, cand.condition) for cand in fn.candidates] + [
            (site.unless, None) for site in fn.calls]:
        for ref in unless or ():
            asked.add(("falsy" if isinstance(ref, (LeftFalsy, GivenNotNone)) else "compiling", ref))
        if condition is not None:
            asked.add(("sources", condition))
    return values.generation, frozenset(asked)


def _answers_stand(index, questions: tuple) -> bool:
    values = index.values
    return questions[0] == values.generation and (not questions[1] or questions[1].isdisjoint(values.dropped))


def _same(kept: tuple, now: tuple) -> bool:
    # by identity first: a file not re-summarized keeps its objects, most functions the
    # run's enabled codes and their kept callee lists
    return all(a is b or a == b for a, b in zip(kept, now))


def _chain_inputs(index: regions.ProjectIndex, reached: dict, key: str) -> tuple:
    """What project._chain reads: the steps from the root, and the root function's position."""
    steps = regions.chain_of(index, reached, key)
    return tuple(steps), index.functions[steps[0][0]][1].span


class CallSites:
    """callee -> [(caller, that call's callees)] over a run's findings, kept per caller while
    its list of calls is the same object (a kept function's findings share it)."""

    def __init__(self) -> None:
        self._calls: dict[str, list] = {}  # caller -> its FunctionFindings.calls
        self._callers: dict[str, dict[str, list]] = {}  # callee -> caller -> the callee lists that hold it

    def update(self, found: dict[str, FunctionFindings]) -> None:
        for key in [key for key in self._calls if key not in found]:
            self._remove(key)
        for key, ff in found.items():
            was = self._calls.get(key)
            if was is ff.calls:
                continue
            if was is not None:
                self._remove(key)
            self._calls[key] = ff.calls
            for callees in ff.calls:
                for callee in set(callees):
                    self._callers.setdefault(callee, {}).setdefault(key, []).append(callees)

    def _remove(self, key: str) -> None:
        for callees in self._calls.pop(key):
            for callee in set(callees):
                callers = self._callers.get(callee)
                if callers is not None and callers.pop(key, None) is not None and not callers:
                    del self._callers[callee]

    def get(self, callee: str, default=()) -> list[tuple[str, list[str]]]:
        callers = self._callers.get(callee)
        return [(caller, callees) for caller, lists in callers.items() for callees in lists] if callers else default
