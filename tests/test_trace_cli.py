"""`tclint trace` exits with the traced script's status, and 2 when it cannot run the script."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import sys
    import torch

    @torch.compile(backend="eager")
    def f(x):
        return x.sum().item()

    f(torch.ones(3))
    if sys.argv[1] == "raise":
        raise ValueError("boom")
    sys.exit(int(sys.argv[1]))
""")


def trace(cwd: Path, *command: str, env: dict | None = None) -> subprocess.CompletedProcess:
    env = env or {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "tclint.analyzer", "trace", "--", *command], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=300)


def test_no_such_script_is_exit_2(tmp_path):
    proc = trace(tmp_path, sys.executable, "missing.py")
    assert proc.returncode == 2 and "no such script: missing.py" in proc.stderr


def test_no_module_after_dash_m_is_exit_2(tmp_path):
    proc = trace(tmp_path, sys.executable, "-m")
    assert proc.returncode == 2 and "give the module after -m" in proc.stderr


def test_no_command_is_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tclint.analyzer", "trace"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "tclint trace -- python train.py" in proc.stderr


def test_interpreter_without_torch_is_exit_2(tmp_path):
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    (tmp_path / "train.py").write_text(SCRIPT)
    proc = trace(tmp_path, str(bare / "bin" / "python"), "train.py", "0")
    assert proc.returncode == 2
    assert "torch is not installed for" in proc.stderr and proc.stdout == ""


@pytest.mark.dynamo
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
@pytest.mark.parametrize(("argument", "status"), [("3", 3), ("raise", 1)])
def test_exit_status_is_the_scripts(tmp_path, argument, status):
    (tmp_path / "train.py").write_text(SCRIPT)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "train.py"], cwd=tmp_path, check=True)
    # Where a user's trace goes: not the tests' TCLINT_CACHE_DIR.
    env = {k: v for k, v in os.environ.items() if k != "TCLINT_CACHE_DIR"}
    proc = trace(tmp_path, sys.executable, "train.py", argument, env={**env, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == status, proc.stderr[-2000:]
    assert "train.py:7:12: TC102" in proc.stdout and "[confirmed by Dynamo]" in proc.stdout
    # The saved trace sits in the project's cache folder, which git and backup tools leave alone.
    assert len(list((tmp_path / ".tclint_cache" / "traces").glob("*.json"))) == 1
    tag = tmp_path / ".tclint_cache" / "CACHEDIR.TAG"
    assert tag.read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    status_lines = subprocess.run(["git", "status", "--porcelain"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert status_lines.splitlines() == ["A  train.py"]
