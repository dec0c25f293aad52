"""Where tclint keeps what it can rebuild, for `tclint clean`: the lint cache (`cache-dir`,
else `.tclint_cache/`) and `.tclint/` (confirmation results, submitit jobs, the last trace)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from tclint.analyzer.config import DEFAULT_EXCLUDE, Settings

NAMES = (".tclint_cache", ".tclint")

CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by tclint.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")


def mark_cache_folder(folder: Path) -> None:
    """Create `folder` holding a `.gitignore` of `*` (git status stays clean) and a
    CACHEDIR.TAG (backup tools skip it). A folder that cannot be written is left alone:
    whoever writes there next reports or tolerates that."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# Created by tclint: everything here can be rebuilt.\n*\n"),
                           ("CACHEDIR.TAG", CACHEDIR_TAG)):
            if not (folder / name).exists():
                (folder / name).write_text(text, encoding="utf-8")
    except OSError:
        pass


def cache_folders(settings: Settings, start: Path) -> list[Path]:
    """The configured cache folders, and every cache folder in or under `start` (earlier runs
    with other configs left theirs there), without entering virtualenvs or VCS folders."""
    found: dict[str, Path] = {}  # by real path: one folder reached two ways is removed once

    def add(folder: Path) -> None:
        if folder.is_dir():
            found.setdefault(os.path.realpath(folder), Path(os.path.abspath(folder)))

    # A configured folder is removed only when it is plainly a cache: the config may come
    # from the repository, and `cache-dir = ".."` must not turn `clean` into `rm -rf ..`.
    if settings.cache_dir and is_cache(Path(settings.cache_dir)):
        add(Path(settings.cache_dir))
    for name in NAMES:
        add(settings.base_dir / name)
    skip = set(DEFAULT_EXCLUDE) - set(NAMES)
    for root, dirs, _ in os.walk(start):
        for name in dirs:
            if name in NAMES:
                add(Path(root, name))
        dirs[:] = [d for d in dirs if d not in skip and d not in NAMES]
    return list(found.values())


def is_cache(folder: Path) -> bool:
    return folder.name in NAMES or (folder / "CACHEDIR.TAG").is_file()


def remove_folder(folder: Path) -> str | None:
    """Remove it (a symlink is unlinked, never followed); the reason when that fails."""
    try:
        if folder.is_symlink():
            folder.unlink()
        else:
            shutil.rmtree(folder)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
