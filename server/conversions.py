"""Analyzer records -> LSP types.

The analyzer counts 1-based lines and 1-based columns in Unicode code points, with an
exclusive end column. LSP counts 0-based lines and 0-based characters in the position
encoding negotiated at initialize (UTF-16 code units unless the client offered utf-8 or
utf-32 in ``general.positionEncodings``).

Only lsprotocol is imported here; analyzer objects are used by attribute (duck typing),
so importing this module does not load the analyzer.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types

SOURCE = "tclint"
RULES_DOC_URL = "https://github.com/tclint/tclint/blob/main/docs/rules.md#{code}"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def split_lines(text: str) -> list[str]:
    """The document's lines as LSP counts them (\\n, \\r\\n and \\r end a line)."""
    return _LINE_BREAK.split(text)


def code_units(text: str, encoding: str | None) -> int:
    """Length of `text` in the code units of `encoding` (an LSP PositionEncodingKind value)."""
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    # UTF-16: characters outside the BMP take two code units.
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def code_points(line: str, units: int, encoding: str | None) -> int:
    """Inverse of `code_units` on one line: the code-point offset of an LSP character offset."""
    if encoding == types.PositionEncodingKind.Utf32:
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        if encoding == types.PositionEncodingKind.Utf8:
            count += len(ch.encode("utf-8", errors="surrogatepass"))
        else:
            count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def encoding_name(encoding: Any) -> str:
    value = getattr(encoding, "value", encoding)
    return str(value) if value else types.PositionEncodingKind.Utf16.value


def to_position(lines: Sequence[str], line: int, column: int, encoding: str | None) -> types.Position:
    """A 1-based (line, code-point column) -> LSP Position, clamped to the document."""
    if not lines:
        return types.Position(line=0, character=0)
    row = min(max(line - 1, 0), len(lines) - 1)
    if line - 1 > len(lines) - 1:
        # Past the end (a stale result): the end of the last line.
        return types.Position(line=row, character=code_units(lines[row], encoding))
    text = lines[row]
    col = max(column - 1, 0)
    if col <= len(text):
        return types.Position(line=row, character=code_units(text[:col], encoding))
    return types.Position(line=row, character=code_units(text, encoding) + (col - len(text)))


def to_range(lines: Sequence[str], span: Any, encoding: str | None) -> types.Range:
    start = to_position(lines, span.line, span.column, encoding)
    end = to_position(lines, span.end_line, span.end_column, encoding)
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return types.Range(start=start, end=end)


def path_to_uri(path: str) -> str:
    p = Path(path)
    try:
        return p.resolve().as_uri() if p.is_absolute() or p.exists() else p.absolute().as_uri()
    except ValueError:
        return "file://" + path


UNTITLED_DIR = "/<tclint-unsaved>"


def uri_to_path(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if re.match(r"^/[A-Za-z]:", path):  # file:///C:/x on Windows
        path = path[1:]
    return str(Path(path))


def rule_doc_url(code: str) -> str:
    return RULES_DOC_URL.format(code=code.lower())


def severity(value: Any) -> types.DiagnosticSeverity:
    return _SEVERITY.get(getattr(value, "value", value), types.DiagnosticSeverity.Warning)


def text_edit(edit: Any, lines: Sequence[str], encoding: str | None) -> types.TextEdit:
    """An analyzer TextEdit (same document) -> an LSP TextEdit."""
    return types.TextEdit(range=to_range(lines, edit.span, encoding), new_text=edit.new_text)


def suppression_for(d: Any, lines: Sequence[str]) -> Any | None:
    """The analyzer's edit that adds `# tclint: ignore[CODE]` to the diagnostic's line."""
    if d.code == "TC001":  # a syntax error cannot be suppressed
        return None
    if getattr(d, "suppression", None) is not None:
        return d.suppression
    from tclint.analyzer.api import suppression_edit

    row = d.span.line - 1
    line_text = lines[row] if 0 <= row < len(lines) else ""
    return suppression_edit(d, line_text)


def diagnostic_data(d: Any, lines: Sequence[str], encoding: str | None, uri_of: Any = None) -> dict:
    """What `Diagnostic.data` carries: enough for a client (or our code actions) to act."""
    uri_of = uri_of or path_to_uri
    data: dict[str, Any] = {
        "code": d.code,
        "name": d.name,
        "gb_id": d.gb_id,
        "gb_type": d.gb_type,
        "url": d.url,
    }
    if getattr(d, "confirmed", None) is not None:
        data["confirmed"] = d.confirmed  # Dynamo's verdict (tclint.confirmFile)
    if d.fix is not None:
        data["fix"] = {
            "title": d.fix.title,
            "edits": [
                {"uri": uri_of(e.path), **_edit_dict(text_edit(e, lines, encoding))}
                for e in d.fix.edits
                if e.path == d.path
            ],
        }
    supp = suppression_for(d, lines)
    if supp is not None:
        data["suppression"] = _edit_dict(text_edit(supp, lines, encoding))
    return data


def _edit_dict(edit: types.TextEdit) -> dict:
    r = edit.range
    return {
        "range": {
            "start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character},
        },
        "newText": edit.new_text,
    }


def to_lsp(d: Any, lines: Sequence[str], encoding: str | None,
           other_lines: Any = None, uri_of: Any = None) -> types.Diagnostic:
    """One analyzer Diagnostic -> lsprotocol Diagnostic.

    Places are files or, in a notebook, code cells (`cell` set): `other_lines(path, cell)`
    returns the lines of another place (for chain steps there), or None; `uri_of(path, cell)`
    the URI of a place (default: the file's URI).
    """
    uri_of = uri_of or (lambda path, cell=None: path_to_uri(path))
    related = []
    for step in d.chain:
        here = step.path == d.path and step.cell == d.cell
        step_lines = lines if here else (other_lines(step.path, step.cell) if other_lines else None)
        if step_lines:
            pos = to_position(step_lines, step.line, step.column, encoding)
        else:
            pos = types.Position(line=max(step.line - 1, 0), character=max(step.column - 1, 0))
        related.append(
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri_of(step.path, step.cell), range=types.Range(start=pos, end=pos)),
                message=step.label,
            )
        )
    message = d.text()
    if d.gb_id:
        message = f"{message} [{d.gb_id}]"
    return types.Diagnostic(
        range=to_range(lines, d.span, encoding),
        message=message,
        severity=severity(d.severity),
        code=d.code,
        code_description=types.CodeDescription(href=d.url or rule_doc_url(d.code)),
        source=SOURCE,
        related_information=related or None,
        data=diagnostic_data(d, lines, encoding, uri_of),
    )


def unsaved_path(uri: str) -> str:
    """A stand-in path for a document that is not a file (VS Code's `untitled:Untitled-1`)."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", uri.split(":", 1)[-1]).strip("_") or "untitled"
    return f"{UNTITLED_DIR}/{name}.py"
