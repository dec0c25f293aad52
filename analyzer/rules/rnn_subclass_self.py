import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule

_NESTED_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp,
                  cst.GeneratorExp)


class RnnSubclassSelf(Rule):
    """
    ## What it does
    Flags, in a method of a subclass of `nn.LSTM`, `nn.GRU` or `nn.RNN` reached from a
    compiled region, the first statement that reads `self` (an attribute, a method,
    `super()`), on each path through the method. So too in a method of an abstract base over
    `nn.RNNBase` whose concrete subclasses in the project all derive from one of the three
    (`self` is then always one); a plain `nn.RNNBase` subclass is traced.

    ## Why is this bad?
    Dynamo does not wrap recurrent modules (`torch._dynamo.config.allow_rnn` is off by
    default), subclasses included. The first time a frame touches `self`, the graph breaks
    and Dynamo runs the rest of that frame eagerly; each method it then calls on `self` is a
    new frame that breaks again at its own first use of `self`.

    ## Example
    ```python
    class ZeroLengthLSTM(nn.LSTM):
        def init_hidden(self, x):
            n = 2 if self.bidirectional else 1     # breaks: `self` is an LSTM
            return x.new_zeros(self.num_layers * n, x.size(0), self.hidden_size)
    ```

    ## Use instead
    Keep the recurrent module a plain `nn.LSTM` attribute of a module of your own, and
    compute what you need from it outside the compiled region (or set
    `torch._dynamo.config.allow_rnn = True` to let Dynamo try).
    """

    code = "TC247"
    name = "rnn-subclass-self"
    message = "`self` is an LSTM/GRU/RNN, which Dynamo does not wrap: the graph breaks here and the rest of the " \
              "function runs eagerly"
    graph_break = hazards.RNN_MODULE

    VALID = [
        Example("""
            import torch
            from torch import nn
            class Cell(nn.LSTMCell):
                def forward(self, x):
                    return super().forward(x)[0] * self.hidden_size
        """, call="torch.compile(Cell(3, 4))(torch.randn(2, 3))"),
        Example("""
            import torch
            from torch import nn
            class Packed(nn.RNNBase):
                def forward(self, x):
                    return x * self.hidden_size
        """, call="torch.compile(Packed('LSTM', 3, 4))(torch.randn(2, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            from torch import nn
            class Scaled(nn.GRU):
                def forward(self, x):
                    x = x * 2
                    return x * self.hidden_size
        """, call="torch.compile(Scaled(3, 4))(torch.randn(2, 3))"),
        Example("""
            import torch
            from torch import nn
            class ZeroLengthLSTM(nn.LSTM):
                def init_hidden(self, x):
                    n = 2 if self.bidirectional else 1
                    return torch.zeros(self.num_layers * n, x.size(0), self.hidden_size)
                def forward(self, x, lengths):
                    if lengths.max() == 0:
                        return self.init_hidden(x)
                    out, _ = super().forward(x)
                    return out
        """, call="torch.compile(ZeroLengthLSTM(3, 4))(torch.randn(2, 3), torch.tensor([0, 0]))"),
        Example("""
            import torch
            from abc import ABC, abstractmethod
            from torch import nn
            class ZeroLength(ABC, nn.RNNBase):
                @abstractmethod
                def init_hidden(self, x):
                    pass
                def forward(self, x, lengths):
                    if lengths.max() == 0:
                        return self.init_hidden(x)
                    out, _ = super().forward(x)
                    return out
            class ZeroLengthGRU(ZeroLength, nn.GRU):
                def init_hidden(self, x):
                    return x.new_zeros(self.num_layers, x.size(0), self.hidden_size)
        """, call="torch.compile(ZeroLengthGRU(3, 4, batch_first=True))(torch.randn(2, 5, 3), torch.tensor([5, 2]))"),
    ]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        fn = self.facts.function
        if fn is None or fn.node is not node or fn.class_scope is None or fn.self_name is None:
            return
        bases = set(fn.class_scope.bases)
        if hazards.RNN_MODULE_CLASSES & bases:
            condition = None
        elif "torch.nn.RNNBase" in bases:  # an abstract base of LSTM/GRU subclasses: the project says
            condition = frozenset((refs.RnnOnly(fn.class_scope.key),))
        else:
            return
        reads = _SelfReads(fn.self_name)
        node.body.visit(reads)
        if reads.nested:
            return  # a closure over `self` makes it a cell of the frame: not checked under Dynamo
        reads, _ = _first_reads(node.body.body, fn.self_name)
        for read in reads:
            self.report(read, ends_frame=True, condition=condition)


def _first_reads(statements, self_name: str) -> tuple[list[cst.CSTNode], bool]:
    """The first statement reading `self` on each path through `statements` (an `if` whose
    test does not read it leads to one per arm, and on past it when an arm may not read it),
    and whether a path goes through without reading it."""
    found = []
    for stmt in statements:
        if isinstance(stmt, cst.If) and not _reads(stmt.test, self_name):
            arms = [_first_reads(stmt.body.body, self_name)]
            orelse = stmt.orelse
            arms.append(_first_reads([orelse] if isinstance(orelse, cst.If) else orelse.body.body, self_name)
                        if orelse is not None else ([], True))
            found += [read for reads, _ in arms for read in reads]
            if not any(through for _, through in arms):
                return found, False
        elif _reads(stmt, self_name):
            found.append(stmt)
            return found, False
    return found, True


def _reads(node: cst.CSTNode, self_name: str) -> bool:
    reads = _SelfReads(self_name)
    node.visit(reads)
    return reads.direct


class _SelfReads(cst.CSTVisitor):
    """Whether `self` (or `super()`) is read directly, and whether a nested scope reads it."""

    def __init__(self, self_name: str):
        self.self_name, self.depth, self.direct, self.nested = self_name, 0, False, False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _NESTED_SCOPES):
            self.depth += 1
        elif isinstance(node, cst.Name) and node.value in (self.self_name, "super"):
            if self.depth:
                self.nested = True
            else:
                self.direct = True
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, _NESTED_SCOPES):
            self.depth -= 1
