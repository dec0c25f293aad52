"""The features a client asks for about one document: pulled diagnostics, hover, code
actions and the completion of suppression comments. They answer from the last applied run
and never wait for the analysis thread, except a diagnostic pull, which waits for the run
covering the current text.
"""
from __future__ import annotations

import asyncio
import traceback
from typing import Any

from lsprotocol import types

from tclint.server import code_actions as actions_mod
from tclint.server import conversions
from tclint.server.hover import build_hover, contains, rule_hover, suppression_code_at
from tclint.server.suppression_completion import completion_items

PULL_WAIT_S = 60.0


class Features:
    """Mixed into TclintLanguageServer (server/app.py), whose state it uses."""

    # -- pull diagnostics ---------------------------------------------------------------
    async def document_diagnostics(self, uri: str, previous_result_id: str | None):
        if self._settling is not None and not self._settling.done():
            await asyncio.shield(self._settling)
        doc = self.docs.get(uri)
        if doc is not None and doc.cell is not None:
            # Pushed (see `pushes`): answering here too would show each finding twice.
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        res = self.results.get(uri)
        if doc is not None and (
            res is None
            or self.scheduler.pending(doc.key)
            or (self.settings_for(doc.key).lint_on_change and res.version != doc.version)
        ):
            # Wait for the run that covers the current text of every file of the project.
            fut = asyncio.get_running_loop().create_future()
            self.waiters.setdefault(uri, []).append(fut)
            if not self.scheduler.pending(doc.key):
                self.lint(doc.key, 0.0)
            else:
                self.scheduler.expedite(doc.key)
            try:
                res = await asyncio.wait_for(asyncio.shield(fut), PULL_WAIT_S)
            except asyncio.TimeoutError:  # a very slow run: answer with what we have
                self.log(f"tclint: diagnostics for {uri} took over {PULL_WAIT_S}s", types.MessageType.Warning)
                res = self.results.get(uri)
        if res is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if previous_result_id is not None and previous_result_id == res.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=res.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=res.lsp, result_id=res.result_id)

    # -- findings under a position / range ----------------------------------------------
    def findings_at(self, uri: str, rng: types.Range) -> list[tuple[Any, types.Diagnostic]]:
        res = self.results.get(uri)
        if res is None:
            return []
        start = (rng.start.line, rng.start.character)
        end = (rng.end.line, rng.end.character)
        found = []
        for d, lsp in zip(res.findings, res.lsp):
            r = lsp.range
            if (r.start.line, r.start.character) <= end and start <= (r.end.line, r.end.character):
                found.append((d, lsp))
        return found

    def document_lines(self, uri: str) -> list[str]:
        return conversions.split_lines(self.workspace.get_text_document(uri).source)

    def hover_at(self, params: types.HoverParams) -> types.Hover | None:
        pos = params.position
        found = [(d, lsp) for d, lsp in self.findings_at(params.text_document.uri, types.Range(start=pos, end=pos))
                 if contains(lsp.range, pos)]
        formats = self.client_supports("text_document", "hover", "content_format") or []
        markdown = not formats or types.MarkupKind.Markdown in formats
        try:
            if not found:
                lines = self.document_lines(params.text_document.uri)
                line = lines[pos.line] if pos.line < len(lines) else ""
                code = suppression_code_at(line, pos.character)
                return rule_hover(code, markdown) if code else None
            return build_hover(found, markdown)
        except Exception:  # noqa: BLE001
            self.log(f"tclint: hover failed:\n{traceback.format_exc()}", types.MessageType.Error)
            return None

    def code_actions_for(self, params: types.CodeActionParams):
        uri = params.text_document.uri
        res = self.results.get(uri)
        if res is None:
            return None
        try:
            literal = self.client_supports("text_document", "code_action", "code_action_literal_support") is not None
            return actions_mod.code_actions(
                uri,
                self.findings_at(uri, params.range),
                list(zip(res.findings, res.lsp)),
                params.context.only,
                self.document_lines(uri),
                self.encoding,
                literal,
            ) or None
        except Exception:  # noqa: BLE001
            self.log(f"tclint: code actions failed:\n{traceback.format_exc()}", types.MessageType.Error)
            return None

    def completion_at(self, params: types.CompletionParams) -> list[types.CompletionItem] | None:
        uri, pos = params.text_document.uri, params.position
        try:
            lines = self.document_lines(uri)
            line = lines[pos.line] if pos.line < len(lines) else ""
            before = line[:conversions.code_points(line, pos.character, self.encoding)]
            # A comment on a line of its own suppresses the line below it.
            below = pos.line + 1 if line.lstrip().startswith("#") else None
            res = self.results.get(uri)
            codes = [d.code for d, lsp in zip(res.findings, res.lsp)
                     if lsp.range.start.line in (pos.line, below)] if res is not None else []
            return completion_items(before, codes)
        except Exception:  # noqa: BLE001
            self.log(f"tclint: completion failed:\n{traceback.format_exc()}", types.MessageType.Error)
            return None
