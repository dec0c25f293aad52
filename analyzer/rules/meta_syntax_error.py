from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.rules.base import Rule


class SyntaxErrorRule(Rule):
    """
    ## What it does
    Reports a file that cannot be parsed (a syntax error, or bytes that are not valid in
    the file's encoding) at the place the parser stopped.

    ## Why is this bad?
    tclint cannot see graph breaks in code it cannot parse; neither can Python.

    ## Example
    ```python
    def forward(self, x)
        return x
    ```

    ## Use instead
    ```python
    def forward(self, x):
        return x
    ```
    """

    code = "TC001"
    name = "syntax-error"
    message = "cannot parse this file"
    severity = Severity.ERROR
