"""`obj.advance(x)` on an object of unknown class is followed by the method's name only when
few classes define it. When a run lints several packages, the other packages' classes no
longer hide a package's own: where more than three classes of the project define the name
(and they are no one family, nor all modules), those of the calling file's top-level package
are followed when few of them do. So `Runner.forward` reaches `Jump.advance` whether pkg_b
is linted too or not; a name that only another package defines stays unfollowed. A method
called on what a function returns, where it builds no instance (`pick(s).advance(x)`), is
followed by name the same way. A name tensors have too (`conj`, `positive`) is followed only among the
package's own classes: on an object of unknown class it is mostly a tensor's method, and another
package's class of that name is a guess (Dynamo does not break on `x.conj()`)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

STEPPERS = '''import torch


class Jump:
    def advance(self, x):
        if x.sum() > 0:
            return x * 2
        return x


    def positive(self, x):
        if x.sum() > 0:
            return x * 2
        return x


class Crawl:
    def advance(self, x):
        return x + 1


class Runner(torch.nn.Module):
    def __init__(self, stepper, other):
        super().__init__()
        self.stepper = stepper
        self.other = other

    def forward(self, x):
        return self.stepper.advance(x) * 3

    def rewound(self, x):
        return self.other.rewind(x) * 3

    def picked(self, x):
        return pick(self.stepper).advance(x) * 3

    def flipped(self, x):
        return self.stepper.positive(x) * 3

    def conjugated(self, x):
        return self.other.conj() * 3


def pick(stepper):
    return stepper
'''
OTHERS = '''class Tally:
    def advance(self):
        return 0

    def rewind(self, x):
        return x


class Gauge:
    def advance(self):
        return 1

    def rewind(self, x):
        return x


class Meter:
    def advance(self):
        return 2

    def rewind(self, x):
        return x


class Dial:
    def rewind(self, x):
        return x


class Phase:
    def __init__(self, x):
        self.x = x

    def conj(self):
        if self.x.sum() > 0:
            return self.x
        return -self.x
'''


def _flagged(tmp_path: Path, root: str, packages: tuple[str, ...]) -> list[int]:
    for package, source in (("pkg_a", STEPPERS), ("pkg_b", OTHERS)):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / "steps.py").write_text(source)
    settings = Settings(roots=(f"pkg_a.steps:Runner.{root}",), assume_forward_compiled=False)
    result = lint_paths([tmp_path / p for p in packages], settings, jobs=1, use_cache=False)
    return sorted({d.line for d in result.diagnostics if d.gb_type})


@pytest.mark.parametrize("packages", [("pkg_a",), ("pkg_a", "pkg_b")])
def test_a_packages_own_classes_are_followed_by_name(tmp_path, packages):
    # Dynamo's break (test_dynamo_breaks_in_the_packages_method)
    assert _flagged(tmp_path, "forward", packages) == [6]


@pytest.mark.parametrize("packages", [("pkg_a",), ("pkg_a", "pkg_b")])
def test_a_method_on_what_a_call_returns_is_followed_in_the_package(tmp_path, packages):
    assert _flagged(tmp_path, "picked", packages) == [6]


def test_a_name_only_other_packages_define_stays_unfollowed(tmp_path):
    assert _flagged(tmp_path, "rewound", ("pkg_a", "pkg_b")) == []


def test_a_tensor_method_name_is_followed_only_in_the_package(tmp_path):
    assert _flagged(tmp_path, "flipped", ("pkg_a", "pkg_b")) == [12]
    assert _flagged(tmp_path, "conjugated", ("pkg_a", "pkg_b")) == []


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_in_the_packages_method():
    cases = [{"id": root, "source": STEPPERS, "call": f"torch.compile(Runner(Jump(), None).{root})(torch.ones(3))"}
             for root in ("forward", "picked")]
    cases.append({"id": "flipped", "source": STEPPERS, "call": "torch.compile(Runner(Jump(), None).flipped)(torch.ones(3))"})
    cases.append({"id": "conjugated", "source": STEPPERS,
                  "call": "torch.compile(Runner(None, torch.ones(3)).conjugated)(torch.ones(3))"})
    verdicts = ask(cases)
    for case in cases:
        assert verdicts[case["id"]]["error"] is None
        lines = sorted({line for _, line in verdicts[case["id"]]["breaks"]})
        assert lines == {"flipped": [12], "conjugated": []}.get(case["id"], [6])
