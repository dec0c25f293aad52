"""The server summarizes big editor buffers in the parse pool's worker, incrementally there."""
from __future__ import annotations

from pathlib import Path

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
