from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.rules.base import Rule


class ObservedBreak(Rule):
    """
    ## What it does
    Reported by `tclint confirm` only: Dynamo broke the graph at this line while running
    one of the project's examples, and no static rule predicted it. The message gives
    Dynamo's graph-break type, its reason and the example that showed it.

    ## Why is this bad?
    A graph break is a real one when Dynamo says so; an unpredicted one also shows where
    tclint's rules can learn (`tclint confirm --statistics` counts them by type).

    ## Example
    ```python
    def tclint_examples():
        return [("stringify", stringify, (torch.randn(3),), {})]
    ```

    ## Use instead
    Follow the linked graph-break page for the fix Dynamo suggests.
    """

    code = "TC900"
    name = "dynamo-observed-break"
    message = "Dynamo broke the graph here and no rule predicted it"
    severity = Severity.ERROR
