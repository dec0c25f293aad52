"""PEP 420 namespace packages: folders without `__init__.py` that imports still go through.

A file's module name comes from the `__init__.py` folders above it, so `proj/pkg/helpers.py`
in a folder without one is the module `helpers` (right for scripts run from that folder,
which import it as `helpers`). Python also imports it as `pkg.helpers` (and `proj.pkg.helpers`)
when a folder above is on sys.path; those longer names are aliases of the short one.
"""
from __future__ import annotations

import os
from pathlib import Path

MAX_DEPTH = 8  # folders above a module's top package that may spell a namespace


def namespace_aliases(files) -> dict[str, str]:
    """{"pkg.helpers": "helpers", ...}: each dotted name that reaches a linted module through
    namespace folders, mapped to the module's own name. The first file to claim a name keeps it."""
    aliases: dict[str, str] = {}
    for fs in files:
        if not fs.module or not fs.path.endswith(".py"):
            continue  # notebooks and in-memory snippets are not importable
        path = Path(os.path.abspath(fs.path))
        depth = fs.module.count(".") + (1 if path.name == "__init__.py" else 0)
        folder = path.parents[depth] if depth < len(path.parents) else None
        prefix = fs.module
        for _ in range(MAX_DEPTH):
            if folder is None or not folder.name.isidentifier():
                break
            prefix = f"{folder.name}.{prefix}"
            aliases.setdefault(prefix, fs.module)
            folder = folder.parent if folder.parent != folder else None
    return aliases
