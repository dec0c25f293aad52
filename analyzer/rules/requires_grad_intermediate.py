import libcst as cst

from tclint.analyzer.call_refs import InputParam
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import argument, function_body, target_names
from tclint.analyzer.rules.base import Example, Rule

# Calls and attributes that give a value without the autograd history of their receiver.
_NO_HISTORY_METHODS = frozenset({"detach", "item", "tolist", "size", "dim", "numel", "stride"})
_NO_HISTORY_ATTRS = frozenset({"shape", "dtype", "device", "requires_grad", "ndim", "is_leaf"})
_STORE_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})
_INPUT_MESSAGE = ("`requires_grad_()` on an input of the compiled function is not supported by Dynamo; the graph "
                  "breaks here. Call it before the compiled call")


def _history_names(expr: cst.CSTNode) -> set[str]:
    """Names whose autograd history flows into the value of `expr`."""
    out: set[str] = set()

    class _V(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            out.add(node.value)

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Call(self, node: cst.Call) -> bool:
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in _NO_HISTORY_METHODS:
                return False
            return True

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if node.attr.value in _NO_HISTORY_ATTRS:
                return False
            node.value.visit(self)
            return False

    expr.visit(_V())
    return out


def _turns_on(call: cst.Call) -> bool:
    """`t.requires_grad_()` or `t.requires_grad_(True)`."""
    flag = argument(call, 0, "requires_grad")
    return flag is None or (isinstance(flag, cst.Name) and flag.value == "True")


def _contains(tree: cst.CSTNode, target: cst.CSTNode) -> bool:
    found = False

    class _V(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            if node is target:
                found = True
            return not found

    tree.visit(_V())
    return found


class RequiresGradIntermediate(Rule):
    """
    ## What it does
    Flags `t.requires_grad_()` inside a compiled region when `t` is an input of the
    compiled function (also in a helper it is passed to unchanged), or when `t` is an
    intermediate tensor (computed in the region)
    that reaches an output of the graph: it is returned (directly, inside a container,
    or through values computed from it) or stored on `self`, or, in any function the region
    reaches (`self[k] = v` runs the class's `__setitem__`), when it is stored on `self` or
    differentiated with `torch.autograd.grad`, which Dynamo does not
    trace: the graph ends there with the tensor still live, so it is an output. (Other
    breaks it outlives make it an output too; those are not flagged.) An input's flag
    turned on and then restored (`saved = x.requires_grad; x.requires_grad_(True); ...;
    x.requires_grad_(saved)`) changes at both calls.

    ## Why is this bad?
    Dynamo builds the graph for a fixed autograd setup. Turning on `requires_grad` for
    a graph input is not supported, and an intermediate marked with `requires_grad_()`
    cannot leave the graph as an output (the graph would have to become a leaf of a new
    autograd graph): in both cases the graph breaks. An intermediate that is only used
    inside the region, or `requires_grad_(False)`, is fine.

    ## Example
    ```python
    @torch.compile
    def prepare(x):
        z = (x * 2).detach().requires_grad_()
        return z
    ```

    ## Use instead
    Call `requires_grad_()` on the returned tensor outside the compiled function, or
    create the leaf before the compiled call and pass it in.
    """

    code = "TC214"
    name = "requires-grad-intermediate"
    message = "a `requires_grad_()` tensor leaves the compiled graph; the graph breaks here"
    graph_break = hazards.GRAD_LEAK
    also_predicts = (hazards.REQUIRES_GRAD_INPUT,)


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = (x * 2).requires_grad_()
                z = (y * y).sum()
                return x + 1, (y * 3).detach()
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return (x * 2).requires_grad_(False)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def dimension(edge):
                edge.requires_grad_(True)
                return edge.shape
            @torch.compile
            def f(x):
                x = x.clone()
                dimension(x)
                return (x * 2).detach()
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def energy(x):
                z = x.clone().requires_grad_()
                return (z * z).sum().detach()
            @torch.compile
            def f(x):
                return x * energy(x)
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = (x * 2).detach().requires_grad_()
                return y * 3
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                x.requires_grad_()
                return (x * 2).sum().detach()
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class Chain(torch.nn.Module):
                def dimension(self, edge):
                    edge.requires_grad_(True)
                    return edge.shape
                def check(self, potentials):
                    return self.dimension(potentials)
                def forward(self, potentials):
                    batch, n = self.check(potentials)
                    return potentials.sum(-1).detach()
        """, call="torch.compile(Chain())(torch.randn(2, 3))"),
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def forward(self, x):
                    h = torch.zeros(3).requires_grad_(True)
                    self.state = h
                    return x + 1
        """, call="torch.compile(M())(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                outs = []
                y = (x * 2).requires_grad_()
                outs.append(y)
                return outs
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def jacobian_diag(fn, x):
                with torch.enable_grad():
                    x = x.clone().requires_grad_()
                    y = fn(x)
                (g,) = torch.autograd.grad(y.sum(), x)
                return g
            @torch.compile
            def f(x):
                return jacobian_diag(torch.sin, x) + 1
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class ParamStore:
                def __init__(self):
                    self._params = {}
                def __setitem__(self, name, value):
                    with torch.no_grad():
                        unconstrained = value.contiguous()
                    unconstrained.requires_grad_(True)
                    self._params[name] = unconstrained
            STORE = ParamStore()
            @torch.compile
            def f(x):
                STORE["scale"] = x * 2
                return x + 1
        """, call="f(torch.randn(3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "requires_grad_"):
            return
        fn = self.facts.function
        if fn is None:
            return
        receiver = func.value
        if not _turns_on(node):
            # requires_grad_(False), or a value we cannot read: a change only where this
            # function turned the input's flag on above (`x.requires_grad_(saved)` restores it)
            if self._turned_on_above(fn.node, node, receiver):
                self._report_input(fn, node, receiver)
            return
        if self._report_input(fn, node, receiver, only_root=True):
            return
        cond = self.facts.tensor_condition(receiver) or self.facts.param_condition(receiver)
        if cond is None:
            return
        tainted = self._marked_names(fn.node, node, receiver)
        # In a helper, whether the value leaves the graph through a return depends on the
        # caller; one stored on `self`, or a break in the helper's own body that it outlives,
        # makes it an output anyway.
        if self._escapes(fn.node, node, tainted, fn.root_like) or self._differentiated(fn.node, tainted):
            self.report(node, condition=None if cond is True else cond)
            return
        self._report_input(fn, node, receiver)

    def _report_input(self, fn, node: cst.Call, receiver: cst.BaseExpression, only_root: bool = False) -> bool:
        """Report `node` as changing the flag of the compiled function's input: `receiver` is
        one (an entry point's), or, unless `only_root`, a parameter that may hold one."""
        if fn.root_like and self.facts.value(receiver).assumed and isinstance(receiver, cst.Name):
            self.report(node, _INPUT_MESSAGE, graph_break=hazards.REQUIRES_GRAD_INPUT)
            return True
        param = None if only_root else self.facts.own_param(receiver)
        if param is None:
            return False
        # a parameter that may hold the compiled function's input itself
        self.report(node, _INPUT_MESSAGE, graph_break=hazards.REQUIRES_GRAD_INPUT,
                    condition=frozenset((InputParam(param.function, param.position, param.name),)))
        return True

    @staticmethod
    def _turned_on_above(fn_node: cst.FunctionDef, call: cst.Call, receiver: cst.BaseExpression) -> bool:
        """`receiver.requires_grad_()` (turning it on) is called in this body before `call`."""
        if not isinstance(receiver, cst.Name):
            return False
        for earlier in function_body(fn_node).calls:
            if earlier is call:
                return False
            func = earlier.func
            if (isinstance(func, cst.Attribute) and func.attr.value == "requires_grad_" and _turns_on(earlier)
                    and isinstance(func.value, cst.Name) and func.value.value == receiver.value):
                return True
        return False

    @staticmethod
    def _marked_names(fn_node: cst.FunctionDef, call: cst.Call, receiver: cst.BaseExpression) -> set[str]:
        """The names bound to the marked tensor: the receiver (`requires_grad_` works in place)
        and the targets of assignments of the call."""
        tainted = {receiver.value} if isinstance(receiver, cst.Name) else set()
        for target, value in function_body(fn_node).assigns:
            if _contains(value, call):
                tainted |= target_names(target)
        return tainted

    def _differentiated(self, fn_node: cst.FunctionDef, tainted: set[str]) -> bool:
        """A marked name is an input of `torch.autograd.grad(outputs, inputs)` in this body."""
        for call in function_body(fn_node).calls:
            if self.facts.qualname(call.func) != "torch.autograd.grad":
                continue
            inputs = argument(call, 1, "inputs")
            if inputs is not None and _history_names(inputs) & tainted:
                return True
        return False

    def _escapes(self, fn_node: cst.FunctionDef, call: cst.Call, tainted: set[str], returned: bool) -> bool:
        """The marked value is stored on `self` (`self.h = y`, `self.params[k] = y`), or, when
        `returned` counts, returned."""
        body = function_body(fn_node)
        if returned and any(_contains(r, call) for r in body.returns):
            return True
        for target, value in body.assigns:
            if _contains(value, call) and self._on_self(target):
                return True
        tainted = set(tainted)
        if not tainted:
            return False
        # Containers filled with a tainted value carry it: `outs.append(y)`.
        stores = [(call.func.value, call.args[-1].value) for call in body.calls
                  if isinstance(call.func, cst.Attribute) and call.func.attr.value in _STORE_METHODS
                  and call.args]
        changed = True
        while changed:
            changed = False
            for target, value in [*body.assigns, *stores]:
                if _history_names(value) & tainted:
                    if self._on_self(target):
                        return True
                    new = target_names(target) - tainted
                    if new:
                        tainted |= new
                        changed = True
        return returned and any(_history_names(r) & tainted for r in body.returns)

    def _on_self(self, target: cst.BaseExpression) -> bool:
        while isinstance(target, cst.Subscript):
            target = target.value
        return isinstance(target, cst.Attribute) and self.facts.is_self(target.value)
