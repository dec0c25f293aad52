import libcst as cst

from tclint.analyzer.call_refs import KeywordObject
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge import tensor_api as api
from tclint.analyzer.rules._support import first_element, function_body, keyword, positional, target_names
from tclint.analyzer.rules.base import Example, Rule


class SortTensors(Rule):
    """
    ## What it does
    Flags `sorted(...)` and `list.sort()` over tensors, and over `d.items()` /
    `d.values()` of a dict whose values are tensors, inside a compiled region. Also
    `sorted(t)` of a tensor itself.

    ## Why is this bad?
    Sorting compares elements with `<`. Comparing tensors gives tensors whose truth
    Dynamo cannot decide while tracing, so it reports "sort with non-constant keys" and
    breaks, even for `sorted(d.items())` with string keys (ties would compare the
    tensor values). The items of `**kwargs` break the same way when a compiled caller
    passes a tensor or a module (any value that is no Python constant) under a keyword
    that lands there, itself or by passing on its own `**kwargs`. A `key=` that returns
    tensors (`key=lambda t: t.norm()`) breaks the same way. Sorting shapes, ints, strings or dict keys is fine, and so is a
    `key=` that returns static values (`key=lambda kv: kv[0]`, `key=lambda t: t.shape[0]`).

    ## Example
    ```python
    for name, feat in sorted(features.items()):
        out.append(self.heads[name](feat))
    ```

    ## Use instead
    ```python
    for name in sorted(features):            # sort the keys only
        out.append(self.heads[name](features[name]))
    ```
    To order tensors by value, stack them and use `torch.sort` / `torch.argsort`.
    """

    code = "TC216"
    name = "sort-tensors"
    message = "sorting tensors compares tensor values, which Dynamo cannot trace; the graph breaks here"
    kwargs_message = ("sorting the items of `**kwargs` compares the values a caller passes; Dynamo sorts only "
                      "Python constants, so a tensor or module among them breaks the graph here")
    graph_break = hazards.SORT_KEYS
    also_predicts = (hazards.BUILTIN_OP,)


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                feats = {"b": x, "a": x * 2}
                out = [feats[k] for k in sorted(feats)]
                pairs = sorted(feats.items(), key=lambda kv: kv[0])
                return out, pairs, sorted(x.shape)
        """, call="f(torch.randn(3, 2))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                parts = [x, x[:2]]
                return sorted(parts, key=lambda t: t.shape[0])
        """, call="f(torch.randn(3, 2))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                feats = {"b": x, "a": x * 2}
                return [v for k, v in sorted(feats.items())]
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                scores = [x[0].sum(), x[1].sum()]
                scores.sort()
                return scores
        """, call="f(torch.randn(2, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(a, b):
                return sorted([a, b], key=lambda t: t.norm())
        """, call="f(torch.randn(3), torch.randn(3))"),
    ]

    def _tensorish(self, expr: cst.BaseExpression):
        value = self.facts.value(expr)
        if value.known_tensor and not value.assumed:
            return True
        return value.condition

    def _bindings(self, name: str) -> list[cst.BaseExpression]:
        """Values stored in a local container `name`: assignments, appends, item stores."""
        fn = self.facts.function
        body = function_body(fn.node)
        out: list[cst.BaseExpression] = []
        for target, value in body.assigns:
            if name in target_names(target):
                out.append(value)
            elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) \
                    and target.value.value == name:
                out.append(cst.List([cst.Element(value)]))  # d[k] = v: a container holding v
        for call in body.calls:
            func = call.func
            if (isinstance(func, cst.Attribute) and func.attr.value in ("append", "insert")
                    and isinstance(func.value, cst.Name) and func.value.value == name and call.args):
                out.append(cst.List([cst.Element(call.args[-1].value)]))
        return out

    def _holds_tensors(self, expr: cst.BaseExpression, values_only: bool = False, depth: int = 0):
        """True / a condition when the container `expr` holds tensors (dict: as values)."""
        if depth > 3:
            return None
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            return first_element(expr, self._tensorish)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            return self._tensorish(expr.elt)
        if isinstance(expr, cst.DictComp):
            return self._tensorish(expr.value)
        if isinstance(expr, cst.Name) and self.facts.function is not None:
            for value in self._bindings(expr.value):
                r = self._holds_tensors(value, values_only, depth + 1)
                if r is not None:
                    return r
        return None

    def _kwargs_items(self, arg: cst.BaseExpression) -> bool:
        """`kwargs.items()` / `kwargs.values()` of the function's own `**kwargs`, not rebound."""
        fn = self.facts.function
        if fn is None or fn.kwargs_name is None or not isinstance(arg, cst.Call) or arg.args \
                or not isinstance(arg.func, cst.Attribute) or arg.func.attr.value not in ("items", "values"):
            return False
        receiver = arg.func.value
        return (isinstance(receiver, cst.Name) and receiver.value == fn.kwargs_name
                and not self._bindings(fn.kwargs_name))

    def _sorted_breaks(self, arg: cst.BaseExpression):
        t = self._tensorish(arg)
        if t is not None:
            return t  # sorted(tensor)
        if self._kwargs_items(arg):  # what the compiled callers pass decides it
            return frozenset((KeywordObject(self.facts.function.key),))
        if isinstance(arg, cst.Call) and isinstance(arg.func, cst.Attribute) and not arg.args \
                and arg.func.attr.value in ("items", "values"):
            return self._holds_tensors(arg.func.value)
        if isinstance(arg, cst.Dict) or isinstance(arg, cst.DictComp):
            return None  # iterating a dict sorts its keys
        if isinstance(arg, cst.Name):
            values = self._bindings(arg.value) if self.facts.function is not None else []
            if any(isinstance(v, (cst.Dict, cst.DictComp)) for v in values):
                return None
        return self._holds_tensors(arg)

    def _key_breaks(self, key: cst.BaseExpression, container: cst.BaseExpression):
        """True / a condition when the `key=` lambda returns tensors."""
        if not isinstance(key, cst.Lambda) or len(key.params.params) != 1:
            return None  # a named key function: assume it returns static values
        param = key.params.params[0].name.value
        body = key.body
        while isinstance(body, cst.UnaryOperation):
            body = body.expression

        def rooted(expr) -> bool:  # `p` or `p[i]`
            if isinstance(expr, cst.Subscript):
                expr = expr.value
            return isinstance(expr, cst.Name) and expr.value == param

        if isinstance(body, cst.Call) and isinstance(body.func, cst.Attribute):
            method = body.func.attr.value
            if (method in api.TENSORISH_METHODS and method not in api.STATIC_TENSOR_METHODS
                    and rooted(body.func.value)):
                return True  # `key=lambda t: t.norm()`: a tensor key
            return None
        if isinstance(body, cst.Subscript) and rooted(body):
            # `key=lambda kv: kv[1]` over `d.items()` compares the values
            index = body.slice[0].slice if len(body.slice) == 1 else None
            if (isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "1"
                    and isinstance(container, cst.Call) and isinstance(container.func, cst.Attribute)
                    and container.func.attr.value == "items" and not container.args):
                return self._holds_tensors(container.func.value)
            return None
        if isinstance(body, cst.Name) and body.value == param:
            return self._sorted_breaks(container)
        return None

    def leave_Call(self, node: cst.Call) -> None:
        key = keyword(node, "key")
        qual = self.facts.qualname(node.func)
        if qual == "builtins.sorted":
            args = positional(node)
            if args:
                r = self._sorted_breaks(args[0]) if key is None else self._key_breaks(key, args[0])
                if r is not None:
                    message = self.kwargs_message if key is None and self._kwargs_items(args[0]) else None
                    self.report(node, message, condition=None if r is True else r)
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "sort" and not positional(node) \
                and isinstance(func.value, cst.Name):
            if self.facts.value(func.value).known_tensor:
                return  # Tensor.sort() is a traced op
            r = self._holds_tensors(func.value) if key is None else self._key_breaks(key, func.value)
            if r is not None:
                self.report(node, condition=None if r is True else r)
