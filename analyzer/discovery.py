"""Which files to lint, and the module name each one has in its package tree."""
from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import pathspec

from tclint.analyzer.config import Settings
from tclint.analyzer.notebook import SUFFIX as NOTEBOOK_SUFFIX

SUFFIXES = (".py", NOTEBOOK_SUFFIX)


@dataclass(frozen=True)
class SourceFile:
    path: Path  # as found (absolute)
    display: str  # as shown to the user
    module: str
    is_package: bool


class NotASourceFile(OSError):
    """Not a regular file (a FIFO, a device), or larger than the limit: never read."""


def read_source(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. A FIFO (which would block) or
    a device such as /dev/zero (whose size reads 0, but which never ends) is refused, and
    the read stops after `limit` bytes whatever the size said: the file may have changed."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotASourceFile("skipped, not a regular file")
        if st.st_size > limit:
            raise NotASourceFile(f"skipped, {st.st_size} bytes is over max-file-size ({limit})")
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise NotASourceFile(f"skipped, it grew over max-file-size ({limit}) while read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def module_name(path: Path) -> tuple[str, bool]:
    """Dotted module name from the `__init__.py` folders above `path`. A notebook gets a
    name no import can spell, so it never stands in for a module of the same stem."""
    is_package = path.name == "__init__.py"
    package = _package_of(path.parent)
    if is_package:
        return package, True
    stem = f"{path.stem}-ipynb" if path.suffix == NOTEBOOK_SUFFIX else path.stem
    return (f"{package}.{stem}" if package else stem), False


@functools.lru_cache(maxsize=4096)
def _package_of(directory: Path) -> str:
    """The dotted package a folder is, or "" when it holds no `__init__.py`."""
    if not (directory / "__init__.py").is_file():
        return ""
    parent = directory.parent
    outer = _package_of(parent) if parent != directory else ""
    return f"{outer}.{directory.name}" if outer else directory.name


def display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


class _Ignores:
    """Exclude patterns from settings plus the .gitignore files met on the way down."""

    def __init__(self, settings: Settings):
        self.base = settings.base_dir.resolve()
        patterns = list(settings.exclude) + list(settings.extend_exclude)
        self.exclude = pathspec.GitIgnoreSpec.from_lines(patterns)
        self.respect_gitignore = settings.respect_gitignore
        self._gitignores: dict[Path, pathspec.PathSpec | None] = {}

    def _gitignore(self, directory: Path):
        if directory not in self._gitignores:
            spec = None
            gi = directory / ".gitignore"
            if gi.is_file():
                try:
                    spec = pathspec.GitIgnoreSpec.from_lines(gi.read_text(encoding="utf-8", errors="replace").splitlines())
                except (OSError, ValueError):
                    spec = None
            self._gitignores[directory] = spec
        return self._gitignores[directory]

    def excluded(self, path: Path, is_dir: bool, git_dirs: list[Path]) -> bool:
        name = path.name + ("/" if is_dir else "")
        if self.exclude.match_file(name):
            return True
        try:
            rel = path.relative_to(self.base).as_posix() + ("/" if is_dir else "")
            if self.exclude.match_file(rel):
                return True
        except ValueError:
            pass
        if self.respect_gitignore:
            for d in git_dirs:
                spec = self._gitignore(d)
                if spec is not None:
                    rel = path.relative_to(d).as_posix() + ("/" if is_dir else "")
                    if spec.match_file(rel):
                        return True
        return False


def _git_dirs_above(path: Path) -> list[Path]:
    """Folders from the enclosing git repository's root down to `path` (their .gitignores apply)."""
    dirs = []
    for d in [path, *path.parents]:
        dirs.append(d)
        if (d / ".git").exists():
            return list(reversed(dirs))
    return [path]


def discover(paths: list[Path], settings: Settings) -> tuple[list[SourceFile], list[str]]:
    """Python files and notebooks under `paths`; explicitly named files are always linted."""
    ignores = _Ignores(settings)
    found: dict[Path, SourceFile] = {}
    problems: list[str] = []
    for given in paths:
        if not given.exists():
            problems.append(f"{given}: no such file or directory")
            continue
        resolved = given.resolve()
        if resolved.is_file():
            _add(found, resolved)
            continue
        if not resolved.is_dir():
            problems.append(f"{given}: not a regular file or folder")
            continue
        git_base = _git_dirs_above(resolved)
        if any(ignores.excluded(d, True, git_base[:i]) for i, d in enumerate(git_base) if i):
            git_base = [resolved]  # an ignored folder named explicitly is linted (like ruff)
        for root, dirs, files in os.walk(resolved, followlinks=False, onerror=lambda e: problems.append(f"{e.filename}: {e.strerror}")):
            root_path = Path(root)
            parts = root_path.relative_to(resolved).parts
            chain = git_base + [resolved.joinpath(*parts[: i + 1]) for i in range(len(parts))]
            dirs[:] = sorted(d for d in dirs if not ignores.excluded(root_path / d, True, chain))
            for name in sorted(files):
                path = root_path / name
                if name.endswith(SUFFIXES) and _is_regular(path) and not ignores.excluded(path, False, chain):
                    _add(found, path)
    return sorted(found.values(), key=lambda f: f.display), problems


def _add(found: dict, path: Path) -> None:
    if path not in found:
        found[path] = source_file(path)


def source_file(path: Path) -> SourceFile:
    module, is_package = module_name(path)
    return SourceFile(path=path, display=display_path(path), module=module, is_package=is_package)
