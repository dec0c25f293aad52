"""Compiled extension modules: modules a package ships as binaries (`_pywt.cpython-311-x86_64-linux-gnu.so`)
with no Python source beside them.

Dynamo cannot trace into them. A Cython function or an instance method of a Cython class is
an "Unsupported method call"; a plain C function is "marked as skipped". Either way the call
breaks the graph. Attribute reads (`Modes.symmetric`) do not.
A library's own calls into its binaries are found when the library is read (TC227 then
reports them at the user's call); a project's, in the installed packages.
"""
from __future__ import annotations

import sysconfig
from functools import lru_cache
from pathlib import Path

_SUFFIXES = (".so", ".pyd")
# torch's and NumPy's own binaries are known from tclint's tables (TC220, the probe)
_KNOWN = frozenset({"torch", "numpy", "functorch", "torchgen", "triton", "tclint"})


def binary_module(path: str, module: str, qual: str) -> tuple[str, bool] | None:
    """The compiled module that defines `qual`, if one does: (its dotted name, whether Cython
    built it). A name of the package that `module` (the file at `path`) belongs to is looked
    up beside that file; any other, in the site-packages of the Python running tclint."""
    parts = qual.split(".")
    if len(parts) < 2 or parts[0] in _KNOWN:
        return None
    own = parts[0] == module.partition(".")[0]
    folders = [_package_folder(path, module)] if own else _site_folders()
    for folder in folders:
        if folder is None or not (folder / parts[0]).is_dir():
            continue
        for i in range(len(parts) - 1, 0, -1):  # the longest prefix that is a module
            directory = folder.joinpath(*parts[:i - 1])
            found = _module_file(directory, parts[i - 1], _stamp(directory))
            if found == "source":
                return None
            if found is not None:
                return ".".join(parts[:i]), _cython(found)
        return None
    return None


@lru_cache(maxsize=1)
def _site_folders() -> tuple[Path, ...]:
    folders = (Path(sysconfig.get_paths()[key]) for key in ("purelib", "platlib"))
    return tuple(dict.fromkeys(f for f in folders if f.is_dir()))


@lru_cache(maxsize=1024)
def _package_folder(path: str, module: str) -> Path | None:
    """The folder that holds the file's top-level package (a site-packages folder)."""
    try:
        file = Path(path).resolve()
    except OSError:
        return None
    depth = len(module.split("."))
    for up in (depth - 1, depth):  # a module, or a package's __init__.py
        if up < len(file.parents):
            folder = file.parents[up]
            top = folder / module.partition(".")[0]
            if top.is_dir() and file.is_relative_to(top):
                return folder
    return None


def _stamp(directory: Path) -> int:
    """Changes when a file is added to or removed from `directory` (a cache key)."""
    try:
        return directory.stat().st_mtime_ns
    except OSError:
        return -1


@lru_cache(maxsize=4096)
def _module_file(directory: Path, name: str, stamp: int) -> Path | str | None:
    """"source" where `name` in `directory` is a Python module or package, the binary where
    it is only a compiled one, None where it is neither (`stamp`: the directory's _stamp)."""
    if stamp < 0:
        return None
    if (directory / f"{name}.py").is_file() or (directory / name).is_dir():
        return "source"
    for entry in sorted(directory.iterdir()):
        if entry.name.startswith(f"{name}.") and entry.suffix in _SUFFIXES and entry.is_file():
            return entry
    return None


@lru_cache(maxsize=256)
def _cython(binary: Path) -> bool:
    try:
        return b"__pyx_" in binary.read_bytes()
    except OSError:
        return False
