"""One bad input never crashes, hangs or sinks the run: it gets a finding or a notice of
its own, and every other file is still linted."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tclint.analyzer.config import Settings
from tclint.analyzer.incremental import IncrementalSummarizer
from tclint.analyzer.parse_guard import MAX_DEPTH
from tclint.analyzer.project import lint_paths, summarize
from tclint.server.workspace_index import WorkspaceIndex

BAD = "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n"

# Each of these crashed libcst's native parser (or would take minutes) before.
DEEP = {
    "brackets": "x = " + "(" * 1270 + "1" + ")" * 1270 + "\n",
    "calls": "x = " + "f(" * 2000 + "1" + ")" * 2000 + "\n",
    "nots": "x = " + "not " * 50000 + "1\n",
    "attribute_chain": "x = a" + ".b" * 8000 + "\n",
    "sum": "x = " + "1+" * 100000 + "1\n",
    "attribute_chain_python_accepts": "x = a" + ".b" * (MAX_DEPTH + 10) + "\n",
}


def run(*args, cwd, stdin=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "tclint.analyzer", *args], cwd=cwd, input=stdin,
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=timeout)


@pytest.mark.parametrize("name", DEEP)
def test_deep_code_is_tc001_without_parsing(name):
    summary = summarize(DEEP[name].encode(), f"{name}.py", name, False)
    assert summary.syntax_error is not None
    message, span = summary.syntax_error
    assert "nested" in message


def test_deep_code_in_the_editor_is_tc001():
    summary = IncrementalSummarizer().summarize(DEEP["attribute_chain_python_accepts"], "/ws/a.py", "a", False)
    assert "nested too deeply" in summary.syntax_error[0]


def test_ordinary_nesting_is_analyzed():
    code = "x = " + " + ".join(f"a{i}" for i in range(300)) + "\n" + BAD
    assert summarize(code.encode(), "ok.py", "ok", False).syntax_error is None


def test_a_tree_of_bad_inputs_is_linted_to_the_end(tmp_path):
    for name, code in DEEP.items():
        (tmp_path / f"{name}.py").write_text(code)
    (tmp_path / "idna.py").write_bytes(b"# coding: idna\nx = 1\n")
    (tmp_path / os.fsdecode(b"name\xff.py")).write_text(BAD)
    (tmp_path / "nonstring.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": [1, 2]}]}))
    (tmp_path / "deep.ipynb").write_text("[" * 100000 + "]" * 100000)
    (tmp_path / "bad.py").write_text(BAD)
    for cached in ([], ["--no-cache"]):
        proc = run(*cached, "--format", "json", ".", cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        found = {(Path(d["path"]).stem, d["code"]) for d in json.loads(proc.stdout)["diagnostics"]}
        assert {(name, "TC001") for name in DEEP} <= found
        assert ("bad", "TC102") in found and (os.fsdecode(b"name\xff"), "TC102") in found
        messages = {Path(d["path"]).name: d["message"] for d in json.loads(proc.stdout)["diagnostics"]}
        assert messages["nonstring.ipynb"] == "not a notebook: a code cell's source is neither text nor a list of lines"
        assert messages["deep.ipynb"] == "not a readable notebook: its JSON is nested too deeply"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_special_files_are_not_read(tmp_path):
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    (tmp_path / "bad.py").write_text(BAD)
    proc = run("--no-cache", ".", cwd=tmp_path, timeout=60)
    assert proc.returncode == 1 and b"bad.py" in proc.stdout, proc.stderr
    named = run("--no-cache", "fifo.py", "zero.py", cwd=tmp_path, timeout=60)
    assert b"fifo.py: not a regular file" in named.stderr and b"zero.py: not a regular file" in named.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_the_server_index_reads_no_special_file(tmp_path):
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    result: list = []
    worker = threading.Thread(target=lambda: result.append([
        index.refresh_from_disk(str(tmp_path / "fifo.py")), index.refresh_from_disk(str(tmp_path / "zero.py"))]),
        daemon=True)
    worker.start()
    worker.join(30)
    assert result and all("not a regular file" in notice for notice in result[0])


def test_a_file_that_grows_past_the_limit_while_read_is_skipped(tmp_path):
    from tclint.analyzer.discovery import NotASourceFile, read_source

    (tmp_path / "a.py").write_text("x = 1\n" * 100)
    with pytest.raises(NotASourceFile, match="over max-file-size"):
        read_source(tmp_path / "a.py", 50)
    assert read_source(tmp_path / "a.py", 600) == b"x = 1\n" * 100


@pytest.mark.parametrize("config, message", [
    ('[tool.tclint]\nexclude = ["\\\\"]\n', "'exclude': '\\\\' is not a valid gitignore pattern"),
    ("[tool.tclint]\nroots = " + "[" * 5000 + "]" * 5000 + "\n", "invalid TOML: nested too deeply"),
])
def test_config_errors_exit_2_with_a_message(tmp_path, config, message):
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "a.py").write_text("x = 1\n")
    proc = run("--no-cache", ".", cwd=tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr.decode() and "Traceback" not in proc.stderr.decode()


def test_a_notebook_on_stdin_is_linted_as_a_notebook(tmp_path):
    cells = [{"cell_type": "markdown", "source": "# title"},
             {"cell_type": "code", "source": ["import torch\n", "@torch.compile\n"]},
             {"cell_type": "code", "source": "def f(x):\n    return x.sum().item()\n"}]
    proc = run("--no-cache", "-", "--stdin-filename", "t.ipynb", cwd=tmp_path,
               stdin=json.dumps({"cells": cells}).encode())
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("t.ipynb:cell 2:2:12: TC102")
    broken = run("--no-cache", "-", "--stdin-filename", "t.ipynb", cwd=tmp_path, stdin=b"[[[")
    assert broken.returncode == 1 and broken.stdout.decode().startswith("t.ipynb:1:1: TC001 not a readable notebook")


def test_lint_paths_with_bad_inputs_in_process(tmp_path):
    (tmp_path / "idna.py").write_bytes(b"# coding: idna\nimport torch\n")
    (tmp_path / "bad.py").write_text(BAD)
    result = lint_paths([tmp_path], Settings(), jobs=1, use_cache=False)
    assert [d.code for d in result.diagnostics] == ["TC102"]


def test_a_file_over_the_node_budget_is_tc001_without_parsing(monkeypatch):
    from tclint.analyzer import parse_guard

    monkeypatch.setattr(parse_guard, "MAX_NODES", 1000)
    code = "x = 1\n" * 300  # 1,201 nodes: Module, then Assign, Name, Store, Constant a line
    summary = summarize(code.encode(), "big.py", "big", False)
    assert "over tclint's budget of 1000 syntax nodes" in summary.syntax_error[0]
    assert summarize(("x = 1\n" * 200).encode(), "small.py", "small", False).syntax_error is None


def test_a_deep_definition_typed_into_an_open_file_is_tc001():
    inc = IncrementalSummarizer()
    ok = "import torch\n\n@torch.compile\ndef f(x):\n    return x\n"
    assert inc.summarize(ok, "/ws/a.py", "a", False).syntax_error is None
    deep = ok + "\ndef g(x):\n    return x" + ".b" * (MAX_DEPTH + 10) + "\n"
    assert "nested too deeply" in inc.summarize(deep, "/ws/a.py", "a", False).syntax_error[0]
