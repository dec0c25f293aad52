import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import str_enum_member
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.value_text import value_text

# The methods of `str` (but the static `maketrans`): Dynamo 2.13 traces none of them on a
# member of an Enum of str (each checked with the oracle: strip, lower, upper, split,
# startswith, endswith, replace, format, join, encode, find, count, zfill, partition, ...)
STR_METHODS = frozenset({
    "capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format", "format_map",
    "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
    "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition",
    "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split",
    "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill",
})


class StrEnumMethod(Rule):
    """
    ## What it does
    Flags a `str` method (`.strip()`, `.lower()`, `.startswith(...)`, ...) called on a member
    of an Enum of str (`class Mode(str, Enum)`, `enum.StrEnum`): `Mode.BILINEAR.lower()`,
    `Mode(name)`, a parameter that a compiled caller passes such a member, passes on, or leaves
    at such a default (`mode: str = Mode.BILINEAR`), a local or `self.mode` that holds one, or
    what a function returns that returns one.

    ## Why is this bad?
    Dynamo traces an Enum member as a constant but knows no `str` method of its class: the
    graph breaks at the call ("Unsupported method call"). Comparing it (`mode == "bilinear"`),
    `str(mode)`, `mode.value`, an f-string or `isinstance(mode, str)` do not break.

    ## Example
    ```python
    class Mode(str, Enum):
        BILINEAR = "bilinear"

    def resize(x, mode: str = Mode.BILINEAR):
        if mode.lower() == "bilinear":
            ...
    ```

    ## Use instead
    Call the method on the member's value, which is a plain `str`: `str(mode).lower()`, or
    `mode.value.lower()` where it is always a member.
    """

    code = "TC245"
    name = "str-enum-method"
    message = ("`.{method}()` on a member of an Enum of str: Dynamo does not trace `str` methods on Enum members, "
               "so the graph breaks here; call it on `str({receiver})` instead")
    graph_break = hazards.METHOD_CALL

    VALID = [
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            @torch.compile(backend="eager")
            def f(x, mode=Mode.A):
                if str(mode).lower() == "a" and mode == "a" and mode.value.upper() == "A" and f"{mode}":
                    return x + 1
                return x
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(enum.Enum):  # a plain Enum: its members have no str methods to call
                A = "a"
            @torch.compile(backend="eager")
            def f(x, mode=Mode.A):
                return x + len(mode.name.lower())
        """, call="f(torch.ones(2))"),
        Example("""
            import torch
            def pick(x, mode):
                return x + 1 if mode.strip() == "a" else x  # a plain str: traced
            @torch.compile(backend="eager")
            def f(x, mode: str = "a"):
                return pick(x, mode)
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            @torch.compile(backend="eager")
            def f(x):
                mode = Mode.A
                mode = str(mode)  # rebound to a plain str
                return x + 1 if mode.lower() == "a" else x
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import enum
            import torch
            class Mode(enum.StrEnum):
                A = "a"
            @torch.compile(backend="eager")
            def f(x, mode: str = Mode.A):
                if mode.lower() == "a":
                    return x + 1
                return x
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class StrEnum(str, enum.Enum):
                pass
            class Blend(StrEnum):
                CONSTANT = "constant"
            def look_up(opt, supported):
                if isinstance(opt, str):
                    opt = opt.strip()
                return supported(opt)
            def blend(x, mode):
                return x * 2 if look_up(mode, Blend) == Blend.CONSTANT else x
            @torch.compile(backend="eager")
            def f(x, mode: str = Blend.CONSTANT):
                return blend(x, mode)
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            def g(x, mode):
                return x + 1 if mode.startswith("a") else x
            @torch.compile(backend="eager")
            def f(x):
                return g(x, Mode.A)
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            class Net(torch.nn.Module):
                def __init__(self, mode: str = "a"):
                    super().__init__()
                    self.mode = Mode(mode)
                def forward(self, x):
                    mode = self.mode
                    return x + 1 if mode.lower() == "a" else x
        """, call="torch.compile(Net(), backend='eager')(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            def default_mode():
                return Mode.A
            @torch.compile(backend="eager")
            def f(x):
                return x + 1 if default_mode().upper() == "A" else x
        """, call="f(torch.ones(2))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in STR_METHODS:
            return
        condition = str_enum_member(self.analyzer, func.value, func.attr.value)
        if condition is not None:
            self.report(node, self.message.format(method=func.attr.value, receiver=value_text(func.value) or "member"),
                        condition=condition)
