from dataclasses import replace

import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule

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
    of an Enum of str (`class Mode(str, Enum)`, `enum.StrEnum`): `Mode.BILINEAR.lower()`, or a
    parameter that a compiled caller passes such a member, passes on, or leaves at such a
    default (`mode: str = Mode.BILINEAR`).

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
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in STR_METHODS:
            return
        receiver, method = func.value, func.attr.value
        members = self.facts.function.members
        if isinstance(receiver, cst.Name) and receiver.value in members:
            condition = frozenset({replace(members[receiver.value], method=method)})
            name = receiver.value
        else:
            cls = self.analyzer.member_class(receiver)
            if cls is None:
                return
            condition = frozenset({refs.StrEnumClass(cls, method)})
            name = "member"
        self.report(node, self.message.format(method=method, receiver=name), condition=condition)
