from tclint.analyzer.rules.base import Rule


class LibraryBreak(Rule):
    """
    ## What it does
    Flags a call, in compiled code, into an installed library whose code breaks the graph
    on the way (a solver that calls `torchdiffeq.odeint`, a model that calls a package's
    helper with an `.item()` inside). Found in the project phase: the library's modules are
    read as context (where the linted packages are installed, or in the environment running
    tclint), and the break found there is named in the message, with the library's line.

    ## Why is this bad?
    Dynamo inlines the library's Python code like the project's own, so its breaks split
    the caller's graph too. The log points into the library, but the line to change is the
    call.

    ## Example
    ```python
    from torchdiffeq import odeint

    @torch.compile
    def solve(func, y0, t):
        return odeint(func, y0, t)     # odeint checks `t` with a data-dependent branch
    ```

    ## Use instead
    Call the library outside the compiled function, pick the library's options that avoid
    the break (the message says which line breaks), or compile the parts around the call.
    """

    code = "TC227"
    name = "library-graph-break"
    message = "a call into an installed library whose code breaks the graph"
