"""One lint run of a project, as the analysis thread does it.

The event loop takes a `Snapshot` (the open documents' texts and versions, what changed),
`analyze` turns it into a `RunResult` (LSP diagnostics per open document) on the analysis
thread, and the event loop applies it, dropping results for documents edited meanwhile.

An open notebook's code cells are documents too, each with the notebook's path: the project
sees one module, their texts joined here, and each cell gets the findings that lie in it.
"""
from __future__ import annotations

import hashlib
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tclint.server import conversions, library_reads
from tclint.server.workspace_index import WorkspaceIndex


@dataclass
class OpenDocument:
    uri: str
    path: str
    version: int
    key: Path
    dirty: bool = True
    cell: int | None = None  # a notebook's code cell: its number there, from 1 (path: the notebook's)


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
    changed: dict[str, str | None]  # path -> editor text to summarize (a notebook's: None, joined here)
    reverted: list[str]  # closed paths: back to the disk contents
    disk: list[str]  # paths changed on disk
    open_docs: dict[str, tuple[str, int, str]]  # uri -> (path, version, text)
    notebooks: dict[str, list[str]] = field(default_factory=dict)  # path -> its code cells' URIs, in order
    previous: dict[str, DocResult] = field(default_factory=dict)  # uri -> the result applied last


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
    from tclint.analyzer.notebook import notebook_from_cells

    out = RunResult(key=snap.key, results={})
    try:
        ensure_settings(snap.key, out.errors)
    except Exception as exc:  # noqa: BLE001
        out.errors.append(f"tclint: cannot resolve settings for {snap.key}: {exc!r}")
        from tclint.analyzer.config import Settings

        index.project(snap.key).settings = Settings()
    books = {path: notebook_from_cells(snap.open_docs[uri][2] for uri in uris) for path, uris in snap.notebooks.items()}
    changed = {path: books[path].python if path in books else text for path, text in snap.changed.items()}
    steps = ([(f"summarizing {path}", lambda p=path, t=text: index.set_buffer(p, t)) for path, text in changed.items()]
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
        by_path = library_reads.diagnostics(index, snap.key)  # the index's, with installed libraries
    except Exception:  # noqa: BLE001
        out.errors.append(f"tclint: internal error while linting {snap.key}:\n{traceback.format_exc()}")
        return out
    # A place is a file (cell None) or a notebook's code cell.
    place_uri = {(path, None): uri for uri, (path, _, _) in snap.open_docs.items() if path not in books}
    place_uri.update({(path, cell): uri for path, uris in snap.notebooks.items() for cell, uri in enumerate(uris, 1)})
    place_of = {uri: place for place, uri in place_uri.items()}
    lines_cache: dict[tuple[str, int | None], list[str]] = {}

    def uri_of(path: str, cell: int | None = None) -> str:
        return place_uri.get((path, cell)) or conversions.path_to_uri(path)

    def lines_of(path: str, cell: int | None = None) -> list[str] | None:
        if (path, cell) not in lines_cache:
            uri = place_uri.get((path, cell))
            text = snap.open_docs[uri][2] if uri else None
            if text is None and cell is None:
                try:
                    p = Path(path)
                    text = p.read_text(encoding="utf-8", errors="replace") if p.stat().st_size < 4_000_000 else None
                except OSError:
                    text = None
            if text is None:
                return None
            lines_cache[(path, cell)] = conversions.split_lines(text)
        return lines_cache[(path, cell)]

    def in_cells(d):
        """`d` with its range and chain steps in cell coordinates where they lie in an open notebook."""
        if d.path in books:
            return books[d.path].to_cells(d)
        if any(step.path in books for step in d.chain):
            return d.with_changes(chain=tuple(books[s.path].step_in_cells(s) if s.path in books else s for s in d.chain))
        return d

    moved = set(snap.changed) | set(snap.reverted) | set(snap.disk)  # files whose lines may have changed
    for uri, (path, version, text) in snap.open_docs.items():
        try:
            findings = by_path.get(path, [])
            if overlay is not None:
                findings = overlay(path, findings, books[path].python if path in books else text)
            cell = place_of[uri][1]
            findings = [d for d in map(in_cells, findings) if d.cell == cell]
            before = snap.previous.get(uri)
            if (before is not None and before.version == version and before.findings == findings
                    and not any(step.path in moved for d in findings for step in d.chain)):
                # Same text, same findings, and the other files they point into kept their
                # lines: the same LSP diagnostics (an edit elsewhere costs no conversion here).
                out.results[uri] = before
            else:
                lines = lines_of(path, cell) or [""]
                lsp = [conversions.to_lsp(d, lines, snap.encoding, lines_of, uri_of) for d in findings]
        except Exception:  # noqa: BLE001
            out.errors.append(f"tclint: internal error while converting {path}:\n{traceback.format_exc()}")
            findings, lsp = [], []
        if uri not in out.results:
            digest = hashlib.sha1(repr([(d.range, d.code, d.message, d.severity) for d in lsp]).encode()).hexdigest()
            out.results[uri] = DocResult(version=version, findings=findings, lsp=lsp, result_id=digest[:16])
        if path in snap.changed:
            out.changed_uris.add(uri)
    return out
