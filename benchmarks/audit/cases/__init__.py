"""Audit cases: one module per package, each case a tiny model built from code.

A case is a function decorated with `@case(...)` that returns `(fn, args, kwargs)`. It must
build without weights or network and be deterministic: the runner seeds torch, random and
NumPy with 0 right before it. `grad=True` keeps autograd on (a training-style call);
otherwise the call runs under `torch.no_grad()`.
"""
from __future__ import annotations

import importlib
import pkgutil

CASES: dict = {}


class Case:
    def __init__(self, cid, build, grad):
        self.id, self.build, self.grad = cid, build, grad


def case(name, grad=False):
    def deco(build):
        cid = build.__module__.rsplit(".", 1)[-1] + "." + name
        if cid in CASES:
            raise ValueError(f"duplicate case {cid}")
        CASES[cid] = Case(cid, build, grad)
        return build

    return deco


def load_all() -> dict:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return CASES
