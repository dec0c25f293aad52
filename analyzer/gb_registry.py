"""Dynamo's graph-break registry, read as data from an installed torch without importing it.

Rules carry their Gb_type and GB id themselves (so messages stand alone without torch);
the registry adds Dynamo's own explanation and hints where a torch install is found.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

GB_SITE = "https://meta-pytorch.github.io/compile-graph-break-site/gb/"


def gb_url(gb_id: str) -> str:
    """The documentation page of a graph-break id such as ``GB0170``."""
    return f"{GB_SITE}gb{gb_id[2:]}.html"


@dataclass(frozen=True)
class RegistryEntry:
    gb_id: str
    gb_type: str
    explanation: str
    hints: tuple[str, ...]


@functools.lru_cache(maxsize=1)
def torch_dir() -> Path | None:
    """The installed torch package's folder, found without importing torch."""
    try:
        # find_spec on a top-level name locates the package without executing it.
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        if (Path(location) / "_dynamo").is_dir():
            return Path(location)
    return None


@functools.lru_cache(maxsize=1)
def torch_version() -> str | None:
    """The installed torch's version ("2.13.0+cpu"), read from torch/version.py as text."""
    root = torch_dir()
    if root is None:
        return None
    try:
        text = (root / "version.py").read_text(encoding="utf-8")
    except OSError:
        return None
    match = re.search(r"""^__version__\s*(?::\s*str\s*)?=\s*['"]([^'"]+)['"]""", text, re.MULTILINE)
    return match.group(1) if match else None


def registry_path() -> Path | None:
    override = os.environ.get("TCLINT_GB_REGISTRY")
    if override:
        return Path(override)
    root = torch_dir()
    if root is None:
        return None
    candidate = root / "_dynamo" / "graph_break_registry.json"
    return candidate if candidate.is_file() else None


@functools.lru_cache(maxsize=1)
def load_registry() -> dict[str, RegistryEntry]:
    """GB id -> entry; empty when no torch (or no readable registry) is installed."""
    path = registry_path()
    if path is None:
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    entries: dict[str, RegistryEntry] = {}
    if not isinstance(raw, dict):
        return entries
    for gb_id, versions in raw.items():
        if not isinstance(versions, list):
            continue
        # Oldest wording first; some later entries are placeholders such as "_gb_type".
        real = [v for v in versions if isinstance(v, dict) and not str(v.get("Gb_type", "_")).startswith("_")]
        worded = [v for v in real if not str(v.get("Explanation", "_")).startswith("_")]
        if not real:
            continue
        latest = (worded or real)[-1]
        hints = tuple(h.strip() for h in latest.get("Hints", []) if isinstance(h, str) and h.strip()
                      and not h.startswith("*"))
        entries[gb_id] = RegistryEntry(
            gb_id=gb_id,
            gb_type=str(latest.get("Gb_type", "")),
            explanation=_clean_explanation(str(latest.get("Explanation", ""))),
            hints=hints,
        )
    return entries


def lookup(gb_id: str | None) -> RegistryEntry | None:
    if not gb_id:
        return None
    return load_registry().get(gb_id)


def _clean_explanation(text: str) -> str:
    # Some explanations are stored as the Python source of an f-string concatenation.
    text = text.strip()
    if text.startswith('"') and '" ' in text:
        text = text.split('"')[1]
    return " ".join(text.split())
