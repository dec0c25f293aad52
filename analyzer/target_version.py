"""The Python version the linted code runs on: some breaks exist only on some versions (3.12
inlines comprehensions, so TC243's frames exist up to 3.11).

As ruff decides it: `target-version` in the config, else the oldest Python that
`[project].requires-python` of the nearest pyproject.toml admits (the project supports it,
so its users may compile there), else the Python tclint itself runs on.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from tclint.analyzer.toml_files import TomlError, read_toml

Version = tuple[int, int]

_SPELLING = re.compile(r"py3(\d{1,2})")
# A lower bound of a version specifier: `>=3.9`, `~=3.10`, `==3.11.*`, `>3.8`
_FLOOR = re.compile(r"(>=|~=|===|==|>)\s*3\.(\d+)")


def parse(value: object) -> Version | None:
    """`"py311"` -> (3, 11); None when it is not spelled so."""
    match = _SPELLING.fullmatch(value) if isinstance(value, str) else None
    return (3, int(match.group(1))) if match else None


def spelled(version: Version) -> str:
    return f"py{version[0]}{version[1]}"


def requires_python_floor(start: Path) -> Version | None:
    """The oldest Python the nearest pyproject.toml above `start` admits, when it says."""
    start = start if start.is_dir() else start.parent
    for directory in [start, *start.parents]:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = read_toml(candidate)
            except TomlError:
                return None  # a broken one is reported where it is the config
            project = data.get("project")
            spec = project.get("requires-python") if isinstance(project, dict) else None
            if isinstance(spec, str):
                floors = [int(minor) for _, minor in _FLOOR.findall(spec)]
                return (3, max(floors)) if floors else None
            return None  # the project's own pyproject says nothing: do not look further up
    return None


def running() -> Version:
    return sys.version_info[:2]
