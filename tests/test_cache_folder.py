"""One cache folder per project, `.tclint_cache/` at the project root as ruff keeps
`.ruff_cache/`: git never sees it, a tree that cannot hold it still lints, nothing lands next
to files linted elsewhere, and what a tree plants in it is never trusted."""
from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tclint.analyzer.cache import ConfirmResults, _mac
from tclint.analyzer.cache_folders import CACHEDIR_TAG, cache_folder, project_root, trace_file
from tclint.analyzer.config import Settings

BAD = "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n"
FINDING = "bad.py:5:12: TC102"


def tclint(*args, cwd: Path, xdg: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI with no TCLINT_CACHE_DIR (the tests' conftest sets one), so the cache goes
    where it goes for a user; the per-user folder (the signing key) is `xdg`/tclint."""
    base = {k: v for k, v in os.environ.items() if k not in ("TCLINT_CACHE_DIR", "NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([sys.executable, "-m", "tclint.analyzer", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**base, "XDG_CACHE_HOME": str(xdg), **(env or {})})


@pytest.fixture
def xdg(tmp_path) -> Path:
    return tmp_path / "home-cache"


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.tclint]\n")
    (root / "bad.py").write_text(BAD)
    return root


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def test_the_cache_is_one_folder_at_the_project_root_and_git_ignores_it(project, xdg):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)

    def status() -> str:
        return subprocess.run(["git", "status", "--porcelain"], cwd=project, capture_output=True, text=True,
                              check=True).stdout

    before = status()
    proc = tclint("..", cwd=project / "pkg", xdg=xdg)  # from a subfolder: the root is the config's folder
    assert proc.returncode == 1 and "TC102" in proc.stdout, proc.stderr
    folder = project / ".tclint_cache"
    assert list(folder.glob("*/runs/run-*"))
    assert not (project / "pkg" / ".tclint_cache").exists()
    assert status() == before  # nothing new to add, nothing untracked
    # The key that signs entries is per user, never in the project.
    assert (xdg / "tclint" / "secret").stat().st_mode & 0o077 == 0
    assert not any(p.name == "secret" for p in folder.rglob("*"))


def test_the_folder_holds_the_standard_cachedir_tag_and_a_gitignore_of_everything(project, xdg):
    tclint("bad.py", cwd=project, xdg=xdg)
    tag = (project / ".tclint_cache" / "CACHEDIR.TAG").read_text()
    assert tag.splitlines()[0] == "Signature: 8a477f597d28d172789f06886806bc55"
    assert tag == CACHEDIR_TAG
    assert "*" in (project / ".tclint_cache" / ".gitignore").read_text().splitlines()


def test_without_a_config_the_root_is_where_tclint_runs(tmp_path, xdg):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.py").write_text(BAD)
    assert tclint("src", cwd=tmp_path, xdg=xdg).returncode == 1
    assert (tmp_path / ".tclint_cache" / "CACHEDIR.TAG").is_file()
    assert _tree(tmp_path / "src") == {"bad.py"}


def test_nothing_is_written_next_to_files_linted_outside_the_project(tmp_path, project, xdg):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "other.py").write_text(BAD)
    proc = tclint(str(elsewhere / "other.py"), str(project / "bad.py"), cwd=project, xdg=xdg)
    assert proc.returncode == 1 and proc.stdout.count("TC102") == 2, proc.stderr
    assert _tree(elsewhere) == {"other.py"}
    assert (project / ".tclint_cache").is_dir()


@pytest.mark.parametrize("blocker", ["file", "symlink"])
def test_a_tree_that_cannot_hold_the_cache_still_lints_with_one_warning(project, xdg, tmp_path, blocker):
    # As root a read-only mode does not stop writes: a file, or a link tclint refuses to
    # write through, in the folder's place blocks it for everyone.
    blocked = project / ".tclint_cache"
    if blocker == "file":
        blocked.write_text("not a folder")
    else:
        (tmp_path / "target").mkdir()
        blocked.symlink_to(tmp_path / "target")
    for _ in range(12):
        (project / "pkg" / f"m{_}.py").write_text(BAD)  # many files, many failed writes: still one warning
    without = tclint("--no-cache", ".", cwd=project, xdg=xdg)
    proc = tclint(".", cwd=project, xdg=xdg)
    assert (proc.returncode, proc.stdout) == (without.returncode, without.stdout) == (1, proc.stdout)
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "cannot write the cache in" in warnings[0] and str(blocked) in warnings[0]
    assert "warning" not in without.stderr
    if blocker == "symlink":
        assert not any((tmp_path / "target").iterdir())


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes through read-only modes")
def test_a_read_only_tree_lints_with_one_warning(project, xdg):
    os.chmod(project, 0o555)
    try:
        proc = tclint(".", cwd=project, xdg=xdg)
    finally:
        os.chmod(project, 0o755)
    assert proc.returncode == 1 and FINDING in proc.stdout
    assert [line for line in proc.stderr.splitlines() if "warning" in line] == [
        f"tclint: warning: cannot write the cache in {project / '.tclint_cache'} (Permission denied); "
        "linting without it (--cache-dir DIR puts it elsewhere, --no-cache turns it off)"]


def test_no_per_user_folder_means_no_cache_and_one_warning(project, tmp_path):
    (tmp_path / "not-a-folder").write_text("")
    proc = tclint(".", cwd=project, xdg=tmp_path / "not-a-folder")
    assert proc.returncode == 1 and FINDING in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "signing key" in warnings[0]
    assert not (project / ".tclint_cache").exists()


def test_entries_planted_in_the_project_cache_are_ignored(project, xdg, tmp_path):
    # The attacker lints the same tree with their own key, rewrites the whole-run entry to say
    # "no findings" and signs it again with that key, turns every summary into a pickle, and
    # ships the folder in the tree. The victim's key rejects all of it.
    attacker = tmp_path / "attacker-home"
    assert tclint(".", cwd=project, xdg=attacker).returncode == 1
    their_key = (attacker / "tclint" / "secret").read_bytes()
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    entries = [e for e in (project / ".tclint_cache").rglob("*") if e.is_file() and e.parent.name != ".tclint_cache"]
    runs = [e for e in entries if e.name.startswith("run-")]
    # a summary, the run, and the run's list of imported modules (kept: it names none)
    contexts = [e for e in entries if e.name.startswith("context-run-")]
    assert len(runs) == 1 and len(contexts) == 1 and len(entries) == 3
    for entry in entries:
        if entry in contexts:
            continue
        if entry in runs:
            doc = json.loads(entry.read_bytes().partition(b"\n")[2])
            body = json.dumps({**doc, "value": []}, separators=(",", ":")).encode()
            entry.write_bytes(_mac(their_key, body) + b"\n" + body)
        else:
            entry.write_bytes(pickle.dumps(Payload()))
    assert tclint(".", cwd=project, xdg=attacker).stdout == ""  # what a trusted entry would do
    proc = tclint(".", cwd=project, xdg=xdg)
    assert proc.returncode == 1 and FINDING in proc.stdout, proc.stderr
    assert not marker.exists()


def test_a_planted_fifo_entry_does_not_hang(project, xdg):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    assert tclint(".", cwd=project, xdg=xdg).returncode == 1
    for entry in list((project / ".tclint_cache").rglob("*")):
        if entry.is_file() and entry.parent.name != ".tclint_cache":
            entry.unlink()
            os.mkfifo(entry)
    proc = tclint(".", cwd=project, xdg=xdg)  # the helper's timeout fails the test on a hang
    assert proc.returncode == 1 and FINDING in proc.stdout


def test_cache_dir_flag_and_environment_move_the_folder(project, xdg, tmp_path):
    assert tclint("--cache-dir", str(tmp_path / "flag"), ".", cwd=project, xdg=xdg).returncode == 1
    assert tclint(".", cwd=project, xdg=xdg, env={"TCLINT_CACHE_DIR": str(tmp_path / "env")}).returncode == 1
    for folder in (tmp_path / "flag", tmp_path / "env"):
        assert (folder / "CACHEDIR.TAG").is_file() and list(folder.glob("*/runs/run-*"))
    assert not (project / ".tclint_cache").exists()


def test_a_config_cannot_choose_the_folder(project, xdg, tmp_path):
    (project / "pyproject.toml").write_text("[tool.tclint]\ncache-dir = '../chosen'\n")
    assert tclint(".", cwd=project, xdg=xdg).returncode == 1
    assert not (tmp_path / "chosen").exists() and (project / ".tclint_cache").is_dir()


def test_clean_removes_what_tclint_made_and_nothing_else(project, xdg, tmp_path):
    assert tclint(".", cwd=project, xdg=xdg).returncode == 1
    nested = project / "pkg" / ".tclint_cache"
    nested.mkdir()
    legacy = project / ".tclint"  # tclint 0.1 kept confirmation results here, marked as a cache
    legacy.mkdir()
    (legacy / "CACHEDIR.TAG").write_text(CACHEDIR_TAG)
    theirs = project / "pkg" / ".tclint"  # the same name, not tclint's
    theirs.mkdir()
    flag = tmp_path / "flag-cache"
    assert tclint("--cache-dir", str(flag), ".", cwd=project, xdg=xdg).returncode == 1
    proc = tclint("clean", cwd=project, xdg=xdg)
    assert proc.returncode == 0, proc.stderr
    assert not (project / ".tclint_cache").exists() and not nested.exists() and not legacy.exists()
    assert theirs.is_dir() and flag.is_dir() and (project / "bad.py").is_file()
    assert (xdg / "tclint" / "secret").is_file()  # the key is not a cache of this project
    assert tclint("clean", "--cache-dir", str(flag), cwd=project, xdg=xdg).returncode == 0
    assert not flag.exists()


def test_clean_takes_only_tclints_entries_from_a_folder_the_user_named(project, xdg, tmp_path):
    shared = tmp_path / "shared"  # say TCLINT_CACHE_DIR=~/.cache by mistake: others live there too
    (shared / "pip").mkdir(parents=True)
    (shared / "notes.txt").write_text("keep")
    env = {"TCLINT_CACHE_DIR": str(shared)}
    assert tclint(".", cwd=project, xdg=xdg, env=env).returncode == 1
    assert (shared / "CACHEDIR.TAG").is_file()
    proc = tclint("clean", cwd=project, xdg=xdg, env=env)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in shared.iterdir()) == ["notes.txt", "pip"]


def test_confirmation_results_are_signed_entries(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    store = ConfirmResults(tmp_path / ".tclint_cache")
    raw = {"torch_version": "2.13.0", "cases": [{"name": "c", "breaks": [{"line": 3, "gb_type": "x"}]}]}
    store.put("k" * 32, raw)
    assert ConfirmResults(tmp_path / ".tclint_cache").get("k" * 32) == raw
    entry = tmp_path / ".tclint_cache" / "confirm" / ("k" * 32)
    entry.write_text(json.dumps({"torch_version": "2.13.0", "cases": []}))  # planted: plain JSON
    assert ConfirmResults(tmp_path / ".tclint_cache").get("k" * 32) is None


def test_traces_of_projects_sharing_a_cache_folder_stay_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("TCLINT_CACHE_DIR", str(tmp_path / "shared"))
    one, two = (Settings(source=tmp_path / name / "tclint.toml") for name in ("one", "two"))
    assert trace_file(one).parent == trace_file(two).parent == tmp_path / "shared" / "traces"
    assert trace_file(one) != trace_file(two)
    monkeypatch.delenv("TCLINT_CACHE_DIR")
    assert cache_folder(one) == tmp_path / "one" / ".tclint_cache"
    assert trace_file(Settings(), tmp_path / "ws").parent == tmp_path / "ws" / ".tclint_cache" / "traces"
    assert project_root(Settings(), tmp_path / "ws") == tmp_path / "ws"
