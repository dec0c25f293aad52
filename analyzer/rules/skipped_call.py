import libcst as cst

from tclint.analyzer.knowledge import dynamo_calls, hazards
from tclint.analyzer.knowledge.tensor_api import PARAMETERIZED_MODULES
from tclint.analyzer.knowledge.untraceable import UNTRACEABLE_CALLS
from tclint.analyzer.rules.base import Example, Rule

# Calls other rules report with their own advice.
_OTHER_RULES = frozenset({
    *UNTRACEABLE_CALLS, "builtins.print", "builtins.repr", "builtins.sorted", "torch.autograd.grad",
    "torch.autograd.backward", *(f"torch.nn.{name}" for name in PARAMETERIZED_MODULES),
})
# Breaks that depend on the values passed, not on the callable: other rules judge those.
_VALUE_DEPENDENT = frozenset(g.gb_type for g in (
    hazards.DATA_DEPENDENT_OP, hazards.DYNAMIC_SHAPE_OP, hazards.BRANCHING, hazards.ITEM, hazards.TOLIST))


class SkippedCall(Rule):
    """
    ## What it does
    Flags calls inside a compiled region to library functions that Dynamo does not trace,
    as Dynamo itself reports them for the installed torch: C functions and modules it skips
    (`sys._getframe`, `inspect.currentframe`, `importlib.import_module`, `pickle.dumps`,
    `bisect.bisect`, `hashlib`, `linecache`, `pickle`), objects it cannot build (`numpy.random.SeedSequence`,
    `types.SimpleNamespace`), methods of objects it cannot trace (`self.rng.normal()` on a
    NumPy `default_rng()` built in `__init__`), torch functions and classes its trace rules mark
    as skipped (`torch.jit.isinstance`, `torch.typename`, `torch.quasirandom.SobolEngine` and its
    `draw()`), methods of NumPy random generators known from where they come from
    (`rng = np.random.default_rng(seed)` or `np.random.RandomState(seed)`, then `rng.normal()`),
    a `for` over what such a call returns where Dynamo cannot resume at the `for` (`for i in
    tqdm(range(n))`, also through `enumerate` or `zip`, a pandas Series or DataFrame, a networkx
    generator: the rest of the function then runs eagerly, and tclint reports nothing after
    it in that function), and NumPy functions that `torch._numpy`, through
    which Dynamo traces NumPy, does not implement (`np.asanyarray`, `np.nanmean`, `np.isin`,
    read off Dynamo's own map by `tools/numpy_support.py`). The verdicts come from a table made by running
    each call under Dynamo (one per torch version, `tools/probe_dynamo.py`) and from the
    installed torch's own skip lists; the message names the torch version.

    ## Why is this bad?
    Dynamo cannot put the call in the graph: the graph ends before it, the call runs
    eagerly, and a new graph starts after it, on every call.

    ## Example
    ```python
    def forward(self, x, t):
        # which interval of the grid t falls in
        i = bisect.bisect(self.grid, t)
        return x * self.scales[i]
    ```

    ## Use instead
    Do the work before the compiled call and pass the result in, or use a traceable
    equivalent: `inspect.signature`, `functools.partial`, `itertools`, `operator`, `math`,
    `re` and `copy.deepcopy` of plain data trace fine; `torch.searchsorted(grid, t)` replaces
    `bisect` (keep the grid a tensor); `isinstance` replaces `torch.jit.isinstance`.
    """

    code = "TC220"
    name = "skipped-call"
    message = "Dynamo does not trace this call; the graph breaks here"
    graph_break = hazards.SKIPPED
    also_predicts = (hazards.BUILTIN_OP, hazards.METHOD_CALL, hazards.NUMPY_UNSUPPORTED, hazards.INLINE_SKIPPED,
                     hazards.NON_TENSOR_RESULT)

    VALID = [
        Example("""
            import functools
            import inspect
            import math
            import re
            import torch
            def scale(x, factor):
                return x * factor
            @torch.compile
            def f(x):
                n = len(inspect.signature(scale).parameters)
                g = functools.partial(scale, factor=math.sqrt(n))
                tag = re.sub("a", "b", "aa")
                return g(x), tag
        """, call="f(torch.randn(3))"),
        Example("""
            import pickle
            import torch
            def cache_key(kwargs):
                return pickle.dumps(kwargs)
            @torch.compile
            def f(x):
                return x + 1
            key = cache_key({"a": 1})
        """, call="f(torch.randn(3))"),
        Example("""
            import functools
            import torch
            @functools.lru_cache(maxsize=8)
            def window(n):
                return tuple(range(n))
            @torch.compile
            def f(x):
                return x[list(window(2))]
        """, call="f(torch.randn(3))"),
        Example("""
            import random
            import torch
            class Jitter(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.rng = random.Random(0)
                def forward(self, x):
                    return x * self.rng.uniform(0.9, 1.1)
        """, call="torch.compile(Jitter())(torch.randn(3))"),
        Example("""
            import torch
            class Scaled:
                def __init__(self, factor):
                    self.factor = factor
                def __enter__(self):
                    self.previous = torch.is_grad_enabled()
                    torch.set_grad_enabled(False)
                    return self
                def __exit__(self, *exc):
                    torch.set_grad_enabled(self.previous)
            @torch.compile
            def f(x):
                with Scaled(2) as s:
                    y = x * s.factor
                return y
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                # torch._numpy implements these, so Dynamo traces them; jit's query is a constant
                idx = np.where(np.fmod(np.arange(-1, 3), 3) < 0, 0, np.arange(-1, 3))
                if torch.jit.is_tracing():
                    return x
                return x[idx]
        """, call="f(torch.randn(4))"),
    ]
    INVALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                idx = np.asanyarray(np.arange(0, 2))
                return x[idx]
        """, call="f(torch.randn(4))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x, counts):
                return x * np.nanmean(counts)
        """, call="f(torch.randn(4), np.array([1.0, np.nan, 3.0]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                if not torch._C._is_tracing():
                    return x + 1
                return x
        """, call="f(torch.randn(3))"),
        Example("""
            import hashlib
            import torch
            @torch.compile
            def f(x, name):
                digest = hashlib.md5(name.encode()).hexdigest()
                return x + 1, digest
        """, call="f(torch.randn(3), 'a')"),
        Example("""
            import sys
            import torch
            @torch.compile
            def f(x):
                caller = sys._getframe(1).f_code.co_name
                return x + 1, caller
        """, call="f(torch.randn(3))"),
        Example("""
            import bisect
            import torch
            @torch.compile
            def f(x, grid):
                i = bisect.bisect(grid, 0.5)
                return x + i
        """, call="f(torch.randn(3), [0.0, 1.0])"),
        Example("""
            import importlib
            import torch
            @torch.compile
            def f(x):
                math = importlib.import_module("math")
                return x * math.pi
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                if torch.jit.isinstance(x, torch.Tensor):
                    x = x + 1
                return x
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                seeds = np.random.SeedSequence(0)
                return x + 1, seeds
        """, call="f(torch.randn(3))"),
        # torch.quasirandom is a module Dynamo skips: building the engine and drawing from it both break
        Example("""
            import torch
            from torch.quasirandom import SobolEngine
            @torch.compile
            def f(x):
                engine = SobolEngine(dimension=3, scramble=True, seed=0)
                return x + engine.draw(1)
        """, call="f(torch.randn(3))"),
        # a method of an object built by a call the table knows: "numpy.random.SeedSequence().generate_state"
        Example("""
            import numpy as np
            import torch
            SEEDS = np.random.SeedSequence(0)
            @torch.compile
            def f(x):
                a, b = SEEDS.generate_state(2)
                return x + 1, a
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            class Jitter(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.rng = np.random.default_rng(0)
                def forward(self, x):
                    return x * self.rng.normal()
        """, call="torch.compile(Jitter())(torch.randn(3))"),
        # a generator known from where it comes from: its constructor, then each method call
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                rng = np.random.RandomState(0)
                noise = rng.randn(3)
                return x + rng.choice(3) + noise.sum()
        """, call="f(torch.randn(3))"),
        Example("""
            import sys
            import torch
            class Traced:
                def __enter__(self):
                    self.caller = sys._getframe(1).f_code.co_name
                    return self
                def __exit__(self, *exc):
                    return False
            @torch.compile
            def f(x):
                with Traced():
                    y = x * 2
                return y
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._decorators = 0
        self._iterated: set[int] = set()  # ids of the calls a `for` iterates what they return
        self._made: dict[tuple[str, str], str] = {}  # (function, local) -> the call that built it

    # `for i in tqdm(range(n))`: at the `for`, Dynamo skips the result's `__iter__` and cannot
    # resume there; the rest of the frame runs eagerly. A comprehension's first iterable is
    # iterated in the enclosing frame.
    def visit_For(self, node: cst.For) -> None:
        self._iterates(node.iter)
        if isinstance(node.target, cst.Name) and self.facts.function is not None:  # rebound by the loop
            self._made.pop((self.facts.function.key, node.target.value), None)

    def _comprehension(self, node: cst.ListComp | cst.SetComp | cst.DictComp) -> None:
        self._iterates(node.for_in.iter)

    visit_ListComp = visit_SetComp = visit_DictComp = _comprehension

    def _iterates(self, iterable: cst.BaseExpression) -> None:
        """Notes the calls whose result the loop iterates, through the wrappers Dynamo
        iterates them through (`enumerate(tqdm(...))`), and reports an object built where the
        table says iterating it ends the frame (`for v in series` after `series = pd.Series(...)`)."""
        if self._decorators:
            return
        table = dynamo_calls.current()
        pending = [iterable]
        while pending:
            expr = pending.pop()
            if isinstance(expr, cst.Call):
                if self.facts.qualname(expr.func) in table.iteration_wrappers:
                    pending.extend(arg.value for arg in expr.args if not arg.keyword and not arg.star)
                else:
                    self._iterated.add(id(expr))
                continue
            built = self._built_from(expr)
            verdict = table.ends_frame_when_iterated(built) if built else None
            if verdict is not None:
                self.report(expr, f"Dynamo cannot iterate a `{built.rpartition('.')[2]}` (torch "
                                  f"{verdict.torch_version}: \"{verdict.graph_break.gb_type}\" when probed) and "
                                  f"cannot resume at this `for`: the graph breaks here and the rest of the "
                                  f"function runs eagerly. Iterate a list of its values instead",
                            graph_break=verdict.graph_break, ends_frame=True)

    # A decorator runs where the function is defined (at import, for most), not when it is called.
    def visit_Decorator(self, node: cst.Decorator) -> None:
        self._decorators += 1

    def leave_Decorator(self, node: cst.Decorator) -> None:
        self._decorators -= 1

    def visit_Call(self, node: cst.Call) -> None:
        iterated_here = id(node) in self._iterated
        self._iterated.discard(id(node))  # ids are unique only among live nodes
        if self._decorators:
            return
        qual = self.facts.qualname(node.func) or self._method_of_built_object(node.func)
        if qual is None or qual in _OTHER_RULES or qual.startswith("logging."):  # logging is TC206's
            return
        table = dynamo_calls.current()
        verdict = table.verdict(qual)
        if verdict is not None and verdict.graph_break.gb_type in _VALUE_DEPENDENT:
            return
        iterated = table.ends_frame_when_iterated(qual) if iterated_here else None
        if verdict is None and iterated is None:
            return
        name = qual.removeprefix("builtins.").replace("().", "(...).")
        if verdict is None:
            message = f"Dynamo traces `{name}()`"
        else:
            why = {"probe": "Dynamo broke on it when probed",
                   "numpy_map": "torch._numpy, through which Dynamo traces NumPy, has no such function"
                   }.get(verdict.source, "its trace rules skip it")
            message = (f"Dynamo does not trace `{name}()` (torch {verdict.torch_version}: {why}, "
                       f"\"{verdict.graph_break.gb_type}\"); the graph breaks here")
        if iterated is None:
            self.report(node, f"{message}. Call it before the compiled region and pass the result in",
                        graph_break=verdict.graph_break)
            return
        self.report(node, f"{message}, and iterating what it returns (\"{iterated.graph_break.gb_type}\") is "
                          "no point Dynamo can resume at: the rest of the function runs eagerly. Iterate a "
                          "plain `range` or list instead", graph_break=(verdict or iterated).graph_break,
                    ends_frame=True)

    def _method_of_built_object(self, func: cst.BaseExpression) -> str | None:
        """`self.rng.normal` where `self.rng = np.random.default_rng(...)`: the table's
        "numpy.random.default_rng().normal"."""
        if not isinstance(func, cst.Attribute):
            return None
        built = self._built_from(func.value)
        return f"{built}().{func.attr.value}" if built else None

    def _built_from(self, receiver: cst.BaseExpression) -> str | None:
        """The call that built the object: `self.rng` set up as `np.random.default_rng(...)`,
        a local or module name bound to `pd.Series(...)`."""
        facts = self.facts
        if isinstance(receiver, cst.Attribute) and facts.is_self(receiver.value):
            return facts.function.class_scope.built_from.get(receiver.attr.value)
        if isinstance(receiver, cst.Name):
            fn = facts.function
            local = (fn.instance_classes.get(receiver.value) or self._made.get((fn.key, receiver.value))) if fn else None
            return local or facts.module_instances.get(receiver.value)
        return None

    def visit_Assign(self, node: cst.Assign) -> None:
        """`rng = np.random.default_rng(seed)`, `bar = tqdm(range(n))`: a local bound to an
        object of a kind the table has methods of, or iterating which ends the frame (a
        lowercase factory, which no class names)."""
        fn = self.facts.function
        if fn is None:
            return
        value, table = node.value, dynamo_calls.current()
        qual = self.facts.qualname(value.func) if isinstance(value, cst.Call) else None
        made = qual if qual and (table.builds_object(qual) or table.ends_frame_when_iterated(qual)) else None
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                if made:
                    self._made[(fn.key, target.target.value)] = made
                else:
                    self._made.pop((fn.key, target.target.value), None)
