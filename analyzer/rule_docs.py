"""A rule's documentation, for `tclint rule`, hover text and the docs page."""
from __future__ import annotations

from tclint.analyzer import gb_registry


def rule_doc_text(rule) -> str:
    lines = [f"{rule.code} {rule.name}", ""]
    if rule.graph_break:
        gb = rule.graph_break
        lines.append(f"Dynamo graph break: {gb.gb_type} ({gb.gb_id})")
        lines.append(f"  {gb_registry.gb_url(gb.gb_id)}")
        entry = gb_registry.lookup(gb.gb_id)
        if entry and entry.hints:
            lines.append("Dynamo's hints (from the installed torch):")
            lines.extend(f"  - {h}" for h in entry.hints)
        lines.append("")
    lines.append(rule.doc())
    return "\n".join(lines)


def rule_doc_json(rule) -> dict:
    gb = rule.graph_break
    return {
        "code": rule.code,
        "name": rule.name,
        "message": rule.message,
        "severity": rule.severity.value,
        "gb_id": gb.gb_id if gb else None,
        "gb_type": gb.gb_type if gb else None,
        "url": gb_registry.gb_url(gb.gb_id) if gb else None,
        "doc": rule.doc(),
    }
