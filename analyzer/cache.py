"""Content-hash cache of per-file summaries, keyed by tclint's version and source files.

Summaries do not depend on settings (selection, roots and Dynamo options apply in the
project phase), so editing pyproject.toml never invalidates them. A second entry per
project keeps the last whole run's findings, keyed by settings and every file's key, so an
unchanged tree is answered without loading any summary. Confirmation results are kept the
same way, keyed by the files and the interpreter that ran them.

Entries live in the project's cache folder (`.tclint_cache/`, see cache_folders.py), which
anyone who can write the tree can fill, so nothing in it is trusted: entries are plain data
that cannot run code (JSON, see cache_codec.py) behind a schema version and a keyed checksum
(BLAKE2b with a random secret kept in the per-user folder, never in a project). An entry
that fails to read, to verify or to decode is a miss, so a planted, foreign or bit-flipped
entry changes nothing. A folder that cannot be written (a read-only tree) is said once
(`problem`) and the run goes on without the cache.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import sys
import tempfile
from pathlib import Path

from tclint.analyzer import cache_codec
from tclint.analyzer.cache_folders import mark_cache_folder, project_slot
from tclint.analyzer.discovery import read_source
from tclint.analyzer.version import __version__

# Bump when the shape or the content of FileSummary or Diagnostic changes within a version.
CACHE_FORMAT = 27
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def user_folder() -> Path:
    """The platform's per-user cache folder + `tclint`: it holds only the signing secret."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "tclint"


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


def summary_key(data: bytes, path: str, module: str, is_package: bool, variant: str = "") -> str:
    """`variant`: anything else the findings depend on (a notebook's cell boundaries)."""
    h = hashlib.blake2b(digest_size=20)
    path_bytes = path.encode("utf-8", errors="surrogateescape")  # a file name may hold any byte
    h.update(f"{code_fingerprint()}\0".encode() + path_bytes + f"\0{module}\0{is_package}\0{variant}\0".encode(
        "utf-8", errors="surrogateescape"))
    h.update(data)
    return h.hexdigest()


def run_cache_key(settings_fingerprint: str, files: list[tuple[str, str]]) -> str:
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{code_fingerprint()}\0{settings_fingerprint}\0".encode("utf-8", errors="surrogateescape"))
    for display, key in files:
        h.update(f"{display}\0{key}\0".encode("utf-8", errors="surrogateescape"))
    return h.hexdigest()


class SignedEntries:
    """Entries under `root`, each signed with the per-user secret. `root` is the cache folder,
    made (with its .gitignore and CACHEDIR.TAG) on the first write."""

    def __init__(self, root: Path):
        # Absolute: the CLI changes its working directory while its workers start.
        self.root = root.absolute()
        self.problem: str | None = None  # why nothing is written: a warning, said once
        self._secret: bytes | None = None
        self._marked = False

    def _read(self, path: Path, kind: str, key: str):
        secret = self._key(create=False)
        if secret is None:
            return None
        try:
            blob = read_source(path, MAX_ENTRY_BYTES)  # a regular file, read with a bound
        except OSError:
            return None
        mac, _, body = blob.partition(b"\n")
        if not hmac.compare_digest(mac, _mac(secret, body)):
            return None
        try:
            return cache_codec.loads(body, kind, key, CACHE_FORMAT)
        except cache_codec.DecodeError:
            return None

    def _write(self, folder: Path, name: str, kind: str, key: str, value) -> None:
        if self.problem is not None:
            return
        try:
            body = cache_codec.dumps(value, kind, key, CACHE_FORMAT)
        except cache_codec.EncodeError:
            return  # something the codec does not know: not cached, never wrong
        secret = self._key(create=True)
        if secret is None:
            return
        try:
            if not self._marked:
                mark_cache_folder(self.root)
                self._marked = True
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(_mac(secret, body) + b"\n" + body)
                os.replace(tmp, folder / name)  # readers see the old entry or the new one, whole
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:
            self.problem = (f"warning: cannot write the cache in {self.root} ({_reason(exc)}); "
                            "linting without it (--cache-dir DIR puts it elsewhere, --no-cache turns it off)")

    def _key(self, create: bool) -> bytes | None:
        """The per-user secret that signs entries (made on first write)."""
        if self._secret is None:
            folder = user_folder()
            try:
                self._secret = (folder / "secret").read_bytes()
            except OSError:
                if not create:
                    return None
                try:
                    self._secret = _make_secret(folder)
                except OSError as exc:
                    self.problem = (f"warning: cannot keep tclint's signing key in {folder} ({_reason(exc)}); "
                                    "linting without the cache (XDG_CACHE_HOME moves that folder)")
                    return None
            if self._secret is not None and len(self._secret) < 32:
                self._secret = None
        return self._secret


class SummaryCache(SignedEntries):
    def __init__(self, root: Path):
        super().__init__(root)
        self.directory = self.root / __version__

    def get(self, key: str):
        """The summary stored under `key`, or None (missing, unreadable, forged or stale)."""
        return self._read(self.directory / key[:2] / key, "summary", key)

    def put(self, key: str, value) -> None:
        self._write(self.directory / key[:2], key, "summary", key, value)

    def get_run(self, project: str, key: str):
        """The findings of the last whole run of `project` (its base folder), if its key is `key`."""
        return self._read(self.directory / "runs" / _slot(project), "run", key)

    def put_run(self, project: str, key: str, diagnostics) -> None:
        # One entry per project, replaced by each run: only the latest is worth keeping.
        self._write(self.directory / "runs", _slot(project), "run", key, diagnostics)

    def get_context(self, project: str, key: str) -> list[str] | None:
        """The imported modules (paths) the last run of `project` read beside its linted
        files, if those files' key is `key`: the run's own key covers them too."""
        return self._read(self.directory / "runs" / ("context-" + _slot(project)), "context", key)

    def put_context(self, project: str, key: str, paths: list[str]) -> None:
        self._write(self.directory / "runs", "context-" + _slot(project), "context", key, paths)


class ConfirmResults(SignedEntries):
    """What each example module's run reported (`confirm/` in the cache folder)."""

    def get(self, key: str):
        return self._read(self.root / "confirm" / key, "confirm", key)

    def put(self, key: str, raw: dict) -> None:
        self._write(self.root / "confirm", key, "confirm", key, raw)


def _make_secret(folder: Path) -> bytes:
    """Raises OSError when the per-user folder cannot hold it."""
    mark_cache_folder(folder, mode=0o700)
    path = folder / "secret"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass  # another process made it first: use theirs
    else:
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    return path.read_bytes()


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _mac(secret: bytes, body: bytes) -> bytes:
    return hashlib.blake2b(body, key=secret[:64], digest_size=32).hexdigest().encode()


def _slot(project: str) -> str:
    return "run-" + project_slot(Path(project))
