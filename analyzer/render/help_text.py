"""The `help:` line of `--format full`: what to write instead, for the construct found.

Rules whose fix depends on the code at hand get a line built from that code (`x.sum()` for
a finding on `x.sum().item()`); the others use the first prose paragraph of the rule's
"Use instead" section. An example's code line is never shown out of context: a rule with
only example code points to `tclint rule CODE`.
"""
from __future__ import annotations

import string

# code -> help, with {code} the finding's own source text (single-line findings only)
_FOR_CODE = {
    "TC101": "decide inside the graph: `torch.where({code}, a, b)` picks per element, "
             "`torch.cond({code}, true_fn, false_fn, (x,))` runs one of two functions",
    "TC102": "keep `{receiver}` a tensor and compute with it in the graph; read the number after the compiled call",
    "TC103": "keep `{argument}` a tensor (`.to(dtype)` changes its type); read the number after the compiled call",
    "TC104": "keep `{receiver}` a tensor and use tensor ops, or call `.tolist()` after the compiled call",
    "TC201": "print after the compiled call (return what you need), or let Dynamo move it: "
             "`torch._dynamo.config.reorderable_logging_functions.add(print)`",
    "TC212": "compile the model and call `{code}` outside it: AOTAutograd compiles the backward of a compiled forward",
    "TC217": "call `{code}` outside the compiled function, or compile it on its own: `torch.compile({callee})()`",
    "TC302": "keep the shape static: `torch.where(mask, x, 0)` or `x.masked_fill(~mask, 0)` instead of `{code}`",
}


def help_line(rule, code: str | None) -> str | None:
    """What to write instead, or None when the rule says nothing more than its message."""
    if rule is None:
        return None
    template = _FOR_CODE.get(rule.code)
    if template is not None and code:
        receiver, _, _ = code.rpartition(".")
        callee = code[:-2] if code.endswith("()") else code
        argument = code[code.find("(") + 1:-1] if code.endswith(")") and "(" in code else code
        parts = {"code": code, "receiver": receiver or code, "argument": argument, "callee": callee}
        if all(parts[name] for name in _fields(template)):
            return template.format(**parts)
    prose = _use_instead_prose(rule.doc())
    if prose:
        return prose
    if "## Use instead" in rule.doc():
        return f"see `tclint rule {rule.code}` for what to write instead"
    return None


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def _use_instead_prose(doc: str) -> str | None:
    """The first paragraph of prose in the "Use instead" section (after any code block)."""
    marker = "## Use instead"
    if marker not in doc:
        return None
    section = doc.split(marker, 1)[1].split("\n## ", 1)[0]
    paragraph: list[str] = []
    in_code = False
    for line in section.strip().splitlines():
        if line.startswith("```"):
            in_code = not in_code
            if paragraph:
                break
            continue
        if in_code:
            continue
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    return " ".join(paragraph) or None
