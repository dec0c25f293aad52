"""A comprehension that Dynamo compiles as a frame of its own breaks on the iterator it is
given when that is a list's or a dict's ("Missing tp_iternext", TC243): after a break the
function cannot resume from, or after a break inside a comprehension over a dict. A tuple's
iterator, a generator expression, or a comprehension with no tensor in reach do not break.
Verdicts checked with Dynamo 2.13 on Python 3.11 (comprehensions are functions there)."""
from __future__ import annotations

import importlib.util

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api
from tclint.analyzer.config import Settings

HELPER = """import torch
def g(t):
    if t.sum() > 0:
        return t
    return -t
"""
LOOP = HELPER + "@torch.compile\ndef f(x, d):\n    for i in range(2):\n        x = g(x)\n    return x, {}\n"
CASES = {
    # after a break in a loop body the whole function runs eagerly
    "local_list": (LOOP.format("[x * v for v in sorted(d.values())]"), 10),
    "dict_items": (LOOP.format("{k: x * v for k, v in d.items()}"), 10),
    "tuple": (LOOP.format("[x * v for v in tuple(d.values())]"), None),
    "generator": (LOOP.format("sum(x * v for v in d.values())"), None),
    "no_tensor": (LOOP.format("[k + '!' for k in d.keys()]"), None),
    "tensor_in_condition": (LOOP.format("[k for k in d.keys() if x.numel() > 1]"), 10),
    # a break inside: Dynamo rebuilds a list's iterator to resume, not a dict's
    "break_inside_dict": (HELPER + "@torch.compile\ndef f(x, d):\n    return [g(x) * v for v in d.values()]\n", 8),
    "break_inside_list": (HELPER + "@torch.compile\ndef f(x, d):\n    return [g(x) * v for v in list(d.values())]\n",
                          None),
}
CALL = "f(torch.randn(3), {'a': 1.0, 'b': 2.0})"


PY311 = Settings(target_version=(3, 11))


def _flagged(source: str, settings: Settings = PY311) -> list[int]:
    return [d.line for d in api.lint_source(source, path="m.py", settings=settings) if d.code == "TC243"]


@pytest.mark.parametrize("name", CASES)
def test_the_comprehensions_dynamo_compiles_apart_are_flagged(name):
    source, line = CASES[name]
    assert _flagged(source) == ([] if line is None else [line])


def test_python_3_12_inlines_comprehensions_so_a_project_that_targets_it_has_no_such_frames():
    assert _flagged(CASES["local_list"][0], Settings(target_version=(3, 12))) == []


def test_the_message_says_why_the_comprehension_is_a_frame():
    (d,) = [d for d in api.lint_source(CASES["local_list"][0], path="m.py", settings=PY311) if d.code == "TC243"]
    assert "runs eagerly from line 9 on" in d.message and "a list" in d.message
    assert d.gb_type == "Missing tp_iternext"


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_the_iterator_where_tclint_says():
    verdicts = ask([{"id": name, "source": source, "call": CALL} for name, (source, _) in CASES.items()])
    for name, (_, line) in CASES.items():
        lines = [at for gb, at in verdicts[name]["breaks"] if gb == "Missing tp_iternext"]
        assert lines == ([] if line is None else [line]), name


# Modules a comprehension calls: `head(x)` runs the class each element of the ModuleList is
# built from, whether `__init__` builds the list at once or appends to an empty one.
HEADS = """import torch
class Head(torch.nn.Module):
    def forward(self, x):
        if x.sum() {}:
            return x
        return -x
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
{}
    def forward(self, x):
        return torch.stack([head(x) for head in self.heads])
net = torch.compile(Net())
"""
BUILT_AT_ONCE = "        self.heads = torch.nn.ModuleList([Head() for _ in range(2)])"
APPENDED = "        self.heads = torch.nn.ModuleList()\n        for _ in range(2):\n            head = Head()\n" \
           "            self.heads.append(head)"
# A for statement over such a list calls the element class too: a break in a block's forward
# inside the loop makes the whole forward run eagerly, heads included.
BLOCKS = """import torch
class Block(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block(), Block()])
        self.heads = torch.nn.ModuleList([torch.nn.Identity(), torch.nn.Identity()])
    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return torch.stack([head(x) for head in self.heads])
net = torch.compile(Net())
"""
MODULE_CASES = {
    "heads_built_at_once": (HEADS.format("> 0", BUILT_AT_ONCE), 12),
    "heads_appended": (HEADS.format("> 0", APPENDED), 15),
    "heads_appended_no_break": (HEADS.format("is None", APPENDED), None),  # `x.sum() is None` is no tensor branch
    "after_a_loop_over_blocks_that_break": (BLOCKS, 15),
}


@pytest.mark.parametrize("name", MODULE_CASES)
def test_a_comprehension_calling_modules_that_break_is_flagged(name):
    source, line = MODULE_CASES[name]
    assert _flagged(source) == ([] if line is None else [line])


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_the_modules_iterator_where_tclint_says():
    verdicts = ask([{"id": name, "source": source, "call": "net(torch.randn(3))"}
                    for name, (source, _) in MODULE_CASES.items()])
    for name, (_, line) in MODULE_CASES.items():
        lines = [at for gb, at in verdicts[name]["breaks"] if gb == "Missing tp_iternext"]
        assert lines == ([] if line is None else [line]), name


# A ModuleList filled with objects of two classes has no one element class: `self.heads[1]`
# is a Quiet, whose `run` Dynamo traces, not a Head (checked: no break).
MIXED = """import torch
class Head(torch.nn.Module):
    def run(self, x):
        if x.sum() > 0:
            return x
        return -x
class Quiet(torch.nn.Module):
    def run(self, x):
        return x * 2
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = torch.nn.ModuleList()
        self.heads.append(Head())
        self.heads.append({}())
    def forward(self, x):
        return self.heads[1].run(x)
net = torch.compile(Net())
"""


def test_appends_of_two_classes_give_no_element_class():
    assert [d.line for d in api.lint_source(MIXED.format("Quiet"), path="m.py")] == []
    assert [d.line for d in api.lint_source(MIXED.format("Head"), path="m.py")] == [4]
