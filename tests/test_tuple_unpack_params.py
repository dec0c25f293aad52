"""Names unpacked from a tuple of a parameter's elements (`t, T = t_span[0], t_span[-1]`)
are tensors where the caller passes a tensor, as `t = t_span[0]` already was: torchdyn's
`_adaptive_odeint` loops on `while t < T` with the compiled caller's time span. With a list of
floats passed instead, nothing breaks and nothing is flagged."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

HELPER = '''
    import torch


    def solve(x, t_span):
        t, T = t_span[0], t_span[-1]
        while t < T:
            x = x * 0.5
            t = t + 0.25
        return x


    @torch.compile
    def f(x):
        return solve(x, {span})
    '''
CASES = {"tensor_span": ("torch.linspace(0, 1, 5)", [7]),
         "float_span": ("[0.0, 1.0]", [])}


def _source(span):
    return textwrap.dedent(HELPER.format(span=span))


@pytest.mark.parametrize("name", CASES)
def test_unpacked_parameter_elements_keep_the_callers_kind(name):
    span, lines = CASES[name]
    assert sorted({d.span.line for d in api.lint_source(_source(span), "prog.py") if d.gb_type}) == lines


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_only_on_the_tensor_span():
    verdicts = ask([{"id": n, "source": _source(span), "call": "f(torch.ones(2))"} for n, (span, _) in CASES.items()])
    for name, (_span, lines) in CASES.items():
        assert verdicts[name]["error"] is None, name
        assert sorted({line for _, line in verdicts[name]["breaks"]}) == lines, name
