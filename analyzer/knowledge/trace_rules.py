"""What the installed torch's Dynamo skips, inlines or substitutes, read from its own source
as text (`torch/_dynamo/trace_rules.py` and `torch/_dynamo/polyfills/*.py`), never imported.

These tables are Dynamo's first word on a call; the probe table (`dynamo_calls.py`) is its
last, because Dynamo special-cases many functions of modules it skips (`random.randint`
traces, `random.random` does not).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from tclint.analyzer import gb_registry

_MANUAL_MAP = re.compile(r"^manual_torch_name_rule_map\b[^=]*=\s*\{(.*?)^\}", re.MULTILINE | re.DOTALL)
_MANUAL_ROW = re.compile(r"""^\s*["']([\w.#]+)["']\s*:\s*(\w+)""", re.MULTILINE)
_GENERATOR_METHODS = re.compile(r"^_GENERATOR_METHODS_THAT_GRAPH_BREAK\s*=\s*\((.*?)\)", re.MULTILINE | re.DOTALL)
_GENERATOR_PREFIXES = re.compile(r"for\s+generator_prefix\s+in\s+\((.*?)\)", re.DOTALL)
_THIRDPARTY_SKIPLIST = re.compile(r"^THIRDPARTY_SKIPLIST\s*=\s*\((.*?)\)", re.MULTILINE | re.DOTALL)
_STRING = re.compile(r"""["']([\w.]+)["']""")
_SUBSTITUTE = re.compile(r"@substitute_in_graph\(\s*([\w.]+)")


@dataclass(frozen=True)
class TraceRules:
    """Dynamo's own lists, by qualified name."""

    skipped_functions: frozenset[str]  # torch.* names Dynamo calls as skipped ("torch.jit.isinstance")
    special_functions: frozenset[str]  # names with a dedicated handler ("inspect.signature")
    skipped_modules: frozenset[str]  # third-party libraries whose code Dynamo skips ("tqdm")
    polyfilled: frozenset[str]  # functions Dynamo traces through a Python substitute

    def verdict(self, qualname: str) -> str | None:
        """"skipped", "traced", or None when these lists do not decide."""
        if qualname in self.polyfilled or qualname in self.special_functions:
            return "traced"
        if qualname in self.skipped_functions:
            return "skipped"
        head = qualname.partition(".")[0]
        # A method of an object ("random.Random().uniform") runs wherever its class says.
        if head in self.skipped_modules and qualname != head and "(" not in qualname:
            return "skipped"
        return None


EMPTY = TraceRules(frozenset(), frozenset(), frozenset(), frozenset())


def parse(trace_rules_text: str, polyfill_texts: list[str]) -> TraceRules:
    skipped: set[str] = set()
    special: set[str] = set()
    block = _MANUAL_MAP.search(trace_rules_text)
    for name, handler in _MANUAL_ROW.findall(block.group(1) if block else ""):
        if "#" in name:  # a method ("torch.Tensor#__init__"): not a name a call spells
            continue
        (skipped if handler == "SkipFunctionVariable" else special).add(name)
    methods, prefixes = _GENERATOR_METHODS.search(trace_rules_text), _GENERATOR_PREFIXES.search(trace_rules_text)
    if methods and prefixes:
        for prefix in _STRING.findall(prefixes.group(1)):
            skipped.update(f"{prefix}.{m}" for m in _STRING.findall(methods.group(1)))
    # The standard-library modules of BUILTIN_SKIPLIST (re, random, importlib, ...) are not
    # read: Dynamo special-cases or constant-folds many of their functions (`re.sub`,
    # `random.randint`, `importlib.metadata.version` trace), so only the probe decides them.
    # NumPy is skipped as a library but its calls are traced through torch._numpy.
    modules = set(_modules(_THIRDPARTY_SKIPLIST, trace_rules_text)) - {"numpy"}
    polyfilled = {name for text in polyfill_texts for name in _SUBSTITUTE.findall(text)}
    return TraceRules(frozenset(skipped), frozenset(special), frozenset(modules), frozenset(polyfilled))


def _modules(pattern: re.Pattern, text: str) -> list[str]:
    match = pattern.search(text)
    return _STRING.findall(match.group(1)) if match else []


@functools.lru_cache(maxsize=1)
def installed() -> TraceRules:
    """The lists of the torch installed here; EMPTY without torch (or an unreadable one)."""
    root = gb_registry.torch_dir()
    if root is None:
        return EMPTY
    dynamo = Path(root) / "_dynamo"
    try:
        text = (dynamo / "trace_rules.py").read_text(encoding="utf-8")
        polyfills = [p.read_text(encoding="utf-8") for p in sorted((dynamo / "polyfills").glob("*.py"))]
    except OSError:
        return EMPTY
    return parse(text, polyfills)
