import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer import param_truth
from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import target_names
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.tree_walk import children
from tclint.analyzer.value_text import value_text

_STATEMENTS = frozenset(t for t in vars(cst).values() if isinstance(t, type) and issubclass(
    t, (cst.SimpleStatementLine, cst.BaseCompoundStatement)))
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

    The same holds when the still-None value is passed on to a function whose first use of
    it fails on None, however many calls down: Dynamo reports it there.

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
    passed_message = ("`{name}` is None here under torch.compile when a compiled caller passes on a value it fills in "
                      "only when not compiling, so {use} raises inside Dynamo and the compiled function runs eagerly")
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
        Example("""
            import torch
            def split(x, n):
                if x.shape[1] % n != 0:
                    x = torch.nn.functional.pad(x, (0, 1))
                return x.reshape(x.shape[0], -1, n)
            def local_mask(mask, n):
                return split(mask, n).unsqueeze(-1)   # None passed on: fails in `split`
            @torch.compile
            def f(x, mask=None):
                if mask is None and not torch.compiler.is_compiling():
                    mask = torch.ones(x.shape[:2])
                y = x * 2
                return y + local_mask(mask, 2).sum()
        """, call="f(torch.ones(2, 4))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._uses: dict[int, tuple[str, frozenset | None, str]] = {}  # id(use) -> (name, condition, message)
        self._passes: dict[int, list[tuple[cst.Arg, frozenset]]] = {}  # id(call) -> its arguments None under Dynamo
        self._statement_names: dict[int, frozenset] = {}  # id(statement) -> the names in it
        self._statement_mentions: dict[int, dict] = {}  # id(simple statement) -> name -> its mentions

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        fn = self.facts.function
        if fn is None:
            return
        if node is fn.node.body and not self.analyzer.summary.functions[fn.key].compiled:
            self._parameters(fn, node)  # a torch.compile'd function's parameters are the user's
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
                    uses, passes = self._first_uses(node.body[i + 1:], name)
                    for use in uses:
                        self._uses[id(use)] = (name, condition, self.message)
                    for call, arg in passes:
                        self._passes.setdefault(id(call), []).append((arg, condition or frozenset()))

    def _parameters(self, fn, body: cst.IndentedBlock) -> None:
        """Each parameter a caller may pass None (no default, or None) whose first use fails
        on None, or passes it on: None there if a compiled caller passes on a value it fills
        in only when not compiling (`NoneArg`)."""
        params = fn.node.params
        positional = [*params.posonly_params, *params.params][1 if fn.self_name is not None else 0:]
        for i, p in enumerate(positional + list(params.kwonly_params)):
            name = p.name.value
            if p.default is not None and not (isinstance(p.default, cst.Name) and p.default.value == "None"):
                continue
            uses, passes = self._first_uses(body.body, name)
            if uses or passes:
                condition = frozenset({refs.NoneArg(fn.key, i if i < len(positional) else -1, name)})
                for use in uses:
                    self._uses[id(use)] = (name, condition, self.passed_message)
                for call, arg in passes:
                    self._passes.setdefault(id(call), []).append((arg, condition))

    def _check(self, node: cst.CSTNode) -> None:
        found = self._uses.pop(id(node), None) if self._uses else None
        if found is not None:
            name, condition, message = found
            text = value_text(node)
            use = f"`{text}`" if text else f"this use of `{name}`"
            self.report(node, message.format(name=name, use=use), condition=condition, ends_frame=True)

    visit_Subscript = visit_Attribute = visit_BinaryOperation = visit_UnaryOperation = _check

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)
        for arg, condition in self._passes.pop(id(node), ()) if self._passes else ():
            self.analyzer.pass_none(node, arg, condition)

    def _first_uses(self, statements, name: str) -> tuple[list[cst.CSTNode], list[tuple[cst.Call, cst.Arg]]]:
        """The uses of `name` that fail on None and run before anything else reads or binds
        it, in the first statement that mentions it or in each arm of an `if` whose test does
        not; and the calls it is passed to (call, argument) before: a call does not rebind it,
        so the search goes on after one, but a use after a call that may fail on None first is
        left alone."""
        passed: list[tuple[cst.Call, cst.Arg]] = []
        for statement in statements:
            if name not in self._names(statement):
                continue
            if isinstance(statement, cst.SimpleStatementLine):
                mentions = self._index(statement).get(name)
                if not mentions:
                    continue  # `obj.mask`, `f(mask=...)` only
                uses, passes = self._statement_uses(mentions)
                if passes:
                    passed += passes
                    continue
                return ([] if passed else uses), passed
            head = statement.test if isinstance(statement, (cst.If, cst.While)) else \
                statement.iter if isinstance(statement, cst.For) else None
            if head is not None and _mentions(head, name):
                uses, passes = self._statement_uses(_mentions(head, name))  # the test or iterable runs first
                return ([] if passed else uses), passed + passes
            if not _mentions(statement, name, self._names):
                continue
            if isinstance(statement, cst.If) and not passed:
                found: tuple[list, list] = ([], [])
                arm = statement
                while isinstance(arm, cst.If) and not _mentions(arm.test, name):
                    uses, passes = self._first_uses(arm.body.body, name)
                    found = (found[0] + uses, found[1] + passes)
                    arm = arm.orelse
                if isinstance(arm, cst.Else):
                    uses, passes = self._first_uses(arm.body.body, name)
                    found = (found[0] + uses, found[1] + passes)
                return found
            return [], passed  # a loop, a `with`, a `try`: left alone
        return [], passed

    def _statement_uses(self, mentions) -> tuple[list, list]:
        """The first use among a statement's `mentions` of a name if all fail on None, or
        the calls it is passed to if all pass it on; otherwise nothing."""
        uses = [_raising_use(name_node, parent, self.facts) for name_node, parent in mentions]
        if all(uses):
            return uses[:1], []
        passes = [(parent, _argument(parent, name_node)) if isinstance(parent, cst.Call) else (parent, None)
                  for name_node, parent in mentions]
        return ([], passes) if all(arg is not None for _, arg in passes) else ([], [])

    def _names(self, statement: cst.CSTNode) -> frozenset:
        """Every name under a statement (a superset of those it mentions, a cheap test first),
        each statement walked once."""
        found = self._statement_names.get(id(statement))
        if found is None:
            names: set[str] = set()
            stack = children(statement)
            while stack:
                node = stack.pop()
                if type(node) is cst.Name:
                    names.add(node.value)
                elif type(node) in _STATEMENTS:
                    names |= self._names(node)
                else:
                    stack.extend(children(node))
            found = self._statement_names[id(statement)] = frozenset(names)
        return found

    def _index(self, statement: cst.SimpleStatementLine) -> dict[str, list]:
        """`_mentions` of every name in a simple statement, found in one walk."""
        found = self._statement_mentions.get(id(statement))
        if found is None:
            found = self._statement_mentions[id(statement)] = {}
            for name_node, parent in _mentions(statement, None):
                for name in _names_in(name_node) if name_node is parent else (name_node.value,):
                    found.setdefault(name, []).append((name_node, parent))
        return found


def _names_in(node: cst.CSTNode) -> set[str]:
    names: set[str] = set()
    stack = [node]
    while stack:
        child = stack.pop()
        if type(child) is cst.Name:
            names.add(child.value)
        else:
            stack.extend(children(child))
    return names


def _argument(call: cst.Call, name_node: cst.CSTNode) -> cst.Arg | None:
    """The argument of `call` that is `name_node`, if it is one (not `*name`)."""
    return next((a for a in call.args if a.value is name_node and not a.star), None)


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


def _mentions(node: cst.CSTNode, name: str, names=None) -> list[tuple[cst.Name, cst.CSTNode]]:
    """(Name node, its parent) for each mention of `name` under `node`, in source order; a
    mention inside a nested function, class or lambda counts with that scope as its parent.
    `name` None: every name's. `names`: the names under a statement, to skip the statements
    that hold no `name`."""
    found = []

    def walk(parent: cst.CSTNode) -> None:
        for child in children(parent):
            if child is getattr(parent, "attr", None) or child is getattr(parent, "keyword", None):
                continue  # `obj.mask`, `f(mask=...)`: a field or a keyword, not the variable
            if names is not None and type(child) in _STATEMENTS and name not in names(child):
                continue
            kind = type(child)
            if kind is cst.Name:
                if name is None or child.value == name:
                    found.append((child, parent))
            elif kind is cst.Arg and type(child.value) is cst.Name:
                if name is None or child.value.value == name:
                    found.append((child.value, parent))  # an argument: its call decides
            elif kind is cst.FunctionDef or kind is cst.ClassDef or kind is cst.Lambda:
                if name is None or _mentions_anywhere(child, name):
                    found.append((child, child))
            else:
                walk(child)

    walk(node)
    return found


def _mentions_anywhere(node: cst.CSTNode, name: str) -> bool:
    return any(isinstance(c, cst.Name) and c.value == name or _mentions_anywhere(c, name) for c in children(node))


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
