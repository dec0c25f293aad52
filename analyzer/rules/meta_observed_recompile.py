from tclint.analyzer.rules.base import Rule


class ObservedRecompile(Rule):
    """
    ## What it does
    Reported by `tclint confirm` only: Dynamo compiled this function more than once
    while running the project's examples (for instance the shape variants an example
    declares), with the guard failures that caused each recompilation.

    ## Why is this bad?
    Every recompilation costs compile time and cache memory; past
    `torch._dynamo.config.recompile_limit` Dynamo falls back to eager.

    ## Example
    ```python
    def tclint_examples():
        return [("scale", scale, [((torch.randn(3), 1), {}), ((torch.randn(3), 2), {})])]
    ```

    ## Use instead
    Pass values that change as tensors, or mark dimensions dynamic
    (`torch._dynamo.mark_dynamic`, `torch.compile(dynamic=True)`).
    """

    code = "TC901"
    name = "dynamo-observed-recompile"
    message = "Dynamo recompiled this function"
