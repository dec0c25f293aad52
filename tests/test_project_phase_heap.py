"""The server's project phase and the cyclic collector: no collection while it runs (over a
whole workspace it allocates objects that live until its end), and the resolutions a fresh
index fills are moved out of the collector's full passes (server/heap.py)."""
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


def test_the_phase_runs_without_collections_and_a_big_project_settles_after_a_fresh_index_only(tmp_path, monkeypatch):
    monkeypatch.setattr(workspace_index, "SETTLED_PROJECT_FILES", 2)
    index, key = _workspace(tmp_path, {"a": "def f(x):\n    return x\n", "b": "from a import f\n"})
    phase = api.project_diagnostics
    collecting, settled = [], []
    monkeypatch.setattr(api, "project_diagnostics",
                        lambda *args: collecting.append(gc.isenabled()) or phase(*args))
    monkeypatch.setattr(heap, "settle", lambda: settled.append(1))
    was = gc.isenabled()
    gc.enable()
    try:
        index.diagnostics(key)
        assert collecting == [False] and gc.isenabled() and settled == [1]
        index.set_buffer(str(key / "a.py"), "def f(x):\n    return x.sum().item()\n")  # same names
        index.diagnostics(key)
        assert collecting == [False, False] and settled == [1]
    finally:
        (gc.enable if was else gc.disable)()


def test_a_small_project_does_not_settle(tmp_path, monkeypatch):
    index, key = _workspace(tmp_path, {"a": "def f(x):\n    return x\n", "b": "from a import f\n"})
    settled = []
    monkeypatch.setattr(heap, "settle", lambda: settled.append(1))
    index.diagnostics(key)
    assert settled == []
