"""A loop break inside one arm of an `if` (the `if` itself outside any loop) hides nothing in
its `elif`/`else` arm: only one arm runs, and Dynamo breaks in whichever does (torchkbnufft's
`table_interp` picks a batched or a k-space loop this way). Lines after the whole `if` stay
hidden: either arm's loop break ends the frame first."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

SOURCE = '''
    import torch

    @torch.compile
    def f(xs, batched):
        tot = 0.0
        if batched:
            for x in xs:
                tot += x.sum().item()
        elif len(xs) > 1:
            for x in xs:
                tot += (x * x).sum().item()
        if tot > 0:
            print(tot)
        return tot
    '''
CALLS = {"batched": ("f([torch.randn(3), torch.randn(3)], True)", [9]),
         "elif": ("f([torch.randn(3), torch.randn(3)], False)", [12])}


def test_a_loop_break_in_the_if_arm_hides_nothing_in_the_elif_arm():
    flagged = {d.span.line for d in api.lint_source(textwrap.dedent(SOURCE), "prog.py") if d.gb_type}
    assert flagged == {9, 12}


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_in_the_arm_that_runs_and_never_after_the_if():
    verdicts = ask([{"id": arm, "source": textwrap.dedent(SOURCE), "call": call} for arm, (call, _) in CALLS.items()])
    for arm, (_call, lines) in CALLS.items():
        assert verdicts[arm]["error"] is None, arm
        assert [line for _, line in verdicts[arm]["breaks"]] == lines, arm
