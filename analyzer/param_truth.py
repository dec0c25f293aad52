"""The truth of a test (`if`, `and`, `or`, `not`) when one name is known only to be None,
falsy, or not None, without reading any other value: `p is not None and x.sum() > 0` is
False when `p` is None, whatever `x` holds."""
from __future__ import annotations

import libcst as cst

NONE, FALSY, NOT_NONE = "None", "falsy", "not None"


def truth_when(test: cst.BaseExpression, name: str, fact: str) -> bool | None:
    """The truth of `test` when `name` is `fact` (NONE, FALSY or NOT_NONE); None if that
    does not decide it."""
    if isinstance(test, cst.Name) and test.value == name:
        return False if fact != NOT_NONE else None
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        value = truth_when(test.expression, name, fact)
        return None if value is None else not value
    if isinstance(test, cst.BooleanOperation):
        short = isinstance(test.operator, cst.Or)  # the truth that ends the evaluation
        left = truth_when(test.left, name, fact)
        if left is short:
            return short
        right = truth_when(test.right, name, fact)
        # `a and b` is falsy when `b` is, whatever `a` is; `a or b` truthy when `b` is
        return right if left is not None or right is short else None
    if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)
            and test.left.value == name and isinstance(test.comparisons[0].comparator, cst.Name)
            and test.comparisons[0].comparator.value == "None"):
        op = test.comparisons[0].operator
        if isinstance(op, (cst.Is, cst.IsNot)) and fact != FALSY:
            return (fact == NONE) is isinstance(op, cst.Is)
    return None


def tested_names(test: cst.BaseExpression) -> set[str]:
    """The names whose value alone may decide `test`: its bare names and the `p` of `p is
    None` / `p is not None`, under `and`, `or` and `not`."""
    if isinstance(test, cst.Name):
        return {test.value}
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return tested_names(test.expression)
    if isinstance(test, cst.BooleanOperation):
        return tested_names(test.left) | tested_names(test.right)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name):
        return {test.left.value}
    return set()
