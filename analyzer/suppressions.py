"""`# tclint: ignore[TC101]`, `# noqa: TC101` and `# tclint: file-ignore[...]` comments."""
from __future__ import annotations

import re
from dataclasses import dataclass

from tclint.analyzer.diagnostic import Span

_PATTERN = re.compile(
    r"#\s*(?:(?P<tclint>tclint:\s*(?P<file>file-)?ignore)(?:\[(?P<codes>[^\]]*)\])?"
    r"|(?P<noqa>noqa)(?::\s*(?P<noqa_codes>[A-Z]+[0-9][A-Z0-9]*(?:[,\s]+[A-Z]+[0-9][A-Z0-9]*)*))?)",
    re.IGNORECASE,
)
# Codes are separated by commas or spaces; each is taken whole, so a mistyped `TC1O2` is
# one unknown code (TC003), not `TC1` and `O2`.
_SEPARATORS = re.compile(r"[,\s]+")


@dataclass
class Suppression:
    line: int
    span: Span
    codes: tuple[str, ...] | None  # None: every code
    own_line: bool  # a comment alone on its line also covers the next line
    file_level: bool
    ours: bool  # written for tclint (a blanket `# noqa` is not reported as unused)


def find_suppressions(text: str) -> list[Suppression]:
    if "tclint" not in text and "noqa" not in text and "NOQA" not in text:
        return []
    found = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if "#" not in line:
            continue
        for m in _PATTERN.finditer(line):
            if _inside_string(line, m.start()):
                continue
            if m.group("tclint"):
                raw = m.group("codes")
                codes = _codes(raw) if raw is not None else None
                ours = True
                file_level = bool(m.group("file"))
            else:
                raw = m.group("noqa_codes")
                if raw is None:
                    codes, ours = None, False
                else:
                    codes = tuple(c for c in _codes(raw) if c.startswith("TC"))
                    if not codes:
                        continue  # a noqa for other tools only
                    ours = True
                file_level = False
            span = Span(lineno, m.start() + 1, lineno, len(line.rstrip()) + 1)
            found.append(Suppression(lineno, span, codes, line[: m.start()].strip() == "", file_level, ours))
    return found


def _codes(raw: str) -> tuple[str, ...]:
    return tuple(c.upper() for c in _SEPARATORS.split(raw) if c)


def _inside_string(line: str, index: int) -> bool:
    """A rough check that a `#` is not inside a string literal on the same line."""
    quote = None
    i = 0
    while i < index:
        ch = line[i]
        if ch == "\\" and quote:
            i += 2
            continue
        if ch in "\"'":
            if quote is None:
                quote = ch
            elif quote == ch:
                quote = None
        i += 1
    return quote is not None
