"""The saved trace (in `.tclint_cache/traces/`) may come with the repository: tclint reads it as untrusted data. Only a
regular file within the size limit counts, a row with wrong types is dropped (the others
stay), and a row adds a verdict to a static finding without changing what it says."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from tclint.analyzer.confirm import saved_results
from tclint.analyzer.diagnostic import Diagnostic, Severity, Span
from tclint.server.confirm import ConfirmStore

SOURCE = b"import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n"


def _row(path, **changes):
    row = {"path": str(path), "line": 5, "column": 12, "end_line": 5, "end_column": 28, "code": "TC102",
           "name": "tensor-item", "severity": "error", "message": "`.item()` breaks [confirmed by Dynamo]",
           "gb_type": "Unsupported Tensor.item() call with capture_scalar_outputs=False", "gb_id": "GB0124",
           "confirmed": True}
    row.update(changes)
    return row


def _write(tmp_path, rows, files=None):
    src = tmp_path / "m.py"
    src.write_bytes(SOURCE)
    trace = tmp_path / "trace.json"
    digests = files if files is not None else {str(src): saved_results.content_digest(SOURCE)}
    trace.write_text(json.dumps({"tool": "tclint", "files": digests, "diagnostics": rows}))
    return src, trace


def _static(src):
    return Diagnostic(path=str(src), span=Span(5, 12, 5, 28), code="TC102", name="tensor-item",
                      severity=Severity.WARNING, message="`.item()` breaks", gb_type="Unsupported Tensor.item() call "
                      "with capture_scalar_outputs=False", gb_id="GB0124")


def test_rows_with_wrong_types_are_dropped_and_said(tmp_path):
    src, trace = _write(tmp_path, [])
    rows = [_row(src, line="5"), _row(src, confirmed="yes"), _row(src, column=True), "row", _row(src, gb_id=7),
            _row(src, code="TC102; rm"), _row(src)]
    src, trace = _write(tmp_path, rows)
    said = []
    hashes, diagnostics = saved_results.load(trace, said.append)
    assert [(d.code, d.line, d.confirmed) for d in diagnostics] == [("TC102", 5, True)]
    assert str(src) in hashes and said and "dropped 6 rows" in said[0]


def test_a_bad_row_leaves_the_files_findings_in_place(tmp_path):
    src, trace = _write(tmp_path, [_row(tmp_path / "m.py", end_column=None)])
    store = ConfirmStore()
    hashes, rows = saved_results.load(trace, lambda _: None)
    store.put(tmp_path, hashes, {}, rows)
    assert store.overlay(tmp_path, str(src), [_static(src)], None) == [_static(src)]


def test_a_row_adds_a_verdict_but_never_its_own_words(tmp_path):
    src, trace = _write(tmp_path, [])
    hostile = _row(src, message="Ignore this, all is fine", severity="hint", gb_type="Data dependent operator",
                   gb_id="GB0033")
    refuting = _row(src, line=5, column=12, code="TC102", confirmed=False, message="(owned)")
    for row, confirmed in ((hostile, True), (refuting, False)):
        src, trace = _write(tmp_path, [row])
        store = ConfirmStore()
        hashes, rows = saved_results.load(trace)
        store.put(tmp_path, hashes, {}, rows)
        (d,) = store.overlay(tmp_path, str(src), [_static(src)], None)
        assert d.text().startswith("`.item()` breaks [") and "Ignore" not in d.text() and "owned" not in d.text()
        assert d.confirmed is confirmed
        assert d.severity == (Severity.ERROR if confirmed else Severity.HINT)
        if confirmed:  # the observed Gb_type is part of the verdict
            assert (d.gb_type, d.gb_id) == ("Data dependent operator", "GB0033")


def test_observed_findings_keep_their_own_severity_and_a_bounded_message(tmp_path):
    src, trace = _write(tmp_path, [])
    rows = [_row(src, code="TC900", severity="hint", message="Dynamo broke the graph here\x1b[2J"),
            _row(src, code="TC900", message="x" * 100_000)]
    src, trace = _write(tmp_path, rows)
    _, (d,) = saved_results.load(trace, lambda _: None)
    assert d.severity == Severity.ERROR and "\x1b" not in d.text()


def test_a_file_over_the_size_limit_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setattr(saved_results, "MAX_BYTES", 1000)
    src, trace = _write(tmp_path, [])
    src, trace = _write(tmp_path, [_row(src)] * 10)
    said = []
    assert saved_results.load(trace, said.append) == ({}, []) and "larger than" in said[0]


def test_too_many_rows_are_ignored(tmp_path, monkeypatch):
    monkeypatch.setattr(saved_results, "MAX_ROWS", 3)
    src, trace = _write(tmp_path, [])
    src, trace = _write(tmp_path, [_row(src)] * 4)
    said = []
    assert saved_results.load(trace, said.append) == ({}, []) and "more than 3 rows" in said[0]


def _load_within(path: Path, seconds: float = 10.0):
    out, said = [], []
    worker = threading.Thread(target=lambda: out.append(saved_results.load(path, said.append)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, f"reading {path} did not return within {seconds} s"
    return out[0], said


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_not_read(tmp_path):
    fifo = tmp_path / "trace.json"
    os.mkfifo(fifo)
    result, said = _load_within(fifo)
    assert result == ({}, []) and "not a regular file" in said[0]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_symlink_to_a_device_is_not_read(tmp_path):
    link = tmp_path / "trace.json"
    link.symlink_to("/dev/zero")
    result, said = _load_within(link)
    assert result == ({}, []) and "not a regular file" in said[0]


def test_a_missing_file_is_silent(tmp_path):
    said = []
    assert saved_results.load(tmp_path / "trace.json", said.append) == ({}, []) and said == []
