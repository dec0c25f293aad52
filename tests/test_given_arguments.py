"""An arm under `if name is None:` (or `if name is not None:`) in a helper runs in compiled
code only where a compiled caller may pass None there (or anything else). Where every caller
passes a value that is never None (a shape, a number, its own parameter given one in turn),
the arm's findings are dead, and so is the tensor it binds: deepctr's `_sequence_mask(lengths,
maxlen=x.shape[1])` never runs `maxlen = lengths.max()`, so `torch.arange(0, maxlen)` gets a
size. A caller that leaves the default, or passes what may be None, keeps them. Each program
lists the lines Dynamo (torch 2.13, eager backend) reports; tclint must flag exactly those.
The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util

import pytest

from break_lines import dynamo_verdicts, flagged_lines

MASK = '''
    import torch
    from torch import nn

    def sequence_mask(lengths, maxlen=None):
        if maxlen is None:
            maxlen = lengths.max()
        row = torch.arange(0, maxlen, 1)
        return row < lengths.unsqueeze(-1)

    class Pool(nn.Module):
        def forward(self, x, lengths):
            {body}
    '''
CALL = "torch.compile(Pool())(torch.randn(2, 5, 3), torch.tensor([2, 5]))"
SHIFTED = '''
    import torch

    def shifted(x, bias=None):
        n = 1
        if bias is not None:
            n = bias.sum()
        return torch.arange(n).sum() + x

    @torch.compile
    def f(x):
        return shifted(x) + {call}
    '''

PROGRAMS = {
    "a shape passed for a None default": (
        MASK.format(body="return x * sequence_mask(lengths, maxlen=x.shape[1]).unsqueeze(-1)"), CALL, set()),
    "the default left": (
        MASK.format(body="return x * sequence_mask(lengths).unsqueeze(-1)"), CALL, {8}),
    "a local bound to a size": (
        MASK.format(body="n = x.size(1)\n            return x * sequence_mask(lengths, n).unsqueeze(-1)"), CALL, set()),
    "an attribute that may hold None": (
        MASK.format(body="return x * sequence_mask(lengths, self.maxlen).unsqueeze(-1)").replace(
            "class Pool(nn.Module):", "class Pool(nn.Module):\n        maxlen = None\n"), CALL, {8}),
    "a size passed on through a helper's parameter": ('''
    import torch

    def sequence_mask(lengths, maxlen=None):
        if maxlen is None:
            maxlen = int(lengths.max())
        return torch.arange(0, maxlen, 1) < lengths.unsqueeze(-1)

    def pooled(x, lengths, maxlen):
        return x * sequence_mask(lengths, maxlen).unsqueeze(-1)

    @torch.compile
    def f(x, lengths):
        return pooled(x, lengths, x.shape[1] + 0)
    ''', "f(torch.randn(2, 5, 3), torch.tensor([2, 5]))", set()),
    "an arm under `is not None` that every caller leaves None": (
        SHIFTED.format(call="shifted(x, bias=None)"), "f(torch.randn(4))", set()),
    "an arm under `is not None` that a caller passes a tensor": (
        SHIFTED.format(call="shifted(x, bias=x.abs().long())"), "f(torch.randn(4))", {8}),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_reports(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_reports_those_lines():
    dynamo_verdicts(PROGRAMS)
