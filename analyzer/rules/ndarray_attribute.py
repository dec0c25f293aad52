import libcst as cst

from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule

# the attributes of an ndarray Dynamo refuses (torch/_dynamo/variables/tensor.py, NumpyNdarrayVariable)
_REFUSED = frozenset({"dtype", "flags", "base"})


class NdarrayAttribute(Rule):
    """
    ## What it does
    Flags `.dtype`, `.flags` and `.base` of a NumPy array built in a compiled region
    (`np.array(a * 2, dtype=a.dtype)` where `a = np.arange(4)`).

    ## Why is this bad?
    Dynamo traces NumPy arrays as tensors and cannot give these attributes a value: the graph
    breaks ("Unsupported ndarray attribute access"), and Dynamo cannot resume the function, which
    then runs eagerly. `shape`, `ndim`, `size` and `itemsize` trace.

    ## Example
    ```python
    a = np.arange(0, n)
    b = np.array(a * 2, dtype=a.dtype)
    ```

    ## Use instead
    ```python
    a = np.arange(0, n, dtype=np.int64)
    b = np.array(a * 2, dtype=np.int64)   # name the dtype
    ```
    """

    code = "TC231"
    name = "ndarray-attribute"
    message = ("Dynamo traces this NumPy array as a tensor and cannot read its `.{attr}`: the graph breaks "
               "here, where Dynamo cannot resume")
    graph_break = hazards.NDARRAY_ATTRIBUTE

    VALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                a = np.arange(0, 4)
                return x * (a.shape[0] + a.ndim + a.size + a.itemsize)
        """, call="f(torch.ones(4))"),
    ]
    INVALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                a = np.arange(0, 4, dtype="int32")
                b = np.array(a * 2, dtype=a.dtype)
                y = x * 2
                if y.sum() > 0:   # runs eagerly: no break here
                    y = y + 1
                return y + torch.from_numpy(b)
        """, call="f(torch.ones(4))"),
    ]

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in _REFUSED and self.facts.kind(node.value) == tf.NDARRAY:
            self.report(node, self.message.format(attr=node.attr.value), ends_frame=True)
