"""A sparse tensor built in compiled code breaks the graph where it is built: Dynamo skips
`torch.sparse_coo_tensor` and refuses `sparse_csr_tensor`/`sparse_csc_tensor` ("Sparse tensor
creation not supported"); the probe's table (dynamo_calls_2.13.json) holds those verdicts and
TC220 reports them. A dense tensor built the same way traces."""
from __future__ import annotations

import importlib.util

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

COO = '''import torch


@torch.compile
def f(x, i):
    s = torch.sparse_coo_tensor(i, x[:2], (3, 3))
    return torch.mm(s, x.unsqueeze(1))
'''
CSR = '''import torch


@torch.compile
def f(x, crow, col):
    s = torch.sparse_csr_tensor(crow, col, x[:2], (3, 3))
    return s.to_dense() + 1
'''
DENSE = '''import torch


@torch.compile
def f(x, i):
    d = torch.zeros(3, 3).index_put((i[0], i[1]), x[:2])
    return torch.mm(d, x.unsqueeze(1))
'''
CALLS = {"coo": (COO, "f(torch.randn(3), torch.tensor([[0, 1], [1, 2]]))"),
         "csr": (CSR, "f(torch.randn(3), torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1]))"),
         "dense": (DENSE, "f(torch.randn(3), torch.tensor([[0, 1], [1, 2]]))")}


def _found(source):
    return [(d.code, d.line, d.gb_type) for d in api.lint_source(source, "m.py") if d.gb_type]


def test_building_a_sparse_tensor_in_compiled_code_is_flagged_where_it_is_built():
    assert _found(COO) == [("TC220", 6, "Attempted to call function marked as skipped")]
    assert _found(CSR) == [("TC220", 6, "Sparse tensor creation not supported")]
    assert _found(DENSE) == []


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_where_the_sparse_tensor_is_built():
    verdicts = ask([{"id": k, "source": src, "call": call} for k, (src, call) in CALLS.items()])
    assert verdicts["coo"]["breaks"][0] == ["Attempted to call function marked as skipped", 6]
    assert verdicts["csr"]["breaks"][0] == ["Sparse tensor creation not supported", 6]
    assert verdicts["dense"]["breaks"] == []
