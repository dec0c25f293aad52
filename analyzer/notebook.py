"""Jupyter notebooks: their code cells as one Python module, and positions back in cells.

The cells are joined in order (the way a notebook runs top to bottom), so names defined in
one cell are known in the next. IPython syntax that is not Python (`%magic`, `!shell`,
`%%cell_magic` cells, `obj?` help) becomes blank lines, keeping every other line in place.
Cells are numbered among code cells, from 1, as ruff numbers them.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Iterable

from tclint.analyzer.diagnostic import ChainStep, Diagnostic, Span

SUFFIX = ".ipynb"

# `%time x`, `!ls`, `files = !ls`, `%%bash`, `obj?`, `??obj`
# Line breaks as Python and editors count them (not str.splitlines(), which also splits
# at form feeds and U+2028).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_IPYTHON_LINE = re.compile(r"^\s*(?:[%!?]|[\w.,\s]+=\s*[%!]|[\w.]+\?\??\s*$)")


@dataclass(frozen=True)
class Notebook:
    python: str
    cell_starts: tuple[int, ...]  # the joined line where each code cell begins (1-based)

    def cell_position(self, line: int) -> tuple[int, int]:
        """(cell, line in that cell) of a line of the joined text."""
        index = max(bisect.bisect_right(self.cell_starts, line) - 1, 0)
        return index + 1, line - self.cell_starts[index] + 1

    def to_cells(self, diag: Diagnostic) -> Diagnostic:
        """The finding with its range and call chain in cell coordinates. Fixes and
        suppression edits are dropped: they are edits of the joined text."""
        cell, line = self.cell_position(diag.span.line)
        end_cell, end_line = self.cell_position(diag.span.end_line)
        if end_cell != cell:  # a range cannot cross cells; stop at the end of the first line
            end_line, end_column = line, diag.span.column + 1
        else:
            end_column = diag.span.end_column
        chain = tuple(self.step_in_cells(step) if step.path == diag.path else step for step in diag.chain)
        return diag.with_changes(span=Span(line, diag.span.column, end_line, end_column), cell=cell,
                                 chain=chain, fix=None, suppression=None)

    def step_in_cells(self, step: ChainStep) -> ChainStep:
        """A call-chain step in this notebook (joined line) in cell coordinates."""
        cell, line = self.cell_position(step.line)
        # Labels name places too ("compiled at demo.ipynb:12"): those become cell positions.
        name = re.escape(PurePath(step.path).name)
        label = re.sub(rf"\b({name}):(\d+)\b", self._cell_reference, step.label)
        return replace(step, line=line, label=label, cell=cell)

    def _cell_reference(self, match: re.Match) -> str:
        cell, line = self.cell_position(int(match.group(2)))
        return f"{match.group(1)}:cell {cell}:{line}"


def read_notebook(data: bytes) -> Notebook:
    """The code cells of an .ipynb file (nbformat 4). Raises ValueError when it is not one."""
    try:
        doc = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a readable notebook: {exc}") from None
    except RecursionError:
        raise ValueError("not a readable notebook: its JSON is nested too deeply") from None
    cells = doc.get("cells") if isinstance(doc, dict) else None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: no list of cells")
    texts = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            texts.append("".join(source))
        elif isinstance(source, str):
            texts.append(source)
        else:
            raise ValueError("not a notebook: a code cell's source is neither text nor a list of lines")
    return notebook_from_cells(texts)


def notebook_from_cells(texts: Iterable[str]) -> Notebook:
    """Code cells' texts, in order, as one module (an editor's open notebook, or a file's)."""
    lines: list[str] = []
    starts: list[int] = []
    for text in texts:
        cell_lines = _LINE_BREAK.split(text.removesuffix("\n").removesuffix("\r")) if text else [""]
        starts.append(len(lines) + 1)
        if cell_lines[0].lstrip().startswith("%%"):  # a cell magic: the body is not Python
            lines.extend("" for _ in cell_lines)
        else:
            lines.extend("" if _IPYTHON_LINE.search(line) else line for line in cell_lines)
    return Notebook("\n".join(lines) + "\n", tuple(starts) or (1,))
