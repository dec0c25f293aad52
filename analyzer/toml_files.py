"""Reading a TOML file, with every way a broken one fails turned into one short reason.

Shared by the config loader (which reports the reason) and the lookups that walk up to the
nearest pyproject.toml (which skip a broken one: the loader reports it where it matters).
"""
from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class TomlError(Exception):
    """Why a TOML file could not be read, without the file's name."""


def read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TomlError(f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise TomlError("not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(f"invalid TOML: {exc}") from None
    except (RecursionError, MemoryError):
        raise TomlError("invalid TOML: nested too deeply") from None
