"""Programs with the lines Dynamo reports for them, for the tests of breaks that end a frame:
tclint must flag exactly those lines, and Dynamo must report exactly them."""
from __future__ import annotations

import textwrap

from dynamo_oracle import ask
from tclint.analyzer import api


def flagged_lines(source: str) -> set[int]:
    """The lines tclint flags with a graph break in `source` (dedented)."""
    return {d.span.line for d in api.lint_source(textwrap.dedent(source), "prog.py") if d.gb_type}


def dynamo_verdicts(programs: dict[str, tuple[str, str, set[int]]]) -> dict:
    """Dynamo's verdict on each program (name -> (source, call, lines)), checked to run and to
    report exactly its lines."""
    verdicts = ask([{"id": name, "source": textwrap.dedent(src), "call": call}
                    for name, (src, call, _) in programs.items()])
    for name, (_src, _call, lines) in programs.items():
        assert verdicts[name]["error"] is None, name
        assert {line for _, line in verdicts[name]["breaks"]} == lines, (name, verdicts[name]["breaks"])
    return verdicts
