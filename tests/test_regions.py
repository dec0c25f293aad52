"""Which code counts as compiled: roots in every spelling, calls followed across files."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

ITEM_HELPER = "def helper(x):\n    return x.sum().item()\n"


def lint_tree(tmp_path: Path, files: dict[str, str], **settings):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    result = lint_paths([tmp_path], Settings(**settings), jobs=1, use_cache=False)
    return [(Path(d.path).name, d.line, d.code) for d in result.diagnostics], result.diagnostics


def test_uncompiled_function_is_not_flagged(tmp_path):
    found, _ = lint_tree(tmp_path, {"a.py": "import torch\n" + ITEM_HELPER})
    assert found == []


def test_decorator_spellings(tmp_path):
    found, _ = lint_tree(tmp_path, {
        "a.py": "import torch as t\n@t.compile\ndef f(x):\n    return x.sum().item()\n",
        "b.py": "from torch import compile\n@compile(mode='max-autotune')\ndef f(x):\n    return x.sum().item()\n",
        "c.py": "import torch\n@torch.compile()\ndef f(x):\n    return x.sum().item()\n",
    })
    assert found == [("a.py", 4, "TC102"), ("b.py", 4, "TC102"), ("c.py", 4, "TC102")]


def test_torch_compile_call_on_function_and_helper_in_other_file(tmp_path):
    found, diags = lint_tree(tmp_path, {
        "helpers.py": "import torch\n" + ITEM_HELPER,
        "train.py": """
            import torch
            from helpers import helper

            def step(x):
                return helper(x * 2)

            fast_step = torch.compile(step)
        """,
    })
    assert found == [("helpers.py", 3, "TC102")]
    assert "reached from step: compiled at" in diags[0].text() and "train.py:8" in diags[0].text()
    assert [s.label for s in diags[0].chain][1:] == ["calls helper"]


def test_package_imports_and_reexports(tmp_path):
    found, _ = lint_tree(tmp_path, {
        "pkg/__init__.py": "from .ops import helper\n",
        "pkg/ops.py": "import torch\n" + ITEM_HELPER,
        "pkg/model.py": """
            import torch
            from . import helper as h2
            from pkg import helper

            @torch.compile
            def f(x):
                return helper(x) + h2(x)
        """,
    })
    assert found == [("ops.py", 3, "TC102")]


def test_names_a_package_star_imports_are_followed_as_its_modules_export_them(tmp_path):
    """`from .sub import *` binds what `sub` lists in `__all__`, or without one its names
    that do not start with `_`; the last star import that binds a name wins."""
    found, _ = lint_tree(tmp_path, {
        "pkg/__init__.py": "from .listed import *\nfrom .public import *\n",
        "pkg/listed.py": "import torch\n__all__ = ['exported']\n\n"
                         "def exported(x):\n    return x.sum().item()\n\n"
                         "def unlisted(x):\n    return x.sum().item()\n",
        "pkg/public.py": "import torch\n\ndef shown(x):\n    return x.tolist()\n\n"
                         "def _hidden(x):\n    return x.tolist()\n",
        "pkg/model.py": """
            import torch
            import pkg

            @torch.compile
            def f(x):
                return pkg.exported(x) + pkg.unlisted(x) + pkg.shown(x) + pkg._hidden(x)
        """,
    })
    assert found == [("listed.py", 5, "TC102"), ("public.py", 4, "TC104")]


def test_a_name_an_all_leaves_out_is_bound_by_an_earlier_star_import(tmp_path):
    """The later star import wins only for the names it binds: `fast` defines `step` but its
    `__all__` leaves it out, so `pkg.step` is `slow.step`."""
    found, _ = lint_tree(tmp_path, {
        "pkg/__init__.py": "from .slow import *\nfrom .fast import *\n",
        "pkg/slow.py": "import torch\n\ndef step(x):\n    return x.sum().item()\n",
        "pkg/fast.py": "import torch\n__all__ = ['other']\n\ndef step(x):\n    return x * 2\n\n"
                       "def other(x):\n    return x * 2\n",
        "pkg/model.py": """
            import torch
            from pkg import step

            @torch.compile
            def f(x):
                return step(x)
        """,
    })
    assert found == [("slow.py", 4, "TC102")]


def test_a_star_re_export_two_levels_deep_is_followed_to_its_definition(tmp_path):
    """`pkg` star-imports `pkg.layers`, which star-imports `pkg.layers.conv`: `pkg.deep` is
    conv's `deep`, listed in its `__all__` and re-exported by a package without one."""
    found, _ = lint_tree(tmp_path, {
        "pkg/__init__.py": "from .layers import *\n",
        "pkg/layers/__init__.py": "from .conv import *\n",
        "pkg/layers/conv.py": "import torch\n__all__ = ['deep']\n\ndef deep(x):\n    return x.sum().item()\n",
        "pkg/model.py": """
            import torch
            import pkg

            @torch.compile
            def f(x):
                return pkg.deep(x)
        """,
    })
    assert found == [("conv.py", 5, "TC102")]


def test_modules_that_star_import_each_other_bind_each_others_names(tmp_path):
    """`a` and `b` star-import each other: each binds the other's names (a cycle of star
    imports settles, it does not recurse)."""
    found, _ = lint_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import torch\nfrom pkg.b import *\n\ndef from_a(x):\n    return x.sum().item()\n",
        "pkg/b.py": "import torch\nfrom pkg.a import *\n\ndef from_b(x):\n    return x.tolist()\n",
        "pkg/model.py": """
            import torch
            import pkg.a
            import pkg.b

            @torch.compile
            def f(x):
                return pkg.a.from_b(x) + pkg.b.from_a(x)
        """,
    })
    assert found == [("a.py", 5, "TC102"), ("b.py", 5, "TC104")]


def test_packages_that_star_import_each_other_are_searched_once_per_name(tmp_path, monkeypatch):
    """Six modules that each star-import all six: a name none defines is one lookup in a table
    built once, not a search along every chain of star imports (six to the eighth power)."""
    from tclint.analyzer.regions import ProjectIndex

    stars = "".join(f"from pkg.m{i} import *\n" for i in range(6))
    files = {"pkg/__init__.py": stars, **{f"pkg/m{i}.py": stars for i in range(6)}, "pkg/model.py": """
        import torch
        from pkg.m0 import missing

        @torch.compile
        def f(x):
            return missing(x)
    """}
    looked_up = []
    resolve = ProjectIndex.resolve_dotted
    monkeypatch.setattr(ProjectIndex, "resolve_dotted",
                        lambda self, dotted, depth=0: looked_up.append(dotted) or resolve(self, dotted, depth))
    found, _ = lint_tree(tmp_path, files)
    assert found == [] and len(looked_up) < 10


def test_module_forward_roots_and_inheritance(tmp_path):
    files = {"m.py": """
        import torch
        import torch.nn as nn

        class Base(nn.Module):
            def forward(self, x):
                return self.post(x)

            def post(self, x):
                return x.sum().item()

        class Child(Base):
            def forward(self, x):
                return super().forward(x) * 2

        class Plain:
            def forward(self, x):
                return x.sum().item()
    """}
    found, _ = lint_tree(tmp_path, files)
    assert found == [("m.py", 10, "TC102")]


def test_assume_forward_compiled_off_uses_compile_sites(tmp_path):
    files = {
        "m.py": """
            import torch.nn as nn

            class Used(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.inner = Inner()

                def forward(self, x):
                    return self.inner(x)

            class Inner(nn.Module):
                def forward(self, x):
                    return x.sum().item()

            class Unused(nn.Module):
                def forward(self, x):
                    return x.sum().item()
        """,
        "run.py": """
            import torch
            from m import Used

            model = Used()
            model.compile()
        """,
    }
    found, _ = lint_tree(tmp_path, files, assume_forward_compiled=False)
    assert found == [("m.py", 14, "TC102")]
    found, _ = lint_tree(tmp_path, files, assume_forward_compiled=True)
    assert found == [("m.py", 14, "TC102"), ("m.py", 18, "TC102")]


def test_compile_of_instances_in_a_loop(tmp_path):
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch
        import torch.nn as nn

        class A(nn.Module):
            def forward(self, x):
                return x.sum().item()

        class B(nn.Module):
            def forward(self, x):
                return x

        compiled = [torch.compile(m) for m in (A(), B())]
    """}, assume_forward_compiled=False)
    assert found == [("m.py", 7, "TC102")]


def test_configured_roots(tmp_path):
    found, _ = lint_tree(tmp_path, {"pkg/__init__.py": "", "pkg/mod.py": """
        class Engine:
            def step(self, x):
                return x.sum().item()
    """}, roots=("pkg.mod:Engine.step",))
    assert found == [("mod.py", 4, "TC102")]


def test_disabled_functions_are_not_traced_but_calls_are_reported(tmp_path):
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch

        @torch.compiler.disable
        def log(x):
            return x.sum().item()

        @torch.compile
        def f(x):
            log(x)
            return x
    """})
    assert found == [("m.py", 10, "TC210")]


def test_forward_hooks_are_roots(tmp_path):
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch.nn as nn

        def hook(module, inputs, output):
            return output.sum().item()

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(2, 2)
                self.lin.register_forward_hook(hook)

            def forward(self, x):
                return self.lin(x)
    """})
    assert found == [("m.py", 5, "TC102")]


def test_tensor_returning_helper_makes_branch_a_finding(tmp_path):
    found, diags = lint_tree(tmp_path, {
        "checks.py": """
            def has_negative(x):
                return (x < 0).any()

            def same_shape(a, b):
                return a.shape == b.shape
        """,
        "m.py": """
            import torch
            from checks import has_negative, same_shape

            @torch.compile
            def f(x, y):
                if same_shape(x, y):
                    x = x + y
                if has_negative(x):
                    x = x.abs()
                return x
        """,
    })
    assert found == [("m.py", 9, "TC101")]


def test_recursion_terminates(tmp_path):
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch

        def a(x):
            return b(x)

        def b(x):
            return a(x)

        @torch.compile
        def f(x):
            if a(x):
                return x
            return x
    """})
    assert found == []


def test_code_guarded_by_is_compiling_is_eager_only(tmp_path):
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch

        def report(x):
            print(x.sum().item())

        @torch.compile
        def f(x):
            if not torch.compiler.is_compiling():
                report(x)
                x.sum().item()
            if torch.compiler.is_compiling():
                return x * 2
            return x.sum().item()
    """})
    assert found == []


def test_virtual_self_calls_and_methods_by_name(tmp_path):
    found, _ = lint_tree(tmp_path, {"solvers.py": """
        import torch

        class Solver:
            def integrate(self, t):
                return self._advance(t)

        class Adaptive(Solver):
            def _advance(self, t):
                while t.sum() > 1:
                    t = t / 2
                return t

        def make(name):
            return {"adaptive": Adaptive}[name]()

        @torch.compile
        def odeint(t):
            solver = make("adaptive")
            return solver.integrate(t)
    """})
    assert found == [("solvers.py", 10, "TC101")]


def test_isinstance_proves_a_python_value(tmp_path):
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch

        @torch.compile
        def f(x, keep):  # an un-annotated input: a tensor unless proven otherwise
            if isinstance(keep, int):
                if keep > 0:
                    return x[:keep]
            if keep.sum() > 0:
                return x
            return -x
    """})
    assert found == [("m.py", 9, "TC101")]


def test_autograd_function_forward_runs_where_apply_is_called(tmp_path):
    # Dynamo traces a custom Function's forward (torch 2.13: the `.item()` breaks there).
    found, _ = lint_tree(tmp_path, {
        "ops.py": """
            import torch

            class Scale(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * x.sum().item()

                @staticmethod
                def backward(ctx, grad):
                    return grad

            class Unused(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * x.max().item()

            scale = Scale.apply
        """,
        "model.py": """
            import torch
            from ops import scale

            @torch.compile
            def f(x):
                return scale(x)
        """,
    })
    assert found == [("ops.py", 7, "TC102")]


def test_method_stored_in_an_attribute_is_followed(tmp_path):
    # torchdiffeq: `self.grid_constructor = self._grid_from_step_size`, called in forward.
    found, _ = lint_tree(tmp_path, {"solver.py": """
        import torch
        from torch import nn

        class Solver(nn.Module):
            def __init__(self, step_size):
                super().__init__()
                self.step_size = step_size
                self.grid_constructor = self._grid_from_step_size

            def _grid_from_step_size(self, t):
                niters = torch.ceil((t[-1] - t[0]) / self.step_size + 1).item()
                return torch.arange(0, niters) * self.step_size

            def forward(self, t):
                return self.grid_constructor(t)
    """})
    assert found == [("solver.py", 12, "TC102")]


HELPER_BRANCH = """
    import torch

    def next_step(step, error_ratio, safety=0.9):
        if error_ratio == 0:
            return step * 10
        return step * safety
"""


def test_helper_parameter_is_a_tensor_where_a_compiled_caller_passes_one(tmp_path):
    found, diags = lint_tree(tmp_path, {"misc.py": HELPER_BRANCH, "solver.py": """
        import torch
        from misc import next_step

        @torch.compile
        def advance(step, err):
            return next_step(step, err.abs().max())
    """})
    assert found == [("misc.py", 5, "TC101")]
    assert "(`advance` passes a tensor as `error_ratio`)" in diags[0].text()


def test_helper_parameter_given_numbers_or_called_eagerly_is_not(tmp_path):
    found, _ = lint_tree(tmp_path, {"misc.py": HELPER_BRANCH, "solver.py": """
        import torch
        from misc import next_step

        @torch.compile
        def advance(step, err):
            return next_step(step, 0.5) * err

        def report(err):
            return next_step(1.0, err.abs().max())  # eager code: no graph to break
    """})
    assert found == []


def test_tensors_are_followed_through_helpers_and_keywords(tmp_path):
    found, _ = lint_tree(tmp_path, {"misc.py": HELPER_BRANCH + """
    def checked_step(step, *, ratio):
        return next_step(step, error_ratio=ratio)
    """, "solver.py": """
        import torch
        from misc import checked_step

        @torch.compile
        def advance(step, err):
            return checked_step(step, ratio=(err ** 2).mean())
    """})
    assert found == [("misc.py", 5, "TC101")]


def test_helper_returning_a_tensor_only_for_a_tensor_argument_is_not_a_tensor_source(tmp_path):
    # timm's get_same_padding: tensors in, tensor out; ints from x.size() in, int out.
    found, _ = lint_tree(tmp_path, {"pad.py": """
        import math
        import torch
        import torch.nn.functional as F

        def same_padding(x: int, k: int, s: int):
            if isinstance(x, torch.Tensor):
                return torch.clamp(((x / s).ceil() - 1) * s + k - x, min=0)
            return max((math.ceil(x / s) - 1) * s + k - x, 0)

        @torch.compile
        def pad_same(x, k: int, s: int):
            ih = x.size(-1)
            pad = same_padding(ih, k, s)
            return F.pad(x, (pad // 2, pad - pad // 2))
    """})
    assert found == []


def test_inputs_of_a_configured_root_are_tensors_in_its_helpers(tmp_path):
    found, diags = lint_tree(tmp_path, {"pkg/__init__.py": "", "pkg/solve.py": """
        def _check(t, method):
            if t[0] > t[1]:
                t = -t
            if method > 1:
                pass
            return t

        def solve(func, t, method=None):
            return _check(t, method)
    """}, roots=("pkg.solve:solve",))
    assert found == [("solve.py", 3, "TC101")]
    assert "(`solve` passes a tensor as `t`)" in diags[0].text()


def test_an_am_i_compiling_wrapper_is_known_by_what_it_returns(tmp_path):
    found, _ = lint_tree(tmp_path, {
        "util.py": """
            import torch

            def under_compile():
                try:
                    return torch.compiler.is_compiling()
                except ImportError:
                    return False

            def tracing(x=None):
                active = under_compile() or torch.jit.is_tracing()
                if x is not None:
                    active |= False
                return active

            def is_compiling():
                return False
        """,
        "model.py": """
            import torch
            from util import under_compile, tracing, is_compiling

            @torch.compile
            def f(x):
                if not under_compile() and x.sum() > 0:
                    x = x + x.sum().item()
                if tracing(x):
                    y = x
                else:
                    y = x.sum().item()
                if is_compiling():
                    return y
                return x.max().item()
        """,
    })
    assert found == [("model.py", 15, "TC102")]


def test_arguments_of_apply_reach_forward_after_ctx_with_their_own_kinds(tmp_path):
    found, _ = lint_tree(tmp_path, {"ops.py": """
        import torch

        class Matern(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, scale, nu):
                if nu == 0.5:
                    return x * scale
                if (scale > 1).any():
                    return x
                return x * 2

        class Kernel(torch.nn.Module):
            def __init__(self, nu=0.5):
                super().__init__()
                self.nu = nu

            def forward(self, x):
                return Matern.apply(x, x.std(), self.nu)
    """})
    assert found == [("ops.py", 9, "TC101")]


def test_a_reexport_from_an_unlinted_package_init_finds_the_one_definition(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/utils/__init__.py": "from .loop import drop_loops\n",
        "pkg/utils/loop.py": ITEM_HELPER.replace("helper", "drop_loops"),
        "pkg/model.py": """
            import torch
            from pkg.utils import drop_loops

            @torch.compile
            def f(x):
                return drop_loops(x)
        """,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    linted = [tmp_path / "pkg/utils/loop.py", tmp_path / "pkg/model.py"]
    result = lint_paths(linted, Settings(), jobs=1, use_cache=False)
    assert [(Path(d.path).name, d.line, d.code) for d in result.diagnostics] == [("loop.py", 2, "TC102")]


def test_self_is_a_module_only_where_the_class_bases_in_other_files_say_so(tmp_path):
    """`copy.deepcopy(self)` breaks in an nn.Module (its parameters are tensors) and is traced
    in a config object, whose class tclint knows only from bases in other files."""
    found, diags = lint_tree(tmp_path, {
        "bases.py": """
            import torch.nn as nn
            class Layer(nn.Module):
                pass
            class Mixin:
                pass
        """,
        "model.py": """
            import copy
            import torch
            from bases import Layer, Mixin
            class Config(Mixin):
                def frozen(self):
                    return copy.deepcopy(self)
            class Block(Layer):
                def twin(self):
                    return copy.deepcopy(self)
            @torch.compile
            def f(x, cfg: Config, block: Block):
                cfg.frozen()
                block.twin()
                return x
        """,
    })
    assert found == [("model.py", 10, "TC207")]
    assert "Block" in diags[0].text()


def test_an_annotation_aliasing_torch_tensor_in_another_file_is_a_tensor(tmp_path):
    """`Tensor = torch.Tensor` in the package's types module (torchsde's spelling); Dynamo
    (torch 2.13) breaks on the loop test. An alias of something else is not a tensor, and
    an attribute of a tensor the caller passes (`t.is_sorted`) is not one either."""
    found, diags = lint_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/types.py": "import torch\nTensor = torch.Tensor\nScalar = float\n",
        "pkg/solve.py": """
            import torch
            from .types import Scalar, Tensor

            @torch.compile
            def integrate(ts: Tensor, dt: Scalar):
                t = ts[0]
                while t < ts[-1]:
                    t = t + dt
                if dt > 0:
                    t = t * 2
                return helper(ts)

            def helper(t):
                if t.is_sorted:
                    return t
                return -t
        """,
    })
    assert found == [("solve.py", 8, "TC101")]
    assert "`pkg.types.Tensor` is torch.Tensor" in diags[0].text()


def test_a_helper_parameter_with_a_literal_default_is_what_its_callers_pass(tmp_path):
    """torchsde's `BrownianInterval(t0=ts[0])` against `t0: float = 0.`: Dynamo (torch 2.13)
    breaks on the comparison when a tensor comes in; given a number, or left to its
    default, the parameter is a Python value."""
    found, _ = lint_tree(tmp_path, {"a.py": """
        import torch

        def check(t0: float = 0.0, t1: float = 1.0):
            if t0 > t1:
                raise ValueError("t0 > t1")
            return t1 - t0

        @torch.compile
        def f(ts):
            return ts * check(t0=ts[0], t1=ts[-1])

        @torch.compile
        def g(x):
            return x * check(t1=2.0)

        def limits(lo: float = 0.0, hi: float = 1.0):
            if lo > hi:
                raise ValueError("lo > hi")
            return hi - lo

        @torch.compile
        def h(x):
            return x * limits(0.5) * limits()
    """})
    assert found == [("a.py", 5, "TC101")]


def test_what_subclasses_in_other_files_store_in_an_attribute_is_read_where_the_base_uses_it(tmp_path):
    """torchdiffeq's spelling: the base class steps with `self.tableau`, a record whose
    tensors a subclass in another file sets as a class constant; another subclass makes
    `scale` a property that returns a tensor. Dynamo (torch 2.13, the same code in one file)
    breaks on both branches; a subclass storing a float in `scale` breaks neither."""
    found, diags = lint_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/solver.py": """
            import collections
            import torch

            Tableau = collections.namedtuple("Tableau", "alpha, beta")


            def step(x, tableau):
                for alpha_i in tableau.alpha:
                    if alpha_i == 1.0:
                        x = x + 1
                return x


            class Solver:
                tableau: Tableau

                def __init__(self, x):
                    self.tableau = Tableau(alpha=self.tableau.alpha.to(x.dtype), beta=self.tableau.beta)

                def advance(self, x):
                    if self.scale > 1:
                        x = x * 2
                    return step(x, tableau=self.tableau)


            @torch.compile
            def run(x, solver: Solver):
                return solver.advance(x)
        """,
        "pkg/euler.py": """
            import torch
            from .solver import Solver, Tableau

            TABLEAU = Tableau(alpha=torch.tensor([0.5, 1.0]), beta=[0.5])


            class Euler(Solver):
                tableau = TABLEAU
                scale = 2.0
        """,
    })
    assert found == [("solver.py", 10, "TC101")]
    assert "`Solver.advance` passes a tensor as `tableau.alpha`" in diags[0].text()
    found, diags = lint_tree(tmp_path, {"pkg/heun.py": """
        import torch
        from .solver import Solver


        class Heun(Solver):
            @property
            def scale(self):
                return torch.ones(())
    """})
    assert found == [("solver.py", 10, "TC101"), ("solver.py", 22, "TC101")]
    assert "(`Heun.scale` returns a tensor from the property `scale`)" in diags[1].text()


def test_the_caller_a_message_names_does_not_depend_on_hashing(tmp_path):
    """Several compiled callers pass the tensor: the message names the same one on every run
    (set order changes with PYTHONHASHSEED; output must not)."""
    callers = "".join(f"\n@torch.compile\ndef caller_{i}(x):\n    return helper(x * {i})\n" for i in range(8))
    (tmp_path / "m.py").write_text(f"import torch\n\n\ndef helper(t):\n    if t > 0:\n        return t\n    return -t\n{callers}")
    outputs = set()
    for seed in ("1", "2", "3", "4", "5"):
        proc = subprocess.run([sys.executable, "-m", "tclint.analyzer", "--no-cache", "m.py"], cwd=tmp_path, text=True,
                              capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})
        outputs.add(proc.stdout)
    assert len(outputs) == 1 and "passes a tensor as `t`" in outputs.pop()


def test_default_filled_in_only_when_not_compiling_is_decided_by_the_predicate_in_another_file(tmp_path):
    """TC239 holds only where the guard's function is an "am I compiling" predicate, known from
    its body in another file; a guard on anything else leaves the parameter filled in."""
    model = """
        import torch
        from utils import {guard}

        @torch.compile
        def f(x, mask=None):
            if mask is None and not {guard}():
                mask = torch.ones(3)
            return x * mask[None]
    """
    utils = """
        import os
        import torch

        def is_tracing():
            return torch.compiler.is_compiling()

        def offline():
            return os.environ.get("OFFLINE") == "1"
    """
    found, diags = lint_tree(tmp_path / "a", {"model.py": model.format(guard="is_tracing"), "utils.py": utils})
    assert found == [("model.py", 9, "TC239")]
    assert diags[0].because == "`is_tracing` returns True while Dynamo traces"
    found, _ = lint_tree(tmp_path / "b", {"model.py": model.format(guard="offline"), "utils.py": utils})
    assert found == []


def test_a_field_or_keyword_of_the_same_name_is_no_use_of_the_default_filled_in_only_when_not_compiling(tmp_path):
    """`attn.mask` and `scale(x, mask=x)` before `mask[None]` neither read nor bind `mask`."""
    found, _ = lint_tree(tmp_path, {"m.py": """
        import torch

        def scale(x, mask):
            return x * mask

        @torch.compile
        def f(x, attn, mask=None):
            if mask is None and not torch.compiler.is_compiling():
                mask = torch.ones(3)
            y = scale(x, mask=x) + attn.mask
            return y * mask[None]
    """})
    assert found == [("m.py", 12, "TC239")]


def test_an_arm_every_compiled_caller_leaves_off_is_known_so_after_the_walk_asked_about_it(tmp_path):
    # The walk asks whether `if obj:` is traced before the compiled region is known (then it
    # cannot say, and follows `helper`); the findings asked after it must not get that answer.
    found, _ = lint_tree(tmp_path, {"a.py": textwrap.dedent("""\
        import torch


        def step(x, obj=None):
            if obj:
                x.sum().item()
                helper(x)
            return x


        def run(x):
            return step(x)


        compiled = torch.compile(run)
        """) + ITEM_HELPER})
    assert ("a.py", 6, "TC102") not in found
    assert ("a.py", 17, "TC102") in found  # the helper the walk followed
