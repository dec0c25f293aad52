"""A method called on an object `__init__` stores in an attribute is followed into that
object's class, even where its name is too common to follow by name alone (`update`, `step`):
`self.ema.update()` with `self.ema = EMA(...)`, and `for c in self.emas: c.update()` or
`self.emas[0].update()` with `self.emas = nn.ModuleList([EMA(...) for ...])` (ema-pytorch's
`PostHocEMA.update` runs each `KarrasEMA.update` this way), or with `self.ema = ema` where
`__init__` declares `ema: EMA` (botorch's acquisition functions hold `model: Model`). A loop whose call breaks ends the
caller's frame, so a later break in the caller is hidden (loop_skips). An attribute holding
anything else (a dict) is not followed."""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

SOURCE = '''
import torch


class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("step", torch.tensor(0))

    def update(self):
        s = self.step.item()
        self.step += 1
        return s


class Tally:
    def update(self):
        return 0


class Gauge:
    def update(self):
        return 1


class Meter:
    def update(self):
        return 2


class Holder(torch.nn.Module):
    def __init__(self, given: Counter):
        super().__init__()
        self.given = given
        self.one = Counter()
        self.many = torch.nn.ModuleList([Counter() for _ in range(2)])
        self.seen = {}

    def update_one(self, x):
        self.one.update()
        return x * 2

    def update_many(self, x):
        for c in self.many:
            c.update()
        return x * self.many[0].step.item()

    def update_first(self, x):
        self.many[0].update()
        return x + 1

    def update_given(self, x):
        self.given.update()
        return x * 3

    def note(self, x):
        self.seen.update({"x": 1})
        return x - 1


holder = Holder(Counter())
'''
# root -> lines Dynamo breaks on (torch 2.13, eager backend) when `holder.<root>` is compiled
ROOTS = {"update_one": [11], "update_many": [11], "update_first": [11], "update_given": [11], "note": []}


def _flagged(tmp_path: Path, root: str) -> list[int]:
    (tmp_path / "holders.py").write_text(SOURCE)
    result = lint_paths([tmp_path], Settings(roots=(f"holders:Holder.{root}",)), jobs=1, use_cache=False)
    return sorted({d.line for d in result.diagnostics if d.gb_type})


@pytest.mark.parametrize("root", ROOTS)
def test_tclint_flags_the_lines_dynamo_breaks_on(tmp_path, root):
    assert _flagged(tmp_path, root) == ROOTS[root]


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines():
    cases = [{"id": root, "source": SOURCE, "call": f"torch.compile(holder.{root})(torch.ones(3))"} for root in ROOTS]
    verdicts = ask(cases)
    for root, lines in ROOTS.items():
        assert verdicts[root]["error"] is None, root
        assert sorted({line for gb, line in verdicts[root]["breaks"] if gb != "graph break in loop"}) == lines, root
