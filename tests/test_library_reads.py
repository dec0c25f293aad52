"""The language server reads the installed libraries that compiled code calls, as the CLI does
(tests/test_library_context.py): a break inside one is a TC227 at the user's call. Libraries
do not change while one types, so an edit reads no library file again, and a new call into
a module not read yet reads just that module."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_library_context import CALLBACK_LIBRARIES, CALLBACK_USER, LIBRARY, USER, _write

from tclint.analyzer import project
from tclint.analyzer.config import Settings
from tclint.server import library_reads
from tclint.server.workspace_index import WorkspaceIndex

# A second module of the library, which nothing calls at first.
STEPS = {"solverlib/steps.py": '''
    def euler(y, dt):
        return y + dt * float(y.sum())
    '''}


def _server(folder: Path) -> tuple[WorkspaceIndex, Path]:
    index = WorkspaceIndex()
    index.set_folders([folder])
    key = folder.resolve()
    index.project(key).settings = Settings()
    index.index_project(key)
    return index, key


def _findings(by_path: dict) -> list[tuple]:
    return sorted((Path(d.path).name, d.span.line, d.span.column, d.span.end_line, d.span.end_column, d.code,
                   d.text()) for ds in by_path.values() for d in ds)


def _reads(monkeypatch) -> list[str]:
    """The library modules read from disk from now on, by module name."""
    read: list[str] = []
    real = library_reads._summarize
    monkeypatch.setattr(library_reads, "_summarize", lambda index, proj, f: read.append(f.module) or real(index, proj, f))
    return read


@pytest.mark.parametrize("libraries, user", [(LIBRARY, USER), (CALLBACK_LIBRARIES, CALLBACK_USER)],
                         ids=["call", "callback"])
def test_the_server_reports_what_the_cli_reports(tmp_path, libraries, user):
    # The workspace is the user's package; the library lies beside it, as in a site folder.
    _write(tmp_path, {**libraries, "userpkg/__init__.py": "", "userpkg/model.py": user})
    proc = subprocess.run([sys.executable, "-m", "tclint.analyzer", "--no-cache", "--format", "json", "userpkg"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    cli = sorted((Path(d["path"]).name, d["line"], d["column"], d["end_line"], d["end_column"], d["code"], d["message"])
                 for d in json.loads(proc.stdout)["diagnostics"])
    assert [f[5] for f in cli] == ["TC227"]
    index, key = _server(tmp_path / "userpkg")
    assert _findings(library_reads.diagnostics(index, key)) == cli


def test_an_edit_reads_no_library_again_and_a_new_call_reads_one_module(tmp_path, monkeypatch):
    _write(tmp_path, {**LIBRARY, **STEPS, "userpkg/__init__.py": "", "userpkg/model.py": USER})
    index, key = _server(tmp_path / "userpkg")
    read = _reads(monkeypatch)
    assert [f[5] for f in _findings(library_reads.diagnostics(index, key))] == ["TC227"]
    assert sorted(read) == ["solverlib", "solverlib.core"]
    model = str((tmp_path / "userpkg" / "model.py").resolve())
    text = (tmp_path / "userpkg" / "model.py").read_text()

    read.clear()
    phases = []
    real = project.project_diagnostics
    monkeypatch.setattr(project, "project_diagnostics", lambda *a, **k: phases.append(1) or real(*a, **k))
    index.set_buffer(model, text.replace("return solverlib.solve(y, t)", "return solverlib.solve(y * 3, t)"))
    assert [f[5] for f in _findings(library_reads.diagnostics(index, key))] == ["TC227"]
    assert read == [] and len(phases) == 1  # no second pass over the project to find its region

    index.set_buffer(model, text.replace("    y = solverlib.scaled(y0)", "    y = solverlib.steps.euler(y0, 0.1)"))
    found = _findings(library_reads.diagnostics(index, key))
    assert read == ["solverlib.steps"]
    assert [(line, code) for _, line, _, _, _, code, _ in found] == [(8, "TC227"), (9, "TC227")]
    assert "`euler` breaks the graph inside an installed library (solverlib.steps, line 2)" in found[0][6]


def test_a_project_that_calls_no_library_takes_the_index_phase(tmp_path, monkeypatch):
    _write(tmp_path, {**LIBRARY, "userpkg/__init__.py": "",
                      "userpkg/model.py": USER.replace("import solverlib\n", "").replace("solverlib.", "")})
    index, key = _server(tmp_path / "userpkg")
    read = _reads(monkeypatch)
    assert library_reads.diagnostics(index, key) == index.diagnostics(key)
    assert read == []


def test_a_library_installed_while_the_server_runs_is_read(tmp_path):
    _write(tmp_path, {"userpkg/__init__.py": "", "userpkg/model.py": USER})
    index, key = _server(tmp_path / "userpkg")
    assert _findings(library_reads.diagnostics(index, key)) == []
    _write(tmp_path, LIBRARY)
    assert [f[5] for f in _findings(library_reads.diagnostics(index, key))] == ["TC227"]
