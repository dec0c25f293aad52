"""The cache holds data that cannot run code, lives where tclint or the user (never the
repository's config) says, and any entry that is not tclint's own, whole and current is a miss.
Where it lives, and what a tree plants there: test_cache_folder.py."""
from __future__ import annotations

import json
import os
import pickle
import random
import sys
from pathlib import Path

import pytest

from tclint.analyzer import cache_codec
from tclint.analyzer.cache import SummaryCache, summary_key, user_folder
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths, summarize

BAD = "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    """The cache folder (TCLINT_CACHE_DIR), and a per-user folder of this test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TCLINT_CACHE_DIR", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    return folder


def _lint(project: Path) -> list[str]:
    result = lint_paths([project], Settings(source=project / "tclint.toml"), jobs=1)
    return [f"{d.location()} {d.code} {d.message}" for d in result.diagnostics]


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "tclint.toml").write_text("")
    (project / "bad.py").write_text(BAD)
    return project


def _entries(cache_dir: Path) -> list[Path]:
    """Summary and run entries (not CACHEDIR.TAG or .gitignore at the top)."""
    return [p for p in cache_dir.rglob("*") if p.is_file() and p.parent != cache_dir]


def test_the_per_user_folder_holds_the_key(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("TCLINT_CACHE_DIR", str(tmp_path / "mine"))  # moves the cache, not the key
    if sys.platform.startswith("linux"):
        assert user_folder() == tmp_path / "xdg" / "tclint"


def test_the_folder_is_marked_as_a_cache(cache_dir, tmp_path):
    _lint(_project(tmp_path))
    assert (cache_dir / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert "*" in (cache_dir / ".gitignore").read_text().splitlines()
    assert not (cache_dir / "secret").exists()
    assert (user_folder() / "secret").stat().st_mode & 0o077 == 0
    assert user_folder().stat().st_mode & 0o077 == 0


def test_a_repository_cannot_choose_the_cache_folder(cache_dir, tmp_path, monkeypatch):
    project = _project(tmp_path)
    (project / "tclint.toml").write_text('cache-dir = "../elsewhere"\n')
    from tclint.analyzer.settings_resolution import resolve_settings

    lint_paths([project], resolve_settings(project), jobs=1)
    assert not (tmp_path / "elsewhere").exists()
    assert not (project / ".tclint_cache").exists()
    assert _entries(cache_dir)
    monkeypatch.delenv("TCLINT_CACHE_DIR")  # tclint's own choice: the project root
    lint_paths([project], resolve_settings(project), jobs=1)
    assert not (tmp_path / "elsewhere").exists()
    assert _entries(project / ".tclint_cache")


def test_warm_runs_give_the_cold_findings(cache_dir, tmp_path):
    project = _project(tmp_path)
    cold = _lint(project)
    assert any("TC102" in line for line in cold)
    assert _lint(project) == cold  # the whole-run entry
    for run in (cache_dir).rglob("run-*"):
        run.unlink()
    assert _lint(project) == cold  # the per-file summaries


def test_a_summary_comes_back_equal():
    summary = summarize(BAD.encode(), "bad.py", "bad", False)
    body = cache_codec.dumps(summary, "summary", "k", 1)
    assert cache_codec.loads(body, "summary", "k", 1) == summary
    with pytest.raises(cache_codec.DecodeError):
        cache_codec.loads(body, "summary", "other-key", 1)
    with pytest.raises(cache_codec.DecodeError):
        cache_codec.loads(body, "summary", "k", 2)


def test_a_planted_pickle_runs_nothing(cache_dir, tmp_path):
    project = _project(tmp_path)
    cold = _lint(project)
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    for entry in _entries(cache_dir):  # every entry, at the path and key tclint reads
        entry.write_bytes(pickle.dumps(Payload()))
    assert _lint(project) == cold
    assert not marker.exists()


def test_a_forged_entry_is_a_miss(cache_dir, tmp_path):
    # Well-formed JSON with the right key and schema, but not signed with this user's secret.
    project = _project(tmp_path)
    cold = _lint(project)
    for entry in _entries(cache_dir):
        _, _, body = entry.read_bytes().partition(b"\n")
        doc = json.loads(body)
        text = json.dumps(doc).replace("item()", "FORGED")
        entry.write_bytes(b"0" * 64 + b"\n" + text.encode())
    assert _lint(project) == cold


def test_bit_flips_are_misses(cache_dir, tmp_path):
    project = _project(tmp_path)
    cold = _lint(project)
    rng = random.Random(12)
    for _ in range(10):
        for entry in _entries(cache_dir):
            data = bytearray(entry.read_bytes())
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
            entry.write_bytes(bytes(data))
        assert _lint(project) == cold


def test_a_foreign_valid_entry_is_a_miss(cache_dir, tmp_path):
    # A genuine entry of another file, copied over this file's: signed, but for another key.
    project = _project(tmp_path)
    (project / "other.py").write_text("def g(x):\n    return x\n")
    cold = _lint(project)
    entries = [e for e in _entries(cache_dir) if e.parent.name != "runs"]
    assert len(entries) == 2
    entries[0].write_bytes(entries[1].read_bytes())
    for run in cache_dir.rglob("runs/*"):
        run.unlink()
    assert _lint(project) == cold


def test_what_the_codec_does_not_know_is_not_cached(cache_dir):
    cache = SummaryCache(cache_dir)
    cache.put("ab" + "0" * 38, {"x": object()})
    assert cache.get("ab" + "0" * 38) is None


def test_an_undecodable_file_name_has_a_key():
    name = os.fsdecode(b"bad\xff.py")
    assert len(summary_key(b"x = 1\n", name, "bad\udcff", False)) == 40


def test_notebook_cells_are_part_of_the_key(cache_dir, tmp_path):
    project = tmp_path / "nb"
    project.mkdir()

    def write(cells: list[str]) -> None:
        doc = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": []} for c in cells],
               "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        (project / "t.ipynb").write_text(json.dumps(doc))

    def cells_of_findings() -> list[tuple[int, int, int]]:
        result = lint_paths([project], Settings(source=project / "tclint.toml"), jobs=1)
        return [(d.cell, d.span.line, d.span.column) for d in result.diagnostics]

    (project / "tclint.toml").write_text("")
    code = "import torch\n@torch.compile\ndef f(x):\n    return x.sum().item()\n"
    write([code])
    assert cells_of_findings() == [(1, 4, 12)]
    lines = code.splitlines(keepends=True)
    write(["".join(lines[:2]), "".join(lines[2:])])  # the same joined code, split in two cells
    assert cells_of_findings() == [(2, 2, 12)]


def test_a_relative_cache_folder_is_the_one_next_to_where_tclint_ran(tmp_path, monkeypatch):
    # The CLI starts its workers from a neutral folder: entries must still land here.
    project = _project(tmp_path)
    for i in range(10):
        (project / f"m{i}.py").write_text(f"def g{i}(x):\n    return x\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TCLINT_CACHE_DIR", "relative-cache")
    lint_paths([project], Settings(source=project / "tclint.toml"), jobs=2)
    # 11 summaries, the run and the (empty) list of imported modules it read
    assert len(_entries(tmp_path / "relative-cache")) == 13


def test_a_summary_with_blocks_and_if_arms_comes_back_equal():
    """`try`/`with` blocks (TC228) and the arms of an `if` in a loop (loop_skips) are summary
    records too: a file holding them must be cached like any other."""
    source = (b"import torch\n@torch.compile\ndef f(x):\n    x = x * 2\n    for i in range(2):\n"
              b"        try:\n            x = x + 1\n        finally:\n            pass\n"
              b"        if i:\n            x = x - 1\n        else:\n            x = x + 2\n    return x\n")
    summary = summarize(source, "blocks.py", "blocks", False)
    fn = summary.functions["blocks.f"]
    assert fn.blocks and fn.blocks[0].checkpoint is not None and fn.forks
    assert cache_codec.loads(cache_codec.dumps(summary, "summary", "k", 1), "summary", "k", 1) == summary
