"""What Dynamo logs reaches the report whole: several breaks in one statement are each a
record with Dynamo's own type, and a break the recording hook lost never turns into a
refutation. Checked against Dynamo (torch 2.13, CPU)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.dynamo

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed", allow_module_level=True)

TWICE = textwrap.dedent("""\
    import torch

    @torch.compile
    def read_first(path, x):
        with open(path) as fh:
            fh.read()
        return x + 1

    @torch.compile
    def values(top_i):
        out = 0
        for e in top_i.unique().tolist():
            out += e
        return out

    def tclint_examples():
        return [("open", read_first._torchdynamo_orig_callable, (__file__, torch.randn(2)), {}),
                ("unique", values._torchdynamo_orig_callable, (torch.tensor([3, 1, 3]),), {})]
""")
OPEN, LOOP = 5, 12

# The example breaks the recording hook itself, as a bug in tclint's capture would.
LOST = textwrap.dedent("""\
    import torch

    @torch.compile
    def f(x):
        return x.sum().item()

    def tclint_examples():
        from torch._dynamo import symbolic_convert

        hook = symbolic_convert.InstructionTranslatorBase.log_graph_break
        for cell in hook.__closure__:
            if type(cell.cell_contents).__name__ == "BreakCollector":
                cell.cell_contents._by_type = None
        return [("lost", f._torchdynamo_orig_callable, (torch.randn(3),), {})]
""")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("records")
    (root / "twice.py").write_text(TWICE)
    (root / "lost.py").write_text(LOST)
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "confirm", "--format", "json", "--no-cache", "."],
        cwd=root, capture_output=True, text=True, timeout=900, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    return proc, json.loads(proc.stdout)["diagnostics"]


def _at(diagnostics, name, line):
    return sorted((d["code"], d["gb_type"], d["confirmed"]) for d in diagnostics
                  if d["path"].endswith(name) and d["line"] == line)


def test_two_breaks_in_a_with_statement_are_two_records(report):
    _, diagnostics = report
    got = _at(diagnostics, "twice.py", OPEN)
    assert {(gb, confirmed) for _, gb, confirmed in got} == {
        ("Failed to trace builtin operator", True), ("Unsupported context manager", True)}


def test_each_break_in_a_for_header_confirms_its_own_finding(report):
    _, diagnostics = report
    got = _at(diagnostics, "twice.py", LOOP)
    assert {(gb, confirmed) for _, gb, confirmed in got} == {
        ("Dynamic shape operator", True), ("Data dependent operator", True)}
    tolist = next(d for d in diagnostics if d["code"] == "TC104")
    assert tolist["gb_type"] == "Data dependent operator" and tolist["gb_id"] == "GB0033"


def test_a_lost_record_is_an_error_not_an_all_clear(report):
    proc, diagnostics = report
    assert "lost.py::lost: capture-failed: a graph break could not be recorded" in proc.stderr
    (finding,) = [d for d in diagnostics if d["path"].endswith("lost.py")]
    assert finding["code"] == "TC102" and finding["confirmed"] is None
