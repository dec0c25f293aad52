import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import argument
from tclint.analyzer.rules.base import Example, Rule

# NumPy constructors -> the position of `dtype` among their positional arguments
_CONSTRUCTORS = {"numpy.empty": 1, "numpy.zeros": 1, "numpy.ones": 1, "numpy.array": 1, "numpy.asarray": 1,
                 "numpy.full": 2}


class NumpyObjectArray(Rule):
    """
    ## What it does
    Flags NumPy arrays of Python objects (`np.empty(n, dtype=object)`, `np.array(xs,
    dtype=object)`, ...) built inside a compiled region, and the first later statement of
    the function that uses one.

    ## Why is this bad?
    Dynamo traces NumPy arrays as tensors, and a tensor cannot hold objects: the constructor
    breaks the graph. Dynamo then resumes the rest of the function in a new frame that
    receives the array, cannot convert it to a tensor ("failed to convert numpy.ndarray to
    Tensor") at its first use (or at the next break, whichever comes first) and runs the
    rest of the function eagerly. A NumPy array of numbers traces fine.

    ## Example
    ```python
    def solve(b):
        out = np.empty(b.size(-1), dtype=object)
        out[0] = b[..., 0]
        ...
        return torch.stack(out.tolist(), dim=-1)
    ```

    ## Use instead
    ```python
    def solve(b):
        out = [None] * b.size(-1)
        out[0] = b[..., 0]
        ...
        return torch.stack(out, dim=-1)
    ```
    """

    code = "TC229"
    name = "numpy-object-array"
    message = ("a NumPy array of Python objects cannot be traced as a tensor; the graph breaks here and the "
               "frame that resumes after it runs eagerly from the array's first use")
    graph_break = hazards.OBJECT_ARGUMENT
    also_predicts = (hazards.NDARRAY_INPUT,)

    VALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                a = np.empty(3)
                a[0] = 1.0
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                out = [None] * 3
                out[0] = x
                return x + 1
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                a = np.empty(3, dtype=object)
                z = x * 2
                a[0] = z
                if z.sum() > 0:   # runs eagerly: no break here
                    z = z + 1
                return z
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                a = np.array([x, x], dtype=object)
                return x + 1
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._built: dict[str, list[tuple[str, int]]] = {}  # function key -> (object array, statement index)

    def visit_Assign(self, node: cst.Assign) -> None:
        if not (len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                and isinstance(node.value, cst.Call) and self._object_array(node.value)):
            return
        fn = self.facts.function
        statements = _statements(fn.node.body.body)
        here = next((i for i, s in enumerate(statements) if isinstance(s, cst.SimpleStatementLine)
                     and any(part is node for part in s.body)), None)
        if here is None:
            return
        name = node.targets[0].target.value
        built = self._built.setdefault(fn.key, [])
        # an earlier object array still in use: the frame resumed after its break gives up here
        live = any((_first_use(statements, other, start) or -1) >= here for other, start in built)
        self.report(node.value, ends_frame=live)
        built.append((name, here))
        use = _first_use(statements, name, here)
        if use is None or any(self._builds_object_array(s) for s in statements[here + 1:use]):
            return  # never used, or the next object array's break comes first (flagged there)
        self.report(_node_of(statements[use]),
                    f"`{name}` is a NumPy array of Python objects, which the frame Dynamo resumes after its "
                    "constructor cannot convert to a tensor: the rest of this function runs eagerly",
                    graph_break=hazards.NDARRAY_INPUT, ends_frame=True)

    def _builds_object_array(self, statement) -> bool:
        return isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(part, cst.Assign) and isinstance(part.value, cst.Call) and self._object_array(part.value)
            for part in statement.body)

    def _object_array(self, call: cst.Call) -> bool:
        position = _CONSTRUCTORS.get(self.facts.qualname(call.func) or "")
        if position is None:
            return False
        dtype = argument(call, position, "dtype")
        return isinstance(dtype, cst.Name) and dtype.value == "object" and self.facts.qualname(dtype) in (
            "object", "builtins.object")


def _statements(body) -> list:
    """Every statement of a block in source order, compound ones before their bodies (nested
    functions and classes are other frames: left out)."""
    out = []
    for statement in body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        out.append(statement)
        if isinstance(statement, cst.BaseCompoundStatement):
            for block in _blocks(statement):
                out.extend(_statements(block))
    return out


def _blocks(statement) -> list:
    """The statement lists inside a compound statement (an `elif` is an `If` statement)."""
    blocks = [statement.body.body]
    orelse = getattr(statement, "orelse", None)
    if isinstance(orelse, cst.If):
        blocks.append([orelse])
    elif orelse is not None:
        blocks.append(orelse.body.body)
    blocks.extend(h.body.body for h in getattr(statement, "handlers", ()))
    final = getattr(statement, "finalbody", None)
    if final is not None:
        blocks.append(final.body.body)
    return blocks


def _header(statement) -> list:
    """What a statement evaluates itself: a compound statement's header, not its body."""
    if isinstance(statement, cst.SimpleStatementLine):
        return [statement]
    if isinstance(statement, (cst.If, cst.While)):
        return [statement.test]
    if isinstance(statement, cst.For):
        return [statement.target, statement.iter]
    if isinstance(statement, cst.With):
        return list(statement.items)
    if isinstance(statement, cst.Match):
        return [statement.subject]
    return []


def _node_of(statement):
    header = _header(statement)
    return statement if isinstance(statement, cst.SimpleStatementLine) else (header[0] if header else statement)


class _Reads(cst.CSTVisitor):
    def __init__(self, name: str):
        self.name = name
        self.found = False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.found = True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return not isinstance(node.target, cst.Name)  # `a = ...` rebinds, `a[0] = ...` reads

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _first_use(statements: list, name: str, after: int) -> int | None:
    """Index of the first statement after `after` that reads `name`."""
    for i in range(after + 1, len(statements)):
        reads = _Reads(name)
        for part in _header(statements[i]):
            part.visit(reads)
        if reads.found:
            return i
    return None
