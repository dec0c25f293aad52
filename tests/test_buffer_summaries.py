"""The server summarizes big editor buffers in the parse pool's worker, incrementally there."""
from __future__ import annotations

from pathlib import Path

import pytest

from tclint.analyzer.project import summarize
from tclint.server.buffer_summaries import BufferSummaries
from tclint.server.parse_pool import ParsePool

ROOT = Path(__file__).resolve().parents[1]


def test_small_buffers_stay_on_the_thread_and_big_ones_go_to_the_worker():
    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    pool = ParsePool(threshold=len(text))
    try:
        buffers = BufferSummaries(pool)
        small = text[:len(text) // 2].rsplit("\n\n", 1)[0] + "\n"
        assert buffers.summarize(small, "l.py", "tinyvit.layers", False) == summarize(small, "l.py", "tinyvit.layers", False)
        assert buffers.local.analyzed > 0
        for edit in (text, text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)).item()")):
            got = buffers.summarize(edit, "l.py", "tinyvit.layers", False)
            assert got == summarize(edit, "l.py", "tinyvit.layers", False)
        assert pool._pool is not None  # the worker was started for the big buffer
    finally:
        pool.close()


def test_a_big_buffer_is_summarized_whole_first_and_cut_into_pieces_for_its_next_edit():
    from tclint.server import buffer_summaries as bs

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    job = (text, "/ws/first_open.py", "first_open", False)
    summary, first = bs.worker_summary(job)
    assert first and summary == summarize(*job)
    assert not bs._summarizer().knows(*job[1:])  # no pieces cut yet
    bs.prepare_in_worker(job)
    edit = text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)).item()")
    summary, first = bs.worker_summary((edit, *job[1:]))
    assert not first and summary == summarize(edit, *job[1:])
    assert bs._summarizer().analyzed == 1  # the edited statement only


def test_a_big_buffer_equal_to_the_indexed_file_takes_its_summary_from_the_cache(tmp_path):
    from tclint.analyzer.cache import SummaryCache, summary_key

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    cache = SummaryCache(tmp_path)
    indexed = summarize(text, "/ws/l.py", "l", False)
    cache.put(summary_key(text.encode(), "/ws/l.py", "l", False), indexed)
    pool = ParsePool(threshold=1)
    try:
        buffers = BufferSummaries(pool)
        call = pool.call
        pool.call = None  # not asked: the cache answers
        assert buffers.summarize(text, "/ws/l.py", "l", False, cache) == indexed
        pool.call = call
        edit = text + "\nx = 1\n"  # the worker cut the opened text into pieces meanwhile
        assert buffers.summarize(edit, "/ws/l.py", "l", False, cache) == summarize(edit, "/ws/l.py", "l", False)
    finally:
        pool.close()


def test_the_worker_sends_what_changed_since_the_summary_the_server_holds():
    from tclint.server import buffer_summaries as bs

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    document = ("/ws/sent.py", "sent", False)
    bs.prepare_in_worker((text, *document))
    first, _ = bs.summarize_in_worker((text, *document, None))
    assert first.base is None and first.summary == summarize(text, *document)  # the server holds none: whole
    edit = text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)).item()")
    sent, _ = bs.summarize_in_worker((edit, *document, first.token))
    assert sent.base == first.token
    assert 0 < len(sent.summary.functions) < len(sent.functions)  # the edited class's methods only
    assert bs._rebuilt(first.summary, sent) == summarize(edit, *document)
    stale, _ = bs.summarize_in_worker((text, *document, first.token))  # not the worker's last: whole
    assert stale.base is None and stale.summary == summarize(text, *document)


def test_a_first_open_does_not_queue_behind_the_cutting_of_another_buffer():
    import time

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    pool = ParsePool(threshold=1)
    try:
        buffers = BufferSummaries(pool)
        buffers.worker.post(time.sleep, 60)  # the buffers' worker is busy (cutting a big document)
        began = time.monotonic()
        assert buffers.summarize(text, "/ws/l.py", "l", False) == summarize(text, "/ws/l.py", "l", False)
        assert time.monotonic() - began < 45  # from the pool's own worker
    finally:
        pool.close()
    assert not buffers.worker.running  # the lane is closed with its pool


def _states(pool: ParsePool) -> list[str]:
    """The scheduler state (R, S, T for stopped...) of each of the pool's worker processes."""
    return [Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            for p in pool._pool._processes.values()]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_the_cutting_of_another_buffer_is_stopped_while_the_pool_makes_a_summary_the_server_waits_for():
    import time

    from tclint.server.parse_pool import _summarize_in_worker

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    pool = ParsePool(threshold=1)
    try:
        buffers = BufferSummaries(pool)
        buffers.summarize(text, "/ws/a.py", "a", False)  # a.py is cut in the buffers' worker after
        submit = pool._submit
        seen = []

        def submit_watched(fn, job):  # the pool's worker gets a job now
            if fn is _summarize_in_worker:  # not the clean-up posted after a first open
                deadline = time.monotonic() + 10  # a signal lands soon after it is sent, not at once
                while set(_states(buffers.worker)) != {"T"} and time.monotonic() < deadline:
                    time.sleep(0.01)
                seen.append(set(_states(buffers.worker)))
            return submit(fn, job)

        pool._submit = submit_watched
        assert buffers.summarize(text, "/ws/b.py", "b", False) == summarize(text, "/ws/b.py", "b", False)  # a first open
        assert pool.summarize(text.encode(), "/ws/c.py", "c", False) == summarize(text, "/ws/c.py", "c", False)  # indexing
        assert seen == [{"T"}, {"T"}]
        assert "T" not in _states(buffers.worker)  # and goes on after
        edit = text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)).item()")
        assert buffers.summarize(edit, "/ws/a.py", "a", False) == summarize(edit, "/ws/a.py", "a", False)
    finally:
        pool.close()


def test_records_an_edit_only_moves_down_are_sent_as_moves():
    import pickle

    from tclint.server import buffer_summaries as bs

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    document = ("/ws/moved.py", "moved", False)
    bs.prepare_in_worker((text, *document))
    first, _ = bs.summarize_in_worker((text, *document, None))
    edit = "import os\n" + text  # every function and class one line down
    sent, _ = bs.summarize_in_worker((edit, *document, first.token))
    assert sent.summary.functions == {} and sent.summary.classes == {}
    assert set(sent.moved.values()) == {1} and len(sent.moved) == len(first.summary.functions) + len(first.summary.classes)
    sent = pickle.loads(pickle.dumps(sent))
    assert bs._rebuilt(first.summary, sent) == summarize(edit, *document)


def test_closing_the_last_big_buffer_stops_its_worker_and_another_open_starts_one():
    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    pool = ParsePool(threshold=len(text) // 2)
    try:
        buffers = BufferSummaries(pool)
        buffers.summarize(text, "a.py", "a", False)
        buffers.summarize(text, "b.py", "b", False)
        buffers.forget("a.py")
        assert buffers.worker.running  # b.py is still open and its pieces live there
        buffers.forget("b.py")
        assert not buffers.worker.running  # what it held goes back to the system
        edit = text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)).item()")
        buffers.summarize(text, "b.py", "b", False)
        assert buffers.summarize(edit, "b.py", "b", False) == summarize(edit, "b.py", "b", False)
    finally:
        pool.close()


def test_whole_file_summaries_in_a_worker_run_without_collector_passes(monkeypatch):
    import gc

    from tclint.analyzer import project
    from tclint.server import buffer_summaries as bs
    from tclint.server import parse_pool

    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    collecting = []

    def watched(*job):
        collecting.append(gc.isenabled())
        return summarize(*job)

    monkeypatch.setattr(project, "summarize", watched)
    assert parse_pool._summarize_in_worker((text, "/ws/c.py", "c", False)) == summarize(text, "/ws/c.py", "c", False)
    assert bs.worker_summary((text, "/ws/gc_first.py", "gc_first", False))[1]  # a first open, whole
    assert collecting == [False, False] and gc.isenabled()  # and the collector is back after
