"""Keeping the cyclic garbage collector's full passes short in a server that holds big heaps.

Python's full collection walks every tracked object. The parse worker keeps the syntax trees
of every piece of each big open document, and the server the summaries of a whole workspace:
hundreds of thousands of long-lived objects, so a full pass (every few edits) takes a few
hundred milliseconds, and lands inside one edit's latency. These objects form no reference
cycles (trees point down, summaries are plain records), so once a document is prepared or a
workspace indexed they are moved out of the collector's sight (gc.freeze): they are still
freed by reference counting when dropped, and later passes walk only what came after.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


def settle() -> None:
    """Collect what is garbage now, then freeze everything still alive."""
    gc.collect()
    gc.freeze()


@contextmanager
def kept_out():
    """A big project phase: what it allocates (hundreds of thousands of objects, most kept for
    the next run) is frozen at its end instead of walked by the collector's passes after it,
    which took about a sixth of an edit in a whole transformers/models workspace. What came
    since the last freeze (an edited document's summary, whose analyzer leaves cycles) is
    collected first, so no garbage is frozen; the phase's own objects form no cycles (its
    project index holds none: analyzer/project_reads.py), so what a later run drops is freed
    by reference counting."""
    gc.collect()
    with collector_off():
        yield
        gc.freeze()


@contextmanager
def collector_off():
    """No collection while one big file is summarized in a worker process: its syntax tree is
    tens of thousands of new objects, and the collector's passes over them while they are
    built cost a sixth of the summary, for nothing (the tree forms no cycles). What the
    summary leaves cyclic is collected by the passes after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
