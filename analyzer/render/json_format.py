"""`json` (one document with diagnostics and stats) and `jsonl` (one diagnostic per line)."""
from __future__ import annotations

import json

from tclint.analyzer.version import __version__


def render_json(diagnostics, stats: dict) -> str:
    doc = {
        "tool": "tclint",
        "version": __version__,
        "diagnostics": [d.to_json() for d in diagnostics],
        "stats": stats,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_jsonl(diagnostics) -> str:
    return "".join(json.dumps(d.to_json(), ensure_ascii=False) + "\n" for d in diagnostics)
