"""The analyzer's public API for the server, confirmation and tests."""
from __future__ import annotations

import re
from pathlib import Path

from tclint.analyzer.config import ConfigError, Settings
from tclint.analyzer.diagnostic import Diagnostic, Severity, Span, TextEdit
from tclint.analyzer.discovery import module_name
from tclint.analyzer.project import LintResult, lint_paths, project_diagnostics, summarize
from tclint.analyzer.summary import FileSummary

__all__ = [
    "ConfigError", "Diagnostic", "LintResult", "Settings", "Severity", "Span", "TextEdit",
    "lint_paths", "lint_source", "summarize_source", "project_diagnostics", "suppression_edit",
]


def summarize_source(text: str, path: str, module: str | None = None) -> FileSummary:
    """Phase 1 for an in-memory document (the editor's unsaved text)."""
    if module is None:
        p = Path(path)
        module, is_package = module_name(p.resolve()) if p.suffix == ".py" else (p.stem, False)
    else:
        is_package = Path(path).name == "__init__.py"
    return summarize(text, path, module, is_package)


def lint_source(text: str, path: str = "<string>.py", settings: Settings | None = None,
                others: list[FileSummary] = ()) -> list[Diagnostic]:
    """Diagnostics for one document, seen together with the summaries of other project files."""
    summary = summarize_source(text, path)
    settings = settings or Settings()
    diags = project_diagnostics([summary, *others], settings)
    return [d for d in diags if d.path == path]


def suppression_edit(d: Diagnostic, line_text: str) -> TextEdit:
    """The edit that silences `d` on its first line: a new `# tclint: ignore[CODE]` comment,
    or the code added to the one already there."""
    stripped = line_text.rstrip("\r\n")
    existing = _IGNORE_COMMENT.search(stripped)
    if existing is not None:
        codes = [c.strip() for c in existing.group(1).split(",") if c.strip()]
        if d.code not in codes:
            codes.append(d.code)
        start, end = existing.span(1)
        return TextEdit(path=d.path, span=Span(d.line, start + 1, d.line, end + 1), new_text=", ".join(codes))
    end = len(stripped) + 1
    return TextEdit(path=d.path, span=Span(d.line, end, d.line, end), new_text=f"  # tclint: ignore[{d.code}]")


_IGNORE_COMMENT = re.compile(r"#\s*tclint:\s*ignore\[([^\]]*)\]")
