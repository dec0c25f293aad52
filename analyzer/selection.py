"""Which rule codes are on: ruff-style select / ignore by code prefix, most specific wins."""
from __future__ import annotations

import fnmatch
from pathlib import PurePath

from tclint.analyzer.config import Settings
from tclint.analyzer.diagnostic import Severity


def _best(code: str, prefixes) -> int | None:
    best = None
    for p in prefixes:
        if p == "ALL":
            length = 0
        elif code.startswith(p):
            length = len(p)
        else:
            continue
        best = length if best is None or length > best else best
    return best


def is_selected(code: str, settings: Settings) -> bool:
    chosen = _best(code, settings.select + settings.extend_select)
    if chosen is None:
        return False
    ignored = _best(code, settings.ignore)
    return ignored is None or chosen > ignored


def ignored_for_file(code: str, relpath: str, settings: Settings) -> bool:
    for pattern, codes in settings.per_file_ignores:
        if _glob_match(relpath, pattern) and _best(code, codes) is not None:
            return True
    return False


def _glob_match(relpath: str, pattern: str) -> bool:
    path = PurePath(relpath)
    return fnmatch.fnmatch(relpath, pattern) or fnmatch.fnmatch(path.name, pattern) or path.match(pattern)


def severity_for(code: str, default: Severity, settings: Settings) -> Severity:
    best_len = -1
    result = default
    for prefix, level in settings.severity:
        if (prefix == "ALL" or code.startswith(prefix)) and len(prefix) > best_len:
            best_len = 0 if prefix == "ALL" else len(prefix)
            result = level
    return result
