"""Where torch ops take Python numbers (sizes, counts, `k`, shifts, scalar factors such as
`alpha`): a tensor passed there must be read with an implicit `.item()`, which Dynamo reports as a data-dependent operator
(torch 2.13, `capture_scalar_outputs=False`). Checked one by one under Dynamo; places that
accept a tensor (`torch.full`'s fill value, `clamp`'s bounds, `masked_fill`'s value) are
left out on purpose.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NumberParams:
    positions: tuple[int, ...] | None  # None: every positional argument (`*size`)
    keywords: tuple[str, ...] = ()


_SIZE = NumberParams(None, ("size",))

FUNCTIONS: dict[str, NumberParams] = {
    "torch.arange": NumberParams(None, ("start", "end", "step")),
    **dict.fromkeys(("torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"), _SIZE),
    "torch.randint": NumberParams(None, ("low", "high", "size")),
    "torch.randperm": NumberParams((0,), ("n",)),
    "torch.eye": NumberParams((0, 1), ("n", "m")),
    "torch.linspace": NumberParams((2,), ("steps",)),
    "torch.logspace": NumberParams((2,), ("steps",)),
    "torch.full": NumberParams((0,), ("size",)),  # the fill value may be a tensor
    "torch.full_like": NumberParams((1,), ("fill_value",)),
    "torch.topk": NumberParams((1,), ("k",)),
    "torch.kthvalue": NumberParams((1,), ("k",)),
    "torch.narrow": NumberParams((2, 3), ("start", "length")),
    "torch.roll": NumberParams((1,), ("shifts",)),
    "torch.tril": NumberParams((1,), ("diagonal",)),
    "torch.triu": NumberParams((1,), ("diagonal",)),
    "torch.chunk": NumberParams((1,), ("chunks",)),
    "torch.multinomial": NumberParams((1,), ("num_samples",)),
    "torch.nn.functional.pad": NumberParams((1,), ("pad",)),
    "torch.nn.functional.interpolate": NumberParams((1,), ("size",)),
    "torch.nn.functional.one_hot": NumberParams((1,), ("num_classes",)),
    # the scalar factors of out-of-place ops (`torch.add(a, b, alpha=t)`); the in-place forms
    # of the elementwise ones (`add_`, `addcmul_`) and `addcdiv` take a tensor there without a
    # break, those of the matrix products (`addmm_`, `addr_`, ...) do not
    **dict.fromkeys(("torch.add", "torch.sub", "torch.rsub"), NumberParams((), ("alpha",))),
    "torch.addcmul": NumberParams((), ("value",)),
    **dict.fromkeys(("torch.addmm", "torch.addmv", "torch.baddbmm", "torch.addbmm", "torch.addr"),
                    NumberParams((), ("beta", "alpha"))),
}

# Torch functions that build a tensor from Python numbers: their result is a tensor, so
# arithmetic on it is no number (`high=n - torch.randint(0, 3, (1,))[0]` breaks).
CONSTRUCTORS = frozenset((
    "torch.arange", "torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn", "torch.randint",
    "torch.randperm", "torch.eye", "torch.linspace", "torch.logspace", "torch.full", "torch.tensor",
    "torch.as_tensor",
))

# Tensor methods, by name (the receiver must be a tensor or look like one).
METHODS: dict[str, NumberParams] = {
    **dict.fromkeys(("view", "reshape", "expand", "repeat"), NumberParams(None, ("size", "shape", "sizes"))),
    **dict.fromkeys(("new_zeros", "new_ones", "new_empty"), _SIZE),
    "new_full": NumberParams((0, 1), ("size", "fill_value")),
    "topk": NumberParams((0,), ("k",)),
    "kthvalue": NumberParams((0,), ("k",)),
    "narrow": NumberParams((1, 2), ("start", "length")),
    "roll": NumberParams((0,), ("shifts",)),
    "tril": NumberParams((0,), ("diagonal",)),
    "triu": NumberParams((0,), ("diagonal",)),
    "chunk": NumberParams((0,), ("chunks",)),
    "unflatten": NumberParams((1,), ("sizes",)),
    "multinomial": NumberParams((0,), ("num_samples",)),
    **dict.fromkeys(("add", "sub"), NumberParams((), ("alpha",))),
    "addcmul": NumberParams((), ("value",)),
    **dict.fromkeys(("addmm", "addmv", "baddbmm", "addbmm", "addr", "addmm_", "addmv_", "baddbmm_", "addbmm_",
                     "addr_"), NumberParams((), ("beta", "alpha"))),
}
