"""The analyzer's public API for the server, confirmation and tests."""
from __future__ import annotations

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
    return summarize(text.encode("utf-8"), path, module, is_package)


def lint_source(text: str, path: str = "<string>.py", settings: Settings | None = None,
                others: list[FileSummary] = ()) -> list[Diagnostic]:
    """Diagnostics for one document, seen together with the summaries of other project files."""
    summary = summarize_source(text, path)
    settings = settings or Settings()
    diags = project_diagnostics([summary, *others], settings)
    return [d for d in diags if d.path == path]


def suppression_edit(d: Diagnostic, line_text: str) -> TextEdit:
    """The edit that silences `d`: `# tclint: ignore[CODE]` at the end of its first line."""
    stripped = line_text.rstrip("\r\n")
    end = len(stripped) + 1
    return TextEdit(path=d.path, span=Span(d.line, end, d.line, end), new_text=f"  # tclint: ignore[{d.code}]")
