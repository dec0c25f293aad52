import libcst as cst

from tclint.analyzer.knowledge.hazards import GraphBreak
from tclint.analyzer.rules._support import method_call
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind

# nn.Module's hook registrations: each builds a torch.utils.hooks.RemovableHandle, whose
# __init__ bumps the class attribute `RemovableHandle.next_id`, a setattr on a type Dynamo
# does not support (torch 2.13). `Tensor.register_hook` is traced (Dynamo builds its own handle).
_HOOK_METHODS = frozenset({
    "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_backward_hook",
})
SETATTR_ON_TYPE = GraphBreak("GB0467", "setattr() on unsupported type")
# the handle then crosses the break: using it, or building it in an inlined helper, breaks again
UNREGISTERED_HANDLE = GraphBreak("GB0013", "Attempted to represent unregistered RemovableHandle")
# what the receiver cannot be: a module, or an object of unknown kind, can hold these methods
_NOT_MODULES = frozenset({Kind.TENSOR, Kind.MASK, Kind.NDARRAY, Kind.STATIC, Kind.OBJECT})


class ModuleHookRegistration(Rule):
    """
    ## What it does
    Flags `module.register_forward_hook(...)`, `register_forward_pre_hook`,
    `register_full_backward_hook`, `register_full_backward_pre_hook` and
    `register_backward_hook` called in a compiled region.

    ## Why is this bad?
    Each registration builds a `RemovableHandle`, whose constructor increments a class
    attribute (`RemovableHandle.next_id`). Dynamo cannot set an attribute on a class, so the
    graph breaks at the registration ("setattr() on unsupported type"), and the handle,
    built outside the graph, breaks again where the compiled code uses it (`handle.remove()`:
    "Attempted to represent unregistered RemovableHandle"). `tensor.register_hook(...)` is
    traced and is fine.

    ## Example
    ```python
    class Attribution:
        def attribute(self, x):  # compiled
            self.handles = [self.model.register_forward_hook(self._save)]
            return self.model(x)
    ```

    ## Use instead
    Register the hook once, before the compiled call, and remove it after.
    """

    code = "TC251"
    name = "module-hook-registration"
    message = ("registering a module hook builds a `RemovableHandle`, whose constructor sets a class attribute "
               "Dynamo cannot trace: the graph breaks here. Register hooks before the compiled call")
    graph_break = SETATTR_ON_TYPE
    also_predicts = (UNREGISTERED_HANDLE,)

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                y.register_hook(lambda g: g * 2)
                return y.sum()
        """, call="f(torch.randn(3, requires_grad=True))"),
        Example("""
            import torch
            def double(module, inputs, output):
                return output * 2
            model = torch.nn.Linear(3, 3)
            handle = model.register_forward_hook(double)
            @torch.compile
            def f(x):
                return model(x)
        """, call="f(torch.randn(2, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            def double(module, inputs, output):
                return output * 2
            @torch.compile
            def f(model, x):
                handle = model.register_forward_hook(double)
                y = model(x)
                handle.remove()
                return y
        """, call="f(torch.nn.Linear(3, 3), torch.randn(2, 3))"),
        Example("""
            import torch
            def double(module, inputs, output):
                return output * 2
            def keep(module, inputs):
                return None
            def attach(model):
                return [
                    model.register_forward_pre_hook(keep),
                    model.register_forward_hook(double),
                ]
            @torch.compile
            def f(model, x):
                handles = attach(model)
                y = model(x)
                for handle in handles:
                    handle.remove()
                return y
        """, call="f(torch.nn.Linear(3, 3), torch.randn(2, 3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = method_call(node)
        if found is None or found[1] not in _HOOK_METHODS:
            return
        value = self.facts.value(found[0])
        if value.kind in _NOT_MODULES and not (value.assumed or value.from_parameters):
            return
        self.report(node)
