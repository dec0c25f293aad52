"""A bound method of an object the compiled function built, still needed after a graph break,
cannot be rebuilt for Dynamo to resume: the break becomes a "Reconstruction failure" on its line
(rule TC249) and the rest of the frame runs eagerly, so nothing later in it breaks.

Each program lists the lines Dynamo (torch 2.13, eager backend) reports; tclint must flag
exactly those. The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from break_lines import dynamo_verdicts, flagged_lines
from tclint.analyzer import api

OBJECTIVE = '''
    import torch

    class Objective:
        def closure(self, x):
            return x * 2

    def report(x, fn=None):
        print("step")
        return x
    '''

PROGRAMS = {
    "a break of the frame's own while the method is read later": (OBJECTIVE + '''
    @torch.compile
    def f(x):
        sf = Objective()
        closure = sf.closure
        print("a")
        if x.sum() > 0:
            x = x + 1
        return closure(x)
    ''', "f(torch.ones(2))", {16}),
    "a call that breaks, passed the method": (OBJECTIVE + '''
    @torch.compile
    def f(x):
        sf = Objective()
        y = report(x, sf.closure)
        if x.sum() > 0:
            x = x + 1
        return y + x
    ''', "f(torch.ones(2))", {9, 15}),
    "a call that breaks while a local holds the method": (OBJECTIVE + '''
    @torch.compile
    def f(x):
        sf = Objective()
        closure = sf.closure
        y = report(x)
        if x.sum() > 0:
            x = x + 1
        return closure(y) + x
    ''', "f(torch.ones(2))", {9, 16}),
    "an nn.Module built in the frame too": ('''
    import torch

    class Scale(torch.nn.Module):
        def forward(self, x):
            return x * 2

    @torch.compile
    def f(x):
        m = Scale()
        run = m.forward
        print("a")
        print("b")
        return run(x)
    ''', "f(torch.ones(2))", {12}),
    "not read after the break: Dynamo resumes": (OBJECTIVE + '''
    @torch.compile
    def f(x):
        sf = Objective()
        closure = sf.closure
        for _ in range(2):
            x = closure(x)
        y = report(x)
        if x.sum() > 0:
            x = x + 1
        return y + x
    ''', "f(torch.ones(2))", {9, 19}),
    "bound from an object passed in: Dynamo rebuilds it": (OBJECTIVE + '''
    @torch.compile
    def f(x, sf):
        closure = sf.closure
        y = report(x)
        if x.sum() > 0:
            x = x + 1
        return closure(y) + x
    ''', "f(torch.ones(2), Objective())", {9, 16}),
    "the object itself passed to a call that breaks": (OBJECTIVE + '''
    @torch.compile
    def f(x):
        sf = Objective()
        y = report(x, sf)
        if x.sum() > 0:
            x = x + 1
        return sf.closure(y) + x
    ''', "f(torch.ones(2))", {9, 16}),
    "a property read, not a method held": ('''
    import torch

    class Objective:
        def __init__(self):
            self.k = 2

        @property
        def scale(self):
            return self.k

    def report(x, s=None):
        print("step")
        return x

    @torch.compile
    def f(x):
        sf = Objective()
        s = sf.scale
        y = report(x, sf.scale)
        if x.sum() > 0:
            x = x + 1
        return y * s + x
    ''', "f(torch.ones(2))", {13, 21}),
    "an object whose `__init__` breaks is built eagerly: the resumed frame rebuilds it": ('''
    import torch

    class Objective:
        def __init__(self):
            print("built")

        def closure(self, x):
            return x * 2

    def report(x):
        print("step")
        return x

    @torch.compile
    def f(x):
        sf = Objective()
        closure = sf.closure
        y = report(x)
        if x.sum() > 0:
            x = x + 1
        return closure(y) + x
    ''', "f(torch.ones(2))", {6, 12, 20}),
    "read only in the other arm of the `if` whose arm breaks": (OBJECTIVE + '''
    @torch.compile
    def f(x, flag=True):
        sf = Objective()
        closure = sf.closure
        if flag:
            print("a")
        else:
            x = closure(x)
        if x.sum() > 0:
            x = x + 1
        return x
    ''', "f(torch.ones(2))", {17, 20}),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_reports(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


def test_the_finding_names_the_method_and_what_it_hides():
    source = PROGRAMS["a break of the frame's own while the method is read later"][0]
    (held,) = [d for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.code == "TC249"]
    assert held.span.line == 16 and held.gb_type == "Reconstruction failure"
    assert "`closure`, a bound method of an object built in this compiled function" in held.text()
    assert "1 later finding in it (line 17)" in held.text()


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_reports_those_lines():
    verdicts = dynamo_verdicts(PROGRAMS)
    failed = {name for name, v in verdicts.items() if any(gb == "Reconstruction failure" for gb, _ in v["breaks"])}
    assert failed == {"a break of the frame's own while the method is read later", "a call that breaks, passed the method",
                      "a call that breaks while a local holds the method", "an nn.Module built in the frame too"}
