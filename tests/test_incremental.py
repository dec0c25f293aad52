"""The editor's incremental summaries give exactly the findings of a whole-file analysis."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tclint.analyzer.config import Settings
from tclint.analyzer.incremental import IncrementalSummarizer
from tclint.analyzer.project import project_diagnostics, summarize

ROOT = Path(__file__).resolve().parents[1]


def _real_files() -> list[Path]:
    files = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "analyzer" / "rules").glob("t*.py"))
    spec = importlib.util.find_spec("torch")
    if spec and spec.submodule_search_locations:
        nn = Path(spec.submodule_search_locations[0]) / "nn"
        files += sorted(nn.rglob("*.py"))[:40]
    return files


def _findings(summary):
    return [(*d.span, d.code, d.message)
            for d in project_diagnostics([summary], Settings())]


@pytest.mark.parametrize("path", _real_files(), ids=lambda p: p.name)
def test_same_findings_as_whole_file(path):
    text = path.read_text(encoding="utf-8")
    whole = summarize(text, "f.py", "pkg.f", False)
    parts = IncrementalSummarizer().summarize(text, "f.py", "pkg.f", False)
    assert _findings(parts) == _findings(whole)
    assert sorted(parts.functions) == sorted(whole.functions)
    assert sorted(parts.classes) == sorted(whole.classes)


def test_an_edit_reanalyzes_one_definition_and_keeps_positions():
    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    inc = IncrementalSummarizer()
    inc.summarize(text, "layers.py", "tinyvit.layers", False)
    cached = len(inc._parts)
    edited = "# a new comment line\n" + text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)) + 0")
    after = inc.summarize(edited, "layers.py", "tinyvit.layers", False)
    assert len(inc._parts) == cached + 1  # only the edited class was analyzed again
    assert _findings(after) == _findings(summarize(edited, "layers.py", "tinyvit.layers", False))


def test_syntax_error_falls_back_to_whole_file():
    summary = IncrementalSummarizer().summarize("def f(:\n", "f.py", "f", False)
    assert summary.syntax_error is not None
