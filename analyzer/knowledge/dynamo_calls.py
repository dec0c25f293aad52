"""Dynamo's verdict on library calls, per torch version: the tables the probe
(`tools/probe_dynamo.py`) writes by running each call under Dynamo, completed by the
installed torch's own skip lists (`trace_rules.py`) for calls no table row decides.

The table used is the one for the torch installed here (the interpreter tclint runs in is
where the linted code is expected to run), or the newest one when torch is absent or
newer than every table. Every verdict names the torch version it is for.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from tclint.analyzer import gb_registry
from tclint.analyzer.knowledge import hazards, trace_rules

_TABLE = re.compile(r"dynamo_calls_(\d+)\.(\d+)\.json")


@dataclass(frozen=True)
class CallVerdict:
    qualname: str
    graph_break: hazards.GraphBreak
    torch_version: str  # "2.13"
    # "probe" (Dynamo ran the call), "numpy_map" (a NumPy function Dynamo's map to torch._numpy
    # lacks; tools/numpy_support.py) or "trace_rules" (torch's skip lists say so)
    source: str


@dataclass(frozen=True)
class CallTable:
    torch_version: str
    breaks: dict[str, hazards.GraphBreak]  # qualname -> the break Dynamo reported
    traced: frozenset[str]  # qualnames Dynamo traced without a break
    rules: trace_rules.TraceRules
    from_numpy_map: frozenset[str] = frozenset()  # rows read off Dynamo's NumPy map, not run
    # qualname -> the break at a `for` over what the call returns, where Dynamo cannot resume
    # there and runs the rest of the frame eagerly (`for i in tqdm(...)`)
    iteration_ends_frame: dict[str, hazards.GraphBreak] = field(default_factory=dict)
    # wrappers (`enumerate`, `zip`) a `for` over such a result ends the frame through as well
    iteration_wrappers: frozenset[str] = frozenset()

    def verdict(self, qualname: str) -> CallVerdict | None:
        """The break a call to `qualname` causes, or None when it traces (or nothing says)."""
        found = self.breaks.get(qualname)
        if found is not None:
            source = "numpy_map" if qualname in self.from_numpy_map else "probe"
            return CallVerdict(qualname, found, self.torch_version, source)
        if qualname in self.traced:
            return None
        if self.rules.verdict(qualname) == "skipped":
            return CallVerdict(qualname, hazards.SKIPPED, self.torch_version, "trace_rules")
        return None

    def builds_object(self, qualname: str) -> bool:
        """Whether the table has methods of what calling `qualname` returns ("<qualname>().<method>")."""
        return qualname in self._factories

    @functools.cached_property
    def _factories(self) -> frozenset[str]:
        return frozenset(name.partition("().")[0] for names in (self.breaks, self.traced)
                         for name in names if "()." in name)

    def ends_frame_when_iterated(self, qualname: str) -> CallVerdict | None:
        """The break at a `for` over what `qualname` returns, where that ends the frame."""
        found = self.iteration_ends_frame.get(qualname)
        return CallVerdict(qualname, found, self.torch_version, "probe") if found is not None else None


def tables() -> dict[tuple[int, int], Path]:
    """The shipped tables by torch (major, minor)."""
    found = {}
    for path in Path(__file__).parent.glob("dynamo_calls_*.json"):
        match = _TABLE.fullmatch(path.name)
        if match:
            found[(int(match.group(1)), int(match.group(2)))] = path
    return found


def pick(available: list[tuple[int, int]], installed: str | None) -> tuple[int, int] | None:
    """The table for `installed` ("2.13.0+cpu"): its own, else the newest one not newer,
    else the newest (torch absent, or older than every table)."""
    if not available:
        return None
    match = re.match(r"(\d+)\.(\d+)", installed or "")
    if match:
        wanted = (int(match.group(1)), int(match.group(2)))
        older = [v for v in available if v <= wanted]
        if older:
            return max(older)
    return max(available)


def load(path: Path, rules: trace_rules.TraceRules) -> CallTable:
    raw = json.loads(path.read_text(encoding="utf-8"))
    breaks: dict[str, hazards.GraphBreak] = {}
    traced: set[str] = set()
    ends_frame: dict[str, hazards.GraphBreak] = {}
    from_map = {name for name, row in raw.get("calls", {}).items() if row.get("from") == "np_to_tnp_map"}
    for name, row in raw.get("calls", {}).items():
        if row.get("breaks"):
            breaks[name] = hazards.GraphBreak(row.get("gb_id") or "", row.get("gb_type") or "")
        else:
            traced.add(name)
        iterated = row.get("iterated")
        if iterated and iterated.get("ends_frame") and iterated.get("breaks"):
            ends_frame[name] = hazards.GraphBreak(iterated.get("gb_id") or "", iterated.get("gb_type") or "")
    version = ".".join(str(raw.get("torch", "")).split(".")[:2])
    wrappers = frozenset(name for name, ends in raw.get("iteration_wrappers", {}).items() if ends)
    return CallTable(version, breaks, frozenset(traced), rules, frozenset(from_map), ends_frame, wrappers)


@functools.lru_cache(maxsize=1)
def current() -> CallTable:
    """The table for the torch installed here (an empty one when none is shipped or readable)."""
    installed = gb_registry.torch_version()
    available = tables()
    chosen = pick(sorted(available), installed)
    # The installed torch's own lists describe that torch only.
    rules = trace_rules.installed() if installed else trace_rules.EMPTY
    if chosen is None:
        return CallTable("", {}, frozenset(), rules)
    try:
        return load(available[chosen], rules)
    except (OSError, ValueError, AttributeError):
        return CallTable(f"{chosen[0]}.{chosen[1]}", {}, frozenset(), rules)
