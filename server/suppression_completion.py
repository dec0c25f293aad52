"""Completion of rule codes in a suppression comment: after `# tclint: ignore[`,
`# tclint: file-ignore[`, `# noqa: ` or a comma in one of them. The codes of the findings
on that line (or, for a comment line, on the line below it) come first, then every rule;
codes already written are not offered again."""
from __future__ import annotations

import re
from typing import Iterable

from lsprotocol import types

_OPEN = re.compile(r"#\s*(?:tclint:\s*(?:file-)?ignore\[|noqa:\s*)((?:[A-Za-z0-9]+\s*[, ]\s*)*)([A-Za-z0-9]*)$")


def completion_items(before_cursor: str, codes_here: Iterable[str]) -> list[types.CompletionItem] | None:
    """Items for a cursor after `before_cursor` (the line up to it); None outside a suppression."""
    match = _OPEN.search(before_cursor)
    if match is None:
        return None
    from tclint.analyzer.rules import all_rules

    written = set(re.findall(r"[A-Za-z0-9]+", match.group(1)))
    here = [c for c in dict.fromkeys(codes_here) if c not in written]
    rules = all_rules()
    items = []
    for rank, codes in enumerate((here, [c for c in sorted(rules) if c not in written and c not in here])):
        for code in codes:
            rule = rules.get(code)
            items.append(types.CompletionItem(
                label=code,
                kind=types.CompletionItemKind.Value,
                detail=f"{rule.name}: {rule.message}" if rule is not None else None,
                sort_text=f"{rank}{code}",
                preselect=rank == 0 or None,
            ))
    return items
