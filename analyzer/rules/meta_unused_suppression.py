from tclint.analyzer.rules.base import Rule


class UnusedSuppression(Rule):
    """
    ## What it does
    Reports a `# tclint: ignore[...]` or `# noqa: TC...` comment that suppresses nothing.

    ## Why is this bad?
    Stale suppressions hide future findings on that line and mislead readers into
    thinking the code still breaks the graph.

    ## Example
    ```python
    y = x * 2  # tclint: ignore[TC102]
    ```

    ## Use instead
    ```python
    y = x * 2
    ```
    """

    code = "TC002"
    name = "unused-suppression"
    message = "unused suppression"
