"""A compiled function's plain parameter (no default, no annotation) holds a tensor unless
what it is given or how its body uses it says otherwise; its name says nothing
(param_uses.py). Each program lists the lines Dynamo (torch 2.13, eager backend) reports;
tclint must flag exactly those. The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util

import pytest

from break_lines import dynamo_verdicts, flagged_lines

SHIFTED = '''
    import torch

    def shifted(t, k=0):
        if k == 0:
            return t
        return t[:-k]
'''

PROGRAMS = {
    "a parameter named `dim` that holds a tensor": ('''
    import torch

    @torch.compile
    def f(x, dim):
        if dim > 0:
            x = x * 2
        return x
    ''', "f(torch.ones(2), torch.tensor(1))", {6}),
    "a parameter named `x` that is an int by its default": ('''
    import torch

    @torch.compile
    def f(t, x=2):
        if x > 1:
            t = t * 2
        return t
    ''', "f(torch.ones(2))", set()),
    "a dim by its use": ('''
    import torch

    @torch.compile
    def f(t, a):
        if a > 0:
            t = t * 2
        return t.sum(a)
    ''', "f(torch.ones(2, 2), 1)", set()),
    "a count by `range`": ('''
    import torch

    @torch.compile
    def f(t, s):
        if s > 1:
            t = t / s
        for _ in range(s):
            t = t + 1
        return t
    ''', "f(torch.ones(2), 3)", set()),
    "sizes by the arithmetic of a shape": ('''
    import torch

    @torch.compile
    def f(t, h):
        if h > 1:
            t = t.view(-1, h, t.shape[-1] // h)
        return t
    ''', "f(torch.ones(2, 4), 2)", set()),
    "a dict by a method tensors lack": ('''
    import torch

    @torch.compile
    def f(t, table):
        if 2 in table:
            t = t * table.get(2)
        return t
    ''', "f(torch.ones(2), {2: 3.0})", set()),
    "a tensor used as one before it is bound to a count": ('''
    import torch

    @torch.compile
    def f(t, s):
        if s > 0:
            t = t * 2
        s = t.shape[0]
        return t.view(s, -1)
    ''', "f(torch.ones(2, 2), torch.tensor(1))", {6}),
    "an input passed on to a parameter whose default is a number": (SHIFTED + '''
    @torch.compile
    def f(t, s):
        return shifted(t, s)
    ''', "f(torch.ones(4), 2)", set()),
    "a tensor passed to a parameter whose default is a number": (SHIFTED + '''
    @torch.compile
    def f(t, s):
        return shifted(t, s.sum())
    ''', "f(torch.ones(4), torch.ones(2, dtype=torch.long))", {5, 7}),
    "a count computed from parameters in an arm": ('''
    import torch

    @torch.compile
    def f(total, size=None):
        if size is None:
            parts = []
        else:
            batches = total // size
            leftover = total % size
            parts = [torch.ones(size) for _ in range(batches)]
            if leftover > 0:
                parts.append(torch.ones(leftover))
        return torch.cat(parts)
    ''', "f(7, 2)", set()),
    "a tensor computed from a parameter in an arm, counted after it": ('''
    import torch

    @torch.compile
    def f(t, s):
        n = 2
        if s.sum() > 0:
            n = t * 2
        for _ in range(n):
            s = s + 1
        return s
    ''', "f(torch.tensor(3), torch.ones(2))", {7, 9}),
    "a tensor computed from a parameter, rebound in an arm": ('''
    import torch

    @torch.compile
    def f(t, s):
        n = t * 2
        if s.sum() > 0:
            n = 3
        for _ in range(n):
            s = s + 1
        return s
    ''', "f(torch.tensor(3), -torch.ones(2))", {7, 9}),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_reports(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_reports_those_lines():
    dynamo_verdicts(PROGRAMS)
