"""An object built in a compiled frame that stores a function default of its class's
`__init__` cannot be rebuilt when the frame returns it: Dynamo knows that function by value
only ("Reconstruction failure" on the return line, rule TC233). The class may live in another
module; what decides is whether the call leaves the parameter to its default.

Each program lists the lines Dynamo (torch 2.13, eager backend) reports; tclint must flag
exactly those. The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from break_lines import dynamo_verdicts, flagged_lines
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

VALUES = '''
    import torch

    def identity(x):
        return x

    class ActionValue:
        def __init__(self, q, formatter=lambda x: x, scale=1.0):
            self.q = q
            self.scale = scale
            self.formatter = formatter
    '''

PROGRAMS = {
    "the default left": (VALUES + '''
    @torch.compile
    def f(x):
        return ActionValue(x * 2, scale=2.0)
    ''', "f(torch.ones(2, 3))", {15}),
    "a local bound once to the object, returned in a tuple": (VALUES + '''
    @torch.compile
    def f(x):
        out = ActionValue(x * 2)
        return x, out
    ''', "f(torch.ones(2, 3))", {16}),
    "the function passed by position": (VALUES + '''
    @torch.compile
    def f(x):
        return ActionValue(x * 2, identity)
    ''', "f(torch.ones(2, 3))", set()),
    "the function passed by keyword": (VALUES + '''
    @torch.compile
    def f(x):
        return ActionValue(x * 2, formatter=identity)
    ''', "f(torch.ones(2, 3))", set()),
    "the object stays in the frame": (VALUES + '''
    @torch.compile
    def f(x):
        out = ActionValue(x * 2)
        return out.q * out.scale
    ''', "f(torch.ones(2, 3))", set()),
    "a helper returns it to a compiled caller that keeps it": (VALUES + '''
    def build(x):
        return ActionValue(x * 2)

    @torch.compile
    def f(x):
        return build(x).q + 1
    ''', "f(torch.ones(2, 3))", set()),
    "a subclass without an `__init__` of its own": (VALUES + '''
    class Distributional(ActionValue):
        def mean(self):
            return self.q.mean()

    @torch.compile
    def f(x):
        return Distributional(x * 2)
    ''', "f(torch.ones(2, 3))", {19}),
    "a subclass whose `__init__` stores no function": (VALUES + '''
    class Plain(ActionValue):
        def __init__(self, q):
            self.q = q

    @torch.compile
    def f(x):
        return Plain(x * 2)
    ''', "f(torch.ones(2, 3))", set()),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_reports(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_reports_those_lines():
    verdicts = dynamo_verdicts(PROGRAMS)
    assert all(gb == "Reconstruction failure" for v in verdicts.values() for gb, _ in v["breaks"])


MODEL = '''
import torch
from values import ActionValue


class QFunction(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)

    def forward(self, x):
        return ActionValue(self.linear(x))
'''


@pytest.mark.parametrize(("default", "lines"), [("lambda x: x", [12]), ("identity", [12]), ("None", [])])
def test_the_class_of_another_module_decides(tmp_path: Path, default, lines):
    (tmp_path / "values.py").write_text(textwrap.dedent(VALUES).replace("lambda x: x", default))
    (tmp_path / "model.py").write_text(MODEL)
    result = lint_paths([tmp_path], Settings(roots=("model:QFunction.forward",)), jobs=1, use_cache=False)
    assert sorted(d.line for d in result.diagnostics if d.code == "TC233") == lines
