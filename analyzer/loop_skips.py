"""Findings Dynamo never reaches: the rest of a frame after a graph break inside a loop.

Dynamo cannot resume a frame in the middle of a loop body (nor of a `try` body), so a break there (its own, or a
callee's, whose inlining then fails at the call) makes it run the rest of that frame eagerly
("graph break in loop"), unless a `return` comes before the loop jumps back (loop_returns:
the file pass then marks the finding or call as not in a loop). Later hazards written in the same function never break while that
one stands; callees are still traced as frames of their own. A finding is hidden only by a
break that certainly happens: a call that may run one of several methods (a base class's
`self.step()`) hides nothing unless every one of them breaks. Checked under torch 2.13:
`if x.sum() > 0` after a loop whose body breaks logs nothing, while a `while` test that
breaks is resumable and does not skip. Rules mark other breaks that end the frame
(`Rule.report(ends_frame=True)`, as in_loop): a frame resumed holding a NumPy object array.
A break in one arm of an `if` hides nothing in its other arm (a sparse and a dense path
that each call `.item()`): only one of them runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tclint.analyzer.diagnostic import Diagnostic, Severity


@dataclass
class FunctionFindings:
    """What one reached function reports, and its calls made inside loop bodies."""

    own: list[tuple[Diagnostic, bool]] = field(default_factory=list)  # (finding, in a loop body)
    loop_calls: list[tuple[tuple[int, int], list[str]]] = field(default_factory=list)  # (position, callees)
    calls: list[list[str]] = field(default_factory=list)  # each call's possible callees
    # the line ranges (first, last) of the two arms of each `if`/`else` in a loop or `try` body
    forks: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)

    @property
    def callees(self) -> set[str]:
        return {key for callees in self.calls for key in callees}


def is_break(d: Diagnostic) -> bool:
    """A finding Dynamo breaks on whenever the code runs (not only while raising)."""
    return d.gb_type is not None and d.severity is not Severity.INFO


def keep_reached(found: dict[str, FunctionFindings], name_of, breaking: set[str] | None = None) -> list[Diagnostic]:
    """Every finding, less those a loop break earlier in the same function hides (the
    break's message says how many). `name_of(key)` is the function's name for messages;
    `breaking`: breaking_functions(found, certain=True), where the caller keeps it."""
    breaking = breaking if breaking is not None else breaking_functions(found, certain=True)
    out: list[Diagnostic] = []
    for key, ff in found.items():
        if not ff.own:  # most functions: nothing to report, nothing to hide
            continue
        stops = [(_pos(d), i) for i, (d, in_loop) in enumerate(ff.own) if in_loop and is_break(d)]
        stops += [(pos, None) for pos, callees in ff.loop_calls if callees and all(c in breaking for c in callees)]
        if not stops:
            out.extend(d for d, _ in ff.own)
            continue
        stop, index = min(stops, key=lambda s: s[0])
        kept, hidden = [], []
        for d, _ in ff.own:  # the rest of a stop's line goes with it
            after = any(line < d.span.line and not apart(ff.forks, line, d.span.line) for (line, _), _ in stops)
            (hidden if after else kept).append(d)
        hidden = [d for d in hidden if stop[0] < d.span.line and not apart(ff.forks, stop[0], d.span.line)]
        if index is not None and hidden:  # those the first stop hides
            lines = sorted({d.span.line for d in hidden})
            shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
            note = (f"the rest of `{name_of(key)}` then runs eagerly (Dynamo cannot resume the frame after "
                    f"this break), so {len(hidden)} later finding{'s' if len(hidden) > 1 else ''} in it "
                    f"(line{'s' if len(lines) > 1 else ''} {shown}) show{'' if len(hidden) > 1 else 's'} "
                    "once this one is fixed")
            first = ff.own[index][0]
            kept = [d.with_changes(notes=(*d.notes, note)) if d is first else d for d in kept]
        out.extend(kept)
    return out


def apart(forks, first: int, later: int) -> bool:
    """Whether two lines lie in different arms of one `if`: only one of them runs."""
    return any(a[0] <= first <= a[1] and b[0] <= later <= b[1] for a, b in forks)


def breaking_functions(found: dict[str, FunctionFindings], certain: bool = False) -> set[str]:
    """Functions whose inlining breaks: a break of their own, or in a function they call
    (`certain`: at a call all of whose possible callees break)."""
    breaking = Breaking(found)
    return breaking.certain if certain else breaking.any


class Breaking:
    """breaking_functions both ways, kept up to date as later passes add findings (resume
    breaks, unresumable blocks): the calls of a whole project are gathered once, and each
    update walks up the call graph only from the functions that break anew."""

    def __init__(self, found: dict[str, FunctionFindings], sites=None) -> None:
        """`sites`: callee -> [(caller, that call's callees)] over `found`, where the caller
        keeps it between runs (project_findings.CallSites); gathered here otherwise."""
        self._found = found
        if sites is None:
            sites = {}
            for key, ff in found.items():
                for callees in ff.calls:
                    for callee in set(callees):
                        sites.setdefault(callee, []).append((key, callees))
        self._sites = sites
        self.any: set[str] = set()
        self.certain: set[str] = set()
        self.update()

    def update(self, keys=None) -> None:
        """Takes in the breaks added to the functions' own findings since the last update
        (`keys`: the functions that got findings since, where the caller knows them)."""
        found = self._found
        seeds = [key for key in (found if keys is None else keys)
                 if found[key].own and key not in self.certain and any(is_break(d) for d, _ in found[key].own)]
        self._spread(seeds, self.any, certain=False)
        self._spread(seeds, self.certain, certain=True)

    def callers_of(self, keys) -> set[str]:
        """The functions that call one of `keys` (at any call, traced or not)."""
        return {caller for key in keys for caller, _ in self._sites.get(key, ())}

    def _spread(self, seeds: list[str], into: set[str], certain: bool) -> None:
        # Up the call graph from each break once (a whole project reaches tens of thousands of functions).
        todo = [key for key in seeds if key not in into]
        into.update(todo)
        while todo:
            for caller, callees in self._sites.get(todo.pop(), ()):
                if caller not in into and (not certain or all(c in into for c in callees)):
                    into.add(caller)
                    todo.append(caller)


def _pos(d: Diagnostic) -> tuple[int, int]:
    return d.span.line, d.span.column
