"""One lint run of a project, as the analysis thread does it.

The event loop takes a `Snapshot` (the open documents' texts and versions, what changed),
`analyze` turns it into a `RunResult` (LSP diagnostics per open document) on the analysis
thread, and the event loop applies it, dropping results for documents edited meanwhile.
"""
from __future__ import annotations

import hashlib
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tclint.server import conversions
from tclint.server.workspace_index import WorkspaceIndex


@dataclass
class OpenDocument:
    uri: str
    path: str
    version: int
    key: Path
    dirty: bool = True


@dataclass
class DocResult:
    version: int
    findings: list  # analyzer Diagnostics
    lsp: list  # lsprotocol Diagnostics, same order
    result_id: str


@dataclass
class Snapshot:
    key: Path
    encoding: str
    changed: dict[str, str]  # path -> editor text to summarize
    reverted: list[str]  # closed paths: back to the disk contents
    disk: list[str]  # paths changed on disk
    open_docs: dict[str, tuple[str, int, str]]  # uri -> (path, version, text)


@dataclass
class RunResult:
    key: Path
    results: dict[str, DocResult]
    notices: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    changed_uris: set[str] = field(default_factory=set)


def analyze(index: WorkspaceIndex, snap: Snapshot, superseded: Callable[[], bool],
            ensure_settings: Callable[[Path, list], None],
            overlay: Callable[[str, list, str | None], list] | None = None) -> RunResult | None:
    """One run, on the analysis thread: re-summarize what changed, re-run the project phase,
    convert the findings of every open document. Never raises for a problem in one document.
    Returns None when `superseded()` turned true before the project phase (nothing to say).
    `overlay(path, findings, text)` lays Dynamo's confirmation over a document's findings."""
    out = RunResult(key=snap.key, results={})
    try:
        ensure_settings(snap.key, out.errors)
    except Exception as exc:  # noqa: BLE001
        out.errors.append(f"tclint: cannot resolve settings for {snap.key}: {exc!r}")
        from tclint.analyzer.config import Settings

        index.project(snap.key).settings = Settings()
    steps = ([(f"summarizing {path}", lambda p=path, t=text: index.set_buffer(p, t)) for path, text in snap.changed.items()]
             + [(f"re-reading {path}", lambda p=path: index.revert_to_disk(p)) for path in snap.reverted]
             + [(f"re-reading {path}", lambda p=path: index.refresh_from_disk(p)) for path in snap.disk])
    for what, step in steps:
        try:
            notice = step()
            if notice:
                out.notices.append(notice)
        except Exception:  # noqa: BLE001 - one document's failure must not stop the others
            out.errors.append(f"tclint: internal error while {what}:\n{traceback.format_exc()}")
    if superseded():
        return out if (out.errors or out.notices) else None
    try:
        by_path = index.diagnostics(snap.key)
    except Exception:  # noqa: BLE001
        out.errors.append(f"tclint: internal error while linting {snap.key}:\n{traceback.format_exc()}")
        return out
    lines_cache: dict[str, list[str]] = {}
    path_text = {path: text for path, _, text in snap.open_docs.values()}
    path_uri = {path: uri for uri, (path, _, _) in snap.open_docs.items()}

    def uri_of(path: str) -> str:
        return path_uri.get(path) or conversions.path_to_uri(path)

    def lines_of(path: str) -> list[str] | None:
        if path not in lines_cache:
            text = path_text.get(path)
            if text is None:
                try:
                    p = Path(path)
                    text = p.read_text(encoding="utf-8", errors="replace") if p.stat().st_size < 4_000_000 else None
                except OSError:
                    text = None
            if text is None:
                return None
            lines_cache[path] = conversions.split_lines(text)
        return lines_cache[path]

    for uri, (path, version, text) in snap.open_docs.items():
        try:
            findings = by_path.get(path, [])
            if overlay is not None:
                findings = overlay(path, findings, text)
            lines = lines_of(path) or [""]
            lsp = [conversions.to_lsp(d, lines, snap.encoding, lines_of, uri_of) for d in findings]
        except Exception:  # noqa: BLE001
            out.errors.append(f"tclint: internal error while converting {path}:\n{traceback.format_exc()}")
            findings, lsp = [], []
        digest = hashlib.sha1(repr([(d.range, d.code, d.message, d.severity) for d in lsp]).encode()).hexdigest()
        out.results[uri] = DocResult(version=version, findings=findings, lsp=lsp, result_id=digest[:16])
        if path in snap.changed:
            out.changed_uris.add(uri)
    return out
