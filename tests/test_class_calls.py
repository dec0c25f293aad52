"""Whether calling a name builds an instance of a class is known from its definition, not from
its spelling (Facts.builds_instance): a lowercase class is a class (its `__getitem__`, a TypedDict
with optional keys), a capitalised function is a function (`MakeScores(x).sum()` is a tensor's
sum, keyword arguments do not make its result a record, a set-up attribute it fills is no
`...Config` object). For a name defined in another file the project phase decides: a method of
what a capitalised function returns is the method of the instances it builds, or a tensor
method. Each program lists the lines Dynamo (torch 2.13, eager backend) reports; tclint must
flag exactly those. The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from break_lines import dynamo_verdicts, flagged_lines
from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

PROGRAMS = {
    "a capitalised function returning a tensor": ('''
    import torch

    def MakeScores(x):
        return x * 2

    @torch.compile
    def f(x):
        y = MakeScores(x)
        if y.sum() > 0:
            return x + 1
        return x - 1
    ''', "f(torch.ones(3))", {10}),
    "a capitalised function called with keywords": ('''
    import torch

    def MakeMask(x, bound):
        return x > bound

    @torch.compile
    def f(x):
        m = MakeMask(x=x, bound=torch.zeros(1))
        if m.any():
            return x + 1
        return x - 1
    ''', "f(torch.ones(3))", {10}),
    "a `...Config` function whose tensor set-up stores": ('''
    import torch

    def ScaleConfig(n):
        return torch.ones(n)

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = ScaleConfig(3)

        def forward(self, x):
            if self.scale.sum() > 0:
                return x + 1
            return x - 1
    ''', "torch.compile(M())(torch.ones(3))", {13}),
    "a lowercase class whose `__getitem__` branches": ('''
    import torch

    class table:
        def __getitem__(self, x):
            if x.sum() > 0:
                return x + 1
            return x - 1

    @torch.compile
    def f(x):
        t = table()
        return t[x]
    ''', "f(torch.ones(3))", {6}),
    "a lowercase TypedDict with optional keys": ('''
    from typing import TypedDict

    import torch

    class message(TypedDict, total=False):
        name: str
        scale: float

    @torch.compile
    def f(x):
        msg = message(name="a", scale=2.0)
        return x * msg["scale"]
    ''', "f(torch.ones(3))", {12}),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_reports(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_reports_those_lines():
    dynamo_verdicts(PROGRAMS)


HELPERS = '''import torch


class Euler:
    def step(self, x):
        if x.sum() > 0:
            return x * 2
        return x


def MakeScores(x):
    return x * 2


def MakeSolver():
    return Euler()
'''

MODEL = '''

def scores(x):
    y = MakeScores(x)
    if y.sum() > 0:
        return x + 1
    return x - 1


def solve(x):
    s = MakeSolver()
    return s.step(x)
'''

# (root, [(file, line)]): each in the model file as written, below its import line
IMPORTED = {
    "scores": [("model.py", 7)],
    "solve": [("helpers.py", 6), ("model.py", 14)],
}


@pytest.mark.parametrize("root", IMPORTED)
def test_a_capitalised_function_from_another_file(tmp_path: Path, root):
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "model.py").write_text("import torch\nfrom helpers import MakeScores, MakeSolver\n" + MODEL)
    settings = Settings(roots=(f"model:{root}",), assume_forward_compiled=False)
    result = lint_paths([tmp_path], settings, jobs=1, use_cache=False)
    found = sorted((Path(d.path).name, d.span.line) for d in result.diagnostics if d.gb_type)
    assert found == IMPORTED[root]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines():
    offset = len(HELPERS.splitlines()) - 2  # the model's lines follow the helpers', less its two import lines
    verdicts = ask([{"id": root, "source": HELPERS + MODEL, "call": f"torch.compile({root})(torch.ones(3))"}
                    for root in IMPORTED])
    for root, lines in IMPORTED.items():
        expected = {line + (offset if name == "model.py" else 0) for name, line in lines}
        assert verdicts[root]["error"] is None
        assert {line for _, line in verdicts[root]["breaks"]} == expected, (root, verdicts[root]["breaks"])
