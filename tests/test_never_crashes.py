"""The analyzer turns any program, valid or not, into diagnostics without raising."""
from __future__ import annotations

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tclint.analyzer import api

def _no_internal_error(text: str, path: str) -> None:
    """The analyzer catches its own failures as TC004 so one file cannot stop a run; here
    any such failure is a bug."""
    internal = [d.message for d in api.lint_source(text, path=path) if d.code == "TC004"]
    assert not internal, f"{internal}\n--- program ---\n{text}"


TORCHY = st.sampled_from([
    "import torch\n@torch.compile\ndef f(x):\n    return x\n",
    "import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n",
    "",
])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(prefix=TORCHY, program=hypothesmith.from_grammar())
def test_generated_programs(prefix, program):
    _no_internal_error(prefix + program, "generated.py")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(prefix=TORCHY, text=st.text(max_size=200))
def test_arbitrary_text(prefix, text):
    _no_internal_error(prefix + text, "noise.py")


def test_deep_nesting():
    _no_internal_error("x = " + "(" * 500 + "1" + ")" * 500 + "\n", "deep.py")
    _no_internal_error("def f(x):\n" + "".join("    " * i + "if x:\n" for i in range(1, 90)) + "    " * 90 + "pass\n",
                       "deep2.py")


def test_else_of_loops_and_try_blocks():
    # an `else` that belongs to no `if` (rules that follow `if` arms once failed on it)
    _no_internal_error("def f(x, xs):\n    for y in xs:\n        pass\n    else:\n        g = None\n"
                       "    while x:\n        x -= 1\n    else:\n        g = None\n"
                       "    try:\n        pass\n    except Exception:\n        pass\n    else:\n        g = None\n"
                       "    return g\n", "loop_else.py")


def test_a_failure_on_one_file_is_reported_and_the_others_are_linted(tmp_path, monkeypatch):
    from tclint.analyzer import project
    from tclint.analyzer.config import Settings

    (tmp_path / "good.py").write_text("import torch\n@torch.compile\ndef f(x):\n    return x.sum().item()\n")
    (tmp_path / "bad.py").write_text("x = 1\n")
    real = project.analyze_module

    def flaky(tree, path, *args, **kwargs):
        if path.endswith("bad.py"):
            raise KeyError("boom")
        return real(tree, path, *args, **kwargs)

    monkeypatch.setattr(project, "analyze_module", flaky)
    result = project.lint_paths([tmp_path], Settings(), jobs=1, use_cache=False)
    found = sorted((d.path.rsplit("/", 1)[-1], d.code) for d in result.diagnostics)
    assert found == [("bad.py", "TC004"), ("good.py", "TC102")]
    assert "please report it" in next(d.message for d in result.diagnostics if d.code == "TC004")
