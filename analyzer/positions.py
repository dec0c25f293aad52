"""Node positions (libcst's PositionProvider ranges) from one lean code-generation pass.

libcst's PositionProvider computes the range of every node with a CodePosition per node
boundary, a CodeRange per node, a generator-based context manager per syntactic range and
a regular expression per token: most of the cost of a big file's analysis after its parse.
The analyzer needs the ranges of a few hundred nodes out of tens of thousands. This state
emits the same tokens in the same order and keeps plain (line, column) pairs; a range
becomes a CodeRange only when asked for. The ranges are libcst's own
(tests/test_positions.py compares every node's on real files).
"""
from __future__ import annotations

import re
from typing import Iterator

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange
from libcst.metadata import MetadataWrapper, PositionProvider

_NEWLINE = re.compile(r"\r\n?|\n")  # libcst's own line ends (position_provider.NEWLINE_RE)


class Positions:
    """node -> CodeRange, for every node of the tree generated; computed once, converted on lookup."""

    __slots__ = ("_ranges",)

    def __init__(self, ranges: dict) -> None:
        self._ranges = ranges  # node -> ((line, column), (line, column)) or a CodeRange

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        where = self._ranges[node]
        if type(where) is not CodeRange:
            (line, column), (end_line, end_column) = where
            where = self._ranges[node] = CodeRange(CodePosition(line, column), CodePosition(end_line, end_column))
        return where

    def get(self, node: cst.CSTNode, default=None):
        return self[node] if node in self._ranges else default

    def __contains__(self, node: object) -> bool:
        return node in self._ranges

    def __len__(self) -> int:
        return len(self._ranges)

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._ranges)


class _SyntacticRange:
    """What `with state.record_syntactic_position(node, ...)` enters (libcst: a generator)."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: "_LeanState", node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:  # stopped (see _Placed): no range
            return
        state = self.state
        ranges = state.ranges
        start = ranges[self.start_node][0] if self.start_node is not None else self.start
        end = ranges[self.end_node][1] if self.end_node is not None else (state.line, state.column)
        ranges[self.node] = (start, end)


class _LeanState(CodegenState):
    """libcst's PositionProvidingCodegenState, keeping (line, column) tuples."""

    def __init__(self, default_indent: str, default_newline: str) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.line = 1
        self.column = 0
        self.stack: list[tuple[int, int]] = []
        self.ranges: dict = {}

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)  # Module's codegen asks whether any token came
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
            if len(segments) > 1:
                self.line += len(segments) - 1
                self.column = len(segments[-1])
                return
        self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.stack.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.stack.pop()
        if node not in self.ranges:  # a syntactic range recorded inside stands
            self.ranges[node] = (start, (self.line, self.column))

    def record_syntactic_position(self, node, *, start_node=None, end_node=None) -> _SyntacticRange:
        return _SyntacticRange(self, node, start_node, end_node)


class _Placed(Exception):
    """Every node asked for is placed: the rest of the code generation is not needed."""


class _NoRange:
    __slots__ = ()

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        pass


_NO_RANGE = _NoRange()


class _WantedState(_LeanState):
    """_LeanState keeping the ranges of the nodes asked for only (and of the nodes their
    syntactic ranges start or end at), and stopping once they are all placed: a piece's
    analysis places a few dozen of its thousands of nodes, mostly near its top."""

    def __init__(self, default_indent: str, default_newline: str, wanted) -> None:
        super().__init__(default_indent, default_newline)
        self.wanted = {id(node) for node in wanted}
        self.keep = set(self.wanted)  # the wanted, and the ends of their syntactic ranges
        self.left = len(self.wanted)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.keep:
            self.stack.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        if id(node) not in self.keep:
            return
        start = self.stack.pop()
        if node not in self.ranges:
            self.ranges[node] = (start, (self.line, self.column))
        if id(node) in self.wanted:
            self.wanted.discard(id(node))
            self.left -= 1
            if not self.left:
                raise _Placed

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if id(node) not in self.keep:
            return _NO_RANGE
        self.keep.update(id(n) for n in (start_node, end_node) if n is not None)  # generated inside
        return _SyntacticRange(self, node, start_node, end_node)


def _state(module: cst.Module, wanted) -> _LeanState:
    if wanted is None:
        return _LeanState(module.default_indent, module.default_newline)
    return _WantedState(module.default_indent, module.default_newline, wanted)


def positions(module: cst.Module, wanted=None) -> Positions:
    """Node -> CodeRange for the whole module, as libcst's PositionProvider gives them;
    only of the nodes in `wanted` when given (an iterable of nodes of the module)."""
    try:
        state = _state(module, wanted)
        try:
            module._codegen(state)
        except _Placed:
            pass
        return Positions(state.ranges)
    except AttributeError:  # libcst moved its internals: take the public road
        return Positions(dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)))


def statement_positions(statements, module: cst.Module, indent: str, wanted=None) -> Positions:
    """Node -> CodeRange for consecutive `statements` of `module` that sit in a block
    indented by `indent` (the body of a top-level class), line 1 being the first of the
    first statement's leading lines: the ranges of a part of the module, without the
    code generation of the rest; only of the nodes in `wanted` when given."""
    state = _state(module, wanted)
    state.indent_tokens = [indent]
    try:
        for stmt in statements:
            stmt._codegen(state)
    except _Placed:
        pass
    return Positions(state.ranges)
