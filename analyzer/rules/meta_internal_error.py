from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.rules.base import Rule


class InternalError(Rule):
    """
    ## What it does
    Reports a file on which tclint itself failed. The other files are still linted; the
    command exits with status 2.

    ## Why is this bad?
    Findings in this file are missing. It is a bug in tclint, never in your code.

    ## Example
    ```
    model.py:1:1: TC004 tclint failed on this file (KeyError at file_analysis.py:310); please report it
    ```

    ## Use instead
    Report it with the file (or a reduced copy); meanwhile `# tclint: file-ignore[TC004]`
    or `per-file-ignores` keeps the rest of the run clean.
    """

    code = "TC004"
    name = "internal-error"
    message = "tclint failed on this file"
    severity = Severity.ERROR
