import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer import param_truth
from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import target_names
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.value_text import value_text

# builtins that raise TypeError on None
_RAISING_BUILTINS = frozenset({"builtins.len", "builtins.iter", "builtins.next"})


class NoneWhenCompiling(Rule):
    """
    ## What it does
    Flags a use that fails on None (`mask[:, None]`, `mask.to(...)`, `mask + 1`, `len(mask)`) of
    a parameter that defaults to None and that the function fills in only when it is not
    compiling: `if mask is None and not is_compiling(): mask = torch.ones(...)`.

    ## Why is this bad?
    Under torch.compile the `if` never runs, so when the caller leaves the parameter out it is
    still None at the use, which raises inside Dynamo. Dynamo reports an "Observed exception"
    and gives up on the function: it runs eagerly on every call (where the `if` runs and the
    code works, so nothing else tells you). When the "am I compiling" test is a function of
    your own, the eager run fails too: Dynamo compiles that function as a frame of its own,
    where it returns True, and the call raises.

    ## Example
    ```python
    def forward(self, x, mask=None):
        if mask is None and not torch.compiler.is_compiling():
            mask = torch.ones(x.shape[:2], device=x.device)
        bias = (1.0 - mask[:, None, None, :]) * -1e9
    ```

    ## Use instead
    ```python
    def forward(self, x, mask=None):
        if mask is None:
            mask = torch.ones(x.shape[:2], device=x.device)
        bias = (1.0 - mask[:, None, None, :]) * -1e9
    ```
    """

    code = "TC239"
    name = "none-when-compiling"
    message = ("`{name}` is still None here under torch.compile when the caller leaves it out: the `if` above fills "
               "it in only when not compiling, so {use} raises inside Dynamo and the function runs eagerly")
    graph_break = hazards.OBSERVED_EXCEPTION

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, mask=None):
                if mask is None:
                    mask = torch.ones(3)
                return x * mask[None]
        """, call="f(torch.ones(3))"),
        Example("""
            import torch
            def create_mask(mask):
                return torch.ones(3) if mask is None else mask
            @torch.compile
            def f(x, mask=None):
                if mask is None and not torch.compiler.is_compiling():
                    mask = torch.ones(3)
                return x * create_mask(mask)   # None is passed on to code that handles it
        """, call="f(torch.ones(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, mask=None):
                if mask is None and not torch.compiler.is_compiling():
                    mask = torch.ones(3)
                if mask is not None:
                    x = x * mask
                return x
        """, call="f(torch.ones(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, mask=None):
                if mask is None and not torch.compiler.is_compiling():
                    mask = torch.ones(3)
                y = x * 2
                return y * mask[None]
        """, call="f(torch.ones(3))"),
        Example("""
            import torch
            def is_compiling():
                return torch.compiler.is_compiling()
            @torch.compile
            def f(x, decoder, mask=None):
                if mask is None and not is_compiling():
                    mask = torch.ones(3)
                y = x * 2
                if decoder:
                    y = y + 1
                else:
                    y = y * mask.to(y.dtype)
                return y
        """),  # not run: under torch.compile the call raises AttributeError (see above)
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._uses: dict[int, tuple[str, frozenset | None]] = {}  # id(use) -> (name, condition)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        fn = self.facts.function
        if fn is None or not fn.flags:
            return
        for i, statement in enumerate(node.body):
            if not isinstance(statement, cst.If) or statement.orelse is not None:
                continue
            when = self.facts.value_under_dynamo(statement.test)
            if when is False:
                condition = None
            elif isinstance(when, tf.Pending) and when.value is False:
                condition = frozenset(refs.CompilingTest(r) for r in when.refs)
            else:
                continue
            for name in param_truth.tested_names(statement.test):
                if (name in fn.flags and fn.flags[name].default == "None"
                        and param_truth.truth_when(statement.test, name, param_truth.NOT_NONE) is False
                        and name in _assigned(statement.body.body)
                        and not any(name in _assigned([s]) for s in node.body[:i])):
                    for use in _first_uses(node.body[i + 1:], name, self.facts):
                        self._uses[id(use)] = (name, condition)

    def _check(self, node: cst.CSTNode) -> None:
        found = self._uses.pop(id(node), None) if self._uses else None
        if found is not None:
            name, condition = found
            text = value_text(node)
            use = f"`{text}`" if text else f"this use of `{name}`"
            self.report(node, self.message.format(name=name, use=use), condition=condition,
                        ends_frame=True)

    visit_Subscript = visit_Attribute = visit_Call = visit_BinaryOperation = visit_UnaryOperation = _check


def _assigned(statements) -> set[str]:
    """Names the statements bind directly (`name = ...`), not in nested blocks."""
    names: set[str] = set()
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            for part in statement.body:
                if isinstance(part, cst.Assign):
                    for t in part.targets:
                        names |= target_names(t.target)
                elif isinstance(part, (cst.AnnAssign, cst.AugAssign)):
                    names |= target_names(part.target)
    return names


def _first_uses(statements, name: str, facts) -> list[cst.CSTNode]:
    """The uses of `name` that fail on None and run before anything else reads or binds it:
    in the first statement that mentions it, or in each arm of an `if` whose test does not."""
    for statement in statements:
        mentions = _mentions(statement, name)
        if not mentions:
            continue
        if isinstance(statement, cst.SimpleStatementLine):
            uses = [_raising_use(name_node, parent, facts) for name_node, parent in mentions]
            return uses[:1] if all(uses) else []
        if isinstance(statement, cst.If) and not _mentions(statement.test, name):
            found = []
            arm = statement
            while isinstance(arm, cst.If) and not _mentions(arm.test, name):
                found += _first_uses(arm.body.body, name, facts)
                arm = arm.orelse
            if isinstance(arm, cst.Else):
                found += _first_uses(arm.body.body, name, facts)
            return found
        return []  # a loop, a `with`, a `try`, or an `if` that tests it: left alone
    return []


def _mentions(node: cst.CSTNode, name: str) -> list[tuple[cst.Name, cst.CSTNode]]:
    """(Name node, its parent) for each mention of `name` under `node`, in source order; a
    mention inside a nested function, class or lambda counts with that scope as its parent."""
    found = []

    def walk(parent: cst.CSTNode) -> None:
        for child in parent.children:
            if child is getattr(parent, "attr", None) or child is getattr(parent, "keyword", None):
                continue  # `obj.mask`, `f(mask=...)`: a field or a keyword, not the variable
            if isinstance(child, cst.Name) and child.value == name:
                found.append((child, parent))
            elif isinstance(child, cst.Arg) and isinstance(child.value, cst.Name) and child.value.value == name:
                found.append((child.value, parent))  # an argument: its call decides
            elif isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                if _mentions_anywhere(child, name):
                    found.append((child, child))
            else:
                walk(child)

    walk(node)
    return found


def _mentions_anywhere(node: cst.CSTNode, name: str) -> bool:
    return any(isinstance(c, cst.Name) and c.value == name or _mentions_anywhere(c, name) for c in node.children)


def _raising_use(name_node: cst.CSTNode, parent: cst.CSTNode, facts) -> cst.CSTNode | None:
    """The expression that raises TypeError or AttributeError when `name_node` is None."""
    if isinstance(parent, cst.Subscript) and parent.value is name_node:
        return parent
    if isinstance(parent, cst.Attribute) and parent.value is name_node:
        return parent
    if isinstance(parent, cst.Call) and (parent.func is name_node or len(parent.args) == 1
                                         and facts.qualname(parent.func) in _RAISING_BUILTINS):
        return parent
    if isinstance(parent, cst.BinaryOperation):
        return parent
    if isinstance(parent, cst.UnaryOperation) and not isinstance(parent.operator, cst.Not):
        return parent
    return None
