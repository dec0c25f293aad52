"""Content-hash cache of per-file summaries, keyed by tclint's version and source files.

Summaries do not depend on settings (selection, roots and Dynamo options apply in the
project phase), so editing pyproject.toml never invalidates them. A second entry per
project keeps the last whole run's findings, keyed by settings and every file's key, so an
unchanged tree is answered without loading any summary.

Entries are plain data that cannot run code: JSON (see cache_codec.py) behind a schema
version and a keyed checksum (BLAKE2b with a random per-user secret). An entry that fails
to read, to verify or to decode is a miss, so a planted, foreign or bit-flipped entry
changes nothing. The cache lives in one per-user folder (`cache_directory`): a
repository never chooses where tclint reads or writes it.
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
from tclint.analyzer.version import __version__

# Bump when the shape of FileSummary or Diagnostic changes within a version.
CACHE_FORMAT = 4
MAX_ENTRY_BYTES = 64 * 1024 * 1024
_TAG = b"Signature: 8a477f597d28d172789f06886806bc55\n# tclint's cache; see https://bford.info/cachedir/\n"


def cache_directory() -> Path:
    """`$TCLINT_CACHE_DIR`, else the platform's per-user cache folder + `tclint`."""
    chosen = os.environ.get("TCLINT_CACHE_DIR")
    if chosen:
        return Path(chosen)
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


class SummaryCache:
    def __init__(self, directory: Path | None = None):
        # Absolute: the CLI changes its working directory while its workers start.
        self.root = (directory if directory is not None else cache_directory()).absolute()
        self.directory = self.root / __version__
        self._secret: bytes | None = None

    # -- entries ------------------------------------------------------------------
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

    # -- storage ------------------------------------------------------------------
    def _read(self, path: Path, kind: str, key: str):
        secret = self._key(create=False)
        if secret is None:
            return None
        try:
            with open(path, "rb") as fh:
                blob = fh.read(MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
        mac, _, body = blob.partition(b"\n")
        if len(blob) > MAX_ENTRY_BYTES or not hmac.compare_digest(mac, _mac(secret, body)):
            return None
        try:
            return cache_codec.loads(body, kind, key, CACHE_FORMAT)
        except cache_codec.DecodeError:
            return None

    def _write(self, folder: Path, name: str, kind: str, key: str, value) -> None:
        try:
            body = cache_codec.dumps(value, kind, key, CACHE_FORMAT)
        except cache_codec.EncodeError:
            return  # something the codec does not know: not cached, never wrong
        try:
            secret = self._key(create=True)
            if secret is None:
                return
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(_mac(secret, body) + b"\n" + body)
                os.replace(tmp, folder / name)  # readers see the old entry or the new one, whole
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            pass  # a read-only cache still lints, only slower

    def _key(self, create: bool) -> bytes | None:
        """The per-user secret that signs entries (made on first write)."""
        if self._secret is None:
            path = self.root / "secret"
            try:
                self._secret = path.read_bytes()
            except FileNotFoundError:
                if not create:
                    return None
                self._secret = _make_secret(self.root, path)
            except OSError:
                return None
            if self._secret is not None and len(self._secret) < 32:
                self._secret = None
        return self._secret


def _make_secret(root: Path, path: Path) -> bytes | None:
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        for name, text in (("CACHEDIR.TAG", _TAG), (".gitignore", b"*\n")):
            if not (root / name).exists():
                (root / name).write_bytes(text)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    except FileExistsError:
        pass  # another process made it first: use theirs
    except OSError:
        return None
    try:
        secret = path.read_bytes()
    except OSError:
        return None
    return secret if len(secret) >= 32 else None


def _mac(secret: bytes, body: bytes) -> bytes:
    return hashlib.blake2b(body, key=secret[:64], digest_size=32).hexdigest().encode()


def _slot(project: str) -> str:
    return "run-" + hashlib.blake2b(project.encode("utf-8", errors="surrogateescape"), digest_size=12).hexdigest()
