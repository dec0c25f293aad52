"""Big long-lived heaps (a prepared document's trees, an indexed workspace's summaries) are
moved out of the cyclic collector's full passes, which would otherwise land inside edits."""
import gc

from tclint.server import buffer_summaries, heap
from tclint.server.workspace_index import WorkspaceIndex


def test_a_prepared_document_is_out_of_the_collectors_passes():
    text = "import torch\n\n\ndef f(x):\n    return x.item()\n" * 50
    gc.unfreeze()
    try:
        buffer_summaries.prepare_in_worker((text, "/tmp/doc.py", "doc", False))
        assert gc.get_freeze_count() > 0
        pieces = next(iter(buffer_summaries._summarizer()._documents.values())).pieces
        tree = next(iter(pieces.values())).tree
        assert not any(tree is obj for generation in range(3) for obj in gc.get_objects(generation))
    finally:
        gc.unfreeze()
        buffer_summaries.forget_in_worker("/tmp/doc.py")


def test_the_heap_settles_once_a_workspace_is_indexed_not_when_indexing_steps_aside(tmp_path, monkeypatch):
    from tclint.analyzer.config import Settings

    for name in "abc":
        (tmp_path / f"{name}.py").write_text("def f(x):\n    return x\n")
    settled = []
    monkeypatch.setattr(heap, "settle", lambda: settled.append(1))
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    done: set[str] = set()
    index.index_project(key, cancelled=lambda: len(done) == 1, done=done)
    assert settled == []
    index.index_project(key, done=done)
    assert settled == [1] and len(index.project(key).summaries) == 3
