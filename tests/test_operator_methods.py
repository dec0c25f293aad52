"""`a[i]` and `a < b` on an object of a project class run its `__getitem__` / `__lt__`,
which Dynamo inlines like a call: a break inside is reported in the method, and Dynamo
resumes after the statement (unlike after `a + b`, see test_unresumable_blocks.py).

Each program lists the (code, line) findings tclint must report; the Dynamo half checks
that torch 2.13 (eager backend) breaks on exactly those lines."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

BOX = """
    import torch
    class Box:
        def __init__(self, t):
            self.t = t
        def __getitem__(self, i):
            print("get")
            return self.t[i]
        def __setitem__(self, i, v):
            self.t = v
        def __lt__(self, other):
            print("lt")
            return True
"""

PROGRAMS = {
    "a break in __getitem__, then the frame resumes": (BOX + """
    @torch.compile
    def f(x):
        x = x * 2
        y = x.sin()
        b = Box(x)
        z = b[0]
        if y.sum() > 0:
            y = y + 1
        return z + y
    """, [("TC201", 6), ("TC101", 20)]),
    "a break in __lt__, then the frame resumes": (BOX + """
    @torch.compile
    def f(x):
        x = x * 2
        y = x.sin()
        b = Box(x)
        if b < b:
            y = y + 1
        if y.sum() > 0:
            y = y + 1
        return y
    """, [("TC201", 11), ("TC101", 21)]),
    "in a loop the break in __getitem__ skips the frame": (BOX + """
    @torch.compile
    def f(x):
        x = x * 2
        b = Box(x)
        for i in range(2):
            x = x + b[i]
        if x.sum() > 0:
            x = x + 1
        return x
    """, [("TC201", 6)]),
    "storing runs __setitem__, not __getitem__": (BOX + """
    @torch.compile
    def f(x):
        b = Box(x)
        b[0] = x * 2
        return b.t + 1
    """, []),
}


def _source(name: str) -> str:
    return textwrap.dedent(PROGRAMS[name][0]).lstrip("\n")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_tclint_finds_the_breaks(name):
    found = sorted((d.code, d.span.line) for d in api.lint_source(_source(name), path="prog.py"))
    assert found == sorted(PROGRAMS[name][1])


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines():
    verdicts = ask([{"id": name, "source": _source(name), "call": "f(torch.ones(3))"} for name in PROGRAMS])
    for name, (_src, expected) in PROGRAMS.items():
        assert verdicts[name]["error"] is None, (name, verdicts[name]["error"])
        assert {line for _, line in verdicts[name]["breaks"]} == {line for _, line in expected}, (
            name, verdicts[name]["breaks"])
