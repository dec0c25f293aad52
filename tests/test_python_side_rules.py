"""Behaviour of the TC103-TC304 rules beyond their VALID/INVALID examples."""
from __future__ import annotations

import textwrap

from tclint.analyzer import api
from tclint.analyzer.config import Settings
from tclint.analyzer.dynamo_settings import DynamoSettings


def _codes(code: str, settings: Settings | None = None) -> list[tuple[str, int]]:
    diags = api.lint_source(textwrap.dedent(code), path="snippet.py", settings=settings)
    return sorted((d.code, d.span.line) for d in diags)


def test_eager_only_code_is_not_flagged():
    found = _codes("""
        import logging
        import torch
        logger = logging.getLogger(__name__)
        @torch.compile
        def f(x):
            if not torch.compiler.is_compiling():
                print("eager")
                logger.info("eager")
            if torch._dynamo.is_compiling():
                y = x
            else:
                print("eager too")
            return x
        @torch.compile
        def g(x):
            if torch.compiler.is_compiling():
                return x
            print("never traced")
            return x
        @torch.compile
        def h(x):
            print("traced")
            return x
    """)
    assert found == [("TC201", 23)]


def test_logger_objects_are_recognised():
    found = _codes("""
        import logging
        import torch
        import torch.nn as nn
        _l = logging.getLogger("a")
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.lg = logging.getLogger("m")
            def forward(self, x, log_probs):
                _l.info("a")
                self.lg.debug("b")
                local = logging.getLogger("c")
                local.warning("c")
                logging.getLogger("d").error("d")
                log = x.log()
                return log + log_probs.log()
    """)
    assert found == [("TC206", 11), ("TC206", 12), ("TC206", 14), ("TC206", 15)]


def test_capture_flags_disable_the_rules_they_make_traceable():
    code = """
        import torch
        @torch.compile
        def f(x, lengths: torch.Tensor):
            n = int(lengths[0])
            y = x[:, :lengths.max()]
            idx = torch.nonzero(x > 0)
            z = x[x > 0]
            return y, idx, z, n, 2 in lengths
    """
    assert {c for c, _ in _codes(code)} == {"TC103", "TC108", "TC301", "TC302", "TC105"}
    scalars = Settings(dynamo=DynamoSettings(capture_scalar_outputs=True))
    assert {c for c, _ in _codes(code, scalars)} == {"TC301", "TC302"}
    shapes = Settings(dynamo=DynamoSettings(capture_dynamic_output_shape_ops=True))
    assert {c for c, _ in _codes(code, shapes)} == {"TC103", "TC108", "TC105"}


def test_print_rule_is_off_when_print_is_reorderable():
    code = """
        import torch
        @torch.compile
        def f(x):
            print(x.shape)
            return x
    """
    settings = Settings(dynamo=DynamoSettings(reorderable_logging_functions=frozenset({"builtins.print"})))
    assert _codes(code) == [("TC201", 5)]
    assert _codes(code, settings) == []


def test_boolean_mask_store_is_clean_and_read_is_flagged():
    found = _codes("""
        import torch
        @torch.compile
        def f(x, key_mask, ratio):
            y = x.clone()
            y[y > 0] = 0
            y[key_mask] = y[key_mask] * 2
            keep = x > 1
            y[keep] = y[keep] * 2
            return y[ratio]
    """)
    # an input is not a mask by its name (`key_mask` may hold indices); a comparison is one
    assert found == [("TC302", 9)]


def test_requires_grad_only_flagged_when_it_leaves_the_graph():
    found = _codes("""
        import torch
        @torch.compile
        def used_inside(x):
            y = (x * 2).requires_grad_()
            return (y * y).sum().detach()
        @torch.compile
        def returned(x):
            y = (x * 2).requires_grad_()
            z = y + 1
            return z
        def helper(x):
            return (x * 2).requires_grad_()
    """)
    assert found == [("TC214", 9)]


def test_sort_keys():
    found = _codes("""
        import torch
        @torch.compile
        def f(x):
            d = {"a": x, "b": x * 2}
            a = sorted(d)
            b = sorted(d.items(), key=lambda kv: kv[0])
            c = sorted(d.items(), key=lambda kv: kv[1])
            e = sorted(d.values())
            parts = []
            parts.append(x.sum())
            parts.sort()
            sizes = [x.shape[0], 3]
            sizes.sort()
            return a, b, c, e, parts, sizes
    """)
    assert found == [("TC216", 8), ("TC216", 9), ("TC216", 12)]


def test_module_in_forward_respects_affine_switches():
    found = _codes("""
        import torch
        import torch.nn as nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 3)
            def forward(self, x):
                a = nn.InstanceNorm1d(3)(x)
                b = nn.BatchNorm1d(3, affine=False)(x)
                c = nn.InstanceNorm1d(3, affine=True)(x)
                d = nn.GroupNorm(1, 3)(x)
                return a + b + c + d
    """)
    assert found == [("TC211", 11), ("TC211", 12)]


def test_untraceable_lookalikes_are_clean():
    assert _codes("""
        import copy
        import os
        import random
        import torch
        @torch.compile
        def f(x, cfg: dict):
            flag = os.getenv("A") or os.environ.get("B")
            path = os.path.join("a", "b")
            k = random.randint(1, 3) + random.uniform(0, 1)
            opts = copy.deepcopy(cfg)
            return x * k, flag, path, opts
    """) == []


def _apply(source: str, fix) -> str:
    lines = source.splitlines(keepends=True)
    (edit,) = fix.edits
    s = edit.span
    start = sum(len(l) for l in lines[: s.line - 1]) + s.column - 1
    end = sum(len(l) for l in lines[: s.end_line - 1]) + s.end_column - 1
    return source[:start] + edit.new_text + source[end:]


def test_print_and_logging_quick_fix_guards_the_call_and_clears_the_finding():
    from tclint.analyzer import api

    source = (
        "import logging\nimport torch\nlog = logging.getLogger(__name__)\n\n"
        "@torch.compile\ndef f(x):\n    y = x * 2\n    print('shape', y.shape)\n    log.info('done')\n    return y\n"
    )
    for code in ("TC201", "TC206"):
        diag = next(d for d in api.lint_source(source, path="fix.py") if d.code == code)
        assert diag.fix is not None and "is_compiling" in diag.fix.title
        fixed = _apply(source, diag.fix)
        compile(fixed, "fixed.py", "exec")
        assert code not in [d.code for d in api.lint_source(fixed, path="fix.py")]


def test_quick_fix_keeps_braces_in_the_guarded_code():
    from tclint.analyzer import api

    source = "import torch\n\n@torch.compile\ndef f(x, d):\n    print(f'{d} {{x}}')\n    return x\n"
    (diag,) = api.lint_source(source, path="braces.py")
    assert diag.fix.edits[0].new_text == "if not torch.compiler.is_compiling():\n        print(f'{d} {{x}}')"
