import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_or_unknown
from tclint.analyzer.rules.base import Example, Rule

# In-place methods with a deprecated overload that takes the scalar first, and how many
# positional arguments that overload has (the current ones take one fewer: the scalar moved
# to the keyword `alpha=` / `value=`).
_SCALAR_FIRST = {"add_": 2, "addcmul_": 3, "addcdiv_": 3}


class ScalarFirstInplace(Rule):
    """
    ## What it does
    Flags the deprecated scalar-first overloads of in-place tensor updates, as older
    optimizers write them: `exp_avg.add_(1 - beta1, grad)`,
    `exp_avg_sq.addcmul_(1 - beta2, grad, grad)`, `p.data.addcdiv_(-lr, exp_avg, denom)`.

    ## Why is this bad?
    Dynamo 2.13 does not bind these overloads: the graph breaks at the call ("Unhandled args
    for method"), and in an optimizer's loop over its parameters the rest of `step()` then
    runs eagerly. The current overloads (`add_(grad, alpha=1 - beta1)`,
    `addcmul_(grad, grad, value=1 - beta2)`) trace, and so do the out-of-place `add`,
    `addcmul`, `addcdiv` and `sub_` with the scalar first.

    ## Example
    ```python
    exp_avg.mul_(beta1).add_(1 - beta1, grad)
    ```

    ## Use instead
    ```python
    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
    ```
    """

    code = "TC248"
    name = "scalar-first-inplace"
    message = ("the deprecated scalar-first overload of `{method}` is not traced by Dynamo; the graph breaks "
               "here (pass the scalar as `{keyword}=`)")
    graph_break = hazards.UNHANDLED_METHOD_ARGS

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(exp_avg, exp_avg_sq, grad, beta1=0.9, beta2=0.999):
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                return exp_avg.add(0.5, grad) + exp_avg_sq.addcdiv(0.5, grad, grad.abs() + 1)
        """, call="f(torch.zeros(3), torch.zeros(3), torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(exp_avg, grad, beta1=0.9):
                exp_avg = exp_avg * 1
                exp_avg.mul_(beta1).add_(1 - beta1, grad)
                return exp_avg + 1
        """, call="f(torch.zeros(3), torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(exp_avg_sq, grad, beta2=0.999):
                exp_avg_sq = exp_avg_sq * 1
                exp_avg_sq.mul_(beta2).addcmul_(1 - beta2, grad, grad)
                return exp_avg_sq + 1
        """, call="f(torch.zeros(3), torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(p, exp_avg, denom, lr=0.1):
                p = p * 1
                p.data.addcdiv_(-lr, exp_avg, denom)
                return p + 1
        """, call="f(torch.zeros(3), torch.randn(3), torch.ones(3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        method = func.attr.value
        positional = _SCALAR_FIRST.get(method)
        if positional is None or any(a.star for a in node.args):
            return
        if sum(1 for a in node.args if a.keyword is None) != positional:
            return
        is_tensor, cond = tensor_or_unknown(self.facts, func.value)
        if is_tensor:
            keyword = "alpha" if method == "add_" else "value"
            self.report(node, self.message.format(method=method, keyword=keyword), condition=cond)
