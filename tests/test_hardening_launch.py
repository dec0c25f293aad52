"""No process tclint starts on the static path runs code from the repository it lints.

A hostile workspace holds modules named like the ones Python imports on start-up
(`argparse`, `logging`, `multiprocessing`) and like tclint itself; each writes a marker
file when it runs. Starting the server in that workspace, indexing a file big enough for
the parser worker (48 KB), and linting it with the CLI's process pool must write none.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tclint.server.parse_pool import DEFAULT_THRESHOLD

PLANTED = ["argparse.py", "logging/__init__.py", "multiprocessing/__init__.py", "tclint/__init__.py"]


def hostile_workspace(tmp_path: Path) -> tuple[Path, Path]:
    """(workspace, marker folder): every planted module appends its name to a marker."""
    workspace, markers = tmp_path / "ws", tmp_path / "markers"
    markers.mkdir()
    for rel in PLANTED:
        target = workspace / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"open({str(markers / rel.replace('/', '_'))!r}, 'a').write('ran\\n')\n")
    body = "import torch\n\n" + "".join(f"def f{i}(x):\n    return x.sum().item() + {i}\n\n" for i in range(2000))
    body += "@torch.compile\ndef top(x):\n    return f0(x)\n"
    assert len(body) >= DEFAULT_THRESHOLD
    (workspace / "big.py").write_text(body)
    return workspace, markers


def _send(proc: subprocess.Popen, payload: dict) -> None:
    body = json.dumps(payload).encode()
    proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    proc.stdin.flush()


def _receive(proc: subprocess.Popen) -> dict:
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def _serve_and_index(command: list[str], workspace: Path) -> list[str]:
    """Start the server in `workspace`, let it index the folder, shut it down: its log."""
    proc = subprocess.Popen(command, cwd=workspace, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    log: list[str] = []
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": workspace.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": workspace.as_uri(), "name": "ws"}]}})
        _send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        while not any("indexed" in line for line in log):
            message = _receive(proc)
            if message.get("method") == "window/logMessage":
                log.append(message["params"]["message"])
            elif "id" in message and "method" in message:  # a request to the client: decline it
                _send(proc, {"jsonrpc": "2.0", "id": message["id"], "result": None})
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        while _receive(proc).get("id") != 2:
            pass
        _send(proc, {"jsonrpc": "2.0", "method": "exit"})
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    return log


def test_tclint_server_started_in_the_workspace_runs_none_of_its_code(tmp_path):
    workspace, markers = hostile_workspace(tmp_path)
    script = Path(sys.executable).with_name("tclint")
    if not script.exists():
        pytest.skip("no tclint console script next to the interpreter")
    log = _serve_and_index([str(script), "server"], workspace)
    assert any("indexed 5 Python files" in line for line in log), log  # big.py and the planted ones
    assert sorted(p.name for p in markers.iterdir()) == []


def test_python_m_tclint_server_drops_the_working_directory_from_sys_path(tmp_path):
    # Only a workspace `tclint/` package is found before the server's own code runs: the
    # extension launches from a neutral folder for that reason (its tests cover it).
    workspace, markers = hostile_workspace(tmp_path)
    (workspace / "tclint" / "__init__.py").unlink()
    (workspace / "tclint").rmdir()
    _serve_and_index([sys.executable, "-m", "tclint.server"], workspace)
    assert sorted(p.name for p in markers.iterdir()) == []


def test_cli_process_pool_runs_no_workspace_code(tmp_path):
    workspace, markers = hostile_workspace(tmp_path)
    for i in range(12):  # more than 8 files to parse: the CLI uses its process pool
        (workspace / f"m{i}.py").write_text(f"def g{i}(x):\n    return x\n")
    # spawn, as macOS (and forkserver, as Python 3.14 on Linux) starts workers with `python -c`.
    # The parent drops '' (as the `tclint` script has no cwd on sys.path), its workers must too.
    code = ("import sys; sys.path.remove(''); import multiprocessing; multiprocessing.set_start_method('spawn');"
            "from tclint.analyzer.cli import main; sys.exit(main(['--no-cache', '--jobs', '2', '.']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=workspace, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stderr
    assert "big.py" in out.stdout
    assert sorted(p.name for p in markers.iterdir()) == []
