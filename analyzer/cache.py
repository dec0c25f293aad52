"""Content-hash cache of per-file summaries, keyed by tclint's version and source files.

Summaries do not depend on settings (selection, roots and Dynamo options apply in the
project phase), so editing pyproject.toml never invalidates them. A second entry keeps the
last whole run's findings, keyed by settings and every file's key, so an unchanged tree
is answered without loading any summary.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from tclint.analyzer.version import __version__


# Bump when the shape of FileSummary or Diagnostic changes within a version.
CACHE_FORMAT = 3


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """tclint's own version and source files: an edited (or reinstalled) analyzer misses."""
    package = Path(__file__).resolve().parent
    h = hashlib.blake2b(digest_size=12)
    h.update(f"{__version__}\0{CACHE_FORMAT}".encode())
    for path in sorted(package.rglob("*.py")):
        try:
            st = path.stat()
        except OSError:
            continue
        h.update(f"{path.relative_to(package)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def summary_key(data: bytes, path: str, module: str, is_package: bool) -> str:
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{code_fingerprint()}\0{path}\0{module}\0{is_package}\0".encode())
    h.update(data)
    return h.hexdigest()


def run_cache_key(settings_fingerprint: str, files: list[tuple[str, str]]) -> str:
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{code_fingerprint()}\0{settings_fingerprint}\0".encode())
    for display, key in files:
        h.update(f"{display}\0{key}\0".encode())
    return h.hexdigest()


class SummaryCache:
    def __init__(self, directory: Path):
        self.directory = directory / __version__

    def get(self, key: str):
        try:
            with open(self.directory / key[:2] / key, "rb") as fh:
                return pickle.load(fh)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            return None

    def get_run(self, key: str):
        return self.get(f"run-{key}")

    def put_run(self, key: str, diagnostics) -> None:
        # Only the latest whole-run result is worth keeping.
        for old in (self.directory / "ru").glob("run-*") if (self.directory / "ru").is_dir() else ():
            try:
                old.unlink()
            except OSError:
                pass
        self.put(f"run-{key}", diagnostics)

    def put(self, key: str, value) -> None:
        folder = self.directory / key[:2]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder)
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, folder / key)
        except OSError:
            pass  # a read-only tree still lints, only slower
