"""A method bound to a name and called through it (`closure = sf.closure; closure(x)`, as
torchmin's minimizers do) runs that method, as `sf.closure(x)` would: its breaks are reported,
and so is the call on an object the compiled frame built, which Dynamo cannot rebuild to resume
(TC225). Dynamo 2.13 breaks on the same lines in both forms."""
from __future__ import annotations

import importlib.util

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

STATE = '''import torch


class S:
    def __init__(self, fun):
        self.fun = fun

    def closure(self, x):
        x = x.detach().requires_grad_(True)
        with torch.enable_grad():
            f = self.fun(x)
            g = torch.autograd.grad(f, x)[0]
        return f.detach(), g

'''
FORMS = {
    "aliased": "@torch.compile\ndef minimize(fun, x0):\n    sf = S(fun)\n    closure = sf.closure\n"
               "    f, g = closure(x0)\n    return f + g.sum()\n",
    "direct": "@torch.compile\ndef minimize(fun, x0):\n    sf = S(fun)\n    f, g = sf.closure(x0)\n"
              "    return f + g.sum()\n",
}
CALL_LINE = {"aliased": 19, "direct": 18}  # `f, g = closure(x0)` / `f, g = sf.closure(x0)`
CALL = "minimize(lambda t: (t * t).sum(), torch.ones(3))"


def _found(form: str) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in api.lint_source(STATE + FORMS[form], path="m.py"))


@pytest.mark.parametrize("form", FORMS)
def test_a_bound_method_called_through_a_name_runs_the_method(form):
    assert _found(form) == [(9, "TC214"), (12, "TC213"), (CALL_LINE[form], "TC225")]


def test_a_bound_method_of_an_object_built_elsewhere_is_no_rebuilt_object():
    source = STATE + "@torch.compile\ndef minimize(sf, x0):\n    closure = sf.closure\n    return closure(x0)\n"
    assert "TC225" not in [d.code for d in api.lint_source(source, path="m.py")]


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines():
    verdicts = ask([{"id": form, "source": STATE + source, "call": CALL} for form, source in FORMS.items()])
    for form in FORMS:
        assert verdicts[form]["error"] is None, form
        assert sorted({line for _, line in verdicts[form]["breaks"]}) == [9, 12, CALL_LINE[form]], form
