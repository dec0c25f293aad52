"""pre-commit, run for real: the README's snippet pasted into a scratch repository, and this
repository's `.pre-commit-hooks.yaml` through `pre-commit try-repo`. The hook lints the whole
project, so a break added to a helper fails the commit that touches only the helper."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PRE_COMMIT = shutil.which("pre-commit", path=str(BIN)) or shutil.which("pre-commit")

pytestmark = pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")

HELPER = "def scale(x):\n    return x * 2\n"
BREAKING_HELPER = "def scale(x):\n    return x * x.sum().item()\n"
MODEL = ("import torch\n\nfrom helpers import scale\n\n\nclass Net(torch.nn.Module):\n"
         "    def forward(self, x):\n        return scale(x)\n")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "commit.gpgsign=false",
                    *args], cwd=cwd, check=True, capture_output=True)


def _env(tmp_path: Path) -> dict:
    # `tclint` on PATH, as after `pip install torch-tclint` (the snippet's `language: system`).
    return {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def _readme_snippet() -> str:
    section = (REPO / "README.md").read_text(encoding="utf-8").split("## pre-commit\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)


def _project(path: Path, config: str | None) -> Path:
    """A committed project: a helper and the model whose forward calls it, both clean."""
    path.mkdir(parents=True)
    (path / "helpers.py").write_text(HELPER)
    (path / "model.py").write_text(MODEL)
    if config is not None:
        (path / ".pre-commit-config.yaml").write_text(config)
    _git(path, "init", "-q")
    _git(path, "add", "-A")
    _git(path, "commit", "-qm", "clean project")
    return path


def _run(cwd: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PRE_COMMIT, *args, "--color", "never"], cwd=cwd, capture_output=True, text=True,
                          env=_env(tmp_path), timeout=900)


def test_readme_snippet_catches_a_break_added_to_a_helper(tmp_path):
    project = _project(tmp_path / "project", _readme_snippet())
    clean = _run(project, tmp_path, "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    (project / "helpers.py").write_text(BREAKING_HELPER)
    _git(project, "add", "helpers.py")  # only the helper is staged
    broken = _run(project, tmp_path, "run")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "helpers.py:2:16: TC102" in broken.stdout and "reached from Net.forward" in broken.stdout


def test_readme_snippet_lints_notebooks(tmp_path):
    project = _project(tmp_path / "project", _readme_snippet())
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": ["import torch\n", "\n", "@torch.compile\n", "def f(x):\n", "    return x.sum().item()\n"]}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (project / "explore.ipynb").write_text(json.dumps(notebook))
    _git(project, "add", "explore.ipynb")  # a notebook alone starts the hook
    proc = _run(project, tmp_path, "run")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "explore.ipynb:cell 1:5:12: TC102" in proc.stdout


def test_hook_repo_through_try_repo(tmp_path):
    hook_repo = tmp_path / "hookrepo"
    # A snapshot of the working tree (try-repo needs a git repository).
    shutil.copytree(REPO, hook_repo, ignore=shutil.ignore_patterns(
        ".venv", "node_modules", ".git", "__pycache__", ".tclint_cache", ".tclint", "*.egg-info", "out", "build"))
    _git(hook_repo, "init", "-q")
    _git(hook_repo, "add", "-A")
    _git(hook_repo, "commit", "-qm", "snapshot")
    project = _project(tmp_path / "project", None)
    clean = _run(project, tmp_path, "try-repo", str(hook_repo), "tclint", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    (project / "helpers.py").write_text(BREAKING_HELPER)
    _git(project, "add", "helpers.py")
    broken = _run(project, tmp_path, "try-repo", str(hook_repo), "tclint")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "helpers.py:2:16: TC102" in broken.stdout
