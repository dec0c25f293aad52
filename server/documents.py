"""The document lifecycle: open, edit, save and close (text documents and notebook cells),
files changed on disk, and the lint run they schedule.

A run takes a snapshot of the open documents on the event loop, analyzes on the analysis
thread (lint_run.analyze) and applies the result on the event loop, dropping results for
documents edited meanwhile.
"""
from __future__ import annotations

import asyncio
import logging
import traceback
from pathlib import Path
from typing import Hashable

from lsprotocol import types

from tclint.server import conversions
from tclint.server.lint_run import OpenDocument, RunResult, Snapshot, analyze
from tclint.server.workspace_index import normalize_path

log = logging.getLogger(__name__)


class DocumentLifecycle:
    """Mixed into TclintLanguageServer (server/app.py), whose state it uses."""

    # -- documents -------------------------------------------------------------------
    def open_document(self, uri: str, version: int, language_id: str = "python") -> None:
        path = conversions.uri_to_path(uri)
        if path is None:
            if language_id != "python":
                return
            # An unsaved buffer: linted on its own, under a stand-in path.
            path = conversions.unsaved_path(uri)
        elif language_id != "python" and not path.endswith((".py", ".pyi")):
            return
        else:
            path = normalize_path(path)
        key = self.key_for(path)
        self.docs[uri] = OpenDocument(uri=uri, path=path, version=version or 0, key=key)
        self.lint(key, 0.0)

    def change_document(self, uri: str, version: int) -> None:
        doc = self.docs.get(uri)
        if doc is None:
            return
        doc.version = version
        doc.dirty = True
        settings = self.settings_for(doc.key)
        if settings.lint_on_change:
            self.lint(doc.key, settings.debounce_ms / 1000.0)

    def save_document(self, uri: str) -> None:
        doc = self.docs.get(uri)
        if doc is None:
            return
        doc.dirty = True
        self.lint(doc.key, 0.0)
        settings = self.settings_for(doc.key)
        if settings.confirm_on_save and settings.confirm_enabled and self.confirm_running is None:
            asyncio.get_running_loop().create_task(self.confirm_command(uri, workspace=False, quiet=True))

    def close_document(self, uri: str) -> None:
        doc = self._forget(uri)
        if doc is None:
            return
        self.pending_reverts.setdefault(doc.key, []).append(doc.path)
        self.lint(doc.key, 0.0)

    def _forget(self, uri: str) -> OpenDocument | None:
        """Stop following a document: its diagnostics are cleared, waiting pulls answered."""
        doc = self.docs.pop(uri, None)
        self.results.pop(uri, None)
        for fut in self.waiters.pop(uri, []):
            if not fut.done():
                fut.set_result(None)
        if doc is not None and self.pushes(doc):
            self.published.pop(uri, None)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        return doc

    def pushes(self, doc: OpenDocument) -> bool:
        """Whether `doc`'s diagnostics are published. Notebook cells always are: VS Code's
        client (vscode-languageclient 9) never pulls them."""
        return not self.pull_mode or doc.cell is not None

    # -- notebooks: each Python code cell is an OpenDocument with the notebook's path ------
    def notebook_changed(self, uri: str, typing: bool = False) -> None:
        """Notebook `uri` was opened, edited (`typing`), saved or closed: match its documents to
        its Python code cells now (none once closed) and lint it, like a text document."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        path = conversions.uri_to_path(uri)
        path = normalize_path(path) if path else conversions.unsaved_path(uri)
        key = self.key_for(path)
        cells = [c.document for c in (notebook.cells if notebook is not None else [])
                 if c.kind == types.NotebookCellKind.Code
                 and self.workspace.get_text_document(c.document).language_id == "python"]
        gone = [self._forget(u) for u, d in list(self.docs.items())
                if d.cell is not None and d.path == path and u not in cells]
        for number, cell in enumerate(cells, 1):
            # All dirty: an edit in one cell moves the lines of the next ones in the module.
            version = self.workspace.get_text_document(cell).version or 0
            self.docs[cell] = OpenDocument(uri=cell, path=path, version=version, key=key, cell=number)
        if not cells and gone:
            self.pending_reverts.setdefault(key, []).append(path)  # the project forgets its module
        if not cells and not gone:
            return
        settings = self.settings_for(key)
        if not typing:
            self.lint(key, 0.0)
        elif settings.lint_on_change:
            self.lint(key, settings.debounce_ms / 1000.0)

    def files_changed_on_disk(self, paths: list[str]) -> None:
        keys = set()
        open_paths = {d.path for d in self.docs.values()}
        for p in paths:
            p = normalize_path(p)
            if p in open_paths:
                continue
            key = self.key_for(p)
            self.pending_disk.setdefault(key, []).append(p)
            keys.add(key)
        for key in keys:
            self.lint(key, self.settings_for(key).debounce_ms / 1000.0)

    def lint(self, key: Path, delay: float) -> None:
        self.scheduler.schedule(key, delay)

    # -- the run: snapshot (loop) -> analyze (thread) -> apply (loop) -----------------------
    def _snapshot(self, key: Hashable) -> Snapshot | None:
        changed: dict[str, str | None] = {}
        open_docs: dict[str, tuple[str, int, str]] = {}
        cells: list[tuple[int, str, str]] = []
        for doc in self.docs.values():
            if doc.key != key:
                continue
            text = self.workspace.get_text_document(doc.uri).source
            open_docs[doc.uri] = (doc.path, doc.version, text)
            if doc.cell is not None:
                cells.append((doc.cell, doc.uri, doc.path))
            if doc.dirty:
                changed[doc.path] = text if doc.cell is None else None
                doc.dirty = False
        notebooks: dict[str, list[str]] = {}
        for _, uri, path in sorted(cells):
            notebooks.setdefault(path, []).append(uri)
        reverted = self.pending_reverts.pop(key, [])
        disk = self.pending_disk.pop(key, [])
        previous = {uri: self.results[uri] for uri in open_docs if uri in self.results}
        return Snapshot(key=key, encoding=self.encoding, changed=changed, reverted=reverted,
                        disk=disk, open_docs=open_docs, notebooks=notebooks, previous=previous)

    def _ensure_settings(self, key: Path, errors: list[str]) -> None:
        """Settings for a project, resolved on the analysis thread the first time it is seen."""
        proj = self.index.project(key)
        if proj.settings is None:
            from tclint.server.settings import resolve

            proj.settings, problems = resolve(self.anchor_for(key), self.settings_for(key))
            errors.extend(problems)

    def anchor_for(self, key: Path) -> Path:
        """Where settings are looked up for a project (unsaved buffers: the first folder)."""
        if str(key) == conversions.UNTITLED_DIR and self.folders:
            return self.folders[-1]
        return key

    def _analyze(self, snap: Snapshot, superseded) -> RunResult | None:
        """On the analysis thread (see lint_run.analyze)."""
        self.index.set_folders(self.folders)
        key = snap.key
        show_refuted = self.settings_for(key).confirm_show_refuted

        def selected(code: str) -> bool:
            from tclint.analyzer.selection import is_selected

            settings = self.index.project(key).settings
            return settings is None or is_selected(code, settings)

        def overlay(path: str, findings: list, text: str | None) -> list:
            return self.confirmations.overlay(key, path, findings, text, show_refuted, selected)

        self._load_saved_trace(key)
        return analyze(self.index, snap, superseded, self._ensure_settings, overlay)

    def _load_saved_trace(self, key: Path) -> None:
        """Verdicts `tclint trace` saved for this project, when that file is new or changed."""
        from tclint.analyzer.confirm import saved_results

        from tclint.analyzer.cache_folders import trace_file

        path = trace_file(self.index.project(key).settings, key)
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return
        if self._trace_stamps.get(key) == stamp:
            return
        self._trace_stamps[key] = stamp
        hashes, diagnostics = saved_results.load(path, self.log)
        if diagnostics:
            self.confirmations.put(key, hashes, {}, diagnostics)
            self.log(f"tclint: showing Dynamo's verdicts from {path}")

    def _apply(self, run: RunResult) -> None:
        for message in run.errors:
            self.problem(message)
        for notice in run.notices:
            self.log(notice, types.MessageType.Info)
        others_changed = False
        for uri, res in run.results.items():
            doc = self.docs.get(uri)
            if doc is None or doc.version != res.version:
                continue  # superseded by an edit made while this run was going on
            previous = self.results.get(uri)
            self.results[uri] = res
            changed = previous is None or previous.lsp != res.lsp
            if not self.pushes(doc):
                for fut in self.waiters.pop(uri, []):
                    if not fut.done():
                        fut.set_result(res)
                if changed and previous is not None and uri not in run.changed_uris:
                    others_changed = True
            elif self.published.get(uri) != (res.version, res.lsp):
                # New findings, or a new version of the text (even with the same findings:
                # the client learns that its latest edit was analyzed).
                self.published[uri] = (res.version, res.lsp)
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=res.lsp, version=res.version)
                )
        if others_changed and self.refresh_support:
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:  # noqa: BLE001
                log.exception("workspace/diagnostic/refresh failed")

    def _run_failed(self, key: Hashable, exc: BaseException) -> None:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.log(f"tclint: internal error while linting {key}:\n{text}", types.MessageType.Error)
        # Nobody may wait forever on a run that failed: answer with what we have.
        for doc in self.docs.values():
            if doc.key == key:
                for fut in self.waiters.pop(doc.uri, []):
                    if not fut.done():
                        fut.set_result(self.results.get(doc.uri))
