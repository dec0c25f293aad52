"""A graph break inside a loop body ends the frame: Dynamo runs the rest of that function
eagerly, so hazards written after it in the same function never break while it stands.
Callees keep their own frames, a `while` test that breaks is resumable, and so is a break
that a `return` follows before the loop jumps back (loop_returns).

Each program below lists the lines Dynamo (torch 2.13, eager backend) logs a break on;
tclint must flag exactly those. The Dynamo half is skipped without torch."""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from break_lines import flagged_lines
from dynamo_oracle import ask
from tclint.analyzer import api

PROGRAMS = {
    "break in a loop body hides later branches": ('''
        import torch

        @torch.compile
        def f(x):
            y = x + 1
            for i in range(3):
                if x.sum() > 0:
                    x = x + 1
            z = x * 2
            if z.sum() > 0:
                return z
            print(z)
            return z - 1
        ''', "f(torch.ones(3))", {8}),
    "a callee that breaks, called in a loop, hides the caller's later lines only": ('''
        import torch

        def g(z):
            if z.sum() > 0:
                return z
            return z - 1

        @torch.compile
        def f(x):
            for i in range(3):
                x = g(x)
            if x.mean() > 0:
                x = x + 1
            return x
        ''', "f(torch.ones(3))", {5}),
    "a break in a while test is resumable": ('''
        import torch

        @torch.compile
        def f(x, t):
            j = 0
            while j < 2 and x[j] >= t:
                j += 1
            if x.sum() > 0:
                return x
            return x + 1
        ''', "f(torch.ones(3), torch.tensor(0.5))", {7, 9}),
    "a break before a quiet loop hides nothing": ('''
        import torch

        @torch.compile
        def f(x):
            if x.max() > 5:
                x = x + 1
            for i in range(2):
                x = x * 2
            if x.sum() > 0:
                return x
            return x + 1
        ''', "f(torch.ones(3))", {6, 10}),
    "a call that may run a breaking override hides nothing": ('''
        import torch

        class Solver:
            def integrate(self, x):
                for i in range(3):
                    x = self.step(x)
                if x.sum() > 0:
                    x = x + 1
                return x

        class Euler(Solver):
            def step(self, x):
                return x * 2

        class Noisy(Solver):
            def step(self, x):
                print("step")
                return x

        @torch.compile
        def f(x):
            return Euler().integrate(x) + Noisy().integrate(x)
        ''', "f(torch.ones(3))", {8, 18, 23}),
    # loop_returns: Dynamo resumes a break in a loop when a return comes before the jump back
    "a `return` after a break in a loop lets Dynamo resume": ('''
        import torch

        @torch.compile
        def f(x, r):
            z = x
            while True:
                if z.sum() <= 0:
                    return z
                z = z * 0.5
                if z.norm() >= r:
                    return z
                if z.sum() < 0.5:
                    return z
        ''', "f(torch.ones(3), torch.tensor(100.))", {8, 11, 13}),
    "a `return` in the other arm, or past a loop nested after the break, comes first too": ('''
        import torch

        @torch.compile
        def f(x):
            z = x * 1000
            for i in range(3):
                if z.sum() > 100:
                    z = z + 1
                else:
                    return z
                for j in range(2):
                    z = z * 2
                if i == 5:
                    return z
                if z.norm() > 0:
                    z = z * 2
            return z
        ''', "f(torch.ones(3))", {8, 16}),
    "a callee's break resumes where its caller's loop returns next": ('''
        import torch

        def g(z):
            if z.sum() > 100:
                return z + 1
            return z - 1

        @torch.compile
        def f(x):
            z = x
            for i in range(3):
                z = g(z)
                if i == 5:
                    return z
                if z.norm() > 1000:
                    z = z * 0.5
            return z
        ''', "f(torch.ones(3))", {5, 16}),
    "a `continue` before the `return` jumps back first": ('''
        import torch

        @torch.compile
        def f(x):
            z = x * 1000
            for i in range(3):
                if z.sum() > 100:
                    z = z + 1
                    continue
                if i == 5:
                    return z
                if z.norm() > 0:
                    z = z * 2
            return z
        ''', "f(torch.ones(3))", {8}),
    "a break inside the test of an `if` that returns resumes too": ('''
        import torch

        @torch.compile
        def f(x):
            z = x
            for i in range(3):
                z = z * 0.5
                if z.sum().item() > 100:
                    return z
            if z.norm() > 0:
                z = z + 1
            return z
        ''', "f(torch.ones(3))", {9, 11}),
}


# Either arm may be the one that runs: Dynamo breaks in the dense arm on dense input and in
# the sparse arm on sparse input, and never after the loop.
ARMS = '''
    import torch

    @torch.compile
    def f(xs, sparse):
        tot = 0.0
        for x in xs:
            if sparse:
                tot += x.sum().item()
            else:
                tot += (x * x).sum().item()
        if tot > 0:
            print(tot)
        return tot
    '''
ARMS_CALLS = {"dense": ("f([torch.randn(3), torch.randn(3)], False)", [11]),
              "sparse": ("f([torch.randn(3), torch.randn(3)], True)", [9])}


@pytest.mark.parametrize("name", PROGRAMS)
def test_tclint_flags_the_lines_dynamo_breaks_on(name):
    source, _call, lines = PROGRAMS[name]
    assert flagged_lines(source) == lines


def test_the_loop_break_says_what_it_hides():
    source = PROGRAMS["break in a loop body hides later branches"][0]
    (first,) = [d for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.span.line == 8]
    assert "the rest of `f` then runs eagerly" in first.text()
    assert "2 later findings in it (lines 11, 13)" in first.text()


def test_a_break_in_one_arm_of_an_if_hides_nothing_in_the_other_arm():
    assert flagged_lines(ARMS) == {9, 11}


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines():
    cases = [{"id": name, "source": textwrap.dedent(src), "call": call} for name, (src, call, _) in PROGRAMS.items()]
    cases += [{"id": arm, "source": textwrap.dedent(ARMS), "call": call} for arm, (call, _) in ARMS_CALLS.items()]
    verdicts = ask(cases)
    for name, (_src, _call, lines) in PROGRAMS.items():
        assert verdicts[name]["error"] is None, name
        assert {line for _, line in verdicts[name]["breaks"]} == lines, name
    for arm, (_call, lines) in ARMS_CALLS.items():
        assert [line for _, line in verdicts[arm]["breaks"]] == lines, arm


def test_a_break_makes_every_function_that_calls_it_break_up_a_chain_and_round_a_cycle():
    from tclint.analyzer.diagnostic import Diagnostic, Severity, Span
    from tclint.analyzer.loop_skips import FunctionFindings, breaking_functions

    brk = Diagnostic(path="/p.py", span=Span(1, 1, 1, 2), code="TC102", name="item", severity=Severity.WARNING,
                     message="m", gb_type="Unsupported Tensor.item() call")
    found = {"leaf": FunctionFindings(own=[(brk, False)]), "mid": FunctionFindings(calls=[["leaf"]]),
             "top": FunctionFindings(calls=[["mid", "clean"]]), "a": FunctionFindings(calls=[["b"], ["top"]]),
             "b": FunctionFindings(calls=[["a"]]), "clean": FunctionFindings(calls=[["other"], ["c2"]]),
             "c2": FunctionFindings(calls=[["clean"]])}
    assert breaking_functions(found) == {"leaf", "mid", "top", "a", "b"}
    # certain: only a call all of whose possible callees break (top's may run `clean`)
    assert breaking_functions(found, certain=True) == {"leaf", "mid"}
