import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.library_extensions import binary_module
from tclint.analyzer.rules.base import Example, Rule


class ExtensionCall(Rule):
    """
    ## What it does
    Flags calls, inside a compiled region, of functions and classes that a package ships only
    as a compiled extension module (a `.so` or `.pyd` with no Python source), such as
    PyWavelets' `Modes.from_object(mode)` or a Cython class built in `forward`. Found in the
    linted code and in the installed libraries it calls (reported there as TC227).

    ## Why is this bad?
    Dynamo traces Python bytecode. It cannot look inside a compiled function: a Cython
    function or method is an "Unsupported method call", a plain C function is "marked as
    skipped", and the graph breaks at the call either way. Reading a constant from such a
    module (`Modes.symmetric`) is fine.

    ## Example
    ```python
    def forward(self, x):
        n = pywt.dwt_coeff_len(x.shape[-1], self.filt_len, mode="symmetric")
        ...
    ```

    ## Use instead
    Compute the value outside the compiled region (or once in `__init__`) and pass it in, or
    write it in Python or torch ops.
    """

    code = "TC236"
    name = "extension-module-call"
    message = "this calls into a compiled extension module, which Dynamo cannot trace; the graph breaks here"
    graph_break = hazards.METHOD_CALL
    also_predicts = (hazards.SKIPPED,)  # a C function rather than a Cython one

    VALID = [
        Example("""
            import torch
            import markupsafe
            @torch.compile
            def f(x):
                return x * len(markupsafe.__name__)
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import torch
            from markupsafe._speedups import _escape_inner
            @torch.compile
            def f(x):
                return x * len(_escape_inner("<a>"))
        """, call="f(torch.ones(2))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual is None or not self.facts.is_project_name(qual):
            return
        summary = self.analyzer.summary
        found = binary_module(summary.path, summary.module, qual)
        if found is None:
            return
        module, cython = found
        name = qual.removeprefix(module + ".")
        self.report(node, f"`{name}()` comes from `{module}`, a compiled extension module with no Python source, "
                          f"which Dynamo cannot trace; the graph breaks here. Call it outside the compiled region "
                          f"and pass the result in",
                    graph_break=hazards.METHOD_CALL if cython else hazards.SKIPPED)
