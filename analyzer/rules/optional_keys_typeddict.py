import libcst as cst

from tclint.analyzer.call_refs import OptionalKeys
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class OptionalKeysTypedDict(Rule):
    """
    ## What it does
    Flags building an instance of a `TypedDict` declared with `total=False` (or derived
    from one) inside a compiled region: `Message(type="sample", name=name)`.

    ## Why is this bad?
    Dynamo 2.13 cannot trace the construction of a TypedDict with optional keys ("TypedDict
    with optional keys"): the graph breaks at the call. A TypedDict whose keys are all
    required, and a plain dict literal, are traced.

    ## Example
    ```python
    class Message(TypedDict, total=False):
        name: str
        value: torch.Tensor

    msg = Message(name=name, value=x)
    ```

    ## Use instead
    ```python
    msg: Message = {"name": name, "value": x}   # a dict literal; the annotation keeps the type
    ```
    """

    code = "TC224"
    name = "optional-keys-typeddict"
    message = "Dynamo cannot build a TypedDict with optional keys (`total=False`); the graph breaks here"
    graph_break = hazards.OPTIONAL_KEYS_TYPEDDICT

    VALID = [
        Example("""
            from typing import TypedDict
            import torch
            class Message(TypedDict):
                name: str
                scale: float
            class Partial(TypedDict, total=False):
                name: str
            @torch.compile
            def f(x):
                msg = Message(name="a", scale=2.0)
                other: Partial = {"name": "b"}
                return x * msg["scale"]
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            from typing import TypedDict
            import torch
            class Message(TypedDict, total=False):
                name: str
                scale: float
            @torch.compile
            def f(x):
                msg = Message(name="a", scale=2.0)
                return x * msg["scale"]
        """, call="f(torch.randn(3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        # Which project names are such classes is known across files only (a def of this file
        # is none, whatever its name).
        if qual and self.facts.is_project_name(qual) and self.facts.builds_instance(qual):
            self.report(node, condition=frozenset((OptionalKeys(qual),)))
