"""Compiled code that enters a project's context manager runs its `__enter__` (Dynamo
inlines it); verdicts checked with Dynamo 2.13."""
from __future__ import annotations

from tclint.analyzer import api

TIMER = """\
import time
import torch
class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self
    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start
"""


def _lines(source: str) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in api.lint_source(source, path="m.py")]


def test_entering_a_context_manager_reaches_its_enter_but_not_its_exit():
    # Dynamo breaks in __enter__ and then runs the block, __exit__ included, eagerly.
    source = TIMER + "@torch.compile\ndef f(x):\n    with Timer():\n        y = x * 2\n    return y\n"
    assert _lines(source) == [(5, "TC203")]


def test_a_context_manager_built_before_the_compiled_code_breaks_at_the_with():
    # Dynamo reports "Unsupported context manager" at the `with`, not in the methods.
    source = TIMER + ("class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                      "        self.timer = Timer()\n    def forward(self, x):\n        with self.timer:\n"
                      "            return x * 2\n")
    assert _lines(source) == [(14, "TC223")]
