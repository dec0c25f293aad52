"""SARIF 2.1.0, for code-scanning dashboards."""
from __future__ import annotations

import json
from pathlib import Path

from tclint.analyzer.version import __version__

_LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def render_sarif(diagnostics) -> str:
    from tclint.analyzer.rules import all_rules

    rules = all_rules()
    codes = sorted(rules)
    driver_rules = []
    for code in codes:
        rule = rules[code]
        entry = {
            "id": code,
            "name": rule.name,
            "shortDescription": {"text": rule.message},
            "fullDescription": {"text": rule.doc()},
            "defaultConfiguration": {"level": _LEVEL[rule.severity.value]},
            "helpUri": _help_uri(rule),
        }
        if rule.graph_break:
            entry["properties"] = {"gb_id": rule.graph_break.gb_id, "gb_type": rule.graph_break.gb_type}
        driver_rules.append(entry)
    results = []
    for d in diagnostics:
        result = {
            "ruleId": d.code,
            "ruleIndex": codes.index(d.code) if d.code in rules else -1,
            "level": _LEVEL[d.severity.value],
            "message": {"text": d.text()},
            "locations": [_location(d.path, d.span.line, d.span.column, d.span.end_line, d.span.end_column)],
        }
        if d.chain:
            result["relatedLocations"] = [
                {"id": i, "message": {"text": s.label}, **_location(s.path, s.line, s.column, s.line, s.column)}
                for i, s in enumerate(d.chain)
            ]
        props = {k: v for k, v in (("gb_id", d.gb_id), ("gb_type", d.gb_type), ("confirmed", d.confirmed),
                                   ("cell", d.cell)) if v is not None}
        if props:
            result["properties"] = props
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "tclint",
                "version": __version__,
                "informationUri": "https://github.com/tclint/tclint",
                "rules": driver_rules,
            }},
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _help_uri(rule) -> str:
    if rule.graph_break:
        from tclint.analyzer.gb_registry import gb_url
        return gb_url(rule.graph_break.gb_id)
    return f"https://github.com/tclint/tclint/blob/main/docs/rules.md#{rule.code.lower()}"


def _location(path: str, line: int, column: int, end_line: int, end_column: int) -> dict:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": Path(path).as_posix()},
            "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column},
        }
    }
