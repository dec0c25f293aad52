"""Constructs found on published packages (benchmarks/audit), in their smallest form.

Each case lists the (code, line) findings tclint must report; the Dynamo test checks that
torch 2.13 (eager backend) breaks on exactly those lines, so a case cannot drift from
Dynamo's verdict. A case with no findings must run without a break.
"""
from __future__ import annotations

import importlib.util
import textwrap

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api

CASES = {
    # A NumPy array's methods give arrays, which Dynamo traces as tensors: branching on
    # `r.any()` or `a.sum() > 8` reads data (monai swin_unetr `_check_input_size`).
    "ndarray-method-branch": ("""
        import numpy as np
        import torch
        @torch.compile
        def f(x):
            remainder = (np.array(x.shape[2:]) % 32) > 0
            if remainder.any():
                return x + 1
            return x
        @torch.compile
        def g(x):
            if np.array(x.shape).sum() > 8:
                return x + 2
            return x
    """, "(f(torch.ones(1, 1, 4, 4)), g(torch.ones(1, 1, 4, 4)))", [("TC101", 6), ("TC101", 11)]),
    "ndarray-shape-is-static": ("""
        import numpy as np
        import torch
        @torch.compile
        def f(x):
            size = np.array(x.shape[2:])
            if len(size) > 1 and size.shape[0] == 2:
                return x + 1
            return x
    """, "f(torch.ones(1, 1, 4, 4))", []),
    # Dynamo cannot resume inside a `try` body: a break there (its own or a callee's) runs the
    # rest of the frame eagerly, so a later branch on a tensor never breaks (pyro warn_if_nan).
    "break-in-try-ends-frame": ("""
        import sys
        import torch
        def where_called(v):
            try:
                frame = sys._getframe(1)
            except ValueError:
                frame = None
            if v.sum() > 0:
                return v + 1
            return v
        @torch.compile
        def f(x):
            return where_called(x) * 2
    """, "f(torch.ones(2))", [("TC220", 5)]),
    "callee-break-in-try-ends-frame": ("""
        import torch
        def log(v):
            print("value", v.shape)
            return v
        @torch.compile
        def f(x):
            try:
                x = log(x)
            finally:
                pass
            if x.sum() > 0:
                return x + 1
            return x
    """, "f(torch.ones(2))", [("TC201", 3)]),
    # An object built by a class picked from a table or returned by a factory has no source
    # either: calling a breaking method on it breaks the call too (torchsde sdeint, torchdiffeq
    # odeint). An object that already sits in the table is rebuilt from there.
    "object-built-by-picked-class": ("""
        import torch
        class Euler:
            def __init__(self, k=2):
                self.k = k
            def integrate(self, x):
                print("step")
                return x * self.k
        SOLVERS = {"euler": Euler}
        READY = {"euler": Euler(3)}
        def select(method):
            return SOLVERS[method]
        @torch.compile
        def f(x, method="euler"):
            return SOLVERS[method](2).integrate(x)
        @torch.compile
        def g(x, method="euler"):
            solver_fn = select(method)
            solver = solver_fn(k=3)
            return solver.integrate(x)
        @torch.compile
        def h(x, method="euler"):
            ready = READY[method]
            return ready.integrate(x) + READY[method].integrate(x)
    """, "(f(torch.ones(2)), g(torch.ones(2)), h(torch.ones(2)))", [("TC201", 6), ("TC225", 14), ("TC225", 19)]),
    # A function picked from a nested table of functions is followed (geomloss SamplesLoss:
    # `routines[self.loss][backend](...)`).
    "nested-function-table": ("""
        import torch
        def diameter(x):
            return (x.max() - x.min()).item()
        def tensorized(x, p=2):
            return x * diameter(x)
        def online(x, p=2):
            return x
        ROUTINES = {"sinkhorn": {"tensorized": tensorized, "online": online}}
        @torch.compile
        def f(x, loss="sinkhorn", backend="tensorized"):
            return ROUTINES[loss][backend](x, p=2)
    """, "f(torch.ones(3))", [("TC102", 3)]),
    # Masks combined with `&`, `|` and `~` stay masks, also where they hold only if the
    # caller passes tensors (normflows' spline `inside_interval_mask`).
    "combined-masks-of-parameters": ("""
        import torch
        def spline(inputs, bound):
            inside = (inputs >= -bound) & (inputs <= bound)
            outputs = torch.zeros_like(inputs)
            outputs[~inside] = inputs[~inside]
            return outputs
        @torch.compile
        def f(x):
            return spline(x, 1.0)
    """, "f(torch.randn(8))", [("TC302", 5)]),
    # The scalar factor of an out-of-place op must be a Python number: a tensor there is read
    # (torchode's `torch.add(self.atol, err, alpha=self.rtol)` on registered buffers). The
    # in-place `add_` and `addcdiv` take a tensor factor without a break.
    "tensor-scalar-factor": ("""
        import torch
        from torch import nn
        class Controller(nn.Module):
            def __init__(self, atol, rtol):
                super().__init__()
                self.register_buffer("atol", torch.tensor(atol))
                self.register_buffer("rtol", torch.tensor(rtol))
            def forward(self, y):
                bound = torch.add(self.atol, y.abs(), alpha=self.rtol)
                y.clone().add_(y, alpha=self.rtol)
                return torch.addcdiv(bound, y, bound, value=self.rtol)
        model = Controller(1e-6, 1e-3)
        @torch.compile
        def f(x):
            return model(x)
    """, "f(torch.randn(3))", [("TC111", 9)]),
    # A function handed to `allow_in_graph` (as a decorator or a call, as einops does with
    # `rearrange`) goes into the graph whole: Dynamo never traces its body.
    "allow-in-graph-is-not-traced": ("""
        import torch
        @torch.compiler.allow_in_graph
        def scaled(x):
            print("scaling")
            return x * 2
        def shifted(x):
            print("shifting")
            return x + 1
        torch._dynamo.allow_in_graph(shifted)
        @torch.compile
        def f(x):
            return shifted(scaled(x))
    """, "f(torch.ones(2))", []),
    # A custom operator's body is its kernel, run outside Dynamo: the op is one call in the graph.
    "custom-op-is-not-traced": ("""
        import numpy as np
        import torch
        @torch.library.custom_op("tclint_audit::scale", mutates_args=())
        def scale(x: torch.Tensor) -> torch.Tensor:
            k = float(x.sum().item())
            return torch.from_numpy(np.asarray(x) * k)
        @scale.register_fake
        def _(x):
            return torch.empty_like(x)
        @torch.compile
        def f(x):
            return scale(x) + 1
    """, "f(torch.ones(2))", []),
    # `self.steps[i].inverse(x)` on modules passed in: any class defining `inverse` may run,
    # here one whose buffer is a flag (normflows' ActNorm, torchode's step controllers).
    "method-of-a-module-passed-in": ("""
        import torch
        from torch import nn
        class Double(nn.Module):
            def inverse(self, x):
                return x / 2
        class Shift(nn.Module):
            def inverse(self, x):
                return x - 1
        class Flip(nn.Module):
            def inverse(self, x):
                return -x
        class ActNorm(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("initialized", torch.tensor(0.0))
            def inverse(self, x):
                if not self.initialized:
                    return x
                return x * 2
        class Chain(nn.Module):
            def __init__(self, steps):
                super().__init__()
                self.steps = nn.ModuleList(steps)
            def inverse(self, x):
                for i in range(len(self.steps) - 1, -1, -1):
                    x = self.steps[i].inverse(x)
                return x
        chain = Chain([Double(), Shift(), Flip(), ActNorm()])
        @torch.compile
        def f(x):
            return chain.inverse(x)
    """, "f(torch.ones(2))", [("TC101", 17)]),
    # A module whose base is a generic alias (`Controller[State]`) is still a module: its
    # forward is compiled code (torchode's step-size controllers).
    "module-with-a-generic-base": ("""
        import torch
        from typing import Generic, TypeVar
        from torch import nn
        State = TypeVar("State")
        class Controller(nn.Module, Generic[State]):
            def forward(self, x):
                return x
        class Fixed(Controller[int]):
            def forward(self, x):
                return x * x.sum().item()
        model = torch.compile(Fixed())
    """, "model(torch.ones(2))", [("TC102", 10)]),
    # A method picked by a name built at run time is one of the class's (or a subclass's)
    # methods with that prefix or suffix; each is followed (pytorch-metric-learning reducers:
    # `getattr(self, "{}_reduction".format(t))`, returned and called, and `"assert_sizes_" + t`).
    "method-named-by-pattern": ("""
        import torch
        class Reducer(torch.nn.Module):
            def forward(self, losses, kind="element"):
                self.check(losses, kind)
                fn = self.pick(kind)
                return fn(losses)
            def pick(self, kind):
                return getattr(self, "{}_reduction".format(kind))
            def check(self, losses, kind):
                getattr(self, "check_" + kind)(losses)
            def element_reduction(self, losses):
                raise NotImplementedError
            def check_element(self, losses):
                pass
        class Threshold(Reducer):
            def element_reduction(self, losses):
                kept = losses[losses > 0.5]
                return kept.mean()
            def check_element(self, losses):
                if torch.isnan(losses).any():
                    raise ValueError("nan")
        m = Threshold()
    """, "torch.compile(m)(torch.rand(4))", [("TC302", 17), ("TC101", 20)]),
    "method-named-by-fstring": ("""
        import torch
        class Reducer(torch.nn.Module):
            def forward(self, losses, kind="element"):
                return getattr(self, f"{kind}_reduction")(losses)
            def element_reduction(self, losses):
                return losses.sum().item()
        m = Reducer()
    """, "torch.compile(m)(torch.rand(4))", [("TC102", 6)]),
    # A function passed as an argument is what calling the parameter runs, also passed on
    # through another function or inside a table of functions.
    "function-passed-as-argument": ("""
        import torch
        def helper(x):
            return x.sum().item()
        def other(x):
            return x.tolist()
        def apply(fn, x):
            return fn(x)
        def twice(fn, x):
            return apply(fn, x) * 2
        def first(fns, x):
            return fns["a"](x)
        @torch.compile
        def f(x):
            return twice(helper, x) + first({"a": other}, x)[0]
    """, "f(torch.ones(2))", [("TC102", 3), ("TC104", 5)]),
    # A closure calls the function its factory was given (pyro's `effectful(fn)` wrapper).
    "closure-calls-the-factory-argument": ("""
        import torch
        def helper(x):
            return x.sum().item()
        def wrap(fn):
            def inner(x):
                return fn(x) + 1
            return inner
        def build(x):
            g = wrap(helper)
            return g(x)
        @torch.compile
        def f(x):
            return build(x)
    """, "f(torch.ones(2))", [("TC102", 3)]),
    # A function kept in a record by key and called from it where the record is passed to
    # (pyro's messages: `Message(fn=fn, args=args)`, then `msg["fn"](*msg["args"])`).
    "function-held-in-a-record": ("""
        import torch
        from typing import TypedDict
        class Message(TypedDict):
            fn: object
            args: tuple
        def helper(x):
            return x.sum().item()
        def default_process(msg):
            return msg["fn"](*msg["args"])
        def apply_stack(initial_msg):
            msg = initial_msg
            return default_process(msg)
        def effectful(fn):
            def _fn(*args):
                msg = Message(fn=fn, args=args)
                return apply_stack(msg)
            return _fn
        def run(x):
            op = effectful(helper)
            return op(x) + 1
        @torch.compile
        def f(x):
            return run(x)
    """, "f(torch.ones(2))", [("TC102", 7)]),
    # A module-level wrapper around a bound method of a module-level object (pyro's
    # `_param = effectful(_PYRO_PARAM_STORE.get_param, type="param")`): calling `_param` runs
    # the wrapper, which runs the method.
    "module-level-wrapper-of-a-method": ("""
        import torch
        class Store:
            def get(self, name, init):
                return init * init.sum().item()
        STORE = Store()
        def effectful(fn, kind=None):
            def _fn(*args):
                return fn(*args)
            return _fn
        _get = effectful(STORE.get, kind="param")
        @torch.compile
        def f(x):
            return _get("a", x) * 2
    """, "f(torch.ones(2))", [("TC102", 4)]),
    # NumPy arrays of objects (torchcde `tridiagonal_solve`): each constructor breaks; the frame
    # resumed after the first holds the array, cannot convert it to a tensor at the next break
    # (here the second constructor) and runs the rest eagerly: no break at `.tolist()`, line 14.
    "numpy-object-arrays-end-the-frame": ("""
        import numpy as np
        import torch
        @torch.compile
        def solve(b):
            channels = b.size(-1)
            new_b = np.empty(channels, dtype=object)
            outs = np.empty(channels, dtype=object)
            new_b[0] = b[..., 0]
            for i in range(1, channels):
                new_b[i] = b[..., i] - new_b[i - 1]
            outs[0] = new_b[0]
            for i in range(1, channels):
                outs[i] = new_b[i] * 2
            return torch.stack(outs.tolist(), dim=-1)
    """, "solve(torch.randn(2, 3))", [("TC229", 6), ("TC229", 7)]),
    # Used first in a later statement: that is where the resumed frame gives up ("failed to
    # convert numpy.ndarray to Tensor"), after the tensor work before it; a later branch on a
    # tensor runs eagerly.
    "numpy-object-array-first-use": ("""
        import numpy as np
        import torch
        @torch.compile
        def f(x):
            a = np.empty(2, dtype=object)
            z = x * 2
            a[0] = z
            if z.sum() > 0:
                z = z + 1
            return z
    """, "f(torch.ones(2))", [("TC229", 5), ("TC229", 7)]),
    # A float array is traced as a tensor: no break.
    "numpy-float-array": ("""
        import numpy as np
        import torch
        @torch.compile
        def f(x):
            a = np.empty(2)
            a[0] = 1.0
            return x + 1
    """, "f(torch.ones(2))", []),
    # The fields of a tuple a project method returns keep their own kinds where every return
    # statement agrees (pytorch-metric-learning `losses, ... = self.unpack_loss_info(info)`):
    # `losses` is a tensor, so masking it breaks; `h` is a size, so branching on it does not.
    "fields-of-a-returned-tuple": ("""
        import torch
        class Reducer:
            def unpack(self, losses, labels):
                return losses * 2, labels.shape[0], {}
            def reduce(self, losses):
                losses = losses[losses > 0.5]
                return losses.mean()
            def run(self, x, y):
                losses, n, kwargs = self.unpack(x, y)
                if n > 2:
                    losses = losses + 1
                return self.reduce(losses)
        R = Reducer()
        @torch.compile
        def f(x):
            return R.run(x, x)
    """, "f(torch.rand(4))", [("TC302", 6)]),
    # `not torch.is_tensor(x) and x == 0` reads `x` on the right only when it is not a tensor,
    # and a value compared with a string is a string (pytorch-metric-learning reducers): no break.
    "tensor-ruled-out-or-compared-with-a-string": ("""
        import torch
        def is_zero(losses):
            if (not torch.is_tensor(losses)) and (losses == 0):
                return True
            return False
        def is_zero2(losses):
            if isinstance(losses, torch.Tensor) or losses == 0:
                return False
            return True
        def check(v):
            if v != "none":
                return 1
            return 0
        @torch.compile
        def f(x):
            if is_zero(x) or is_zero2(x):
                return x
            return x * check(x) + check("none")
    """, "f(torch.ones(2))", []),
    # `s = make(2)` where `make` returns a fresh instance: the object is built in the compiled
    # frame, so a breaking method called on it breaks again at the call (Reconstruction
    # failure); an object `ready()` returns from module level is rebuilt fine.
    "method-of-an-object-a-factory-built": ("""
        import torch
        class S:
            def __init__(self, k=2):
                self.k = k
            def run(self, x):
                return x * x.sum().item()
        def make(k):
            s = S(k)
            return s
        READY = S(3)
        def ready():
            return READY
        @torch.compile
        def f(x):
            s = make(2)
            return s.run(x) + 1
        @torch.compile
        def g(x):
            s = ready()
            return x * 2
    """, "(f(torch.ones(2)), g(torch.ones(2)))", [("TC102", 6), ("TC225", 16)]),
    # A torch.Generator built in a helper and passed as `generator=` (torchsde `_randn`): the
    # constructor breaks (TC205, with `manual_seed` on it), and so does the draw that gets it.
    "generator-passed-to-a-draw": ("""
        import torch
        def _randn(size, dtype, seed):
            generator = torch.Generator("cpu").manual_seed(int(seed))
            return torch.randn(size, dtype=dtype, generator=generator)
        @torch.compile
        def f(x, gen=None):
            return x + _randn(3, x.dtype, 4) + torch.rand(3, generator=gen)
    """, "f(torch.ones(3))", [("TC205", 3), ("TC230", 4)]),
    # Dynamo gives up on the frame at a Reconstruction failure (TC225): the rest of the function
    # runs eagerly, so the later branch and `nonzero` never break.
    "rebuilt-object-call-ends-the-frame": ("""
        import torch
        class S:
            def __init__(self, k=2):
                self.k = k
            def run(self, x):
                return x * x.sum().item()
        @torch.compile
        def f(x):
            s = S(2)
            y = s.run(x)
            if y.sum() > 0:
                y = y + 1
            return y
        @torch.compile
        def g(x):
            y = S(2).run(x)
            z = torch.nonzero(y)
            return y + z.sum()
    """, "(f(torch.ones(2)), g(torch.ones(2)))", [("TC102", 6), ("TC225", 10), ("TC225", 16)]),
    # `.dtype` of a NumPy array (pytorch-wavelets `np.array(out, dtype=x.dtype)`): Dynamo cannot
    # read it and runs the whole function eagerly, so the later branch never breaks.
    "ndarray-dtype-ends-the-frame": ("""
        import numpy as np
        import torch
        @torch.compile
        def f(x):
            a = np.arange(0, 4, dtype="int32")
            b = np.array(a * 2, dtype=a.dtype)
            y = x * 2
            if y.sum() > 0:
                y = y + 1
            return y + torch.from_numpy(b)
    """, "f(torch.ones(4))", [("TC231", 6)]),
    # One element of `nonzero`'s result is a 0-dim index, and so is that index plus a Python
    # int (diffusers DDPM `previous_timestep`): indexing with it reads its value.
    "nonzero-element-index": ("""
        import torch
        @torch.compile
        def f(timesteps, t: int):
            index = (timesteps == t).nonzero(as_tuple=True)[0][0]
            return timesteps[index + 1]
    """, "f(torch.arange(5).flip(0), 3)", [("TC301", 4), ("TC113", 5)]),
    # A parameter declared a container of tensors holds tensors (kornia `params: Dict[str,
    # Tensor]` with `params["order"].tolist()`); the container's own truth and keys are static.
    "annotated-container-elements": ("""
        from typing import Dict, List
        import torch
        def steps(x: torch.Tensor, params: Dict[str, torch.Tensor]) -> torch.Tensor:
            for key in params:
                if key == "skip":
                    return x
            order = params["order"].tolist()
            for i in order:
                x = x + i
            return x
        def last(x: torch.Tensor, feats: List[torch.Tensor]) -> torch.Tensor:
            if len(feats) > 1 and feats[1:]:
                x = x * 2
            if feats[-1].sum() > 0:
                return x + 1
            return x
        @torch.compile
        def f(x, params, feats):
            return steps(x, params) + last(x, feats)
    """, "f(torch.ones(3), {'order': torch.tensor([2, 0, 1])}, [torch.ones(2)])", [("TC104", 7), ("TC101", 14)]),
    # A class that a function returns, called, builds an instance in the compiled frame (torchsde
    # `solver = methods.select(...)(...)`): its breaking method is followed and breaks at the call
    # too, though more classes than tclint guesses from a name define `integrate`.
    "class-returned-by-a-function-built": ("""
        import torch
        class Euler:
            def __init__(self, k):
                self.k = k
            def integrate(self, x):
                return x * x.sum().item()
        class A:
            def integrate(self, x):
                return x
        class B:
            def integrate(self, x):
                return x
        class C:
            def integrate(self, x):
                return x
        def select(method):
            if method == "euler":
                return Euler
            raise ValueError(method)
        @torch.compile
        def f(x, method="euler"):
            solver_fn = select(method)
            solver = solver_fn(k=2)
            return solver.integrate(x) + 1
    """, "f(torch.ones(3))", [("TC102", 6), ("TC225", 24)]),
    # `partial(f, 0, 1)` called with a tensor passes it third (reformer `merge_dims`): the bound
    # ints stay ints, so `slice(ind_from, ind_to + 1)` is static.
    "partial-shifts-arguments": ("""
        from functools import partial
        import torch
        def merge_dims(ind_from, ind_to, tensor):
            shape = list(tensor.shape)
            shape[slice(ind_from, ind_to + 1)] = [shape[ind_from] * shape[ind_to]]
            if tensor.sum() > 0:
                tensor = tensor + 1
            return tensor.reshape(*shape)
        @torch.compile
        def f(x):
            merge = partial(merge_dims, 0, 1)
            return merge(x * 2)
    """, "f(torch.ones(2, 3))", [("TC101", 6)]),
    # `sorted(kwargs.items())` breaks once one keyword holds no Python constant, here a module
    # passed positionally to a subclass that hands it on as a keyword (linear_operator
    # `LinearOperator.__init__`, reached from gpytorch's `LazyEvaluatedKernelTensor(..., kernel=self)`).
    "kwargs-sorted-module": ("""
        import torch
        class Op:
            def __init__(self, *args, **kwargs):
                self.kw = {}
                for name, val in sorted(kwargs.items()):
                    self.kw[name] = val
        class Lazy(Op):
            def __init__(self, x, kernel, **params):
                super().__init__(x, kernel=kernel, **params)
        class M(torch.nn.Module):
            @torch.compile
            def forward(self, x):
                return x + 1, Lazy(x, self, scale=2)
    """, "M()(torch.randn(3))", [("TC216", 5)]),
    # ... and does not when every keyword that lands there is a constant, passed on or not.
    "kwargs-sorted-constants": ("""
        import torch
        class Op:
            def __init__(self, *args, **kwargs):
                self.kw = {}
                for name, val in sorted(kwargs.items()):
                    self.kw[name] = val
        class Lazy(Op):
            def __init__(self, x, kernel, **params):
                super().__init__(x, kernel=kernel, **params)
        class M(torch.nn.Module):
            @torch.compile
            def forward(self, x):
                return x + 1, Lazy(x, 3, scale=2, mode="a")
    """, "M()(torch.randn(3))", []),
    # A falsy flag passed down two calls, the last into a parameter with no default (snntorch
    # `latency` -> `latency_code` -> `_latency_errors`, spikegen.py:694): `first and torch.max(x)`
    # never reads `x`. 0 is not None, so `first is not None and ...` does.
    "falsy-flag-passed-down": ("""
        import torch
        def check(data, num_steps, first):
            if first and num_steps and first > num_steps - 1:
                raise ValueError("first")
            if first and torch.max(data) > 1:
                raise ValueError("range")
            if first is not None and data.sum() > 0:
                data = data + 1
            return data
        def code(data, num_steps=4, first=0):
            return check(data, num_steps, first) * 2
        def encode(data, num_steps=4, first_spike_time=0):
            return code(data, num_steps=num_steps, first=first_spike_time)
        @torch.compile
        def f(x):
            return encode(x)
    """, "f(torch.ones(3))", [("TC101", 7)]),
    # Falsy constants passed (False, None, 0) leave `first and ...` and `not first or ...` undecided by data.
    "falsy-constants-passed": ("""
        import torch
        def check(data, first):
            if first and torch.max(data) > 1:
                data = data - 1
            if not first or data.sum() > 0:
                data = data * 2
            return data
        @torch.compile
        def f(x):
            return check(x, False) + check(x, None) + check(x, 0)
    """, "f(torch.ones(3))", []),
    # A mask left None under torch.compile (TC239) passed on two calls down (transformers longt5
    # `_get_local_attention_mask` -> `_split_into_blocks`, modeling_longt5.py:111): Dynamo's
    # "Observed exception" is at the first use that fails on None, in the innermost function. A
    # helper that tests for None first handles it.
    "none-passed-down-to-a-helper": ("""
        import torch
        def split(x, n, dim):
            if x.shape[dim] % n != 0:
                x = torch.nn.functional.pad(x, (0, 1))
            return x.reshape(x.shape[0], -1, n)
        def local_mask(mask, n):
            blocked = split(mask, n, dim=1)
            return blocked.unsqueeze(-1)
        def fill(mask, x):
            if mask is None:
                return torch.ones(x.shape[:2])
            return mask
        @torch.compile
        def f(x, mask=None):
            if mask is None and not torch.compiler.is_compiling():
                mask = torch.ones(x.shape[:2])
            y = x * 2 + fill(mask, x).sum()
            m = local_mask(mask, 2)
            return y + m.sum()
    """, "f(torch.ones(2, 4))", [("TC239", 3)]),
    # A `@property` read as an attribute runs its getter, of the class or of a base (ema-pytorch
    # `current_decay = self.beta`, post_hoc_ema.py:138): Dynamo inlines it and breaks inside.
    # Assigning the attribute or calling a method runs no getter.
    "property-read-runs-the-getter": ("""
        import torch
        from torch import nn
        class Base(nn.Module):
            @property
            def scale(self):
                if torch.rand(()) > 2:
                    return 2.0
                return 1.0
        class EMA(Base):
            def __init__(self):
                super().__init__()
                self.register_buffer("step", torch.tensor(0))
            @property
            def beta(self):
                return 1.0 / (self.step.item() + 1.0)
            @property
            def width(self):
                return 4
            def forward(self, x):
                y = x * self.width
                b = self.beta
                return y * b * self.scale
    """, "torch.compile(EMA())(torch.ones(3))", [("TC101", 6), ("TC102", 15)]),
    # An element of a list of tensors built here (a display, a comprehension, appends) is a
    # tensor (roma `foo = angles[idx]; foo[foo < -pi] += 2 * pi`, euler.py:208); the list
    # itself is static (`if ys:`, `len(ys)`), and so is an element of a list of sizes.
    "elements-of-a-list-of-tensors": ("""
        import torch
        @torch.compile
        def f(x):
            ys = [x * 1, x * 2]
            zs = [torch.empty(3) for _ in range(3)]
            outs = []
            for i in range(2):
                outs.append(x * i)
            n = len(ys)
            if ys:
                x = x * n
            if ys[0].sum() > 0:
                x = x + 1
            foo = zs[1]
            foo[foo < 0] += 1
            if outs[-1].sum() > 0:
                x = x + 1
            sizes = []
            sizes.append(x.shape[0])
            if sizes[0] > 2:
                x = x + 1
            return x
    """, "f(torch.ones(3, 2))", [("TC101", 12), ("TC302", 15), ("TC101", 16)]),
    # An object whose `__init__` breaks is built eagerly: Dynamo resumes with it as an input,
    # so calling its breaking method is no second break (botorch `NormalQMCEngine(...).draw`,
    # utils/sampling.py:142, whose `__init__` builds a SobolEngine); an object built without a
    # break still is ("Reconstruction failure", TC225).
    "constructor-that-breaks-builds-the-object-eagerly": ("""
        import torch
        class Sobol:
            def __init__(self):
                self.engine = torch.quasirandom.SobolEngine(3)
            def draw(self, n):
                return self.engine.draw(n)
        class Scale:
            def __init__(self):
                self.k = 2
            def run(self, x):
                print("run")
                return x * self.k
        @torch.compile
        def f(x):
            s = Sobol()
            return x + s.draw(1)
        @torch.compile
        def g(x):
            t = Scale()
            return t.run(x)
    """, "(f(torch.ones(3)), g(torch.ones(3)))", [("TC220", 4), ("TC220", 6), ("TC201", 11), ("TC225", 20)]),
    # `x, t_span = solver.sync(x, t_span)` on a solver passed in, or built by a helper that picks
    # the class from a table: each field is what the project's methods of that name return there
    # (torchdyn `odeint`, odeint.py:64, then `while t < T:` in `_adaptive_odeint`).
    "tuple-returned-by-a-method-of-an-object-passed-in": ("""
        import torch
        class Solver:
            def sync(self, x, t_span):
                return x, t_span.to(x.device)
        SOLVERS = {"euler": Solver}
        def make_solver(name):
            solver = SOLVERS[name]
            return solver()
        def odeint(x, t_span, solver):
            if isinstance(solver, str):
                solver = make_solver(solver)
            x, t_span = solver.sync(x, t_span)
            t, T = t_span[0], t_span[-1]
            while t < T:
                x, t = x * 2, t + 0.5
            return x
        @torch.compile
        def f(x, t_span):
            return odeint(x, t_span, Solver()) + odeint(x, t_span, "euler")
    """, "f(torch.ones(3), torch.linspace(0, 1, 3))", [("TC101", 14)]),
    # A value filled in only when not compiling (TC239), passed on through a helper's
    # `**kwargs` to the function whose first use of it fails on None.
    "none-passed-on-through-kwargs": ("""
        import torch
        def inner(x, mask=None):
            return x * mask[None]
        def handled(x, mask=None):
            return x if mask is None else x * mask
        def middle(x, **kwargs):
            return inner(x, **kwargs) + handled(x, **kwargs)
        @torch.compile
        def f(x, mask=None):
            if mask is None and not torch.compiler.is_compiling():
                mask = torch.ones(3)
            y = x * 2
            return middle(y, mask=mask)
    """, "f(torch.ones(3))", [("TC239", 3)]),
    # A helper that returns its parameter or an entry of it hands back what the caller
    # passed: the solvers a table of tables holds (xitorch `_RootFinder.forward` →
    # `get_method(name, methods, method)` → `broyden1`).
    "function-picked-from-a-table-by-a-helper": ("""
        import torch
        def broyden(fcn, y):
            if fcn(y).norm() == 0:
                return y
            return y - fcn(y)
        def descent(fcn, y):
            return y - 0.1 * fcn(y)
        _RF_METHODS = {"broyden": broyden}
        _OPT_METHODS = {"descent": descent}
        def get_method(name, methods, method):
            if isinstance(method, str):
                return methods[method]
            return method
        @torch.compile
        def f(y, alg="rootfinder", method="broyden"):
            methods = {"rootfinder": _RF_METHODS, "minimizer": _OPT_METHODS}[alg]
            solve = get_method(alg, methods, method)
            return solve(torch.sin, y)
    """, "f(torch.ones(3))", [("TC101", 3)]),
    # Only what a helper returns stands for what its caller passes: a local bound to an entry
    # of a parameter, called or passed on, is no such value (tensordict's pytree
    # `constructor = context["constructor"]; constructor(cls=cls, ...)` crashed the project phase).
    "function-read-from-a-parameter-and-called": ("""
        import torch
        def build(cls, values):
            return values * 2
        def unflatten(values, context):
            cls = context["cls"]
            constructor = context["constructor"]
            return constructor(cls=cls, values=values)
        @torch.compile
        def f(x):
            return unflatten(x, {"cls": int, "constructor": build})
    """, "f(torch.ones(3))", []),
    # `if not isinstance(t, torch.Tensor): t = torch.tensor(t)` leaves a tensor on both paths,
    # in a function that is no entry point too (TorchDiffEqPack `ODESolver.__init__`: the
    # branch on `self.t1 > self.t0` breaks, and each `super().__init__()` up the chain).
    "tensor-made-where-isinstance-says-it-is-none": ("""
        import torch
        from torch import nn
        class Solver(nn.Module):
            def __init__(self, t0, t1=1.0):
                super(Solver, self).__init__()
                if not isinstance(t1, torch.Tensor):
                    t1 = torch.tensor(t1)
                self.t0, self.t1 = t0, t1
                self.direction = 1.0 if self.t1 > self.t0 else -1.0
        class Fixed(Solver):
            def __init__(self, t0, t1=1.0):
                super(Fixed, self).__init__(t0=t0, t1=t1)
        @torch.compile
        def f(y, t0):
            return Fixed(t0=t0).direction * y
    """, "f(torch.ones(3), torch.tensor(0.0))", [("TC226", 5), ("TC101", 9), ("TC226", 12)]),
    # Building an optimizer (or a learning-rate scheduler) in compiled code breaks, whatever
    # holds it (torchjd `FAMO.update`: `self._optimizer = Adam([self._w], ...)` on first use;
    # Dynamo names it "setattr() on unsupported type" there, a skipped function elsewhere).
    "optimizer-built-in-compiled-code": ("""
        import torch
        from torch import nn
        from torch.optim import Adam
        class Weighting(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.Parameter(torch.zeros(3))
                self.optimizer = None
            def update(self, losses):
                if self.optimizer is None:
                    self.optimizer = Adam([self.w], lr=0.1)
                return losses * 2
        weighting = Weighting()
        @torch.compile
        def f(losses):
            return weighting.update(losses)
    """, "f(torch.ones(3))", [("TC220", 11)]),
    # A module hook registered in compiled code builds a RemovableHandle, whose constructor bumps a
    # class attribute: each registration breaks ("setattr() on unsupported type"; captum's DeepLift
    # `_hook_main_model`); a tensor's `register_hook` is traced.
    "module-hooks-registered": ("""
        import torch
        def double(module, inputs, output):
            return output * 2
        def keep(module, inputs):
            return None
        @torch.compile
        def f(model, x):
            first = model.register_forward_hook(double)
            second = model.register_forward_pre_hook(keep)
            x = x * 2
            x.register_hook(lambda g: g * 2)
            return model(x)
    """, "f(torch.nn.Linear(3, 3), torch.randn(2, 3, requires_grad=True))", [("TC251", 8), ("TC251", 9)]),
    # An input's flag turned on and later restored (torchani's `energies_and_forces`): when the first
    # `requires_grad_` changes the flag, so does the restoring one, whatever its argument.
    "requires-grad-restored": ("""
        import torch
        def energy(x, w):
            saved = x.requires_grad
            x.requires_grad_(True)
            e = (x * w).sum()
            x.requires_grad_(saved)
            return e.detach()
        @torch.compile
        def f(x, w):
            x.requires_grad_(False)
            return energy(x, w) + 1
    """, "f(torch.randn(3), torch.randn(3))", [("TC214", 4), ("TC214", 6)]),
    # A property that returns a tensor, used as a size (tntorch's `ranks_tt`, the ranks of the cores
    # as a tensor): Dynamo reads the element's value.
    "tensor-property-as-size": ("""
        import torch
        class Train:
            def __init__(self, cores):
                self.cores = cores
            @property
            def ranks(self):
                return torch.tensor([c.shape[-1] for c in self.cores])
            def full(self):
                return torch.ones(1, self.ranks[0])
        @torch.compile
        def f(x):
            return Train([x, x]).full()
    """, "f(torch.randn(2, 2))", [("TC111", 9), ("TC225", 12)]),
    # A boolean buffer registered as `mask if needed else None`, joined from boolean pieces
    # (rtdl-num-embeddings' piecewise-linear encoding): indexing with it is a boolean-mask index.
    "bool-buffer-from-joined-masks": ("""
        import torch
        class Bins(torch.nn.Module):
            def __init__(self, counts, width):
                super().__init__()
                self.register_buffer(
                    "mask",
                    None if all(n == width for n in counts)
                    else torch.row_stack([
                        torch.cat([torch.ones(n, dtype=torch.bool), torch.zeros(width - n, dtype=torch.bool)])
                        for n in counts
                    ]),
                )
            def forward(self, x):
                return x if self.mask is None else x[:, self.mask]
        model = Bins([3, 2], 3)
        @torch.compile
        def f(x):
            return model(x) * 2
    """, "f(torch.randn(4, 2, 3))", [("TC302", 14)]),
}


def _source(name: str) -> str:
    return textwrap.dedent(CASES[name][0]).lstrip("\n")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tclint_finds_the_breaks(name):
    found = sorted((d.code, d.span.line) for d in api.lint_source(_source(name), path="case.py"))
    assert found == sorted(CASES[name][2])


@pytest.fixture(scope="module")
def verdicts():
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    cases = [{"id": name, "source": _source(name), "call": call} for name, (_, call, _) in CASES.items()]
    return ask(cases)


@pytest.mark.dynamo
@pytest.mark.parametrize("name", sorted(CASES))
def test_dynamo_breaks_on_those_lines(verdicts, name):
    result = verdicts[name]
    assert result["error"] is None, result["error"]
    assert sorted({line for _, line in result["breaks"]}) == sorted({line for _, line in CASES[name][2]})


# An object built in several arms: its method is each class's (xitorch `_nonlin_solver`'s
# `jacobian.setup(x, y, func)` after `jacobian = BroydenFirst(...)` in the first arm). Whether
# the call breaks too (Dynamo cannot rebuild the object to resume: "Reconstruction failure")
# depends on the arm that ran, so TC225 is not reported there.
ARMS = """
        import torch
        class Broyden:
            def setup(self, y):
                norm = torch.norm(y)
                if norm:
                    self.alpha = 0.5 / norm
        class Mixing:
            def setup(self, y):
                self.alpha = 1.0
        @torch.compile
        def f(y, method="broyden"):
            if method == "broyden":
                jac = Broyden()
            elif method == "mixing":
                jac = Mixing()
            else:
                raise ValueError(method)
            jac.setup(y)
            return y * 2
        @torch.compile
        def g(y, method="mixing"):
            if method == "broyden":
                jac = Broyden()
            else:
                jac = Mixing()
            jac.setup(y)
            return y * 2
"""


def test_the_methods_of_an_object_built_in_several_arms_are_followed():
    found = sorted((d.code, d.span.line) for d in api.lint_source(textwrap.dedent(ARMS).lstrip("\n"), path="case.py"))
    assert found == [("TC101", 5)]


@pytest.mark.dynamo
def test_dynamo_breaks_in_the_arm_that_ran_and_at_its_call():
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    source = textwrap.dedent(ARMS).lstrip("\n")
    result = ask([{"id": "arms", "source": source, "call": "(f(torch.ones(3)), g(torch.ones(3)))"}])["arms"]
    assert sorted(set(map(tuple, result["breaks"]))) == [("Data-dependent branching", 5),
                                                         ("Reconstruction failure", 18)]
