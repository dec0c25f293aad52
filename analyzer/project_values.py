"""What the project phase works out about values, kept from one run to the next while what it
read stands.

Whether a function returns a tensor, a class stores one, a call is an "am I compiling"
predicate, whether every compiled caller leaves a parameter falsy, and what makes a finding's
condition true (ProjectIndex.returns_tensor, _attribute_source, _is_compiling, _left_falsy,
tensor_source) read function bodies as well as names: what
functions return, what their compiled callers pass, what classes store. On transformers'
models they were a fifth of a name-changing edit's project phase. TrackedIndex records what
each answer read, as it does for name resolutions (a key looked up reads its module, so an
edited file's module reaches every answer that looked into it), and two more kinds of names:
- ("callers", key): the compiled callers of a function (the callers map over the region);
- ("root", key): whether a function is an entry point.
An edit drops the answers that read a name it changed: the names resolution drops, the module
of each file whose summary changed, the functions whose compiled callers changed, the roots
added or removed. Answers do not depend on which was asked first (regions._settled), so a
kept one equals what a fresh run works out.
"""
from __future__ import annotations

from tclint.analyzer.project_reads import Groups

CACHES = ("returns", "attributes", "compiling", "sources", "falsy")


class KeptValues:
    def __init__(self) -> None:
        self.caches: dict[str, dict] = {name: {} for name in CACHES}
        self.reads: dict[tuple, frozenset] = {}  # entry -> the names it read
        self.groups = Groups()
        self._roots: set[str] | None = None  # the entry points the kept answers were worked out with
        self._callers: dict | None = None  # ... and the callers map
        self.generation = 0  # how many times every answer was dropped at once
        self.dropped: set[tuple] = set()  # the answers dropped since the run began

    def reset(self) -> None:
        generation = self.generation
        self.__init__()
        self.generation = generation + 1

    def begin_run(self) -> None:
        self.dropped = set()

    def drop(self, names: set) -> int:
        """Drop the answers that read one of `names`; how many."""
        hit = self.groups.take(names)
        self.dropped.update(hit)
        for entry in hit:
            self.caches[entry[0]].pop(entry[1], None)
            self.reads.pop(entry, None)
        return len(hit)

    def region_found(self, index) -> None:
        """Once the run's compiled region and roots are set on `index` (a TrackedIndex): drop
        the answers that read the callers or the roots that changed since the last run."""
        roots = set(index.root_keys)
        callers = index.callers_map()
        changed: set = set()
        if self._roots is not None:
            changed |= {("root", key) for key in roots ^ self._roots}
        if self._callers is not None and callers is not self._callers:
            old = self._callers
            patch = index.callers_patch
            keys = patch[1] if patch is not None and patch[0] is old else old.keys() | callers.keys()
            changed |= {("callers", key) for key in keys if not _same_callers(old.get(key, ()), callers.get(key, ()))}
        self._roots, self._callers = roots, callers
        if changed:
            self.drop(changed)


def _same_callers(old: list, new: list) -> bool:
    """The same (caller, call site) pairs, in order (a re-summarized file's sites are equal ones)."""
    return old is new or len(old) == len(new) and all(
        a[0] == b[0] and (a[1] is b[1] or a[1] == b[1]) for a, b in zip(old, new))
