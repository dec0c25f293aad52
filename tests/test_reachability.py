"""Calls the analyzer follows beyond plain names: decorator wrappers, callables that
factories return (stored in attributes or locals, or named by `getattr` through a table),
and instances whose class defines `__call__`.

Each case is a snippet with the lines tclint flags; Dynamo (torch 2.13, eager backend)
breaks the graph on exactly those lines, which the `dynamo` test checks.
"""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

CASES = {
    # A wrapper returned by a decorator runs in place of the function: its skipped call
    # breaks, and the original, which the wrapper calls, is compiled too.
    "decorator-wrapper": ("""
        import functools
        import pickle

        import torch


        def cached(method):
            @functools.wraps(method)
            def wrapper(self, *args, **kwargs):
                key = pickle.dumps(kwargs)
                return method(self, *args, **kwargs)
            return wrapper


        class Model(torch.nn.Module):
            @cached
            def scale(self, x):
                return x * x.sum().item()

            def forward(self, x):
                return self.scale(x)
        """, "torch.compile(Model())(torch.randn(3))", [(10, "TC205"), (18, "TC102")]),
    # `@memo(name=...)` returns `functools.partial(_memo, name=...)`, which applied to the
    # method returns the wrapper `g`.
    "decorator-partial-factory": ("""
        import functools
        import pickle

        import torch


        def _memo(method=None, name=None):
            if method is None:
                return functools.partial(_memo, name=name)

            @functools.wraps(method)
            def g(self, *args, **kwargs):
                key = pickle.dumps(kwargs)
                return method(self, *args, **kwargs)
            return g


        def memo(method=None, name=None):
            return _memo(method=method, name=name)


        class Model(torch.nn.Module):
            @memo(name="scaled")
            def scale(self, x):
                return x * 2

            def forward(self, x):
                return self.scale(x)
        """, "torch.compile(Model())(torch.randn(3))", [(13, "TC205")]),
    # A decorator factory: `logged(tag)` returns the decorator, which returns the wrapper.
    "decorator-factory": ("""
        import functools

        import torch


        def logged(tag):
            def decorator(fn):
                @functools.wraps(fn)
                def wrapper(*args, **kwargs):
                    print(tag)
                    return fn(*args, **kwargs)
                return wrapper
            return decorator


        @logged("double")
        def double(x):
            return x * 2


        @torch.compile
        def run(x):
            return double(x) + 1
        """, "run(torch.randn(3))", [(10, "TC201")]),
    # A decorator that registers and returns the function itself adds no wrapper.
    "decorator-registry": ("""
        import torch

        REGISTRY = {}


        def register(fn):
            REGISTRY[fn.__name__] = fn
            return fn


        @register
        def total(x):
            return x.sum().item()


        @torch.compile
        def run(x):
            return total(x)
        """, "run(torch.randn(3))", [(13, "TC102")]),
    # A wrapper Dynamo does not trace: the call to it breaks, and the original it calls
    # runs eagerly, so its `.item()` is not a break.
    "decorator-disabled-wrapper": ("""
        import functools

        import torch


        def eager(fn):
            @functools.wraps(fn)
            @torch.compiler.disable
            def wrapper(*args, **kwargs):
                return fn(*args, **kwargs)
            return wrapper


        @eager
        def total(x):
            return x.sum().item()


        @torch.compile
        def run(x):
            return total(x) + 1
        """, "run(torch.randn(3))", [(21, "TC210")]),
    # `self.grid = self._grid_from(step)` stores the nested def `_grid_from` returns.
    "attribute-from-factory": ("""
        import torch


        class Solver:
            def __init__(self, step):
                self.grid = self._grid_from(step)

            @staticmethod
            def _grid_from(step):
                def grid(t):
                    n = torch.ceil((t[-1] - t[0]) / step).item()
                    return torch.arange(0, n) * step
                return grid

            def integrate(self, t):
                return self.grid(t)


        solver = Solver(0.5)


        @torch.compile
        def run(t):
            return solver.integrate(t)
        """, "run(torch.tensor([0.0, 2.0]))", [(11, "TC102")]),
    # A local name holding what a factory returned.
    "local-from-factory": ("""
        import torch


        def make_scaler(factor):
            def scale(x):
                if x.sum() > 0:
                    return x * factor
                return x
            return scale


        @torch.compile
        def run(x):
            scale = make_scaler(2.0)
            return scale(x)
        """, "run(torch.randn(3))", [(6, "TC101")]),
    # An instance of a project class, built in either arm, is called: its `__call__` runs.
    "instance-call": ("""
        import torch


        class StopCheck:
            def __call__(self, unfinished):
                return bool(unfinished.max() == 0)


        class CountCheck:
            def __call__(self, unfinished):
                return unfinished.sum().item() == 0


        @torch.compile
        def done(x, counting: bool):
            if counting:
                check = CountCheck()
            else:
                check = StopCheck()
            return check(x)
        """, "(done(torch.ones(3), True), done(torch.ones(3), False))", [(6, "TC103"), (11, "TC102")]),
    # `getattr(type(self), MODES[mode])`: any method the table names.
    "getattr-dispatch-table": ("""
        import torch

        MODES = {"greedy": "_greedy", "sample": "_sample"}


        class Decoder(torch.nn.Module):
            def _greedy(self, logits):
                return logits.argmax(-1)

            def _sample(self, logits):
                return torch.multinomial(logits.softmax(-1), 1).nonzero()

            def forward(self, logits, mode: str):
                method = getattr(type(self), MODES[mode])
                return method(self, logits)
        """, "[torch.compile(Decoder())(torch.randn(2, 3), m) for m in ('greedy', 'sample')]", [(11, "TC301")]),
    # `op.solve()` on an object of unknown class: more classes define `solve` than are
    # followed by name alone, but all of them derive from one that does.
    "method-of-one-family": ("""
        import torch


        class Operator:
            def solve(self, rhs):
                return rhs / 2


        class Dense(Operator):
            def solve(self, rhs):
                return rhs / rhs.abs().max().item()


        class Diagonal(Operator):
            def solve(self, rhs):
                return rhs * 0.5


        class Identity(Operator):
            def solve(self, rhs):
                return rhs


        def apply(op, rhs):
            return op.solve(rhs)


        @torch.compile
        def run(rhs):
            return apply(Dense(), rhs)
        """, "run(torch.randn(3))", [(11, "TC102")]),
    # Functions held in a module-level dict and in a dict attribute, picked by key.
    "function-tables": ("""
        import torch


        def euler(x):
            return x * 0.1


        def normalized(x):
            return x / x.norm().item()


        STEPS = {"euler": euler, "normalized": normalized}


        class Integrator:
            def __init__(self):
                self.updates = {"decay": self._decay, "clip": self._clip}

            def _decay(self, x):
                return x * 0.9

            def _clip(self, x):
                return x.clamp(max=x.max().item())

            def advance(self, x, method, update):
                return self.updates[update](STEPS[method](x))


        integrator = Integrator()


        @torch.compile
        def run(x, method: str, update: str):
            return integrator.advance(x, method, update)
        """, "[run(torch.randn(3), m, u) for m in ('euler', 'normalized') for u in ('decay', 'clip')]",
        [(9, "TC102"), (23, "TC102")]),
    # What a factory-made callable or an instance's `__call__` returns is known at the call.
    "return-kind-through-factory-and-instance": ("""
        import torch


        def make_norm(p):
            def norm(x):
                return x.abs().pow(p).sum()
            return norm


        class Peak:
            def __call__(self, x):
                return x.max()


        @torch.compile
        def run(x):
            norm = make_norm(2)
            if norm(x) > 1:
                x = x / 2
            peak = Peak()
            if peak(x) > 0:
                x = x - 1
            return x
        """, "run(torch.randn(3))", [(18, "TC101"), (21, "TC101")]),
    # `self(...)` returns what the class's forward returns: here a dict, not a tensor.
    "self-call-returns-forward-value": ("""
        import torch


        class Model(torch.nn.Module):
            def forward(self, x):
                return {"logits": x * 2}

            def generate(self, x):
                out = self(x)
                if "cache" in out:
                    return out["cache"]
                return out["logits"].sum()


        @torch.compile
        def run(model, x):
            return model.generate(x)
        """, "run(Model(), torch.randn(3))", []),
    # An object stored in an attribute by `__init__` and called later runs its class's
    # `__call__`, which gets the tensor the caller passes.
    "object-held-in-attribute": ("""
        import torch


        class Noise:
            def __call__(self, t):
                return float(t)


        class Solver:
            def __init__(self, noise):
                self.noise = noise

            def advance(self, t):
                return self.noise(t)


        solver = Solver(Noise())


        @torch.compile
        def f(ts):
            return ts * solver.advance(ts[1])
        """, "f(torch.tensor([0.0, 0.5, 1.0]))", [(6, "TC103")]),
    # Calling a property's value calls what its getter returns: here a function from a
    # module-level table (transformers' `self.loss_function(...)`); the setter is not run.
    "property-returning-a-table-entry": ("""
        import torch


        def ctc_loss(logits, labels):
            flat = labels.masked_select(labels != 0)
            return logits.sum() + flat.sum()


        LOSSES = {"ctc": ctc_loss}


        class Model(torch.nn.Module):
            kind = "ctc"

            @property
            def loss_function(self):
                return LOSSES[self.kind]

            @loss_function.setter
            def loss_function(self, value):
                print(value)

            def forward(self, x, labels):
                return self.loss_function(x, labels)
        """, "torch.compile(Model())(torch.randn(3), torch.tensor([1, 0, 2]))", [(5, "TC301")]),
}


def _source(case: str) -> str:
    return textwrap.dedent(CASES[case][0]).lstrip("\n")


@pytest.mark.parametrize("case", list(CASES))
def test_flagged_lines(case):
    found = sorted((d.line, d.code) for d in api.lint_source(_source(case), path="case.py"))
    assert found == sorted(CASES[case][2])


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_the_flagged_lines():
    cases = [{"id": case, "source": _source(case), "call": CASES[case][1]} for case in CASES]
    verdicts = ask(cases)
    for case in CASES:
        result = verdicts[case]
        assert result["error"] is None, f"{case}: {result['error']}"
        assert {line for _, line in result["breaks"]} == {line for line, _ in CASES[case][2]}, (case, result["breaks"])


def test_a_method_many_unrelated_classes_define_is_not_followed_by_name():
    classes = "".join(f"class C{i}:\n    def solve(self, rhs):\n        return rhs.sum().item()\n\n" for i in range(4))
    source = ("import torch\n\n" + classes + "def apply(op, rhs):\n    return op.solve(rhs)\n\n"
              "@torch.compile\ndef run(rhs):\n    return apply(C0(), rhs)\n")
    assert api.lint_source(source, path="case.py") == []
