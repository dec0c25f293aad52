"""A method called on an object a project factory made is followed into the classes that
factory returns, even where the method's name is too common to follow by name alone (more
than three unrelated classes define `step` here). The factory may pick a class from a table
and call it (`solver = TABLE[name]; return solver()`, torchdyn's `str_to_solver`) or return
what another factory returns (`return str_to_solver(name)`), in another file. The object may
be a local (`solver = make(name)`: built in the compiled frame, so the breaking call breaks
again at the call site, TC225) or an attribute `__init__` stored (`self.solver =
str_to_solver(name)`: built eagerly, so only the method's own line breaks), also from the
constructor's parameter whose default is an instance (`solver=Euler()`, `self.solver =
solver`) or a class (`solver_cls=Euler`, `self.solver = solver_cls()`). An attribute holding an
object of unknown class (`self.solver = solver`) stays unknown."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

SOLVERS = '''import torch


class Euler:
    def step(self, x):
        if x.sum() > 0:
            return x * 2
        return x


class Midpoint:
    def step(self, x):
        return x + 1


class Tally:
    def step(self):
        return 0


class Gauge:
    def step(self):
        return 1


class Meter:
    def step(self):
        return 2


TABLE = {"euler": Euler, "midpoint": Midpoint}


def str_to_solver(name):
    solver = TABLE[name]
    return solver()


def make(name):
    return str_to_solver(name)


class Halver(torch.nn.Module):
    def forward(self, x):
        if x.max() > 1:
            return x / 2
        return x
'''
# Imports `from solvers import ...` in its own file; appended to SOLVERS for Dynamo, so the
# lines of SOLVERS are the same in both.
MODEL = '''

class ODE(torch.nn.Module):
    def __init__(self, name):
        super().__init__()
        self.solver = str_to_solver(name)

    def forward(self, x):
        return self.solver.step(x) * 3


class Given(torch.nn.Module):
    def __init__(self, solver):
        super().__init__()
        self.solver = solver

    def forward(self, x):
        return self.solver.step(x) * 3


class Defaulted(torch.nn.Module):
    def __init__(self, solver=Euler()):
        super().__init__()
        self.solver = solver

    def forward(self, x):
        return self.solver.step(x) * 3


class DefaultedClass(torch.nn.Module):
    def __init__(self, solver_cls=Euler):
        super().__init__()
        self.solver = solver_cls()

    def forward(self, x):
        return self.solver.step(x) * 3


class Smoothed(torch.nn.Module):
    def __init__(self, smooth=Halver()):
        super().__init__()
        self.smooth = smooth

    def forward(self, x):
        return self.smooth(x) + 1


def integrate(x, name):
    solver = make(name)
    return solver.step(x) - 1


def _run(x, solver_cls):
    solver = solver_cls()
    y = solver.step(x)
    return y - 1


def run_euler(x):
    return _run(x, solver_cls=Euler)


ode = ODE("euler")
given = Given(str_to_solver("euler"))
defaulted, defaulted_class, smoothed = Defaulted(), DefaultedClass(), Smoothed()
'''
MODEL_IMPORTS = "import torch\n\nfrom solvers import Euler, Halver, make, str_to_solver\n"
_REBUILT = "    return solver.step(x) - 1"  # the call on an object built in the compiled frame
# root -> (file, line) of each break Dynamo reports (torch 2.13, eager backend) when it is compiled
ROOTS = {
    "ODE.forward": [("solvers.py", 6)],
    # an instance (or class) the constructor's parameter defaults to: built eagerly, as in ODE
    "Defaulted.forward": [("solvers.py", 6)],
    "DefaultedClass.forward": [("solvers.py", 6)],
    "Smoothed.forward": [("solvers.py", SOLVERS.splitlines().index("        if x.max() > 1:") + 1)],
    "integrate": [("model.py", (MODEL_IMPORTS + MODEL).splitlines().index(_REBUILT) + 1), ("solvers.py", 6)],
}
CALLS = {"ODE.forward": "torch.compile(ode)(torch.ones(3))",
         "Defaulted.forward": "torch.compile(defaulted)(torch.ones(3))",
         "DefaultedClass.forward": "torch.compile(defaulted_class)(torch.ones(3))",
         "Smoothed.forward": "torch.compile(smoothed)(torch.ones(3))",
         "integrate": "torch.compile(integrate)(torch.ones(3), 'euler')"}


def _flagged(tmp_path: Path, root: str) -> list[tuple[str, int]]:
    (tmp_path / "solvers.py").write_text(SOLVERS)
    (tmp_path / "model.py").write_text(MODEL_IMPORTS + MODEL)
    settings = Settings(roots=(f"model:{root}",), assume_forward_compiled=False)
    result = lint_paths([tmp_path], settings, jobs=1, use_cache=False)
    return sorted({(Path(d.path).name, d.line) for d in result.diagnostics if d.gb_type})


@pytest.mark.parametrize("root", ROOTS)
def test_tclint_flags_the_lines_dynamo_breaks_on(tmp_path, root):
    assert _flagged(tmp_path, root) == ROOTS[root]


def test_an_attribute_of_unknown_class_stays_unknown(tmp_path):
    # Dynamo breaks in Euler.step here too (`given` holds one), but nothing in Given says so
    assert _flagged(tmp_path, "Given.forward") == []


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_those_lines():
    cases = [{"id": root, "source": SOLVERS + MODEL, "call": call} for root, call in CALLS.items()]
    verdicts = ask(cases)
    for root, found in ROOTS.items():
        assert verdicts[root]["error"] is None, root
        lines = [line if name == "solvers.py" else (SOLVERS + MODEL).splitlines().index(_REBUILT) + 1
                 for name, line in found]
        assert sorted({line for _, line in verdicts[root]["breaks"]}) == sorted(lines), root


def test_an_instance_of_a_class_passed_as_a_parameter_is_followed(tmp_path):
    # `solver = solver_cls()` with callers passing `solver_cls=Euler`: Euler.step runs, not the
    # other four `step`s. Dynamo also breaks at `solver.step(x)` (Reconstruction failure);
    # tclint leaves that line: had the constructor broken (it may, through what it is passed
    # in turn), Dynamo would have given up there instead
    assert _flagged(tmp_path, "run_euler") == [("solvers.py", 6)]


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_in_the_passed_class_and_at_the_call():
    verdict = ask([{"id": "run", "source": SOLVERS + MODEL, "call": "torch.compile(run_euler)(torch.ones(3))"}])["run"]
    call_line = (SOLVERS + MODEL).splitlines().index("    y = solver.step(x)") + 1
    assert verdict["error"] is None
    assert {(gb, line) for gb, line in verdict["breaks"]} == {("Data-dependent branching", 6),
                                                             ("Reconstruction failure", call_line)}


def test_factories_that_return_each_others_method_results_end(tmp_path):
    # what `f` returns is what a method of `g`'s object returns, and the other way round
    (tmp_path / "loop.py").write_text('''import torch


class S:
    def m(self):
        return g()

    def run(self, x):
        return x * 2


def f():
    s = g()
    return s.m()


def g():
    t = f()
    return t.m()


class Net(torch.nn.Module):
    def forward(self, x):
        return f().run(x)
''')
    result = lint_paths([tmp_path], Settings(), jobs=1, use_cache=False)
    assert [d.code for d in result.diagnostics] == []
