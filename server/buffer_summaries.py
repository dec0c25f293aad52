"""Summaries of the editor's buffers, re-analyzing only what an edit can change
(analyzer/incremental.py), and off the analysis thread for big buffers.

A small buffer is summarized on the analysis thread, where it takes milliseconds. From the
parse pool's threshold up, the parse pool's worker process does it, keeping its own
incremental state between edits: libcst's parser holds the GIL while it parses, and on the
analysis thread a big file's first open would stall hover and code actions for seconds.

The worker sends the server what changed since the summary the server holds: the functions
and classes that are new objects (an edit's pieces), with the order of all of them. Pickling a
big file's whole summary and back costs tens of milliseconds per edit.

A big buffer's first summary is the whole-file one (the summary cache's, when the index
already summarized the same bytes on disk): cutting the file into pieces costs a third
more, and only the next edit needs them. The buffers have a worker of their own (a lane of
the parse pool), which cuts the text into pieces after the pool's worker, the one that reads
files from disk, made the whole-file summary: a first open never queues behind the cutting of
the document opened before it, and the cutting runs beside the indexing of the workspace, on
another core, except while the pool's worker makes a summary the server waits for (a first
open, or the indexing of the file being opened): the buffers' worker is stopped meanwhile,
since the cut of the document opened just before would take half of two busy cores from it
(ParsePool.call). The next edit of the document queues behind its cut.
"""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field, replace
from typing import Any

from tclint.server.parse_pool import ParsePool, SummaryFailed, trim_heap


class BufferSummaries:
    def __init__(self, pool: ParsePool) -> None:
        from tclint.analyzer.incremental import IncrementalSummarizer

        self.pool = pool  # stateless: a buffer's first, whole-file summary
        self.worker = pool.lane("buffers")  # keeps the pieces of big buffers between edits
        self.local = IncrementalSummarizer()
        self._sent: set[tuple[str, str, bool]] = set()  # documents whose text went to the worker
        self._held: dict[tuple[str, str, bool], tuple[tuple, Any]] = {}  # document -> (token, the worker's last summary)

    def summarize(self, text: str, path: str, module: str, is_package: bool, cache: Any = None) -> Any:
        """The buffer's FileSummary; raises parse_pool.SummaryFailed when the worker crashed or hung.
        `cache`: the project's SummaryCache of files read from disk, if any."""
        if len(text) < self.pool.threshold:
            return self.local.summarize(text, path, module, is_package)
        job = (text, path, module, is_package)
        key = job[1:]
        if key not in self._sent:
            self._sent.add(key)
            summary = _cached(cache, job)
            if summary is None:
                summary = self.pool.summarize(*job)  # the cutting of a document opened before waits
                self.pool.post(trim_in_worker, None)  # that worker keeps nothing of it
            # Cut after, not while: on a busy machine the two would share the cores.
            self.worker.post(prepare_in_worker, job)
            return summary
        held = self._held.pop(key, None)
        sent, first = self.worker.call(summarize_in_worker, (*job, held[0] if held else None), path)
        summary = sent.summary if sent.base is None else _rebuilt(held[1], sent)
        self._held[key] = (sent.token, summary)
        if first:  # a new worker (the last one crashed): it cuts the text for the next edit
            self.worker.post(prepare_in_worker, job)
        return summary

    def forget(self, path: str) -> None:
        """The editor closed `path`: drop its syntax trees, here and in the worker."""
        self.local.forget(path)
        self._sent = {key for key in self._sent if key[0] != path}
        self._held = {key: held for key, held in self._held.items() if key[0] != path}
        trim_heap()
        if not self._sent:
            self.worker.release()  # no big buffer is open: its worker and what it held go
        elif self.worker.running:
            try:
                self.worker.call(forget_in_worker, path, path)
            except SummaryFailed:
                pass  # the worker is gone, and what it kept with it


def _cached(cache: Any, job: tuple[str, str, str, bool]) -> Any:
    if cache is None:
        return None
    from tclint.analyzer.cache import summary_key

    text, path, module, is_package = job
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: never the bytes of a file on disk
        return None
    return cache.get(summary_key(data, path, module, is_package))


@dataclass
class Sent:
    """A summary as it comes from the worker: whole (`base` None), or what changed since the
    one the server holds (its token `base`): `summary` with only the functions and classes
    that are new objects and not merely moved, the lines the moved ones moved down (an edit
    that adds a line moves every record below it: pickling them all costs tens of
    milliseconds), and the keys of all of them, in order."""

    token: tuple
    base: tuple | None
    summary: Any
    functions: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    moved: dict[tuple[str, str], int] = field(default_factory=dict)  # ("functions"/"classes", key) -> lines


def _rebuilt(held: Any, sent: Sent) -> Any:
    from tclint.analyzer.incremental import moved

    new = sent.summary

    def record(table: str, key: str) -> Any:
        if key in getattr(new, table):
            return getattr(new, table)[key]
        by = sent.moved.get((table, key))
        return getattr(held, table)[key] if not by else moved(getattr(held, table)[key], by)

    return replace(new, functions={k: record("functions", k) for k in sent.functions},
                   classes={k: record("classes", k) for k in sent.classes})


WORKER_DOCUMENTS = 8
_TOKENS = itertools.count()
_WORKER_STATE: dict[str, Any] = {}


def _summarizer() -> Any:
    """In the parse pool's worker: one incremental summarizer for the worker's life."""
    summarizer = _WORKER_STATE.get("summarizer")
    if summarizer is None:
        from tclint.analyzer.incremental import IncrementalSummarizer

        # Big documents only, whose syntax trees take tens of MB each: keep the last few.
        summarizer = _WORKER_STATE["summarizer"] = IncrementalSummarizer(max_documents=WORKER_DOCUMENTS)
    return summarizer


def summarize_in_worker(job: tuple[str, str, str, bool, tuple | None]) -> tuple[Sent, bool]:
    """(the summary as Sent, whether it is the whole-file one of a document the worker had no
    pieces of). `job`: text, path, module, is_package, and the token of the summary of this
    document that the server holds (None: none)."""
    *document, held = job
    summary, first = worker_summary(tuple(document))
    origins = _summarizer().origins if not first else {}
    sent = _WORKER_STATE.setdefault("sent", {})
    key = tuple(document[1:])
    previous = sent.pop(key, None)
    token = (os.getpid(), next(_TOKENS))  # a new worker's tokens are not its predecessor's
    sent[key] = (token, summary, origins)
    if len(sent) > WORKER_DOCUMENTS:
        del sent[next(iter(sent))]
    return delta(previous, held, (token, summary, origins)), first


def delta(previous: tuple | None, held: tuple | None, now: tuple) -> Sent:
    """`now` (token, summary, origins: see IncrementalSummarizer.origins) as sent to a server
    that holds the summary of token `held`; `previous`: the last one sent (token, summary, origins)."""
    from tclint.analyzer.incremental import moved_records

    token, summary, origins = now
    if previous is None or previous[0] != held:
        return Sent(token, None, summary)
    _, old, old_origins = previous
    shifts = moved_records(old_origins, origins)  # a record the server holds, moved

    def changed(table: str) -> dict:
        before = getattr(old, table)
        return {k: v for k, v in getattr(summary, table).items()
                if before.get(k) is not v and (table, k) not in shifts}

    return Sent(token, held, replace(summary, functions=changed("functions"), classes=changed("classes")),
                tuple(summary.functions), tuple(summary.classes), shifts)


def worker_summary(job: tuple[str, str, str, bool]) -> tuple[Any, bool]:
    """(summary, whether it is the whole-file one of a document the worker had no pieces of)."""
    summarizer = _summarizer()
    if not summarizer.knows(*job[1:]):
        from tclint.analyzer.project import summarize
        from tclint.server.heap import collector_off

        with collector_off():
            return summarize(*job), True
    return summarizer.summarize(*job), False


def prepare_in_worker(job: tuple[str, str, str, bool]) -> None:
    """Cut the document into pieces, for its next edit; its trees then stay out of the
    collector's full passes (server/heap.py)."""
    from tclint.server import heap

    with heap.collector_off():
        _summarizer().summarize(*job)
    heap.settle()


def trim_in_worker(_: None) -> None:
    trim_heap()


def forget_in_worker(path: str) -> None:
    summarizer = _WORKER_STATE.get("summarizer")
    if summarizer is not None:
        summarizer.forget(path)
    sent = _WORKER_STATE.get("sent", {})
    for key in [key for key in sent if key[0] == path]:
        del sent[key]
    trim_heap()
