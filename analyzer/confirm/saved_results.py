"""Dynamo's verdicts saved for the editor: `tclint trace` writes `.tclint/trace.json`, the
language server lays it over its findings for as long as each file is unchanged."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tclint.analyzer.diagnostic import Diagnostic, Severity, Span

TRACE_FILE = Path(".tclint") / "trace.json"


def content_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def save(path: Path, diagnostics: list[Diagnostic]) -> None:
    """Write the verdicts (paths made absolute) with a digest of each file they concern."""
    rows, hashes = [], {}
    for d in diagnostics:
        if d.confirmed is None:
            continue
        absolute = str(Path(d.path).resolve())
        if absolute not in hashes:
            try:
                hashes[absolute] = content_digest(Path(absolute).read_bytes())
            except OSError:
                continue
        rows.append({**d.to_json(), "path": absolute})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"tool": "tclint", "files": hashes, "diagnostics": rows}, indent=1), encoding="utf-8")


def load(path: Path) -> tuple[dict[str, str], list[Diagnostic]]:
    """(file digests, diagnostics) from a saved file; empty when missing or unreadable."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        hashes = {str(k): str(v) for k, v in doc["files"].items()}
        return hashes, [_diagnostic(row) for row in doc["diagnostics"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}, []


def _diagnostic(row: dict) -> Diagnostic:
    return Diagnostic(
        path=row["path"],
        span=Span(row["line"], row["column"], row["end_line"], row["end_column"]),
        code=row["code"], name=row.get("name", ""), severity=Severity(row["severity"]), message=row["message"],
        gb_type=row.get("gb_type"), gb_id=row.get("gb_id"), url=row.get("url"), confirmed=row.get("confirmed"),
    )
