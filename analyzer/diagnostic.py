"""The Diagnostic record: the one contract between analyzer, CLI, confirmation and server.

Lines and columns are 1-based; columns count Unicode code points. ``end_column`` is
exclusive, so a range covers ``[column, end_column)`` on its last line.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


class Span(NamedTuple):
    # A NamedTuple: summaries hold hundreds of thousands of spans, and tuples pickle fast.
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``span`` in ``path`` with ``new_text``."""

    path: str
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[TextEdit, ...]


@dataclass(frozen=True, slots=True)
class ChainStep:
    """One step of the call chain from a compiled root to the finding."""

    path: str
    line: int
    column: int
    label: str
    cell: int | None = None  # in a notebook: the code cell that `line` is relative to

    def location(self) -> str:
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{cell}{self.line}"


REFUTED_NOTE = "not confirmed: this line ran without a break"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding, in parts: `text()` composes them, and each output renders that."""

    path: str
    span: Span
    code: str
    name: str
    severity: Severity
    message: str  # what the rule says about this code
    # where the code runs only: under `if self.training:` (a model compiled after `.eval()`
    # never gets there), or while building an exception to raise
    training_only: bool = False
    building_exception: bool = False
    gb_type: str | None = None
    gb_id: str | None = None
    url: str | None = None
    chain: tuple[ChainStep, ...] = ()  # from a compiled root to the finding
    fix: Fix | None = None
    suppression: TextEdit | None = None
    confirmed: bool | None = None  # Dynamo's verdict, once an example ran the line
    # sentences the project phase adds (what a break inside a loop keeps from being traced)
    notes: tuple[str, ...] = field(default=())
    cell: int | None = None  # in a notebook: the code cell (from 1) that `span` is relative to
    because: str | None = None  # what makes it hold, from another function: "`f` returns a tensor"
    hint: str | None = None  # the Dynamo setting that would trace it
    observed: str | None = None  # the Gb_type Dynamo logged, where it is not the predicted one

    @property
    def line(self) -> int:
        return self.span.line

    def text(self, note_separator: str = "; ") -> str:
        """The message as shown: the rule's words and where the code only runs (statement()),
        why the value is a tensor, the setting that would trace it, the call chain, the notes
        and Dynamo's verdict."""
        parts = [self.statement()]
        if self.because:
            parts.append(f" ({self.because})")
        if self.hint:
            parts.append(f"; {self.hint}")
        if len(self.chain) > 1:
            via = " → ".join(step.label.removeprefix("calls ") for step in self.chain[1:])
            parts.append(f" (in {via}, reached from {self.chain[0].label})")
        parts.extend(f"{note_separator}{note}" for note in self.notes)
        if self.confirmed:
            parts.append(f" [confirmed by Dynamo{': ' + self.observed if self.observed else ''}]")
        elif self.confirmed is False:
            parts.append(f" [{REFUTED_NOTE}]")
        return "".join(parts)

    def statement(self) -> str:
        """The rule's words, and where the code only runs."""
        return (self.message + ("; this only runs in training (under `self.training`)" if self.training_only else "")
                + ("; this only runs while building an exception" if self.building_exception else ""))

    def location(self) -> str:
        """`path:line:column`, or `path:cell N:line:column` in a notebook (as ruff writes it)."""
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{cell}{self.span.line}:{self.span.column}"

    def with_changes(self, **changes) -> Diagnostic:
        return replace(self, **changes)

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.span.line, self.span.column, self.code)

    def to_json(self) -> dict:
        """The JSON contract shared by ``--format json``, the server and confirmation."""
        out = {
            "path": self.path,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.text(),
            "gb_type": self.gb_type,
            "gb_id": self.gb_id,
            "url": self.url,
            "confirmed": self.confirmed,
        }
        if self.cell is not None:
            out["cell"] = self.cell
        if self.chain:
            out["chain"] = [
                {"path": s.path, "line": s.line, "column": s.column, "label": s.label,
                 **({"cell": s.cell} if s.cell is not None else {})} for s in self.chain
            ]
        if self.fix:
            out["fix"] = {
                "title": self.fix.title,
                "edits": [_edit_json(e) for e in self.fix.edits],
            }
        return out


def _edit_json(edit: TextEdit) -> dict:
    s = edit.span
    return {
        "path": edit.path,
        "line": s.line,
        "column": s.column,
        "end_line": s.end_line,
        "end_column": s.end_column,
        "new_text": edit.new_text,
    }
