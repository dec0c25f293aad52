"""Values that are never None, as a call site passes them (CallSite.not_none).

Where every compiled caller passes a parameter such a value, code under `if name is None:`
never runs there (call_refs.GivenNotNone): deepctr's `_sequence_mask(lengths,
maxlen=x.shape[1])` never takes `maxlen = lengths.max()`. A value is never None when Python
says so whatever it holds: a literal other than None, a container, arithmetic or a
comparison, a shape or size (`x.shape[1]`, `x.size(0)`, `len(xs)`), a tensor a torch function
or a tensor method gives (or indexing one gives), `self`, or a local bound to one of those in the function's own block (a
binding in an arm or a loop may leave None on another path). A parameter of the caller's own
passed on is given such a value where the caller's callers give it one (its guard). Anything
else (a project function's result, an attribute, a parameter with a default) may be None.
"""
from __future__ import annotations

import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.knowledge import tensor_api as api

# Builtins whose result is never None.
_BUILDERS = frozenset({
    "builtins.len", "builtins.int", "builtins.float", "builtins.bool", "builtins.str", "builtins.tuple",
    "builtins.list", "builtins.dict", "builtins.set", "builtins.range", "builtins.abs", "builtins.round",
})
_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
             cst.Tuple, cst.List, cst.Dict, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp,
             cst.Lambda, cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)


class NeverNone:
    """The locals of each function bound to a value that is never None, and what a call passes."""

    def __init__(self, facts: tf.Facts) -> None:
        self.facts = facts
        self._locals: dict[str, set[str]] = {}  # function key -> names

    def bind(self, name: str, value: cst.BaseExpression | None, in_branch: bool) -> None:
        """`name = value` in the current function (value None: a loop target, an unpacked name)."""
        fn = self.facts.function
        held = self._locals.setdefault(fn.key, set())
        if value is not None and self.given(value) is True:
            if not in_branch:
                held.add(name)
        else:
            held.discard(name)

    def args(self, node: cst.Call) -> tuple:
        """(position or keyword, True or the caller's GivenNotNone guard) for each argument of
        `node` that is never None."""
        out = []
        for i, a in enumerate(node.args):
            if a.star:
                break
            given = self.given(a.value)
            if given is not None:
                out.append((a.keyword.value if a.keyword is not None else i, given))
        return tuple(out)

    def given(self, node: cst.BaseExpression) -> bool | refs.GivenNotNone | None:
        """True if `node` is never None, the guard of the caller's own parameter it names (never
        None where the callers say so), None otherwise."""
        fn = self.facts.function
        if isinstance(node, cst.Name):
            if node.value in ("True", "False") or node.value == fn.self_name or node.value in self._locals.get(fn.key, ()):
                return True
            flag = fn.flags.get(node.value)
            return refs.GivenNotNone(flag.function, flag.position, flag.name) if flag is not None else None
        if isinstance(node, _LITERALS):
            return True
        if isinstance(node, cst.IfExp):
            return True if self.given(node.body) is True and self.given(node.orelse) is True else None
        if isinstance(node, cst.Attribute):
            return True if node.attr.value == "shape" or node.attr.value in api.STATIC_TENSOR_ATTRS and \
                self.facts.kind(node.value) in tf.TENSORS else None
        if isinstance(node, cst.Subscript):  # a size, or an element of a tensor (a tensor)
            return True if _is_size(node.value) or self.facts.kind(node.value) in tf.TENSORS else None
        if isinstance(node, cst.Call):
            return True if _is_size(node) or self._builds_tensor(node) or \
                self.facts.qualname(node.func) in _BUILDERS else None
        return None

    def _builds_tensor(self, node: cst.Call) -> bool:
        """A torch function's or a tensor method's tensor (a module's forward, a project
        function may return None)."""
        if self.facts.kind(node) not in (tf.TENSOR, tf.BOOL_TENSOR):
            return False
        func = node.func
        qual = self.facts.qualname(func)
        if qual is not None:
            return qual.startswith("torch.")
        return isinstance(func, cst.Attribute) and self.facts.kind(func.value) in tf.TENSORS


def _is_size(node: cst.BaseExpression) -> bool:
    """`x.shape`, `x.size()`, `x.size(0)`: a shape or one of its sizes."""
    if isinstance(node, cst.Attribute):
        return node.attr.value == "shape"
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("size", "dim", "numel"))
