import libcst as cst

from tclint.analyzer.knowledge.hazards import GraphBreak
from tclint.analyzer.rules.base import Example, Rule

# `numpy.typing.NDArray` is `np.ndarray[tuple[Any, ...], np.dtype[T]]`, a C-level generic alias with a
# type parameter; Dynamo has no `__getitem__` for it (torch 2.13), though `np.ndarray[...]` and
# `typing.List[...]` trace
_ALIASES = frozenset({"numpy.typing.NDArray", "numpy._typing.NDArray"})
MISSING_MP_SUBSCRIPT = GraphBreak("GB4880", "missing_mp_subscript")


class NdarrayAliasSubscript(Rule):
    """
    ## What it does
    Flags `NDArray[...]` (`numpy.typing.NDArray` subscripted) evaluated in a compiled region, as in
    `cast(NDArray[np.float64], values)`.

    ## Why is this bad?
    `NDArray` is a generic alias with a type parameter, and Dynamo cannot subscript it: the graph
    breaks there ("missing_mp_subscript"). Annotations of locals and parameters are never
    evaluated and do not break.

    ## Example
    ```python
    def alphas(n):
        return cast(NDArray[np.float64], 0.5 * np.polynomial.legendre.leggauss(n)[0]).tolist()
    ```

    ## Use instead
    ```python
    def alphas(n):
        values: NDArray[np.float64] = 0.5 * np.polynomial.legendre.leggauss(n)[0]
        return values.tolist()
    ```
    """

    code = "TC250"
    name = "ndarray-alias-subscript"
    message = ("`NDArray[...]` subscripts NumPy's generic alias, which Dynamo cannot do: the graph breaks "
               "here. Annotate a variable instead (`v: NDArray[...] = ...` is never evaluated)")
    graph_break = MISSING_MP_SUBSCRIPT

    VALID = [
        Example("""
            from typing import Any, List, cast
            import numpy as np
            from numpy.typing import NDArray
            import torch
            @torch.compile
            def f(x):
                weights: NDArray[np.float64] = np.ones(3)
                kind = np.ndarray[Any, np.dtype[np.float64]]
                scale = cast(List[float], [2.0])
                return x * scale[0] + torch.from_numpy(weights), kind
        """, call="f(torch.ones(3, dtype=torch.float64))"),
    ]
    INVALID = [
        Example("""
            from typing import cast
            import numpy as np
            import numpy.typing as npt
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                kind = npt.NDArray[np.float64]
                if y.sum() > 0:
                    y = y + 1
                return y, kind
        """, call="f(torch.ones(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._annotations = 0

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self._annotations += 1

    def leave_Annotation(self, node: cst.Annotation) -> None:
        self._annotations -= 1

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not self._annotations and self.facts.qualname(node.value) in _ALIASES:
            self.report(node)
