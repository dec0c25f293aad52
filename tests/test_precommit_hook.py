"""The `.pre-commit-hooks.yaml` hook, run by the real pre-commit (`pre-commit try-repo`)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")

pytestmark = pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


def _try_repo(tmp_path: Path, source: str) -> subprocess.CompletedProcess:
    hook_repo = tmp_path / "hookrepo"
    # A snapshot of the working tree (try-repo needs a git repository).
    shutil.copytree(REPO, hook_repo, ignore=shutil.ignore_patterns(
        ".venv", "node_modules", ".git", "__pycache__", ".tclint_cache", "*.egg-info", "out"))
    _git(hook_repo, "init", "-q")
    _git(hook_repo, "add", "-A")
    _git(hook_repo, "commit", "-qm", "snapshot")
    target = tmp_path / "target"
    target.mkdir()
    (target / "model.py").write_text(source)
    _git(target, "init", "-q")
    _git(target, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    return subprocess.run([PRE_COMMIT, "try-repo", str(hook_repo), "tclint", "--all-files", "--color", "never"],
                          cwd=target, capture_output=True, text=True, env=env, timeout=900)


def test_hook_fails_on_a_graph_break_and_passes_clean_code(tmp_path):
    bad = _try_repo(tmp_path / "bad", "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "model.py:5:12: TC102" in bad.stdout
    good = _try_repo(tmp_path / "good", "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum()\n")
    assert good.returncode == 0, good.stdout + good.stderr
