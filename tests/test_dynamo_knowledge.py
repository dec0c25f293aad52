"""Knowledge derived from Dynamo itself: the probe's per-version tables and the installed
torch's trace rules, read as text."""
from __future__ import annotations

import json

import pytest

from tclint.analyzer import api, gb_registry
from tclint.analyzer.knowledge import dynamo_calls, trace_rules

TRACE_RULES = '''
manual_torch_name_rule_map: dict[str, Any] = {
    "torch.jit.is_scripting": TorchInGraphFunctionVariable,
    "torch.jit.isinstance": SkipFunctionVariable,
    "torch.Tensor#__init__": SkipFunctionVariable,
    "inspect.signature": InspectSignatureVariable,
}

_GENERATOR_METHODS_THAT_GRAPH_BREAK = (
    "manual_seed",
)

for generator_prefix in ("torch.default_generator",):
    pass

BUILTIN_SKIPLIST = (
    abc,
    copy,
    re,
)

THIRDPARTY_SKIPLIST = (
    "numpy",
    "tqdm",
)

BUILTIN_INLINE_WHEN_CALLED.update(filter(None, (_module_dir(copy),)))
'''
POLYFILL = "@substitute_in_graph(re.escape, can_constant_fold_through=True)\ndef escape(s): ...\n"


def test_trace_rules_are_read_from_the_text():
    rules = trace_rules.parse(TRACE_RULES, [POLYFILL])
    assert rules.skipped_functions == {"torch.jit.isinstance", "torch.default_generator.manual_seed"}
    assert rules.verdict("torch.jit.isinstance") == "skipped"
    assert rules.verdict("inspect.signature") == "traced"  # a dedicated handler
    assert rules.verdict("tqdm.tqdm") == "skipped"
    assert rules.verdict("re.escape") == "traced"  # polyfilled
    # the stdlib skip list is left to the probe; NumPy is traced through torch._numpy
    assert rules.verdict("re.compile") is None
    assert rules.verdict("numpy.zeros") is None
    assert rules.verdict("torch.jit.is_scripting") == "traced"


def test_unreadable_trace_rules_decide_nothing():
    rules = trace_rules.parse("not the file we expect", [])
    assert rules.verdict("torch.jit.isinstance") is None


@pytest.mark.parametrize(("installed", "expected"), [
    ("2.13.0+cpu", (2, 13)),
    ("2.14.1", (2, 13)),  # newer torch: the newest table not newer than it
    ("2.11.0", (2, 11)),
    ("2.9.0", (2, 13)),  # older than every table: the newest
    (None, (2, 13)),  # no torch: the newest
])
def test_the_table_follows_the_installed_torch(installed, expected):
    assert dynamo_calls.pick([(2, 11), (2, 13)], installed) == expected


def test_a_probe_row_overrides_the_trace_rules(tmp_path):
    table = tmp_path / "dynamo_calls_2.13.json"
    table.write_text(json.dumps({"torch": "2.13.0", "calls": {
        "tqdm.tqdm": {"breaks": False},  # (not what 2.13 does: the row wins over the skip list)
        "bisect.bisect": {"breaks": True, "gb_type": "Attempted to call function marked as skipped",
                          "gb_id": "GB0007"},
    }}))
    calls = dynamo_calls.load(table, trace_rules.parse(TRACE_RULES, []))
    assert calls.verdict("torch.jit.isinstance").source == "trace_rules"
    assert calls.verdict("tqdm.tqdm") is None
    assert calls.verdict("tqdm.auto.tqdm").source == "trace_rules"
    found = calls.verdict("bisect.bisect")
    assert (found.graph_break.gb_id, found.torch_version, found.source) == ("GB0007", "2.13", "probe")


def test_the_shipped_table_for_2_13_holds_dynamos_verdicts():
    calls = dynamo_calls.load(dynamo_calls.tables()[(2, 13)], trace_rules.EMPTY)
    assert calls.verdict("sys._getframe").graph_break.gb_id == "GB0007"
    assert calls.verdict("importlib.import_module") is not None
    assert calls.verdict("inspect.signature") is None
    assert calls.verdict("functools.partial") is None


def test_numpy_functions_torch_numpy_lacks_break_as_dynamos_map_says():
    calls = dynamo_calls.load(dynamo_calls.tables()[(2, 13)], trace_rules.EMPTY)
    found = calls.verdict("numpy.asanyarray")
    assert (found.graph_break.gb_id, found.source) == ("GB0294", "numpy_map")
    assert calls.verdict("numpy.nanmean").source == "numpy_map"
    assert calls.verdict("numpy.linalg.vector_norm").source == "numpy_map"
    assert calls.verdict("numpy.concatenate") is None  # torch._numpy has it: traced
    assert calls.verdict("numpy.linalg.norm") is None
    assert calls.verdict("numpy.where").source == "probe"  # a probed row keeps its source


def test_the_message_names_the_torch_version_of_the_verdict():
    source = "import bisect\nimport torch\n@torch.compile\ndef f(x, grid):\n    return x + bisect.bisect(grid, 0.5)\n"
    [found] = [d for d in api.lint_source(source, path="m.py") if d.code == "TC220"]
    assert f"torch {dynamo_calls.current().torch_version}" in found.message
    assert found.gb_id == "GB0007" and found.line == 5


def test_the_installed_torch_is_found_without_importing_it():
    if gb_registry.torch_dir() is None:
        pytest.skip("torch is not installed")
    assert gb_registry.torch_version().startswith("2.")
    assert "torch.jit.isinstance" in trace_rules.installed().skipped_functions
