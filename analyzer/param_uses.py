"""Parameters a function's body uses as something other than a tensor.

A compiled function's plain parameter (no default, no annotation) is taken to hold a tensor,
unless its body says otherwise: it is called (`fn(x)`), read an attribute tensors lack
(`config.hidden_size`, `getattr(config, "eps")`), counted over (`range(n)`), used where torch
takes a Python number or a dim (`x.view(b, n)`, `x.sum(dim)`, `x.shape[dim]`,
`torch.zeros(size)`), a device or dtype (`x.to(device)`, `dtype=dtype`), or compared with a
string (`mode == "sum"`). A local computed from parameters by arithmetic (`n = total // size`)
carries such a use later in its block back to them: used as a number, it is one, and so are
they (a tensor's arithmetic gives a tensor). Uses after the function's own block
binds the name again say nothing about the parameter (a binding in an `if` arm or a loop leaves
it on the other paths).
"""
from __future__ import annotations

import libcst as cst

from tclint.analyzer.knowledge import int_arguments, tensor_api as api
from tclint.analyzer.tree_walk import TRIVIA, walk

# Keywords whose value is never a tensor (a dim, a device or dtype, a shape).
_NON_TENSOR_KEYWORDS = frozenset({"dim", "axis", "device", "dtype", "size", "shape"})
# Tensor methods whose positional arguments are dims (and flags such as `keepdim`).
_DIM_METHODS = frozenset({
    "size", "sum", "mean", "prod", "softmax", "log_softmax", "cumsum", "cumprod", "argmax", "argmin",
    "unsqueeze", "squeeze", "transpose", "permute", "logsumexp", "amax", "amin", "unbind", "movedim",
})


def non_tensor_params(body: cst.CSTNode, names: set[str], facts) -> set[str]:
    """Those of `names` that `body` uses as something other than a tensor."""
    uses = _Uses(names, facts)
    walk(body, uses, TRIVIA)
    return uses.found


class _Uses(cst.CSTVisitor):
    def __init__(self, names: set[str], facts) -> None:
        self.open = set(names)  # not bound again yet
        self.found: set[str] = set()
        self.facts = facts
        self.depth = 0  # compound statements around the node
        self.derived: dict[str, frozenset[str]] = {}  # local -> the parameters its arithmetic read
        self.assigned: tuple[str, frozenset[str]] | None = None  # the assignment being read
        self.blocks: list[list[str]] = [[]]  # the locals derived in each block around the node

    def _mark(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            if node.value in self.open:
                self.found.add(node.value)
            self.found.update(self.derived.get(node.value, ()))

    def _mark_number(self, node: cst.BaseExpression) -> None:
        """`node` is a Python number, or a tuple of them: so are the names it is computed
        from (`torch.arange(j - i, j)`, `x.unflatten(-1, (heads, head_dim))`)."""
        if isinstance(node, cst.BinaryOperation):
            self._mark_number(node.left)
            self._mark_number(node.right)
        elif isinstance(node, cst.UnaryOperation):
            self._mark_number(node.expression)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for el in node.elements:
                self._mark_number(el.value)
        else:
            self._mark(node)

    # A name bound again on one path only (in an `if` arm, a loop) may still hold the
    # parameter after it: only a binding in the function's own block ends it.
    def visit_If(self, node: cst.If) -> None:
        self.depth += 1

    def leave_If(self, node: cst.If) -> None:
        self.depth -= 1

    visit_While = visit_With = visit_Try = visit_TryStar = visit_If
    leave_While = leave_With = leave_Try = leave_TryStar = leave_If

    def visit_For(self, node: cst.For) -> None:
        self._rebind(node.target)
        self.depth += 1

    def leave_For(self, node: cst.For) -> None:
        self.depth -= 1

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._rebind(node.target)

    def visit_Assign(self, node: cst.Assign) -> None:
        """`n = total // size`: what `n` is used as later in the block, they are (read before
        the targets are bound: `n = n // 2`)."""
        target = node.targets[0].target if len(node.targets) == 1 else None
        self.assigned = None
        if isinstance(target, cst.Name) and isinstance(node.value, (cst.BinaryOperation, cst.UnaryOperation, cst.Name)):
            self.assigned = (target.value, self._operands(node.value))

    def leave_Assign(self, node: cst.Assign) -> None:
        if self.assigned is not None and self.assigned[1]:
            self.derived[self.assigned[0]] = self.assigned[1]
            self.blocks[-1].append(self.assigned[0])
        self.assigned = None

    # An arm's derived locals say nothing after it (another arm, or none, ran there).
    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.blocks.append([])

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        for name in self.blocks.pop():
            self.derived.pop(name, None)

    visit_SimpleStatementSuite = visit_IndentedBlock
    leave_SimpleStatementSuite = leave_IndentedBlock

    def _operands(self, node: cst.BaseExpression) -> frozenset[str]:
        """The parameters (directly or through derived locals) an arithmetic expression reads."""
        if isinstance(node, cst.BinaryOperation):
            return self._operands(node.left) | self._operands(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self._operands(node.expression)
        if isinstance(node, cst.Name):
            return frozenset((node.value,)) if node.value in self.open else self.derived.get(node.value, frozenset())
        return frozenset()

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._rebind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._rebind(node.target)

    def _rebind(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.derived.pop(target.value, None)  # another value, on some path at least
            if not self.depth:
                self.open.discard(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._rebind(el.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value not in api.TENSOR_ATTRIBUTES:
            self._mark(node.value)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        operands = [node.left, *(c.comparator for c in node.comparisons)]
        if any(isinstance(o, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) for o in operands):
            for o in operands:
                self._mark(o)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        # `x.shape[dim]`
        if isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape":
            for el in node.slice:
                if isinstance(el.slice, cst.Index):
                    self._mark_number(el.slice.value)

    def visit_Call(self, node: cst.Call) -> None:
        self._mark(node.func)  # called: a function or a module
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in _NON_TENSOR_KEYWORDS:
                self._mark_number(arg.value)
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        func = node.func
        qual = self.facts.qualname(func)
        if qual == "builtins.range":
            for arg in positional:
                self._mark_number(arg)
        elif qual == "builtins.getattr" and len(positional) >= 2 and isinstance(positional[1], cst.SimpleString) \
                and positional[1].evaluated_value not in api.TENSOR_ATTRIBUTES:
            self._mark(positional[0])
        elif qual is not None and qual in int_arguments.FUNCTIONS:
            self._mark_numbers(int_arguments.FUNCTIONS[qual], node)
        elif qual is None and isinstance(func, cst.Attribute) and not self._on_self(func.value):
            # (`self.norm(x)`, `self.blocks.repeat(x)`: submodules named like tensor methods)
            method = func.attr.value
            if method in int_arguments.METHODS:
                self._mark_numbers(int_arguments.METHODS[method], node)
            elif method in _DIM_METHODS:
                for arg in positional:
                    self._mark_number(arg)
            elif method == "to" and len(positional) == 1:
                self._mark(positional[0])  # a device or dtype (another tensor's are read off it)

    def _on_self(self, node: cst.BaseExpression) -> bool:
        while isinstance(node, (cst.Attribute, cst.Subscript)):
            node = node.value
        return self.facts.is_self(node)

    def _mark_numbers(self, params: int_arguments.NumberParams, node: cst.Call) -> None:
        for i, arg in enumerate(node.args):
            if arg.star:
                break
            if arg.keyword is None and (params.positions is None or i in params.positions):
                self._mark_number(arg.value)
            elif arg.keyword is not None and arg.keyword.value in params.keywords:
                self._mark_number(arg.value)
