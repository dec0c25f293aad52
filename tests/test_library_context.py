"""Compiled code that calls an installed library breaks where the library's code breaks. The
library's modules are read as context (found beside the linted package, as in a
site-packages folder), nothing is reported inside them, and a break there becomes a TC227 at
the linted call that leads to it. A function the library hands to `allow_in_graph` is put
in the graph whole, so nothing inside it counts."""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer import project
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

LIBRARY = {
    "solverlib/__init__.py": "from solverlib.core import scaled, solve\n",
    # `scaled` is never traced, so its suppression is unused: a library's findings about its
    # own comments are not the user's either
    "solverlib/core.py": '''
        import torch


        def _check_increasing(t):
            if (t[1:] <= t[:-1]).any():
                raise ValueError("t must increase")


        def solve(y0, t):
            _check_increasing(t)
            return y0 * t[-1]


        @torch.compiler.allow_in_graph
        def scaled(x):
            print("scaling")  # noqa: TC201
            return x * 2
        ''',
}
USER = '''
    import torch

    import solverlib


    @torch.compile
    def run(y0, t):
        y = solverlib.scaled(y0)
        return solverlib.solve(y, t)
    '''
CALL_LINE = 9
# A library that calls back into the user's code, which calls into another library.
CALLBACK_LIBRARIES = {
    "odelib/__init__.py": "def integrate(func, y):\n    return func(y)\n",
    "mathlib/__init__.py": "def norm(y):\n    if (y > 0).any():\n        return y\n    return -y\n",
}
CALLBACK_USER = '''
        import torch

        import mathlib
        import odelib


        def rhs(y):
            return mathlib.norm(y)


        @torch.compile
        def run(y):
            return odelib.integrate(rhs, y)
        '''
CALLBACK_LINE = 8
# As botorch's models: a base class calls `self(X)`, which runs the `__call__` that a subclass
# inherits from a library class (gpytorch's ExactGP), its second base; the compiled function
# holds the model in an attribute set from a parameter annotated with the base class.
MIXIN_LIBRARIES = {
    "gplib/__init__.py": "from gplib.exact import ExactGP\n",
    "gplib/exact.py": '''
        import torch


        class ExactGP(torch.nn.Module):
            def __call__(self, x):
                if (x > 0).any():
                    return x
                return -x
        ''',
}
MIXIN_USER = '''
    import torch

    import gplib


    class Model(torch.nn.Module):
        def posterior(self, x):
            return self(x) + 1


    class SingleTaskGP(Model, gplib.ExactGP):
        pass


    class Acquisition(torch.nn.Module):
        def __init__(self, model: Model):
            super().__init__()
            self.model = model

        def forward(self, x):
            return self.model.posterior(x)


    run = torch.compile(Acquisition(SingleTaskGP()))
    '''
MIXIN_LINE = 8


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


def _lint(root: Path, names: list[str], use_cache: bool = False):
    (root / "tclint.toml").write_text("")
    return lint_paths([root / n for n in names], Settings(source=root / "tclint.toml"), jobs=1,
                      use_cache=use_cache).diagnostics


def test_a_break_inside_a_library_is_reported_at_the_call(tmp_path):
    _write(tmp_path, {**LIBRARY, "userpkg/__init__.py": "", "userpkg/model.py": USER})
    found = _lint(tmp_path, ["userpkg"])
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", CALL_LINE, "TC227")]
    (d,) = found
    assert (d.span.column, d.span.end_line, d.span.end_column) == (12, CALL_LINE, 33)  # the whole call
    assert d.gb_type == "Data-dependent branching"
    assert "`solve` breaks the graph inside an installed library (solverlib.core, line 5)" in d.text()
    assert "branching on" in d.text()


def test_without_the_library_installed_the_call_is_unknown(tmp_path):
    _write(tmp_path, {"userpkg/__init__.py": "", "userpkg/model.py": USER})
    assert _lint(tmp_path, ["userpkg"]) == []


def test_a_library_linked_into_the_site_folder_is_read_where_the_link_leads(tmp_path):
    # site-packages entries may be links into another environment (a development install)
    _write(tmp_path / "elsewhere", LIBRARY)
    site = tmp_path / "site"
    _write(site, {"userpkg/__init__.py": "", "userpkg/model.py": USER})
    (site / "solverlib").symlink_to(tmp_path / "elsewhere" / "solverlib", target_is_directory=True)
    found = _lint(site, ["userpkg"])
    assert [(d.span.line, d.code) for d in found] == [(CALL_LINE, "TC227")]
    assert "(solverlib.core, line 5)" in found[0].text()


def test_a_function_its_package_binds_over_a_submodule_of_the_same_name(tmp_path):
    # As torchdiffeq's `from ._impl import odeint`: `deeplib._impl.solve` is a module, but the
    # package binds the function over it, and what that function calls is read in turn.
    _write(tmp_path, {
        "deeplib/__init__.py": "from deeplib._impl import solve\n",
        "deeplib/_impl/__init__.py": "from deeplib._impl.solve import solve\n",
        "deeplib/_impl/solve.py": "from deeplib._impl.checks import check\n\n\ndef solve(y0, t):\n"
                                  "    check(t)\n    return y0 * t[-1]\n",
        "deeplib/_impl/checks.py": "def check(t):\n    if (t[1:] <= t[:-1]).any():\n        raise ValueError(t)\n",
        "userpkg/__init__.py": "",
        "userpkg/model.py": "import torch\nfrom deeplib import solve\n\n\n@torch.compile\ndef run(y0, t):\n"
                            "    return solve(y0, t)\n"})
    found = _lint(tmp_path, ["userpkg"])
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", 7, "TC227")]
    assert "(deeplib._impl.checks, line 2)" in found[0].message


def test_a_function_passed_into_a_library_is_compiled_code_too(tmp_path):
    # The library calls the user's `rhs`, which calls into another library: read as well.
    _write(tmp_path, {**CALLBACK_LIBRARIES, "userpkg/__init__.py": "", "userpkg/model.py": CALLBACK_USER})
    found = _lint(tmp_path, ["userpkg"])
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", CALLBACK_LINE, "TC227")]
    assert "`norm` breaks the graph inside an installed library (mathlib, line 2)" in found[0].message


def test_a_library_function_stored_to_call_later_is_read(tmp_path):
    # torchcfm's `self.ot_fn = partial(pot.emd, ...)` in `__init__`, called in `get_map`.
    _write(tmp_path, {**LIBRARY, "userpkg/__init__.py": "", "userpkg/model.py": '''
        from functools import partial

        import torch

        import solverlib


        class Sampler:
            def __init__(self, scale=1.0):
                self.solve_fn = partial(solverlib.solve)

            @torch.compile
            def plan(self, y0, t):
                return self.solve_fn(y0, t)
        '''})
    found = _lint(tmp_path, ["userpkg"])
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", 14, "TC227")]
    assert "`solve` breaks the graph inside an installed library (solverlib.core, line 5)" in found[0].message


def test_a_method_a_subclass_inherits_from_a_library_base(tmp_path):
    # `self(x)` in `Model` runs, for a SingleTaskGP, the `__call__` of its library base; the
    # acquisition's `self.model` holds a Model (or a subclass), as its annotation says.
    _write(tmp_path, {**MIXIN_LIBRARIES, "userpkg/__init__.py": "", "userpkg/model.py": MIXIN_USER})
    found = _lint(tmp_path, ["userpkg"])
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", MIXIN_LINE, "TC227")]
    assert "`ExactGP.__call__` breaks the graph inside an installed library (gplib.exact, line 6)" in found[0].message


def test_the_break_named_is_one_that_runs_in_inference_too(tmp_path):
    # The nearest break in the library's forward runs only in training; the message names the
    # one a model compiled after `.eval()` meets.
    _write(tmp_path, {
        "netlib/__init__.py": "import torch\n\n\nclass Net(torch.nn.Module):\n    def forward(self, x):\n"
                              "        if self.training:\n            print('training')\n        return check(x)\n\n\n"
                              "def check(x):\n    if (x > 0).any():\n        return x\n    return -x\n",
        "userpkg/__init__.py": "",
        "userpkg/model.py": "import torch\nimport netlib\n\n\nclass Model(netlib.Net):\n    @torch.compile\n"
                            "    def run(self, x):\n        return self(x)\n"})
    (d,) = _lint(tmp_path, ["userpkg"])
    assert (Path(d.path).name, d.span.line, d.code) == ("model.py", 8, "TC227")
    assert "(netlib, line 12)" in d.message
    assert "1 more break" in d.text()


def test_a_library_installed_after_a_cached_run_is_read(tmp_path):
    # The linted files did not change, but what is installed beside them did: the last run's
    # findings no longer hold.
    _write(tmp_path, {"userpkg/__init__.py": "", "userpkg/model.py": USER})
    assert _lint(tmp_path, ["userpkg"], use_cache=True) == []
    _write(tmp_path, LIBRARY)
    assert [d.code for d in _lint(tmp_path, ["userpkg"], use_cache=True)] == ["TC227"]


def test_a_file_beside_the_linted_package_keeps_the_cached_run(tmp_path, monkeypatch):
    _write(tmp_path, {**LIBRARY, "userpkg/__init__.py": "", "userpkg/model.py": USER})
    assert [d.code for d in _lint(tmp_path, ["userpkg"], use_cache=True)] == ["TC227"]
    (tmp_path / ".model.py.swp").write_text("")  # an editor's, not a library
    monkeypatch.setattr(project, "_summaries", None)  # a cached run reads no summary
    assert [d.code for d in _lint(tmp_path, ["userpkg"], use_cache=True)] == ["TC227"]


def test_a_library_is_never_linted_as_the_project(tmp_path):
    # Linting the library itself reports its own lines as usual (it is the project then).
    _write(tmp_path, {**LIBRARY, "userpkg/__init__.py": "", "userpkg/model.py": USER})
    found = {(Path(d.path).name, d.span.line, d.code) for d in _lint(tmp_path, ["solverlib", "userpkg"])}
    assert ("core.py", 5, "TC101") in found
    assert not any(code == "TC227" for _, _, code in found)


@pytest.mark.dynamo
@pytest.mark.parametrize("libraries, user, call, line", [
    (LIBRARY, USER, "run(torch.ones(2), torch.tensor([0.0, 1.0]))", CALL_LINE),
    (CALLBACK_LIBRARIES, CALLBACK_USER, "run(torch.ones(2))", CALLBACK_LINE),
    (MIXIN_LIBRARIES, MIXIN_USER, "run(torch.ones(2))", MIXIN_LINE),
], ids=["call", "callback", "inherited from a library base"])
def test_dynamo_breaks_inside_the_library_on_that_call(tmp_path, libraries, user, call, line):
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    _write(tmp_path, libraries)
    # The snippet's own folder too: Dynamo imports the module of a function a library calls back.
    source = (f"import os, sys\nsys.path[:0] = [{str(tmp_path)!r}, os.path.dirname(__file__)]\n"
              + textwrap.dedent(user).lstrip("\n"))
    case = {"id": "library", "source": source, "call": call}
    result = ask([case], timeout=300)["library"]
    assert result["error"] is None
    # The two lines put in front of the snippet shift it down by 2. The library's frames,
    # traced on their own after that break, break again with no snippet line on their stack.
    at_snippet = {(gb, at - 2) for gb, at in result["breaks"] if at is not None}
    assert at_snippet == {("Data-dependent branching", line)}


def test_a_library_call_into_its_compiled_extension_module(tmp_path):
    # As PyWavelets: the package star-imports its Python module, whose function calls a name
    # that only a compiled (Cython) module defines. Dynamo cannot trace into it ("Unsupported
    # method call", checked on pywt.dwt_coeff_len), so the user's call breaks. Reading a
    # constant from the binary does not.
    _write(tmp_path, {
        "wavelib/__init__.py": "from ._dwt import *\n",
        "wavelib/_dwt.py": "from ._ext import Modes, coeff_len as _coeff_len\n\n__all__ = ['coeff_len', 'SYM']\n"
                           "SYM = Modes.symmetric\n\n\ndef coeff_len(n, k, mode):\n"
                           "    return _coeff_len(n, k, Modes.from_object(mode))\n",
        "userpkg/__init__.py": "",
        "userpkg/model.py": "import torch\nimport wavelib\n\n\n@torch.compile\ndef run(x):\n"
                            "    n = wavelib.coeff_len(x.shape[-1], 4, mode='symmetric')\n    return x[..., :n]\n"})
    (tmp_path / "wavelib" / "_ext.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF __pyx_module_is_main")
    found = _lint(tmp_path, ["userpkg"])
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", 7, "TC227")]
    assert found[0].gb_type == "Unsupported method call"
    assert "comes from `wavelib._ext`, a compiled extension module" in found[0].text()
    # A sibling the package does not star-import binds nothing there (the call would fail).
    (tmp_path / "wavelib" / "__init__.py").write_text("from ._other import *\n")
    assert _lint(tmp_path, ["userpkg"]) == []
    (tmp_path / "wavelib" / "__init__.py").write_text("from wavelib._dwt import *\n")
    assert [d.code for d in _lint(tmp_path, ["userpkg"])] == ["TC227"]
    (tmp_path / "wavelib" / "_ext.cpython-311-x86_64-linux-gnu.so").unlink()
    (tmp_path / "wavelib" / "_ext.py").write_text("class Modes:\n    symmetric = 1\n\n    @staticmethod\n"
                                                  "    def from_object(m):\n        return 1\n\n\n"
                                                  "def coeff_len(n, k, m):\n    return n // 2\n")
    assert _lint(tmp_path, ["userpkg"]) == []  # Python source: traced
