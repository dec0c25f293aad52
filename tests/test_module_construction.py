"""An nn.Module that compiled code builds (torch 2.13): Dynamo inlines its construction and
traces it whole where nothing in it breaks. Where something does, Dynamo reports the
construction's first break, runs it eagerly, and compiles each `__init__` of the class chain
as a frame of its own, where `super().__init__()` breaks ("Uninitialized nn.Module", TC226)
and the rest of that frame runs eagerly: a break there after the construction's first is none,
while a function it calls is a frame of its own again (resume_breaks._drop_uninitialized_rest).
Each case's breaks are Dynamo's, line for line (the oracle, eager backend)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

HEAD = "import torch\n"
ITEM = "Unsupported Tensor.item() call with capture_scalar_outputs=False"
SOURCES = {
    "after_super": """
class M(torch.nn.Module):
    def __init__(self, t):
        super().__init__()
        self.n = t.item()
        print(self.n)


@torch.compile
def f(x):
    M(x.sum())
    return x * 2
""",
    "base_breaks_first": """
class Base(torch.nn.Module):
    def __init__(self, t):
        super().__init__()
        if t > 0:
            self.s = 1


class M(Base):
    def __init__(self, t):
        super().__init__(
            t)
        self.n = t.item()


@torch.compile
def f(x):
    M(x.sum())
    return x * 2
""",
    "before_super": """
class M(torch.nn.Module):
    def __init__(self, t):
        n = t.item()
        super().__init__()
        self.n = n


@torch.compile
def f(x):
    M(x.sum())
    return x * 2
""",
    "helper_after_super": """
def g(t):
    return t.item()


class M(torch.nn.Module):
    def __init__(self, t):
        super().__init__()
        self.n = g(t)
        self.m = t.tolist()


@torch.compile
def f(x):
    M(x.sum())
    return x * 2
""",
    "traced_module": """
class M(torch.nn.Module):
    def __init__(self, t):
        super().__init__()
        self.t = t * 2


@torch.compile
def f(x):
    M(x.sum())
    return x.sum().item()
""",
}
# case -> Dynamo's breaks: (Gb_type, line, the rule that reports it)
BREAKS = {
    "after_super": [("Uninitialized nn.Module", 5, "TC226"), (ITEM, 6, "TC102")],
    "base_breaks_first": [("Uninitialized nn.Module", 5, "TC226"), ("Data-dependent branching", 6, "TC101"),
                          ("Uninitialized nn.Module", 12, "TC226")],
    "before_super": [(ITEM, 5, "TC102"), ("Uninitialized nn.Module", 6, "TC226")],
    "helper_after_super": [(ITEM, 4, "TC102"), ("Uninitialized nn.Module", 9, "TC226")],
    "traced_module": [(ITEM, 12, "TC102")],
}


@pytest.mark.parametrize("case", sorted(SOURCES))
def test_tclint_reports_the_breaks_dynamo_reports(tmp_path, case):
    path = tmp_path / f"tclint_case_{case}.py"
    path.write_text(HEAD + SOURCES[case])
    found = {(d.span.line, d.code) for d in lint_paths([path], Settings(), jobs=1, use_cache=False).diagnostics}
    assert found == {(line, code) for _, line, code in BREAKS[case]}


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_where_the_cases_say():
    verdicts = ask([{"id": case, "source": HEAD + source, "call": "f(torch.randn(3))"}
                    for case, source in SOURCES.items()])
    for case, breaks in BREAKS.items():
        found = sorted({tuple(b) for b in verdicts[case]["breaks"]}, key=lambda b: b[1])
        assert found == [(gb, line) for gb, line, _ in breaks], case
