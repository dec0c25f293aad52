"""tree_walk.walk calls a visitor's on_visit/on_leave exactly as libcst's own visit does."""
from pathlib import Path

import libcst as cst
import pytest

from tclint.analyzer import tree_walk

ROOT = Path(__file__).resolve().parent.parent

# Syntax whose children libcst visits conditionally or in an unusual order.
EVERY_KIND = '''
from __future__ import annotations
from . import a as b, c
from .. x import *
from os import (path as p,
    sep)
import torch.nn as nn, sys
@torch.compile(mode="max-autotune")
@staticmethod
async def f(a, /, b: int = 1, *args, c, d=2, **kw) -> "T":
    global g
    x = [i async for i in y if i] + {k: v for k, v in z} + {s for s in t}
    y: list[int] = (yield x) or (lambda q, *r, **s: q)(1)
    async with a as (b, c), d:
        await x
    if (n := len(x)) > 1 and not y or z is not None:
        pass
    elif x:
        del x[1:2, ::3]
    else:
        raise ValueError(f"{x!r:>{width}} {y=} {'a'}") from None
    try:
        assert x, "msg"
    except* (TypeError, ValueError) as e:
        x @= y
    finally:
        return x if y else -z ** 2
    match command:
        case [Point(x=0, y=0), *rest] | {"k": 1, **others} if rest:
            pass
        case str() | None as s:
            pass
    for i in range(3):
        continue
    else:
        break
    while x < y <= z != w:
        nonlocal q
class C(B, metaclass=M):
    """doc"""
    x = 1; y = 2
    def g[T](self, a: T) -> T: ...
type Alias[K] = dict[K, int]
print(*a, **b, sep="")
'''


class _Events(cst.CSTVisitor):
    def __init__(self) -> None:
        self.events: list[tuple[str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", id(node)))
        return not isinstance(node, cst.Lambda)  # a visitor may decline a subtree

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.events.append(("leave", id(original_node)))


def _same_events(tree: cst.Module) -> None:
    theirs, ours = _Events(), _Events()
    tree.visit(theirs)
    tree_walk.walk(tree, ours)
    assert ours.events == theirs.events


def test_every_kind_of_syntax_is_walked_as_libcst_visits_it():
    _same_events(cst.parse_module(EVERY_KIND))


@pytest.mark.parametrize("path", sorted((ROOT / "examples").rglob("*.py"))[:40] + [ROOT / "analyzer/file_analysis.py"],
                         ids=lambda p: p.name)
def test_real_files_are_walked_as_libcst_visits_them(path):
    _same_events(cst.parse_module(path.read_text(encoding="utf-8")))


def test_the_order_of_every_libcst_node_type_is_known():
    types = [t for t in vars(cst).values() if isinstance(t, type) and issubclass(t, cst.CSTNode)
             and not getattr(t, "__abstractmethods__", None)]
    assert types
    assert [t.__name__ for t in types if tree_walk._visited_fields(t) is None] == []


@pytest.mark.parametrize("path", sorted((ROOT / "examples").rglob("*.py")) + [ROOT / "analyzer/file_analysis.py"],
                         ids=lambda p: p.name)
def test_skipping_the_trivia_no_rule_looks_at_changes_no_summary(path):
    from tclint.analyzer.file_analysis import FileAnalyzer
    from tclint.analyzer.rules import visitor_rules

    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    every, skipping = (FileAnalyzer(str(path), "m", False, visitor_rules()) for _ in range(2))
    tree_walk.walk(tree, every)
    tree_walk.walk(tree, skipping, skipping.unobserved())
    assert skipping.finish(tree) == every.finish(tree)


def test_a_skipped_type_is_not_visited_nor_anything_under_it():
    tree = cst.parse_module("f(a, b)  # note\n")
    seen = _Events()
    tree_walk.walk(tree, seen, frozenset({cst.Comma, cst.TrailingWhitespace}))
    kinds = {type(node) for node in _nodes(tree) if ("visit", id(node)) in seen.events}
    assert cst.Name in kinds and cst.Comma not in kinds and cst.Comment not in kinds


def _nodes(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _nodes(child)
