"""Code that only runs while training (`if self.training:`): findings there say so, since a
model compiled for inference (after `model.eval()`) never reaches them."""
from __future__ import annotations

import libcst as cst


def training_only_block(node: cst.If) -> cst.CSTNode | None:
    """The part of `node` that runs only when `self.training` is true, if any."""
    if _requires_training(node.test):
        return node.body
    if (isinstance(node.test, cst.UnaryOperation) and isinstance(node.test.operator, cst.Not)
            and _is_training(node.test.expression)):
        return node.orelse
    return None


def _requires_training(test: cst.BaseExpression) -> bool:
    if _is_training(test):
        return True
    return (isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And)
            and (_requires_training(test.left) or _requires_training(test.right)))


def _is_training(expr: cst.BaseExpression) -> bool:
    return (isinstance(expr, cst.Attribute) and expr.attr.value == "training"
            and isinstance(expr.value, cst.Name) and expr.value.value == "self")
