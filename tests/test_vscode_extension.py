"""The VS Code extension's TypeScript unit tests (npm test: tsc, then node --test).

Skipped when npm or node is not on PATH. Installs the locked dependencies with `npm ci`
(from the npm cache when it can), which needs the npm registry the first time.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parent.parent / "vscode-extension"

pytestmark = pytest.mark.skipif(
    shutil.which("npm") is None or shutil.which("node") is None,
    reason="npm/node not on PATH",
)


def _run(*args: str, timeout: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, npm_config_update_notifier="false", npm_config_fund="false",
               npm_config_audit="false", CI="1",
               TCLINT_TEST_PYTHON=sys.executable)  # an interpreter with tclint, for the preflight test
    return subprocess.run(
        [shutil.which("npm") or "npm", *args], cwd=EXTENSION, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, check=False,
    )


def test_npm_test_passes() -> None:
    assert (EXTENSION / "package-lock.json").is_file(), "package-lock.json must be committed"
    install = _run("ci", "--prefer-offline", "--no-audit", "--no-fund", timeout=600)
    assert install.returncode == 0, f"npm ci failed:\n{install.stdout[-4000:]}"
    result = _run("test", timeout=300)
    assert result.returncode == 0, f"npm test failed:\n{result.stdout[-8000:]}"
