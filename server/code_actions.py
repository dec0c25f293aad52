"""Code actions: suppress a finding on its line, open its graph-break documentation, apply
the analyzer's fix, and `source.fixAll.tclint` (every fix of the document at once)."""
from __future__ import annotations

from typing import Any, Sequence

from lsprotocol import types

from tclint.server.conversions import path_to_uri, suppression_for, text_edit

OPEN_DOC_COMMAND = "tclint.openDocumentation"
FIX_ALL_KIND = "source.fixAll.tclint"


def kind_allowed(kind: str, only: Sequence[str] | None) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def _fix_edits(d: Any, uri: str, lines: Sequence[str], encoding: str | None) -> dict[str, list[types.TextEdit]]:
    changes: dict[str, list[types.TextEdit]] = {}
    for e in d.fix.edits:
        target = uri if e.path == d.path else path_to_uri(e.path)
        edit_lines = lines if e.path == d.path else []
        if not edit_lines:
            start = types.Position(line=e.span.line - 1, character=e.span.column - 1)
            end = types.Position(line=e.span.end_line - 1, character=e.span.end_column - 1)
            edit = types.TextEdit(range=types.Range(start=start, end=end), new_text=e.new_text)
        else:
            edit = text_edit(e, edit_lines, encoding)
        changes.setdefault(target, []).append(edit)
    return changes


def code_actions(
    uri: str,
    in_range: Sequence[tuple[Any, types.Diagnostic]],
    in_document: Sequence[tuple[Any, types.Diagnostic]],
    only: Sequence[str] | None,
    lines: Sequence[str],
    encoding: str | None,
    literal_support: bool,
) -> list[types.CodeAction | types.Command]:
    actions: list[types.CodeAction | types.Command] = []
    quickfix = types.CodeActionKind.QuickFix.value
    seen_suppress: set[tuple[int, str]] = set()
    seen_docs: set[str] = set()
    for d, lsp in in_range:
        if d.fix is not None and kind_allowed(quickfix, only):
            actions.append(types.CodeAction(
                title=d.fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                edit=types.WorkspaceEdit(changes=_fix_edits(d, uri, lines, encoding)),
                is_preferred=True,
            ))
        supp = suppression_for(d, lines)
        if supp is not None and (d.span.line, d.code) not in seen_suppress and kind_allowed(quickfix, only):
            seen_suppress.add((d.span.line, d.code))
            actions.append(types.CodeAction(
                title=f"Suppress {d.code} on this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                edit=types.WorkspaceEdit(changes={uri: [text_edit(supp, lines, encoding)]}),
            ))
        if d.gb_id and d.gb_id not in seen_docs and kind_allowed(quickfix, only):
            seen_docs.add(d.gb_id)
            title = f"Open {d.gb_id} documentation"
            actions.append(types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                command=types.Command(title=title, command=OPEN_DOC_COMMAND, arguments=[d.url]),
            ))
    fixable = [(d, lsp) for d, lsp in in_document if d.fix is not None]
    if fixable and kind_allowed(FIX_ALL_KIND, only):
        changes: dict[str, list[types.TextEdit]] = {}
        taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
        for d, _ in fixable:
            for target, edits in _fix_edits(d, uri, lines, encoding).items():
                for edit in edits:
                    r = edit.range
                    key = ((r.start.line, r.start.character), (r.end.line, r.end.character))
                    if target == uri and any(not (key[1] <= a or b <= key[0]) for a, b in taken):
                        continue  # overlaps an edit already taken: leave it for the next run
                    if target == uri:
                        taken.append(key)
                    changes.setdefault(target, []).append(edit)
        actions.append(types.CodeAction(
            title="tclint: fix all",
            kind=FIX_ALL_KIND,
            diagnostics=[lsp for _, lsp in fixable],
            edit=types.WorkspaceEdit(changes=changes),
        ))
    if not literal_support:
        return [a.command for a in actions if isinstance(a, types.CodeAction) and a.command is not None]
    return actions
