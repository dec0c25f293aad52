"""Breaks inside blocks Dynamo cannot resume in (torch 2.13).

Dynamo resumes a frame after a graph break only where nothing is open around the break.
Inside a `try` body, or a `with` body whose context manager is the project's own (a class
with `__enter__`, a `@contextmanager` function: Dynamo's "generic" context managers), it
cannot. It then compiles the frame only up to the last point where it could have stopped,
the block's first line, and runs all the rest of the frame eagerly. `explain()` lists that as
a "step_unsupported" break on the block's line; the break inside is logged as well.

Two conditions, checked under torch 2.13: the frame's graph holds at least two operations
before the block (with fewer, Dynamo skips the whole frame and reports only the break
inside), and the block is not in a loop (a break in a loop skips the whole frame). Context
managers torch knows (`torch.no_grad()`, `autocast`) are resumable.

Found here (the project phase): the file pass records the blocks (`summary.Block`); which of
them hold a break is known once every function's findings are.
"""
from __future__ import annotations

from typing import Callable

from tclint.analyzer.call_refs import Named
from tclint.analyzer.diagnostic import Diagnostic, Span
from tclint.analyzer.loop_skips import Breaking, FunctionFindings, breaking_functions, is_break
from tclint.analyzer.regions import ProjectIndex
from tclint.analyzer.summary import Block

CODE = "TC228"

# make(code, function key, span, message) -> the finding
Make = Callable[[str, str, Span, str], Diagnostic]


def add_block_breaks(index: ProjectIndex, found: dict[str, FunctionFindings], enabled: Callable[[str, str], bool],
                     make: Make, breaks: Breaking | None = None) -> None:
    """Adds, to each reached function, a finding at each unresumable block that holds a
    certain break; the break inside a `with` body then ends the frame (loop_skips hides what
    follows it), as one in a `try` body already does."""
    breaking: set[str] | None = None
    for key in [key for key in found if index.functions[key][1].blocks and enabled(CODE, key)]:
        if breaking is None:  # only projects with such blocks pay for it
            breaking = breaks.certain if breaks is not None else breaking_functions(found, certain=True)
        ff, fn = found[key], index.functions[key][1]
        blocks = [b for b in fn.blocks if (b.context is None or _project_context_manager(index, b.context))
                  and _graph_before(index, key, b, breaking)]
        if not blocks:
            continue
        breaks: list[tuple[Block, int, str]] = []  # (outermost block, line, what breaks there)
        for i, (d, _) in enumerate(ff.own):
            block = _outermost(blocks, d.span.line)
            if block is not None and is_break(d):
                breaks.append((block, d.span.line, f"{d.code} {d.name}"))
                if block.context is not None:
                    ff.own[i] = (d, True)
        for site, resolved in zip(fn.calls, index.site_callees(key, fn)):
            block = _outermost(blocks, site.span.line)
            if block is None or not resolved or not all(c in breaking for c in resolved):
                continue
            breaks.append((block, site.span.line, f"a call of `{index.short_name(resolved[0])}`, which breaks"))
            if block.context is not None:
                ff.loop_calls.append(((site.span.line, site.span.column), list(resolved)))
        for block in {id(b): b for b, _, _ in breaks}.values():
            line, what = min((line, what) for b, line, what in breaks if b is block)
            kind = "try" if block.context is None else "with"
            span = block.span
            header = Span(span.line, span.column, span.line, span.column + len(kind))
            ff.own.append((make(CODE, key, header,
                                f"Dynamo cannot resume inside this `{kind}` block, so the graph break at line {line} "
                                f"({what}) compiles `{fn.name}` only up to here and runs the rest of it eagerly"),
                           False))


def _graph_before(index: ProjectIndex, key: str, block: Block, breaking: set[str]) -> bool:
    """Whether the frame's graph holds two operations when it enters the block. Only the
    function's own operations outside branches count (a helper's may be Python work on
    sizes); a call before the block that breaks starts the graph again, and then the count
    (which does not know which side of it each operation was) is not trusted."""
    if block.ops < 2:
        return False
    resolved = index.site_callees(key, index.functions[key][1])
    return not any(resolved[i] and all(c in breaking for c in resolved[i]) for i in block.calls_before)


def _outermost(blocks: list[Block], line: int) -> Block | None:
    inside = [b for b in blocks if b.span.line < line <= b.span.end_line]
    return min(inside, key=lambda b: b.span.line) if inside else None


def _project_context_manager(index: ProjectIndex, ref) -> bool:
    """`with C(...)` of a project class with `__enter__`, or `with cm(...)` of a project
    function decorated with `@contextmanager` (every function the call may run)."""
    target = index.resolve_dotted(ref.dotted) if isinstance(ref, Named) else None
    if target is not None and target[0] == "class":
        return any("__enter__" in index.classes[c][1].methods for c in index.mro(target[1]))
    resolved = index.resolve_ref(ref)
    return bool(resolved) and all(index.functions[k][1].context_manager for k in resolved)
