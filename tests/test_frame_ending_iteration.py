"""A `for` over what a call Dynamo skips returns ends the frame (torch 2.13): at the `for`,
Dynamo skips the result's `__iter__` (a tqdm progress bar, a pandas Series) or finds no
`tp_iter` (a networkx generator), cannot resume there, and runs the rest of the frame
eagerly. Only that frame: its callers go on, and what it calls later is traced as frames of
its own. A list built from the result (`list(tqdm(...))`) resumes. The probe table records
which results do this (`tools/probe_dynamo.py`, "iterated").

Each program lists the lines Dynamo logs a break on; tclint must flag exactly those. The
Dynamo half needs tqdm and pandas installed (the audit venv has them)."""
from __future__ import annotations

import importlib.util

import pytest

from break_lines import dynamo_verdicts, flagged_lines
from tclint.analyzer.knowledge import dynamo_calls, trace_rules

PROGRAMS = {
    "a for over tqdm hides the loop body and the rest of the frame": ('''
        import torch
        from tqdm import tqdm

        @torch.compile
        def f(x):
            y = x * 2
            for i in tqdm(range(3)):
                if y.sum() > 0:
                    y = y + i
            return y + y.sum().item()
        ''', "f(torch.ones(3))", {8}),
    "a break before the loop still breaks; enumerate passes the iteration on": ('''
        import torch
        from tqdm import trange

        @torch.compile
        def f(x):
            n = int(x.sum().item())
            y = x * 2
            for j, i in enumerate(trange(3)):
                y = y + i
            return y + y.sum().item() + n
        ''', "f(torch.ones(3))", {7, 9}),
    "a bound progress bar breaks where it is built and ends the frame at the for; callees keep theirs": ('''
        import torch
        from tqdm import tqdm

        def g(y):
            return y * y.sum().item()

        @torch.compile
        def f(x):
            y = x * 2
            bar = tqdm(range(3))
            for i in bar:
                y = y + i
            if y.sum() > 0:
                y = y + 1
            return g(y)
        ''', "f(torch.ones(3))", {6, 11, 12}),
    "a callee's loop ends only the callee's frame": ('''
        import torch
        from tqdm import tqdm

        def g(y):
            for i in tqdm(range(3)):
                y = y + i
            return y * y.sum().item()

        @torch.compile
        def f(x):
            y = g(x * 2)
            return y + y.sum().item()
        ''', "f(torch.ones(3))", {6, 13}),
    "inside a with block the rest of the frame, past the block, runs eagerly too": ('''
        import torch
        from tqdm import tqdm

        @torch.compile
        def f(x):
            y = x * 2
            with torch.no_grad():
                for i in tqdm(range(3)):
                    y = y + i
                z = y.sum().item()
            return y + z + y.sum().item()
        ''', "f(torch.ones(3))", {9}),
    "a list of the progress bar's values resumes": ('''
        import torch
        from tqdm import tqdm

        @torch.compile
        def f(x):
            y = x * 2
            steps = list(tqdm(range(3)))
            return y + y.sum().item() + len(steps)
        ''', "f(torch.ones(3))", {8, 9}),
    "a pandas Series built at module level ends the frame at the for": ('''
        import pandas as pd
        import torch

        WEIGHTS = pd.Series([1.0, 2.0])

        @torch.compile
        def f(x):
            y = x * 2
            for w in WEIGHTS:
                y = y * w
            return y + y.sum().item()
        ''', "f(torch.ones(3))", {10}),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_breaks_on(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


def test_the_probe_table_records_which_results_end_the_frame_when_iterated():
    calls = dynamo_calls.load(dynamo_calls.tables()[(2, 13)], trace_rules.EMPTY)
    for name in ("tqdm.tqdm", "tqdm.trange", "tqdm.auto.tqdm", "pandas.Series", "pandas.DataFrame"):
        assert calls.ends_frame_when_iterated(name).graph_break.gb_type == "Attempted to inline function marked as skipped"
    for name in ("networkx.topological_sort", "pandas.DataFrame().iterrows"):
        assert calls.ends_frame_when_iterated(name).graph_break.gb_type == "missing tp_iter"
    assert calls.ends_frame_when_iterated("networkx.dag_longest_path") is None  # a list: iterated
    assert calls.verdict("networkx.dag_longest_path") is not None  # though the call itself breaks
    assert {"builtins.enumerate", "builtins.zip", "itertools.islice"} <= calls.iteration_wrappers


@pytest.mark.dynamo
@pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in ("torch", "tqdm", "pandas")),
                    reason="torch, tqdm and pandas are needed")
def test_dynamo_breaks_on_those_lines():
    dynamo_verdicts(PROGRAMS)
