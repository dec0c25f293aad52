"""The rules: one module per rule, found by scanning this package."""
from __future__ import annotations

import functools
import importlib
import pkgutil

from tclint.analyzer.rules.base import Rule


@functools.lru_cache(maxsize=1)
def all_rules() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__:
                if obj.code in rules:
                    raise RuntimeError(f"duplicate rule code {obj.code}")
                rules[obj.code] = obj
    return dict(sorted(rules.items()))


def visitor_rules() -> list[type[Rule]]:
    """Rules that inspect syntax (meta rules are produced by the project phase)."""
    return [r for r in all_rules().values() if any(a.startswith(("visit_", "leave_")) for a in vars(r))]
