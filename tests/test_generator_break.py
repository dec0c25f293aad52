"""A break inside a generator expression ends its frame: Dynamo cannot rebuild the half-run
generator ("Generator reconstruction with mutations"), so it runs the rest of the function
eagerly, and a later hazard in it never breaks (torchdyn's `_fixed_odeint`:
`assert all(torch.isclose(t, save_at).sum() == 1 for t in save_at)`, then
`if torch.isclose(t, save_at).sum():`); so does `.item()` on each element of a generator. Later
code stays reported when the generator holds no break, and a break in a list comprehension
hides nothing (Python 3.11: it is a frame of its own, and Dynamo resumes after its call), nor
does a generator break in one arm of an `if` in the other arm."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

AFTER_GENERATOR = '''
    import torch

    @torch.compile
    def f(x, s):
        assert all((x == v).sum() == 1 for v in s)
        if x.sum() > 0:
            return x + 1
        return x
    '''
PLAIN_GENERATOR = '''
    import torch

    @torch.compile
    def f(x, s):
        k = max(v for v in s)
        if x.sum() > k:
            return x + 1
        return x
    '''
ITEM_IN_GENERATOR = '''
    import torch

    @torch.compile
    def f(x, s):
        n = sum((x == v).sum().item() for v in s)
        if x.sum() > n:
            return x + 1
        return x
    '''
AFTER_LIST = '''
    import torch

    @torch.compile
    def f(x, s):
        n = [(x == v).sum().item() for v in s]
        if x.sum() > 0:
            return x + 1
        return x
    '''
CASES = {"after_generator": (AFTER_GENERATOR, "f(torch.arange(3.), torch.arange(3.))", [6]),
         "plain_generator": (PLAIN_GENERATOR, "f(torch.arange(3.), [1.0, 2.0])", [7]),
         "item_in_generator": (ITEM_IN_GENERATOR, "f(torch.arange(3.), torch.arange(3.))", [6]),
         "after_list": (AFTER_LIST, "f(torch.arange(3.), torch.arange(3.))", [6, 7])}


IN_ONE_ARM = '''
    import torch

    @torch.compile
    def f(x, s, check):
        if check:
            assert all((x == v).sum() == 1 for v in s)
        else:
            if x.sum() > 0:
                return x + 1
        return x
    '''
ARM_CALLS = {"check": ("f(torch.arange(3.), torch.arange(3.), True)", [7]),
             "other_arm": ("f(torch.arange(3.), torch.arange(3.), False)", [9])}


def _flagged(source):
    return sorted({d.span.line for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.gb_type})


@pytest.mark.parametrize("name", CASES)
def test_a_break_in_a_generator_hides_the_rest_of_the_frame(name):
    source, _call, lines = CASES[name]
    assert _flagged(source) == lines


def test_a_generator_break_in_one_arm_hides_nothing_in_the_other():
    # gpytorch ExactGP.__call__: a training arm and a posterior arm, each with its own break
    assert _flagged(IN_ONE_ARM) == [7, 9]


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_in_the_arm_that_runs():
    verdicts = ask([{"id": n, "source": textwrap.dedent(IN_ONE_ARM), "call": call} for n, (call, _) in ARM_CALLS.items()])
    for name, (_call, lines) in ARM_CALLS.items():
        assert verdicts[name]["error"] is None, name
        assert sorted({line for _, line in verdicts[name]["breaks"]}) == lines, name


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines_only():
    verdicts = ask([{"id": n, "source": textwrap.dedent(src), "call": call} for n, (src, call, _) in CASES.items()])
    for name, (_src, _call, lines) in CASES.items():
        assert verdicts[name]["error"] is None, name
        assert sorted({line for _, line in verdicts[name]["breaks"]}) == lines, name
