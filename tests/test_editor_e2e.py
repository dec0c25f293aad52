"""Real editors against the real tclint language server: Neovim's built-in LSP client, and
VS Code (code-server in headless Chromium) with the extension from vscode-extension/.

Both open `tinyvit/model.py` from a temporary copy of the bundled examples package and wait
for the TC102 finding (`.item()`, line 22), which the server publishes on open.

- Neovim: `nvim` on PATH (Debian 12: 0.7.2) and, when present, the newer
  `$E2E_HOME/nvim-venv/bin/nvim`; runs tests/e2e/nvim_diagnostics.lua headless. Skipped
  without nvim.
- VS Code: needs code-server, Node 24, playwright-core and Chromium under `E2E_HOME`
  (default /opt/e2e; installed by ../shared/e2e-recipes/setup.sh vscode); skipped without
  them. Builds vscode-extension/tclint.vsix with build-vsix.sh unless one newer than the
  extension's sources exists (needs npm and the npm registry), installs it into a fresh
  code-server profile whose `tclint.path`/`tclint.interpreter` point at this interpreter's
  environment, and runs tests/e2e/vscode_drive.js: the finding must show in the Problems
  panel, and the hover on the flagged range must show the rule's explanation. The screenshot
  goes to the test's tmp dir; `TCLINT_E2E_SCREENSHOT=1` also copies it to
  vscode-extension/media/screenshot.png (the extension README's picture).
  `TCLINT_E2E_VSCODE=0` skips it.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
E2E = ROOT / "tests" / "e2e"
EXTENSION = ROOT / "vscode-extension"
E2E_HOME = Path(os.environ.get("E2E_HOME", "/opt/e2e"))
BIN = Path(sys.executable).parent
TCLINT = BIN / ("tclint.exe" if os.name == "nt" else "tclint")

LINE, COL = 22, 29   # `self.history.append(x.norm().item())` in examples/tinyvit/model.py
MESSAGE = "`.item()` converts a tensor to a Python number"

pytestmark = pytest.mark.e2e


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    """A private copy of the examples package; returns the workspace folder holding it."""
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws, ignore=shutil.ignore_patterns("__pycache__"))
    line = (ws / "tinyvit" / "model.py").read_text().splitlines()[LINE - 1]
    assert line.index("x.norm().item()") + 1 == COL, line   # where TC102's range starts
    return ws


# ---------------------------------------------------------------------------------- Neovim

def _nvims() -> list:
    found = []
    if shutil.which("nvim"):
        found.append(pytest.param(shutil.which("nvim"), id="nvim"))
    newer = E2E_HOME / "nvim-venv" / "bin" / "nvim"
    if newer.is_file() and os.access(newer, os.X_OK):
        found.append(pytest.param(str(newer), id="nvim-pypi"))
    return found or [pytest.param(None, id="nvim", marks=pytest.mark.skip(reason="nvim not installed"))]


@pytest.mark.parametrize("nvim", _nvims())
def test_neovim_shows_tc102(nvim: str, examples: Path, tmp_path: Path) -> None:
    assert TCLINT.is_file(), f"{TCLINT} missing: install tclint (pip install -e .) in this venv"
    state = tmp_path / "nvim-state"   # lsp.log etc. (0.7: XDG_CACHE_HOME, 0.8+: XDG_STATE_HOME)
    state.mkdir()
    env = dict(os.environ, TCLINT_SERVER=str(TCLINT), TCLINT_TIMEOUT="45",
               XDG_STATE_HOME=str(state), XDG_CACHE_HOME=str(state), XDG_DATA_HOME=str(state),
               XDG_CONFIG_HOME=str(state))
    t = time.monotonic()
    # -u NONE: no user config or plugins; --clean: no shada; -n: no swap file
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-u", "NONE", "-n",
         "-c", f"luafile {E2E / 'nvim_diagnostics.lua'}", "tinyvit/model.py"],
        cwd=examples, env=env, text=True, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False,
    )
    took = time.monotonic() - t
    logs = "".join(f"\n--- {p}\n{p.read_text(errors='replace')[-3000:]}" for p in state.rglob("lsp.log"))
    report = f"exit {proc.returncode} after {took:.1f}s\n{proc.stdout}{logs}"
    print(report)
    assert proc.returncode == 0, report
    diags = [line.split(" ", 3)[1:] for line in proc.stdout.splitlines() if line.startswith("DIAG ")]
    assert [f"{LINE}:{COL}", "TC102"] in [d[:2] for d in diags], report
    assert any(d[0] == f"{LINE}:{COL}" and MESSAGE in d[2] for d in diags), report


# ------------------------------------------------------------------------- VS Code (code-server)

CODE_SERVER = E2E_HOME / "code-server" / "node_modules" / ".bin" / "code-server"
NODE24_BIN = E2E_HOME / "node24" / "bin"
PW_DIR = E2E_HOME / "pw"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
VSIX = EXTENSION / "tclint.vsix"


def _vscode_missing() -> str | None:
    if os.environ.get("TCLINT_E2E_VSCODE") == "0":
        return "TCLINT_E2E_VSCODE=0"
    needs = {
        "code-server": CODE_SERVER, "node 24": NODE24_BIN / "node",
        "playwright-core": PW_DIR / "node_modules" / "playwright-core" / "package.json",
        "chromium": Path(CHROMIUM),
    }
    missing = [f"{name} ({path})" for name, path in needs.items() if not Path(path).exists()]
    if missing:
        return f"not installed under E2E_HOME={E2E_HOME}: " + ", ".join(missing)
    return None


def _vsix_sources() -> list[Path]:
    names = ["package.json", "package-lock.json", "build-vsix.sh", ".vscodeignore", "README.md",
             "LICENSE", "tsconfig.json"]
    return [EXTENSION / n for n in names if (EXTENSION / n).exists()] + sorted(
        p for p in (EXTENSION / "src").rglob("*") if p.is_file())


def _fresh_vsix() -> Path:
    """vscode-extension/tclint.vsix, rebuilt when missing or older than one of its sources."""
    if VSIX.is_file() and VSIX.stat().st_mtime >= max(p.stat().st_mtime for p in _vsix_sources()):
        return VSIX
    if shutil.which("npm") is None:
        pytest.skip("tclint.vsix is missing or stale and npm is not on PATH to build it")
    env = dict(os.environ, npm_config_update_notifier="false", CI="1")
    build = subprocess.run(["sh", str(EXTENSION / "build-vsix.sh")], cwd=EXTENSION, env=env,
                           text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=900, check=False)
    assert build.returncode == 0 and VSIX.is_file(), f"build-vsix.sh failed:\n{build.stdout[-6000:]}"
    return VSIX


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop_group(proc: subprocess.Popen) -> None:
    """End code-server's process group: extension host, file watcher and the tclint server."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            continue
        break
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _tail_logs(folder: Path, pattern: str, chars: int = 3000) -> str:
    return "".join(f"\n--- {p}\n{p.read_text(errors='replace')[-chars:]}"
                   for p in sorted(folder.rglob(pattern)) if p.is_file())


@pytest.mark.skipif(_vscode_missing() is not None, reason=_vscode_missing() or "")
def test_vscode_problems_panel_and_hover(examples: Path, tmp_path: Path) -> None:
    assert TCLINT.is_file(), f"{TCLINT} missing: install tclint (pip install -e .) in this venv"
    vsix = _fresh_vsix()
    cs = tmp_path / "code-server"
    user_data, extensions = cs / "user-data", cs / "extensions"
    (user_data / "User").mkdir(parents=True)
    extensions.mkdir()
    config = cs / "config.yaml"   # keeps ~/.config/code-server/config.yaml untouched
    config.write_text("")
    settings = {
        "tclint.path": [str(TCLINT), "server"],
        "tclint.interpreter": [sys.executable],
        "tclint.trace.server": "messages",
        "security.workspace.trust.enabled": False,
        "workbench.startupEditor": "none",
        "workbench.welcomePage.walkthroughs.openOnInstall": False,
        "workbench.tips.enabled": False,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "extensions.ignoreRecommendations": True,
        "chat.disableAIFeatures": True,
        "git.enabled": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "editor.hover.delay": 300,
        "editor.minimap.enabled": False,
    }
    (user_data / "User" / "settings.json").write_text(json.dumps(settings, indent=1))
    env = dict(os.environ, PATH=f"{NODE24_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    base = [str(CODE_SERVER), "--config", str(config), "--user-data-dir", str(user_data),
            "--extensions-dir", str(extensions)]

    t = time.monotonic()
    install = subprocess.run([*base, "--install-extension", str(vsix)], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180, check=False)
    assert install.returncode == 0, install.stdout
    assert any(p.name.startswith("tclint.tclint-") for p in extensions.iterdir()), install.stdout
    print(f"VSIX installed in {time.monotonic() - t:.1f}s")

    port = _free_port()
    server_log = (cs / "server.log").open("w")
    # a new session: code-server leads its own process group, which _stop_group ends
    proc = subprocess.Popen(
        [*base, "--bind-addr", f"127.0.0.1:{port}", "--auth", "none", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
         str(examples)],
        env=env, stdin=subprocess.DEVNULL, stdout=server_log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    shot = tmp_path / "vscode.png"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
                break
            except OSError:
                assert proc.poll() is None, (cs / "server.log").read_text()
                assert time.monotonic() < deadline, "code-server did not come up in 60 s"
                time.sleep(0.5)
        print(f"code-server up on :{port}")
        drive = subprocess.run(
            ["node", str(E2E / "vscode_drive.js")],
            env=dict(env, CS_URL=f"http://127.0.0.1:{port}/?folder={examples}",
                     FILE="tinyvit/model.py", PROBLEM="TC102", HOVER="GB0124|What it does",
                     LINE=str(LINE), COL=str(COL), SHOT=str(shot), TIMEOUT="90",
                     PW_DIR=str(PW_DIR), CHROMIUM=CHROMIUM),
            text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300, check=False,
        )
    finally:
        _stop_group(proc)
        server_log.close()
    report = (f"driver exit {drive.returncode}\n{drive.stdout}\nscreenshot: {shot}"
              + _tail_logs(user_data / "logs", "*tclint*.log"))
    print(report)
    assert drive.returncode == 0, report + _tail_logs(user_data / "logs", "exthost.log")
    problems = drive.stdout.split("PROBLEMS:", 1)[1].split("HOVER:", 1)[0]
    assert MESSAGE in problems and "TC102" in problems, report
    assert f"[Ln {LINE}, Col {COL}]" in problems, report
    hover = drive.stdout.split("HOVER:", 1)[1]
    assert "GB0124" in hover and "What it does" in hover, report
    assert shot.is_file() and shot.stat().st_size > 10_000, report
    if os.environ.get("TCLINT_E2E_SCREENSHOT") == "1":
        (EXTENSION / "media").mkdir(exist_ok=True)
        shutil.copyfile(shot, EXTENSION / "media" / "screenshot.png")
