"""Calls whose callee is picked at run time from a finite set of project functions.

Every candidate is followed (a break in any of them is a hazard, reported at its own line),
and the chain says the callee is one of several. A name the code does not pin down stays
unknown. Dynamo's verdicts for these constructs are in tests/test_audit_constructs.py.
"""
from __future__ import annotations

import textwrap

import pytest

from tclint.analyzer import api


def _lint(source: str):
    return api.lint_source(textwrap.dedent(source).lstrip("\n"), path="case.py")


REDUCER = """
    import torch
    class Reducer(torch.nn.Module):
        def forward(self, losses, kind="mean"):
            return {call}
        def mean_reduction(self, losses):
            return losses.mean().item()
        def sum_reduction(self, losses):
            return losses.sum().tolist()
        def reduction_help(self, losses):
            return losses.max().item()
"""


@pytest.mark.parametrize("call", [
    'getattr(self, "{}_reduction".format(kind))(losses)',
    'getattr(self, f"{kind}_reduction")(losses)',
    'getattr(self, kind + "_reduction")(losses)',
    'getattr(self, "%s_reduction" % kind)(losses)',
])
def test_every_method_the_built_name_may_pick_is_followed(call):
    found = sorted((d.code, d.line) for d in _lint(REDUCER.format(call=call)))
    assert found == [("TC102", 6), ("TC104", 8)]  # not `reduction_help`: it lacks the suffix


def test_the_chain_says_the_callee_is_one_of_several():
    diags = _lint(REDUCER.format(call='getattr(self, "{}_reduction".format(kind))(losses)'))
    assert [d.chain[-1].label for d in diags] == ["calls Reducer.mean_reduction (one of 2 candidates)",
                                                  "calls Reducer.sum_reduction (one of 2 candidates)"]


def test_a_prefix_and_a_suffix_around_the_name():
    source = """
        import torch
        class Loss(torch.nn.Module):
            def forward(self, x, kind="l1"):
                return getattr(self, "loss_" + kind + "_term")(x)
            def loss_l1_term(self, x):
                return x.abs().sum().item()
            def loss_l1(self, x):
                return x.sum().item()
    """
    assert [(d.code, d.line) for d in _lint(source)] == [("TC102", 6)]


@pytest.mark.parametrize("call", [
    "getattr(self, kind)(losses)",          # any method at all: unknown
    'getattr(self, "{}".format(kind))(losses)',
    'getattr(other, f"{kind}_reduction")(losses)',  # not `self`: its class is unknown
])
def test_a_name_the_code_does_not_pin_down_stays_unknown(call):
    source = REDUCER.replace("def forward(self, losses,", "def forward(self, losses, other,")
    assert _lint(source.format(call=call)) == []
