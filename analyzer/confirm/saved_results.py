"""Dynamo's verdicts saved for the editor: `tclint trace` writes them in the project's cache
folder (`.tclint_cache/traces/`, see cache_folders.trace_file), the language server lays them
over its findings for as long as each file is unchanged.

The file sits in the tree, so whoever wrote it is not trusted: it is read only when it
is a regular file within a size limit, each row is checked against a small schema (a row that
fails is dropped with a log line, the others still count), and a row never says anything
itself about a static finding: it carries a verdict (confirmed or not, the observed Gb_type)
that the server applies to the finding tclint computed (`verdicts.apply`). Only Dynamo's own
findings (TC900/TC901) come from the file, with a bounded message and their fixed severity.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
from pathlib import Path
from typing import Callable

from tclint.analyzer.diagnostic import Diagnostic, Severity, Span

MAX_BYTES = 8 * 1024 * 1024
MAX_ROWS = 20_000
MAX_TEXT = 1_000  # characters of a TC900/TC901 message, or of a Gb_type
MAX_LINE = 10_000_000
OBSERVED = {"TC900": Severity.ERROR, "TC901": Severity.WARNING}
_CODE = re.compile(r"TC\d{3}")
_GB_ID = re.compile(r"GB\d{4}")
_DIGEST = re.compile(r"[0-9a-f]{32}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

_log = logging.getLogger(__name__)


def content_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def save(path: Path, diagnostics: list[Diagnostic]) -> None:
    """Write the verdicts (paths made absolute) with a digest of each file they concern."""
    rows, hashes = [], {}
    for d in diagnostics:
        if d.confirmed is None:
            continue
        absolute = str(Path(d.path).resolve())
        if absolute not in hashes:
            try:
                hashes[absolute] = content_digest(Path(absolute).read_bytes())
            except OSError:
                continue
        rows.append({**d.to_json(), "path": absolute})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"tool": "tclint", "files": hashes, "diagnostics": rows}, indent=1), encoding="utf-8")


def load(path: Path, log: Callable[[str], object] | None = None) -> tuple[dict[str, str], list[Diagnostic]]:
    """(file digests, verdict rows) from a saved file; empty when missing, special, too large or
    not the expected shape. Each dropped row or file is said once through `log`."""
    say = log or _log.warning
    data = read_regular(path, MAX_BYTES)
    if isinstance(data, str):
        if data != "missing":
            say(f"tclint: ignoring {path}: {data}")
        return {}, []
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        say(f"tclint: ignoring {path}: not JSON ({type(exc).__name__})")
        return {}, []
    files = doc.get("files") if isinstance(doc, dict) else None
    rows = doc.get("diagnostics") if isinstance(doc, dict) else None
    if not isinstance(files, dict) or not isinstance(rows, list):
        say(f"tclint: ignoring {path}: expected an object with 'files' and 'diagnostics'")
        return {}, []
    if len(rows) > MAX_ROWS or len(files) > MAX_ROWS:
        say(f"tclint: ignoring {path}: more than {MAX_ROWS} rows")
        return {}, []
    hashes = {k: v for k, v in files.items()
              if isinstance(k, str) and len(k) < 4096 and isinstance(v, str) and _DIGEST.fullmatch(v)}
    out, dropped = [], 0
    for row in rows:
        d = _diagnostic(row)
        if d is None or d.path not in hashes:
            dropped += 1
        else:
            out.append(d)
    if dropped or len(hashes) != len(files):
        say(f"tclint: {path}: dropped {dropped} row{'s' if dropped != 1 else ''} and "
            f"{len(files) - len(hashes)} file digest(s) that do not have the expected types")
    return hashes, out


def read_regular(path: Path, limit: int) -> bytes | str:
    """The bytes of `path` when it is a regular file of at most `limit` bytes; else why not
    ("missing", or a reason). Opened without blocking, so a FIFO cannot stall the reader,
    and read with a bound, so a device that claims size 0 cannot fill memory."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"cannot open it ({exc.strerror})"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not a regular file"
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return f"larger than {limit // (1024 * 1024)} MB"
        return b"".join(chunks)
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    finally:
        os.close(fd)


def _int(value) -> int | None:
    return value if type(value) is int and 0 < value <= MAX_LINE else None


def _text(value, limit: int = MAX_TEXT) -> str | None:
    if not isinstance(value, str) or not value or len(value) > limit:
        return None
    return _CONTROL.sub(" ", value)


def _diagnostic(row) -> Diagnostic | None:
    """A verdict row, or None when any field has the wrong type. Severity, and the message of a
    static finding, are not read: the server decides them."""
    if not isinstance(row, dict):
        return None
    path, code = row.get("path"), row.get("code")
    span = [_int(row.get(k)) for k in ("line", "column", "end_line", "end_column")]
    confirmed = row.get("confirmed")
    gb_type, gb_id = row.get("gb_type"), row.get("gb_id")
    if (not isinstance(path, str) or len(path) >= 4096 or not isinstance(code, str) or not _CODE.fullmatch(code)
            or None in span or not isinstance(confirmed, bool)
            or (gb_type is not None and _text(gb_type, 200) is None)
            or (gb_id is not None and not (isinstance(gb_id, str) and _GB_ID.fullmatch(gb_id)))):
        return None
    message = ""
    if code in OBSERVED:
        message = _text(row.get("message"))
        if message is None or confirmed is not True:
            return None
    name = row.get("name")
    return Diagnostic(
        path=path, span=Span(*span), code=code, name=name if isinstance(name, str) and len(name) < 100 else "",
        severity=OBSERVED.get(code, Severity.WARNING), message=message,
        gb_type=_text(gb_type, 200) if gb_type is not None else None, gb_id=gb_id,
        url=_gb_url(gb_id), confirmed=confirmed,
    )


def _gb_url(gb_id: str | None) -> str | None:
    from tclint.analyzer.gb_registry import gb_url

    return gb_url(gb_id) if gb_id else None
