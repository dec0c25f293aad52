"""The server's project phase and the cyclic collector: no collection while it runs (over a
whole workspace it allocates objects that live until its end), and what a big project's phase
makes is moved out of the collector's passes after it (server/heap.py)."""
import gc

import pytest

from tclint.analyzer import api
from tclint.analyzer.config import Settings
from tclint.server import heap, workspace_index
from tclint.server.workspace_index import WorkspaceIndex


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_off_and_given_back_as_it_was_even_after_an_error(enabled):
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.raises(ValueError), heap.collector_off():
            assert not gc.isenabled()
            raise ValueError
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def _workspace(tmp_path, texts: dict[str, str]) -> tuple[WorkspaceIndex, object]:
    for name, text in texts.items():
        (tmp_path / f"{name}.py").write_text(text)
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    index.index_project(key)
    return index, key


def test_the_phase_runs_without_collections_and_a_big_project_freezes_what_each_run_made(tmp_path, monkeypatch):
    monkeypatch.setattr(workspace_index, "SETTLED_PROJECT_FILES", 2)
    index, key = _workspace(tmp_path, {"a": "def f(x):\n    return x\n", "b": "from a import f\n"})
    phase = api.project_diagnostics
    collecting, frozen = [], []
    monkeypatch.setattr(api, "project_diagnostics",
                        lambda *args: collecting.append(gc.isenabled()) or phase(*args))
    monkeypatch.setattr(heap.gc, "freeze", lambda: frozen.append(gc.isenabled()))
    was = gc.isenabled()
    gc.enable()
    try:
        index.diagnostics(key)
        assert collecting == [False] and gc.isenabled() and frozen == [False]
        index.set_buffer(str(key / "a.py"), "def f(x):\n    return x.sum().item()\n")  # same names
        index.diagnostics(key)
        assert collecting == [False, False] and frozen == [False, False]
    finally:
        (gc.enable if was else gc.disable)()


def test_a_project_phase_leaves_no_cyclic_garbage(tmp_path):
    """What a big project's phase makes is frozen (never collected): what a later run drops
    of it, its project index above all, must go by reference counting."""
    index, key = _workspace(tmp_path, {
        "a": "import torch\nfrom b import helper\n\n\ndef f(x):\n    return helper(x).item()\n",
        "b": "def helper(x):\n    print(x)\n    return x * 2\n"})
    a = (key / "a.py").read_text()
    was = gc.isenabled()
    try:
        for text in [a.replace("def f", "@torch.compile\ndef f"), a] * 2:  # a root added and gone
            index.set_buffer(str(key / "a.py"), text)
            gc.collect()  # the edited file's summary leaves cycles (the analyzer's visitors)
            gc.disable()
            index.diagnostics(key)
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                assert gc.collect() == 0, sorted({type(o).__qualname__ for o in gc.garbage})
            finally:
                gc.set_debug(0)
                gc.garbage.clear()
            gc.enable()
    finally:
        (gc.enable if was else gc.disable)()


def test_a_small_project_does_not_freeze(tmp_path, monkeypatch):
    index, key = _workspace(tmp_path, {"a": "def f(x):\n    return x\n", "b": "from a import f\n"})
    frozen = []
    monkeypatch.setattr(heap.gc, "freeze", lambda: frozen.append(1))
    index.diagnostics(key)
    assert frozen == []
