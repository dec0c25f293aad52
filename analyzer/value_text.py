"""How a message names the value it is about: the expression as written, when it is short."""
from __future__ import annotations

import libcst as cst

MAX_LENGTH = 40  # longer expressions read worse in a message than the rule's plain wording

_MODULE = cst.Module(body=[])


def value_text(node: cst.CSTNode) -> str | None:
    """`scores.max()` for that expression; None when it spans lines or is too long to quote."""
    try:
        text = _MODULE.code_for_node(node).strip()
    except Exception:  # libcst cannot print every detached node; the message then stays generic
        return None
    if not text or "\n" in text or len(text) > MAX_LENGTH:
        return None
    return text
