"""The environment the example process gets: the user's, minus what would stop torch importing."""
from tclint.analyzer.confirm import module_run


def test_blank_torch_logs_is_dropped(monkeypatch):
    # `import torch` raises AttributeError when TORCH_LOGS is set but blank (torch 2.13).
    monkeypatch.setenv("TORCH_LOGS", " ")
    assert "TORCH_LOGS" not in module_run._child_env()


def test_torch_logs_with_a_value_is_kept(monkeypatch):
    monkeypatch.setenv("TORCH_LOGS", "graph_breaks")
    assert module_run._child_env()["TORCH_LOGS"] == "graph_breaks"
