"""Jupyter notebooks: code cells are linted as one module; findings point at cell and line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tclint.analyzer.config import Settings
from tclint.analyzer.notebook import read_notebook
from tclint.analyzer.project import lint_paths


def notebook(*cells: str | tuple[str, str]) -> str:
    """An nbformat-4 document; a tuple is (cell_type, source)."""
    def cell(c):
        kind, source = c if isinstance(c, tuple) else ("code", c)
        return {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
    return json.dumps({"cells": [cell(c) for c in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


TRAINING = notebook(
    ("markdown", "# Training\n"),
    "import torch\n%matplotlib inline\n!pip install -q einops\nfiles = !ls\n",
    "@torch.compile\ndef step(x):\n    if x.sum() > 0:\n        return x\n    return -x\n",
    "%%bash\necho $HOME\n",
    "@torch.compile\ndef report(x):\n    torch.ones?\n    return x.max().item()  # tclint: ignore[TC101]\n",
)


@pytest.fixture
def lint_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def _lint(files: dict[str, str]):
        for name, text in files.items():
            (tmp_path / name).write_text(text)
        return lint_paths([tmp_path], Settings(), jobs=1, use_cache=False)
    return _lint


def test_findings_are_placed_in_code_cells_counted_from_one(lint_dir):
    result = lint_dir({"train.ipynb": TRAINING})
    found = [(d.code, d.cell, d.span.line, d.span.column) for d in result.diagnostics]
    assert ("TC101", 2, 3, 8) in found  # `if x.sum() > 0:` on line 3 of the second code cell
    assert ("TC102", 4, 4, 12) in found


def test_imports_in_one_cell_are_known_in_the_next(lint_dir):
    result = lint_dir({"nb.ipynb": notebook("import torch as T\n", "@T.compile\ndef f(x):\n    return x.item()\n")})
    assert [(d.code, d.cell) for d in result.diagnostics] == [("TC102", 2)]


def test_ipython_syntax_is_not_a_syntax_error(lint_dir):
    result = lint_dir({"train.ipynb": TRAINING})
    assert "TC001" not in {d.code for d in result.diagnostics}


def test_suppressions_in_cells_are_honoured_and_checked(lint_dir):
    result = lint_dir({"train.ipynb": TRAINING})
    unused = [d for d in result.diagnostics if d.code == "TC002"]
    assert [(d.cell, d.span.line) for d in unused] == [(4, 4)]


def test_call_chain_points_into_cells(lint_dir):
    result = lint_dir({"nb.ipynb": notebook("import torch\n", "def helper(x):\n    return x.item()\n",
                                            "@torch.compile\ndef f(x):\n    return helper(x)\n")})
    (d,) = result.diagnostics
    assert d.cell == 2 and [(s.cell, s.line) for s in d.chain] == [(3, 2), (3, 3)]
    assert "compiled at nb.ipynb:cell 3:2" in d.chain[0].label


def test_an_unreadable_notebook_is_a_tc001_of_its_own(lint_dir):
    result = lint_dir({"broken.ipynb": "{not json", "ok.py": "import torch\n@torch.compile\ndef f(x):\n    return x.item()\n"})
    found = [(Path(d.path).name, d.code, d.cell) for d in result.diagnostics]
    assert found == [("broken.ipynb", "TC001", None), ("ok.py", "TC102", None)]
    assert result.diagnostics[0].message.startswith("not a readable notebook")
    assert result.notices == []


def test_a_python_module_of_the_same_name_is_not_shadowed(lint_dir):
    result = lint_dir({
        "model.ipynb": notebook("def scale(x):\n    return x\n"),
        "model.py": "def scale(x):\n    return x.item()\n",
        "train.py": "import torch\nfrom model import scale\n\n@torch.compile\ndef f(x):\n    return scale(x)\n",
    })
    assert [(d.path, d.code) for d in result.diagnostics] == [("model.py", "TC102")]


def test_cell_lines_map_back():
    nb = read_notebook(notebook("a = 1\nb = 2\n", ("markdown", "text"), "c = 3\n").encode())
    assert nb.python == "a = 1\nb = 2\nc = 3\n"
    assert nb.cell_position(1) == (1, 1) and nb.cell_position(3) == (2, 1)


@pytest.mark.parametrize("text", ["[]", '{"cells": 3}', "\xff"])
def test_not_a_notebook_raises_value_error(text):
    with pytest.raises(ValueError):
        read_notebook(text.encode("latin-1"))


def test_cli_writes_cell_positions_like_ruff(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "train.ipynb").write_text(TRAINING)
    def run(fmt):
        return subprocess.run([sys.executable, "-m", "tclint.analyzer", "--no-cache", "--format", fmt, "."],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    text = run("text")
    assert text.returncode == 1
    assert "train.ipynb:cell 2:3:8: TC101" in text.stdout
    doc = json.loads(run("json").stdout)
    assert {(d["code"], d["cell"], d["line"]) for d in doc["diagnostics"]} >= {("TC101", 2, 3), ("TC102", 4, 4)}
    github = run("github").stdout
    assert "file=train.ipynb,title=TC101" in github and "::cell 2:3:8: TC101" in github


def test_form_feeds_and_line_separators_do_not_shift_lines():
    nb = read_notebook(notebook("a = 1\x0c\nb = '\u2028'\n", "c = 3\n").encode())
    assert nb.python.split("\n")[:3] == ["a = 1\x0c", "b = '\u2028'", "c = 3"]
    assert nb.cell_position(3) == (2, 1)
