"""Dynamo's graph-break registry is read as data, without importing torch."""
from __future__ import annotations

import json
import subprocess
import sys

from tclint.analyzer import gb_registry
from tclint.analyzer.rules import all_rules


def test_registry_from_a_file(tmp_path, monkeypatch):
    path = tmp_path / "graph_break_registry.json"
    path.write_text(json.dumps({
        "GB0124": [
            {"Gb_type": "old wording", "Explanation": "old", "Hints": []},
            {"Gb_type": "Unsupported Tensor.item() call with capture_scalar_outputs=False",
             "Explanation": "Dynamo does not support tracing `Tensor.item()`.",
             "Hints": ["Set `torch._dynamo.config.capture_scalar_outputs = True`", " "]},
        ],
        "broken": "not a list",
    }))
    monkeypatch.setenv("TCLINT_GB_REGISTRY", str(path))
    gb_registry.load_registry.cache_clear()
    try:
        entry = gb_registry.lookup("GB0124")
        assert entry.gb_type.startswith("Unsupported Tensor.item()")
        assert entry.hints == ("Set `torch._dynamo.config.capture_scalar_outputs = True`",)
        assert gb_registry.lookup("GB9999") is None
    finally:
        gb_registry.load_registry.cache_clear()


def test_missing_or_corrupt_registry_is_empty(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for value in (str(bad), str(tmp_path / "absent.json")):
        monkeypatch.setenv("TCLINT_GB_REGISTRY", value)
        gb_registry.load_registry.cache_clear()
        assert gb_registry.load_registry() == {}
    gb_registry.load_registry.cache_clear()


def test_rule_ids_match_the_installed_registry():
    registry = gb_registry.load_registry()
    if not registry:
        return  # no torch installed: the rules' own ids stand alone
    for rule in all_rules().values():
        for gb in filter(None, (rule.graph_break, *rule.also_predicts)):
            assert registry[gb.gb_id].gb_type == gb.gb_type, rule.code


def test_linting_never_imports_torch(tmp_path):
    (tmp_path / "m.py").write_text("import torch\n@torch.compile\ndef f(x):\n    return x.sum().item()\n")
    code = (
        "import sys; from tclint.analyzer.cli import main; rc = main(['--no-cache', sys.argv[1]]); "
        "assert 'torch' not in sys.modules, 'torch was imported'; "
        "from tclint.analyzer.rule_docs import rule_doc_text; from tclint.analyzer.rules import all_rules; "
        "rule_doc_text(all_rules()['TC102']); assert 'torch' not in sys.modules"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "m.py")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "TC102" in proc.stdout
