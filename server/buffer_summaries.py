"""Summaries of the editor's buffers, re-analyzing only what an edit can change
(analyzer/incremental.py), and off the analysis thread for big buffers.

A small buffer is summarized on the analysis thread, where it takes milliseconds. From the
parse pool's threshold up, the parse pool's worker process does it, keeping its own
incremental state between edits: libcst's parser holds the GIL while it parses, and on the
analysis thread a big file's first open would stall hover and code actions for seconds.
"""
from __future__ import annotations

from typing import Any

from tclint.server.parse_pool import ParsePool


class BufferSummaries:
    def __init__(self, pool: ParsePool) -> None:
        from tclint.analyzer.incremental import IncrementalSummarizer

        self.pool = pool
        self.local = IncrementalSummarizer()

    def summarize(self, text: str, path: str, module: str, is_package: bool) -> Any:
        """The buffer's FileSummary; raises parse_pool.SummaryFailed when the worker crashed or hung."""
        if len(text) < self.pool.threshold:
            return self.local.summarize(text, path, module, is_package)
        return self.pool.call(summarize_in_worker, (text, path, module, is_package), path)


WORKER_DOCUMENTS = 8
_WORKER_STATE: dict[str, Any] = {}


def summarize_in_worker(job: tuple[str, str, str, bool]) -> Any:
    """In the parse pool's worker: one incremental summarizer for the worker's life."""
    summarizer = _WORKER_STATE.get("summarizer")
    if summarizer is None:
        from tclint.analyzer.incremental import IncrementalSummarizer

        # Big documents only, whose syntax trees take tens of MB each: keep the last few.
        summarizer = _WORKER_STATE["summarizer"] = IncrementalSummarizer(max_documents=WORKER_DOCUMENTS)
    return summarizer.summarize(*job)
