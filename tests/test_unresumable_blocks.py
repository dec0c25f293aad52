"""A graph break inside a `try` body, or a `with` body under the project's own context
manager, cannot be resumed from: Dynamo compiles the function only up to its last checkpoint
("step_unsupported" on its line: the block's, or that of the outermost `for`/`with` around
it) and runs the rest eagerly, provided the graph already holds two operations there.
Context managers torch knows are resumable. An operator on an object of a project class
(`a + b` running `Cov.__add__`) is such a block too: Dynamo cannot resume inside it.

Each program lists the lines Dynamo (torch 2.13, eager backend) reports, breaks and
step_unsupported alike; tclint must flag exactly those. tclint counts toward the two only the
function's own operations outside branches. The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from break_lines import dynamo_verdicts, flagged_lines
from tclint.analyzer import api

PROGRAMS = {
    "a break in a try body, after two operations": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            try:
                print("step")
            finally:
                y = y - 1
            print("after")
            return x + y
        ''', "f(torch.ones(3))", {8, 9}),
    "a break in `else` runs after the try body: Dynamo resumes there": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            try:
                x = x + 1
            except RuntimeError:
                pass
            else:
                print("ok")
            return x + y
        ''', "f(torch.ones(3))", {13}),
    "and in `finally`": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            try:
                x = x + 1
            finally:
                print("done")
            return x + y
        ''', "f(torch.ones(3))", {11}),
    "but an `else` under a `finally` is inside the try-finally": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            try:
                x = x + 1
            except RuntimeError:
                pass
            else:
                print("ok")
            finally:
                y = y - 1
            return x + y
        ''', "f(torch.ones(3))", {8, 13}),
    "after only one operation the whole frame is skipped": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            try:
                print("step")
            finally:
                pass
            return x
        ''', "f(torch.ones(3))", {8}),
    "a break under a @contextmanager of a passed object, after no operation: the frame is skipped": ('''
        import copy
        from contextlib import contextmanager
        import torch

        class Frozen:
            @contextmanager
            def frozen(self):
                yield

        @torch.compile
        def f(x, p, opts):
            with p.frozen():
                cfg = copy.copy(opts)
                if x.sum() > 0:
                    x = x + 1
                return x * cfg["a"]
        ''', "f(torch.ones(3), Frozen(), {'a': 2})", {14}),
    "the count starts again after a break": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            print("resume here")
            x = x + 1
            try:
                print("step")
            finally:
                pass
            return x + y
        ''', "f(torch.ones(3))", {8, 11}),
    "torch's own context managers are resumable": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            with torch.no_grad():
                print("step")
                x = x + 1
            if y.sum() > 0:
                y = y + 1
            return x + y
        ''', "f(torch.ones(3))", {9, 11}),
    "a break under a project context manager ends the frame": ('''
        import contextlib
        import torch

        @contextlib.contextmanager
        def tracking():
            yield

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            with tracking():
                if x.sum() > 0:
                    x = x + 1
            if y.sum() > 0:
                y = y + 1
            return x + y
        ''', "f(torch.ones(3))", {13, 14}),
    # Dynamo takes a checkpoint only where its stack is empty: a `for` keeps its iterator there
    "in a for loop, Dynamo compiles up to the loop": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            for i in range(2):
                try:
                    print("step")
                finally:
                    pass
            return x + y
        ''', "f(torch.ones(3))", {8, 10}),
    "in nested for loops, up to the outermost": ('''
        import contextlib
        import torch

        @contextlib.contextmanager
        def tracking():
            yield

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            for i in range(2):
                y = y + 1
                for j in range(2):
                    with tracking():
                        print("step")
            return x + y
        ''', "f(torch.ones(3))", {13, 17}),
    "and a `with` keeps its context's exit there": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            with torch.no_grad():
                z = x + 1
                try:
                    print("step")
                finally:
                    pass
            return x + y
        ''', "f(torch.ones(3))", {8, 11}),
    "a while loop holds nothing there": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            i = 0
            while i < 2:
                i += 1
                try:
                    print("step")
                finally:
                    pass
            return x + y
        ''', "f(torch.ones(3))", {11, 12}),
    "operations in the loop body come after the checkpoint": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            for i in range(2):
                x = x.sin()
                y = x.cos()
                try:
                    print("step")
                finally:
                    pass
            return x
        ''', "f(torch.ones(3))", {11}),
    "a break in the loop before the block skips the frame": ('''
        import torch

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            for i in range(2):
                print("first")
                try:
                    print("step")
                finally:
                    pass
            return x + y
        ''', "f(torch.ones(3))", {9}),
    # an operator runs a method Dynamo inlines, but is no point it can resume at
    "an operator whose method breaks compiles up to its statement": ('''
        import torch

        class Cov:
            def __init__(self, t):
                self.t = t

            def __add__(self, other):
                print("add")
                return Cov(self.t + other.t)

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            c = Cov(x) + Cov(y)
            if c.t.sum() > 0:
                y = y + 1
            return c.t + y
        ''', "f(torch.ones(3))", {9, 16}),
    "with one operation before it, only the break in the method": ('''
        import torch

        class Cov:
            def __init__(self, t):
                self.t = t

            def __add__(self, other):
                print("add")
                return Cov(self.t + other.t)

        @torch.compile
        def f(x):
            x = x * 2
            a = Cov(x)
            c = a + a
            return c.t + 1
        ''', "f(torch.ones(3))", {9}),
    "an operator whose method traces is no break": ('''
        import torch

        class Cov:
            def __init__(self, t):
                self.t = t

            def __sub__(self, other):
                return Cov(self.t - other.t)

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            c = Cov(x) - Cov(y)
            if c.t.sum() > 0:
                y = y + 1
            return c.t + y
        ''', "f(torch.ones(3))", {16}),
    "`@` on an object of a project class is not traced at all": ('''
        import torch

        class Cov:
            def __init__(self, t):
                self.t = t

            def __matmul__(self, other):
                return Cov(self.t * other.t)

        @torch.compile
        def f(x):
            x = x * 2
            y = x.sin()
            for i in range(2):
                y = (Cov(x) @ Cov(y)).t
            return x + y
        ''', "f(torch.ones(3))", {15, 16}),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_reports(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


def test_the_finding_names_the_break_and_what_runs_eagerly():
    source = PROGRAMS["a break in a try body, after two operations"][0]
    (block,) = [d for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.code == "TC228"]
    assert (block.span.line, block.span.end_column - block.span.column) == (8, 3)  # the `try` keyword
    assert block.gb_type == "step_unsupported" and block.gb_id is None
    assert "graph break at line 9 (TC201 print-call)" in block.text()
    assert "compiles `f` only up to here" in block.text()


def test_in_a_loop_the_finding_is_on_the_checkpoint_and_names_the_block():
    source = PROGRAMS["in a for loop, Dynamo compiles up to the loop"][0]
    (block,) = [d for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.code == "TC228"]
    assert (block.span.line, block.span.end_column - block.span.column) == (8, 3)  # the `for` keyword
    assert "the `try` block at line 9" in block.text() and "this `for` statement around it" in block.text()


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_reports_those_lines():
    verdicts = dynamo_verdicts(PROGRAMS)
    assert sorted(verdicts["in a for loop, Dynamo compiles up to the loop"]["breaks"]) == [
        ["Failed to trace builtin operator", 10], ["step_unsupported", 8]]


def test_an_operator_finding_names_the_method_that_breaks():
    source = PROGRAMS["an operator whose method breaks compiles up to its statement"][0]
    (block,) = [d for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.code == "TC228"]
    assert block.span.line == 16 and "the `+` operator here" in block.text()
    assert "in `Cov.__add__`, which `+` runs" in block.text() and "compiles `f` only up to here" in block.text()
