"""Breaks inside blocks Dynamo cannot resume in (torch 2.13).

Dynamo resumes a frame after a graph break only where nothing is open around the break.
Inside a `try` body, or a `with` body whose context manager is the project's own (a class
with `__enter__`, a `@contextmanager` function: Dynamo's "generic" context managers), it
cannot. It then compiles the frame only up to the last point where it could have stopped,
the block's first line, and runs all the rest of the frame eagerly. `explain()` lists that as
a "step_unsupported" break on the block's line; the break inside is logged as well.

The point it compiles up to is the last checkpoint Dynamo took, and it takes one only where
its stack is empty: not inside a `for` (the iterator is on the stack) nor a `with` (the
context's exit is). So for a block inside a `for` loop or a `with` statement, the checkpoint
is the outermost such statement, and "step_unsupported" is reported on its line; a `while`
loop holds nothing there. The frame's graph must hold at least two operations at the
checkpoint: with fewer, Dynamo skips the whole frame and reports only the break inside. A
break between the checkpoint and the block (a break in a loop skips the whole frame) leaves
the block unreached. Context managers torch knows (`torch.no_grad()`, `autocast`) are
resumable. All checked under torch 2.13 (tests/test_unresumable_blocks.py).

An operator on an object of a project class (`a + b` runs `A.__add__`) is such a block too:
Dynamo inlines the method, but an operator, unlike a call, is no point it can resume at. So
when the method certainly breaks, the statement's checkpoint is reported as for a `try`,
and the rest of the frame runs eagerly. `@` and `~` Dynamo 2.13 does not trace at all on
such an object ("Failed to trace builtin operator", TC232), whatever the method does.

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
OPERATOR_CODE = "TC232"
UNTRACEABLE_OPERATORS = frozenset({"__matmul__", "__invert__"})  # on an object of a user class

# make(code, function key, span, message) -> the finding
Make = Callable[[str, str, Span, str], Diagnostic]


def add_block_breaks(index: ProjectIndex, found: dict[str, FunctionFindings], enabled: Callable[[str, str], bool],
                     with_blocks: list[str], make: Make, breaks: Breaking | None = None) -> None:
    """Adds, to each reached function, a finding at each unresumable block that holds a
    certain break; the break inside a `with` body then ends the frame (loop_skips hides what
    follows it), as one in a `try` body already does. `with_blocks`: the keys of `found` whose
    summary has blocks (analyzer/pass_subjects.py)."""
    _add_untraceable_operators(index, found, [key for key in with_blocks if enabled(OPERATOR_CODE, key)], make)
    breaking: set[str] | None = None
    for key in [key for key in with_blocks if enabled(CODE, key)]:
        if breaking is None:  # only projects with such blocks pay for it
            breaking = breaks.certain if breaks is not None else breaking_functions(found, certain=True)
        ff, fn = found[key], index.functions[key][1]
        resolved_sites = list(zip(fn.calls, index.site_callees(key, fn)))
        _add_operator_blocks(index, key, ff, fn, resolved_sites, breaking, make)
        candidates = [b for b in fn.blocks if not b.operator and (b.context is None or _project_context_manager(
            index, b.context))]
        if not candidates:
            continue
        candidates = [b for b in candidates if b.checkpoint is None
                      or not _breaks_between(ff, resolved_sites, b.checkpoint.line, b.span.line - 1, breaking)]
        # with fewer than two operations before it Dynamo skips the whole frame: no checkpoint
        # to report, but a break in a `with` body still ends the frame
        blocks, skipped = [], []
        for b in candidates:
            (blocks if _graph_before(index, key, b, breaking) else skipped).append(b)
        breaks: list[tuple[Block, int, str]] = []  # (outermost block, line, what breaks there)
        for i, (d, _) in enumerate(ff.own):
            if not is_break(d):
                continue
            block = _outermost(blocks, d.span.line)
            if block is not None:
                breaks.append((block, d.span.line, f"{d.code} {d.name}"))
            if _ends_frame(block or _outermost(skipped, d.span.line)):
                ff.own[i] = (d, True)
        for site, resolved in resolved_sites:
            if not resolved or not all(c in breaking for c in resolved):
                continue
            block = _outermost(blocks, site.span.line)
            if block is not None:
                breaks.append((block, site.span.line, f"a call of `{index.short_name(resolved[0])}`, which breaks"))
            if _ends_frame(block or _outermost(skipped, site.span.line)):
                ff.loop_calls.append(((site.span.line, site.span.column), list(resolved)))
        for block in {id(b): b for b, _, _ in breaks}.values():
            line, what = min((line, what) for b, line, what in breaks if b is block)
            kind = "try" if block.context is None else "with"
            span = block.span
            if block.checkpoint is None:
                header = Span(span.line, span.column, span.line, span.column + len(kind))
                where = f"this `{kind}` block"
            else:
                header = block.checkpoint
                where = (f"the `{kind}` block at line {span.line}, nor anywhere in this `{block.checkpoint_keyword}` "
                         "statement around it")
            ff.own.append((make(CODE, key, header,
                                f"Dynamo cannot resume inside {where}, so the graph break at line {line} "
                                f"({what}) compiles `{fn.name}` only up to here and runs the rest of it eagerly"),
                           False))


def _add_untraceable_operators(index: ProjectIndex, found: dict[str, FunctionFindings], keys: list[str],
                               make: Make) -> None:
    """TC232 at each `a @ b` / `~a` on an object of a project class defining the method; it
    ends the frame (the operator is no point Dynamo can resume at)."""
    for key in keys:
        fn = index.functions[key][1]
        for block in fn.blocks:
            site = _operator_site(fn, block) if block.operator else None
            if site is not None and block.context.name in UNTRACEABLE_OPERATORS and _user_class_method(
                    index, block.context):
                ff = found[key]
                ff.own.append((make(OPERATOR_CODE, key, site.span,
                                    f"Dynamo cannot trace `{block.operator}` on an object of a class of yours "
                                    f"(`{block.context}`): the graph breaks here"), True))


def _add_operator_blocks(index: ProjectIndex, key: str, ff: FunctionFindings, fn, sites, breaking: set[str],
                         make: Make) -> None:
    """TC228 at the checkpoint of each statement whose operator on an object of a project
    class certainly breaks, outside `try`/`with` blocks (those are blocks of their own)."""
    regular = [b for b in fn.blocks if not b.operator]
    for block in fn.blocks:
        site = _operator_site(fn, block) if block.operator else None
        if site is None or _outermost(regular, block.span.line) is not None:
            continue
        resolved = next(r for s, r in sites if s is site)
        if block.context.name in UNTRACEABLE_OPERATORS and _user_class_method(index, block.context):
            what = f"{OPERATOR_CODE} on `{block.operator}`"
        elif resolved and all(c in breaking for c in resolved):
            what = f"in `{index.short_name(resolved[0])}`, which `{block.operator}` runs"
        else:
            continue
        span = block.span
        first = block.checkpoint.line if block.checkpoint is not None else span.line
        if not _graph_before(index, key, block, breaking) or _breaks_between(
                ff, sites, first, span.end_line, breaking, but=site.span):
            continue
        if block.checkpoint is None:  # the statement's first line, where Dynamo reports it
            header = site.span if site.span.line == span.line else Span(span.line, span.column, span.line,
                                                                          span.column + 1)
            where = f"the `{block.operator}` operator here"
        else:
            header = block.checkpoint
            where = (f"the `{block.operator}` operator at line {span.line}, nor anywhere in this "
                     f"`{block.checkpoint_keyword}` statement around it")
        ff.own.append((make(CODE, key, header,
                            f"Dynamo cannot resume inside {where}, so the graph break ({what}) compiles `{fn.name}` "
                            "only up to here and runs the rest of it eagerly"), False))


def _operator_site(fn, block: Block):
    """The call of the operator's method that the file pass recorded with the block."""
    span = block.span
    return next((site for site in fn.calls if site.ref == block.context
                 and span.line <= site.span.line <= span.end_line), None)


def _user_class_method(index: ProjectIndex, ref) -> bool:
    """Whether the method is one of a project class that no torch class is a base of (a
    tensor subclass's operators go through `__torch_function__`)."""
    target = index.resolve_dotted(ref.cls)
    if target is None or target[0] != "class" or not index.resolve_ref(ref):
        return False
    return not any(base.startswith("torch.") for c in index.mro(target[1]) for base in index.classes[c][1].bases)


def _graph_before(index: ProjectIndex, key: str, block: Block, breaking: set[str]) -> bool:
    """Whether the frame's graph holds two operations when it enters the block. Only the
    function's own operations outside branches count (a helper's may be Python work on
    sizes); a call before the block that breaks starts the graph again, and then the count
    (which does not know which side of it each operation was) is not trusted."""
    if block.ops < 2:
        return False
    resolved = index.site_callees(key, index.functions[key][1])
    return not any(resolved[i] and all(c in breaking for c in resolved[i]) for i in block.calls_before)


def _breaks_between(ff: FunctionFindings, sites, first: int, last: int, breaking: set[str],
                    but: Span | None = None) -> bool:
    """Whether something certainly breaks on lines first..last (the checkpoint up to the
    block: in a loop body Dynamo then skips the frame, in a `with` body it resumes there;
    either way the block's break does not compile up to the checkpoint), but at `but`."""
    return (any(first <= d.span.line <= last and d.span != but and is_break(d) for d, _ in ff.own)
            or any(first <= site.span.line <= last and site.span != but and resolved
                   and all(c in breaking for c in resolved) for site, resolved in sites))


def _outermost(blocks: list[Block], line: int) -> Block | None:
    inside = [b for b in blocks if b.span.line < line <= b.span.end_line]
    return min(inside, key=lambda b: b.span.line) if inside else None


def _ends_frame(block: Block | None) -> bool:
    """A break in this outermost block ends its frame here (a `try` body's does elsewhere)."""
    return block is not None and block.context is not None


def _project_context_manager(index: ProjectIndex, ref) -> bool:
    """`with C(...)` of a project class with `__enter__`, or `with cm(...)` of a project
    function decorated with `@contextmanager` (every function the call may run)."""
    target = index.resolve_dotted(ref.dotted) if isinstance(ref, Named) else None
    if target is not None and target[0] == "class":
        return any("__enter__" in index.classes[c][1].methods for c in index.mro(target[1]))
    resolved = index.resolve_ref(ref)
    return bool(resolved) and all(index.functions[k][1].context_manager for k in resolved)
