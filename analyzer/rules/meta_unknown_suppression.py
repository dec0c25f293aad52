from tclint.analyzer.rules.base import Rule


class UnknownSuppressionCode(Rule):
    """
    ## What it does
    Reports a code in a `# tclint: ignore[...]` or `# noqa:` comment that names no tclint rule.

    ## Why is this bad?
    A typo in a suppression silently suppresses nothing.

    ## Example
    ```python
    n = x.sum().item()  # tclint: ignore[TC1O2]
    ```

    ## Use instead
    ```python
    n = x.sum().item()  # tclint: ignore[TC102]
    ```
    """

    code = "TC003"
    name = "unknown-suppression-code"
    message = "unknown rule code in suppression"
