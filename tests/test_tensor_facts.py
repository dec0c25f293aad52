"""What tclint takes for a tensor, seen through the findings it gives (or holds back)."""
from __future__ import annotations

import textwrap

from tclint.analyzer import api


def _found(code: str) -> list[tuple[str, int]]:
    diags = api.lint_source(textwrap.dedent(code), path="snippet.py")
    return sorted((d.code, d.span.line) for d in diags)


def test_tuples_from_modules_mix_tensors_and_sizes():
    assert _found("""
        import torch
        from torch import nn

        class Encoder(nn.Module):
            def __init__(self, embed):
                super().__init__()
                self.embed = embed

            def forward(self, x):
                x, height, width = self.embed(x)
                return x.reshape(-1, height, width) + torch.arange(width)
    """) == []


def test_tensors_split_by_torch_ops_stay_tensors():
    assert _found("""
        import torch

        @torch.compile
        def f(x):
            values, index = x.max(-1)
            lo, hi = torch.chunk(x, 2)
            return torch.arange(index.sum()), lo.sum().item()
    """) == [("TC102", 8), ("TC111", 8)]


def test_destructured_inputs_are_not_taken_for_tensors():
    assert _found("""
        import torch

        @torch.compile
        def f(x, shape):
            batch, _, height, width = shape
            return x.new_zeros(batch, height + 1, width)
    """) == []


def test_sizes_computed_from_inputs_are_numbers():
    assert _found("""
        import torch
        from torch import nn

        class Bias(nn.Module):
            def forward(self, table, window_size):
                height = 2 * window_size[0] - 1
                count = height * height + 3
                chunks = torch.div(count, 2, rounding_mode="trunc")
                return table.reshape(count - 3, -1), table.new_zeros(chunks)
    """) == []


def test_multi_dimensional_indexing_marks_a_tensor():
    assert _found("""
        import torch

        def first(x):
            return x[:, 0].max().item(), x[..., None].sum().item()

        @torch.compile
        def f(x, sizes: tuple[int, ...]):
            if sizes[0] > 2:
                x = x * 2
            return first(x)
    """) == [("TC102", 5), ("TC102", 5)]


def test_comparing_two_bare_inputs_is_not_taken_for_a_tensor_branch():
    # x-transformers' `forward(self, i, j)` gets sizes from `.shape`; `target != ignore`
    # on an input and a number is still a mask.
    assert _found("""
        import torch
        from torch import nn

        class RelPos(nn.Module):
            def forward(self, i, j):
                if i > j:
                    i = j
                return torch.arange(j - i, j)

        @torch.compile
        def masked(logits, target, ignore: int = -100):
            return logits[target != ignore]
    """) == [("TC302", 13)]


def test_buffers_are_tensors_not_modules():
    assert _found("""
        import torch
        from torch import nn

        class Table(nn.Module):
            def __init__(self):
                super().__init__()
                self.table = nn.Buffer(torch.zeros(10, 4))

            def forward(self, ids):
                return self.table[ids.argmax(-1)], self.table.sum().item()
    """) == [("TC102", 11)]


def test_code_that_only_runs_eagerly_under_compile_predicates_is_skipped():
    # transformers' `is_tracing(x)` / `is_torchdynamo_compiling()` wrap torch.compiler.is_compiling().
    assert _found("""
        import torch
        from transformers.utils.import_utils import is_tracing

        @torch.compile
        def f(x, mask):
            if not torch.compiler.is_compiling() and torch.all(mask == 1):
                return x
            if not is_tracing(mask) and torch.all(mask == 0):
                return -x
            if torch.jit.is_scripting() and (x > 0).any():
                return x
            if (x > 1).any():
                return x
            return x
    """) == [("TC101", 13)]


def test_an_input_read_by_string_key_is_a_dict_of_anything():
    assert _found("""
        import torch
        from torch import nn

        class Rope(nn.Module):
            def forward(self, cfg, freqs):
                return freqs[: cfg["num_frames"]], freqs[cfg["start"] :]
    """) == []


def test_fields_of_namedtuples_and_dataclasses_have_the_kinds_they_were_built_from():
    assert _found("""
        import collections
        import dataclasses
        import torch

        State = collections.namedtuple("State", "y, t0, t1")

        @dataclasses.dataclass
        class Span:
            lo: torch.Tensor
            steps: int

        class Solver(torch.nn.Module):
            def start(self, t):
                self.state = State(None, t[0], t[-1])

            def forward(self, x, t):
                self.start(t.float())
                if self.state.y is None and self.state.t0 > 0:
                    x = x + 1
                span = Span(x.min(), 3)
                if span.steps > 2:
                    x = x * 2
                if span.lo < 0:
                    x = -x
                y, t0, t1 = self.state
                while t1 > t0:
                    t1 = t1 - 1
                return x
    """) == [("TC101", 19), ("TC101", 24), ("TC101", 27)]


def test_a_flag_that_is_a_tensor_on_one_path_stays_one():
    assert _found("""
        import torch

        @torch.compile
        def f(x, limit: int):
            ok = x.norm() <= 1
            if limit > 3:
                ok = False
            if ok:
                x = x * 2
            return x
    """) == [("TC101", 9)]


def test_a_conversion_that_only_builds_an_exception_is_info():
    diags = api.lint_source(textwrap.dedent("""
        import torch

        @torch.compile
        def f(x):
            if x.shape[0] > 5:
                raise ValueError(f"bad total {x.sum().item()}")
            assert x.shape[0] > 1, f"bad total {x.sum().item()}"
            return x.sum().item()
    """), path="snippet.py")
    found = [(d.line, d.severity.value, d.building_exception) for d in diags]
    assert found == [(7, "info", True), (8, "info", True), (9, "warning", False)]


def test_an_arm_that_isinstance_tensor_rules_out_is_not_flagged():
    assert _found("""
        import torch

        @torch.compile
        def f(x, scale):
            if not isinstance(scale, torch.Tensor):
                if scale > 1:
                    x = x * 2
            else:
                if scale > 1:
                    x = x * 3
            y = x.sum()
            z = y if isinstance(y, torch.Tensor) else y.item()
            if isinstance(y, torch.Tensor):
                pass
            else:
                y = y.item()
            return x + z
    """) == [("TC101", 10)]


def test_a_branch_finding_says_where_the_tensor_came_from():
    diags = api.lint_source(textwrap.dedent("""
        import torch

        @torch.compile
        def f(x):
            peak = torch.amax(x)
            while peak > 1:
                peak = peak / 2
            return x * peak
    """), path="snippet.py")
    assert [d.message for d in diags if d.code == "TC101"] == [
        "branching on `peak > 1`, a tensor (`peak`, a tensor returned by `torch.amax`), breaks the graph"]


def test_a_tensor_rebound_on_one_path_to_an_unknown_stays_a_tensor():
    assert _found("""
        import torch
        from helpers import densify, is_sparse

        def drop_loops(edges: torch.Tensor):
            if is_sparse(edges):
                edges, values = densify(edges)
            keep = edges[0] != edges[1]
            return edges[:, keep]

        @torch.compile
        def f(edges):
            return drop_loops(edges)
    """) == [("TC302", 9)]


def test_an_input_that_isinstance_proves_a_tensor_is_one_in_that_arm():
    assert _found("""
        import torch
        from torch import Tensor
        from pkg.typing import Adj

        def drop_loops(edges):
            keep = edges[0] != edges[1]
            return edges[:, keep]

        class Conv(torch.nn.Module):
            def forward(self, x, edges: Adj):
                if isinstance(edges, Tensor):
                    edges = drop_loops(edges)
                return x
    """) == [("TC302", 8)]


def test_a_record_passed_to_a_helper_brings_the_kinds_of_its_fields():
    assert _found("""
        import collections
        import torch

        Tableau = collections.namedtuple("Tableau", "alpha, beta")

        def step(x, tableau):
            for i, (alpha_i, beta_i) in enumerate(zip(tableau.alpha, tableau.beta)):
                if alpha_i == 1.0:
                    x = x + 1
                if beta_i == 2:
                    x = x + 2
            return x

        class Solver:
            tableau: Tableau

            def prepare(self, y0):
                self.tableau = Tableau(alpha=y0.new_ones(3), beta=[1, 2])

            def advance(self, x):
                return step(x, tableau=self.tableau)

        @torch.compile
        def f(x):
            s = Solver()
            s.prepare(x)
            return s.advance(x)
    """) == [("TC101", 9), ("TC225", 28)]  # Dynamo: also "Reconstruction failure" at `s.advance(x)`


def test_a_dict_literal_holding_tensors_gives_them_back_by_key():
    """Dynamo (torch 2.13): `.tolist()` of the entry breaks (Data dependent operator)."""
    assert _found("""
        import torch
        @torch.compile
        def f(x):
            params = {"order": torch.randperm(3), "p": 0.5}
            order = params["order"].tolist()
            return x * params["p"] + order[0]
    """) == [("TC104", 6)]



def test_a_compiling_predicate_bound_at_module_level_is_known_through_its_wrapper():
    """kornia's spelling; Dynamo (torch 2.13) traces neither guarded arm. Bound to
    something else, the wrapper is not a predicate and the check is reported."""
    wrapper = """
        import torch
        _impl = {bound}


        def is_compiling() -> bool:
            return bool(_impl()) if _impl is not None else False


        @torch.compile
        def f(x):
            if not is_compiling():
                assert bool((x > 0).all())
            if not _impl():
                print(x)
            return x * 2
    """
    known = 'getattr(torch.compiler, "is_compiling", None) or getattr(torch._dynamo, "is_compiling", None)'
    assert _found(wrapper.format(bound=known)) == []
    assert _found(wrapper.format(bound="object")) == [("TC103", 13), ("TC201", 15)]


def test_all_over_tensor_elements_reads_their_values():
    """Dynamo (torch 2.13) breaks on the `if` (Data-dependent branching): `all()` takes the
    truth of each element. Over sizes, it is a Python bool."""
    assert _found("""
        import torch
        @torch.compile
        def f(ts):
            if not all(a < b for a, b in zip(ts[:-1], ts[1:])):
                raise ValueError("not increasing")
            if any(n > 1 for n in ts.shape):
                return ts * 2
            return ts
    """) == [("TC101", 5)]


def test_an_attribute_a_later_method_stores_a_tensor_in_is_a_tensor_where_read():
    """Dynamo (torch 2.13): the branch on `self.best` breaks once `update` has stored a
    tensor there; storing a size there breaks nothing."""
    source = """
        import torch


        class Tracker(torch.nn.Module):
            def forward(self, x):
                if self.best > 0:
                    x = x * 2
                self.update(x)
                return x

            def update(self, x):
                self.best = {stored}
    """
    assert _found(source.format(stored="x.amax()")) == [("TC101", 7)]
    assert _found(source.format(stored="x.shape[0]")) == []


def test_keywords_reach_a_helper_through_kwargs_as_what_the_caller_passed():
    """`kwargs["offset"]`, and a named parameter filled by `**kwargs` passed on, hold what
    the compiled caller passed under that keyword. Dynamo (torch 2.13) breaks on the tests
    of `threshold` and `offset`; those of the keywords given floats break nothing."""
    assert _found("""
        import torch


        def attend(q, k, threshold=None, **kwargs):
            if kwargs.get("dropout") > 0:
                q = q * 2
            if threshold is not None and threshold > 0:
                q = q + 1
            return q @ k


        def layer(x, **kwargs):
            if kwargs["scale"] > 1:
                x = x * 2
            if kwargs["offset"] > 1:
                x = x + 1
            return attend(x, x, **kwargs)


        @torch.compile
        def model(x):
            return layer(x, threshold=x.sum(), scale=2.0, dropout=0.1, offset=x.amax())
    """) == [("TC101", 8), ("TC101", 16)]


def test_code_under_an_optional_parameter_no_compiled_caller_passes_is_not_traced():
    """torchmetrics' spelling: `max_fpr is None or ... or fpr.sum() == 0` with `max_fpr` left
    at its default by every compiled caller never reads `fpr`. Dynamo (torch 2.13) breaks
    only on the test of `hi`, which the caller passes."""
    assert _found("""
        import torch


        def auroc(fpr, max_fpr=None):
            if max_fpr is None or max_fpr == 1 or fpr.sum() == 0:
                return fpr * 2
            return fpr


        def clip(x, lo=None, hi=None):
            if lo is not None and x.amin() < lo:
                x = x.clamp(min=lo)
            if hi is not None:
                if x.amax() > hi:
                    x = x.clamp(max=hi)
            return x


        @torch.compile
        def f(x):
            return auroc(x) + clip(x, hi=1.0)
    """) == [("TC101", 15)]


def test_code_under_a_flag_defaulting_to_a_falsy_constant_no_compiled_caller_passes_is_not_traced():
    """snntorch's spelling: `if first and torch.max(data) > 1` with `first=0` left at its default
    by every compiled caller never reads `data`; Dynamo (torch 2.13) breaks only where a caller
    passes `first=True`. A falsy default is no None: `first is None` decides nothing."""
    source = """
        import torch


        def rate(data, first=0, scale=None):
            if first and torch.max(data) > 1:
                data = data / torch.max(data)
            if not scale or data.sum() > 0:
                data = data * 2
            if first is None or data.sum() > 0:
                data = data + 1
            return data


        @torch.compile
        def f(x):
            return rate(x)
    """
    assert _found(source) == [("TC101", 10)]
    assert _found(source + """
        @torch.compile
        def g(x):
            return rate(x, first=True)
    """) == [("TC101", 6), ("TC101", 10)]


def test_an_optional_parameter_passed_on_as_none_stays_none():
    """`outer` passes its own `scale`, left at None, and a literal None: Dynamo (torch 2.13)
    reads `x.sum()` only once the compiled caller gives `outer` a scale."""
    source = """
        import torch


        def inner(x, scale=None):
            if scale is not None and x.sum() > scale:
                x = x / 2
            return x


        def outer(x, scale=None):
            return inner(x, scale=scale) + inner(x, None)


        @torch.compile
        def g(x):
            return {call}
    """
    assert _found(source.format(call="outer(x)")) == []
    assert _found(source.format(call="outer(x, scale=x.amax())")) == [("TC101", 6)]


def test_a_flag_passed_down_is_falsy_only_while_every_compiled_caller_leaves_it_falsy():
    """`encode` passes its own `first` on to `check`, whose `first` has no default: Dynamo
    (torch 2.13) reads `torch.max(data)` once a compiled caller passes a truthy flag, and
    `first is None` is decided only by a None, not by a 0."""
    source = """
        import torch


        def check(data, first):
            if first and torch.max(data) > 1:
                data = data - 1
            if first is None or data.sum() > 0:
                data = data * 2
            return data


        def encode(data, first=0):
            return check(data, first)


        @torch.compile
        def g(x):
            return {call}
    """
    assert _found(source.format(call="encode(x)")) == [("TC101", 8)]
    assert _found(source.format(call="encode(x, first=None)")) == []
    assert _found(source.format(call="encode(x, first=x.amax() > 0)")) == [("TC101", 6), ("TC101", 8)]
    assert _found(source.format(call="encode(x) + check(x, 1)")) == [("TC101", 6), ("TC101", 8)]


def test_an_optional_parameter_of_an_entry_point_may_be_passed():
    """The user calls an entry point: `mask` may well be given."""
    assert _found("""
        import torch


        @torch.compile
        def f(x, mask=None):
            if mask is not None and mask.sum() > 0:
                x = x * 2
            return x
    """) == [("TC101", 7)]


def test_an_input_read_with_dict_methods_is_a_dict_not_a_tensor():
    """pytorch-metric-learning's reducers: the keys of `loss_dict.items()` are strings, so
    indexing a ModuleDict with one is fine (Dynamo, torch 2.13: no break)."""
    assert _found("""
        import torch


        class Reducers(torch.nn.Module):
            def __init__(self, reducers):
                super().__init__()
                self.reducers = torch.nn.ModuleDict(reducers)

            def forward(self, loss_dict, embeddings):
                out = embeddings
                for loss_name, loss_info in loss_dict.items():
                    out = out + self.reducers[loss_name](loss_info)
                return out


        model = torch.compile(Reducers({}))
    """) == []
    # iterated directly, the same input still gives tensors: `x.sum()` is data
    assert _found("""
        import torch


        @torch.compile
        def f(xs):
            for x in xs:
                if x.sum() > 0:
                    return x
            return xs
    """) == [("TC101", 8)]


def test_indexing_beside_kwargs_by_something_other_than_a_string():
    """A function with `**kwargs` may index anything: only `kwargs["k"]` is a keyword read."""
    assert _found("""
        import torch


        def pick(xs, i, **kwargs):
            return xs[i] * kwargs["scale"]


        @torch.compile
        def f(x):
            return pick([x, x], 1, scale=2.0)
    """) == []


def test_a_value_read_with_attributes_no_tensor_has_is_not_passed_on_as_a_tensor():
    """A module call usually gives a tensor, but Hugging Face models give a ModelOutput:
    `outputs.logits` says so, and a helper testing `"cache" in outputs` reads no tensor
    (Dynamo, torch 2.13: no break). The attribute names a tensor has come from torch."""
    program = """
        import torch
        from torch import nn


        class Output:
            def __init__(self, logits):
                self.logits = logits

            def __contains__(self, key):
                return key in vars(self)


        class Inner(nn.Module):
            def forward(self, x):
                return Output(x * 2)


        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()

            def forward(self, x):
                outputs = self.inner(x)
                if has_cache(outputs):
                    x = x + 1
                return outputs.{attribute} + x


        def has_cache(outputs):
            return "cache" in outputs
    """
    assert _found(program.format(attribute="logits")) == []
    # `.T` is a tensor's: nothing says the module call gave anything else
    assert _found(program.format(attribute="T")) == [("TC105", 32)]
