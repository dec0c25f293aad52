"""Where tclint keeps what it can rebuild: one cache folder per project, as ruff keeps
`.ruff_cache/`.

The folder is `--cache-dir`, else `$TCLINT_CACHE_DIR`, else `.tclint_cache/` at the project
root: the config file's folder, without one the folder tclint runs in (the editor's
workspace folder for the server). A repository's config never chooses it. It holds the
analysis entries (`<version>/`), confirmation results (`confirm/`), submitit jobs
(`submitit/`) and the last trace of each project (`traces/`), beside a `.gitignore` of `*`
(git status stays clean) and a CACHEDIR.TAG (backup tools skip it). Nothing is written
anywhere else in the tree, and nothing read from it is trusted (cache.py signs entries with
a per-user secret that never lives in the project).
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
from pathlib import Path

from tclint.analyzer.config import DEFAULT_EXCLUDE, Settings

FOLDER = ".tclint_cache"
LEGACY = ".tclint"  # where tclint 0.1 kept confirmation results and the last trace
ENV = "TCLINT_CACHE_DIR"
# What tclint writes in a cache folder: entries per version, confirmation results, submitit
# jobs, traces, and the two markers.
OWN = frozenset({"confirm", "submitit", "traces", ".gitignore", "CACHEDIR.TAG"})
VERSION_FOLDER = re.compile(r"\d+\.\d+\S*")

CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by tclint.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")
GITIGNORE = "# Created by tclint: everything here can be rebuilt.\n*\n"


def project_root(settings: Settings | None, fallback: Path | None = None) -> Path:
    """The config file's folder; without one, `fallback` (default: the current folder)."""
    if settings is not None and settings.source is not None:
        return settings.base_dir.absolute()
    return (fallback if fallback is not None else Path.cwd()).absolute()


def cache_folder(settings: Settings | None, fallback: Path | None = None) -> Path:
    """The one folder that holds everything tclint caches for this project."""
    chosen = (settings.cache_dir if settings is not None else None) or os.environ.get(ENV)
    if chosen:
        return Path(chosen).absolute()
    return project_root(settings, fallback) / FOLDER


def trace_file(settings: Settings | None, fallback: Path | None = None) -> Path:
    """Where `tclint trace` saves Dynamo's verdicts and the language server reads them: one
    file per project, so a cache folder shared through TCLINT_CACHE_DIR keeps each apart."""
    return cache_folder(settings, fallback) / "traces" / f"{project_slot(project_root(settings, fallback))}.json"


def project_slot(root: Path) -> str:
    name = str(root.resolve()).encode("utf-8", errors="surrogateescape")
    return hashlib.blake2b(name, digest_size=12).hexdigest()


def mark_cache_folder(folder: Path, mode: int = 0o777) -> None:
    """Create `folder` with its `.gitignore` and CACHEDIR.TAG. Raises OSError when it cannot:
    the caller decides whether that is worth a warning. A `.tclint_cache` that is a symbolic
    link is refused: a cloned tree could point it anywhere (at a home folder, say)."""
    if folder.name == FOLDER and folder.is_symlink():
        raise OSError(errno.ELOOP, "it is a symbolic link, which tclint does not write through")
    folder.mkdir(parents=True, exist_ok=True, mode=mode)
    for name, text in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", CACHEDIR_TAG)):
        if not (folder / name).exists():
            (folder / name).write_text(text, encoding="utf-8")


def cache_folders(settings: Settings, start: Path) -> list[Path]:
    """What `tclint clean` removes: this project's cache folder, and every tclint cache folder
    in or under `start` (runs from subfolders or with other configs left theirs there),
    without entering virtualenvs or VCS folders."""
    found: dict[str, Path] = {}  # by real path: one folder reached two ways is removed once

    def add(folder: Path) -> None:
        if folder.is_dir() and is_cache(folder):
            found.setdefault(os.path.realpath(folder), Path(os.path.abspath(folder)))

    add(cache_folder(settings, start))
    add(project_root(settings, start) / LEGACY)
    skip = set(DEFAULT_EXCLUDE) - {FOLDER}
    for root, dirs, _ in os.walk(start):
        for name in dirs:
            if name in (FOLDER, LEGACY):
                add(Path(root, name))
        dirs[:] = [d for d in dirs if d not in skip and d not in (FOLDER, LEGACY)]
    return list(found.values())


def is_cache(folder: Path) -> bool:
    """Plainly tclint's: `.tclint_cache`, or any folder holding tclint's CACHEDIR.TAG. A
    `.tclint` folder counts only with the tag (the name alone could be anyone's)."""
    if folder.name == FOLDER:
        return True
    try:
        return "created by tclint" in (folder / "CACHEDIR.TAG").read_text(encoding="utf-8", errors="replace")[:512]
    except OSError:
        return False


def remove_folder(folder: Path) -> str | None:
    """Remove it (a symlink is unlinked, never followed); the reason when that fails. A folder
    the user named (--cache-dir, TCLINT_CACHE_DIR) may hold more than tclint's: only what
    tclint writes there goes, and the folder itself when that leaves it empty."""
    try:
        if folder.is_symlink():
            folder.unlink()
        elif folder.name in (FOLDER, LEGACY):
            shutil.rmtree(folder)
        else:
            for child in folder.iterdir():
                if child.name not in OWN and not VERSION_FOLDER.fullmatch(child.name):
                    continue
                if child.is_dir() and not child.is_symlink():
                    shutil.rmtree(child)
                else:
                    child.unlink()
            if not any(folder.iterdir()):
                folder.rmdir()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None

