"""Installed libraries that compiled code calls, read in the language server as the CLI reads
them (analyzer/library_context.py): a break inside a library is a TC227 at the user's call.

The server runs under the interpreter the editor picked (server/settings.py), so the
site-packages it looks in are the project's. Libraries do not change while one types: each
library module is read and summarized once (through the parse pool and the summary cache),
and what was looked up on disk is kept until what is installed changes.

The CLI works out the compiled region before the project phase to know which libraries to
read. Here that would cost a second reach of the whole workspace on every edit, so the
region comes from the project phase itself: the run reads the libraries that the last run's
compiled code called, and its own region says whether those still stand; only an edit that
changes them (a new call into a module not read yet) runs the phase again, with the new
module read. A project that calls no library found on disk takes the workspace index's own
project phase, unchanged.

Everything here runs on the analysis thread, as workspace_index.py does.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tclint.server.parse_pool import SummaryFailed
from tclint.server.star_binding import bind_star_names
from tclint.server.workspace_index import Project, WorkspaceIndex

# Phases one edit may run: the run with the last libraries, and one with those its region
# calls for (a new call into a module not read yet); more only where a module read then leads
# to yet another through code that only that module's callbacks reach.
MAX_PHASES = 3


@dataclass
class _Libraries:
    """One project's libraries, kept between runs."""
    paths: tuple = ()  # the project's files that `files` and `own` were made for
    files: list = field(default_factory=list)  # those files, as the library reader takes them
    own: set[str] = field(default_factory=set)  # the project's top-level packages
    installed: Any = None  # library_context.Installed for `folders`
    folders: list[Path] = field(default_factory=list)
    stamp: str | None = None  # library_context.site_stamp of those folders
    summaries: dict[str, Any] = field(default_factory=dict)  # library path -> FileSummary (None: unreadable)
    calls: dict[str, tuple[Any, bool]] = field(default_factory=dict)  # project path -> (summary, calls a library)
    read: list = field(default_factory=list)  # the library summaries the last run read
    resolutions: Any = None  # the phase with libraries: what it resolved, and its region
    last: tuple | None = None  # (settings, project summaries, findings by path) of that phase


_STATE: weakref.WeakKeyDictionary[WorkspaceIndex, dict[Path, _Libraries]] = weakref.WeakKeyDictionary()


def diagnostics(index: WorkspaceIndex, key: Path) -> dict[str, list]:
    """path -> analyzer Diagnostics for every file of the project, as WorkspaceIndex.diagnostics
    gives them, with the breaks inside the libraries the compiled code calls."""
    from tclint.server import heap

    proj = index.project(key)
    bind_star_names(proj, index.pool)  # before the summaries are compared with the last run's
    state = _STATE.setdefault(index, {}).setdefault(key, _Libraries())
    _follow_disk(proj, state)
    last = state.last
    if last is not None and last[0] == proj.settings and _same(last[1], proj.summaries):
        return last[2]
    with heap.collector_off():
        calling = _calling(proj, state)
        if not calling:
            state.read, state.last = [], None
            return index.diagnostics(key)
        read = state.read
        for _ in range(MAX_PHASES):
            by_path, reached = _phase(index, key, proj, state, read)
            state.read = read
            again = _walk(index, proj, state, calling, reached)
            if [s.path for s in again] == [s.path for s in read]:
                break
            read = again
    state.last = (proj.settings, dict(proj.summaries), by_path) if state.read else None
    return by_path


def _follow_disk(proj: Project, state: _Libraries) -> None:
    """The project's files as the reader takes them, and what is installed, as they are now."""
    from tclint.analyzer.library_context import Installed, own_packages, site_folders, site_stamp

    paths = tuple(proj.summaries)
    if paths != state.paths:
        state.paths, state.calls = paths, {}  # what is the project's own and what a library changed
        state.files = [_as_file(path, s) for path, s in proj.summaries.items()]
        folders = site_folders(state.files)
        if folders != state.folders:
            state.folders, state.installed = folders, Installed(folders)
        state.own = own_packages(state.files, state.folders)
    stamp = site_stamp(state.folders)
    if stamp != state.stamp:  # something was installed or removed: look again, read again
        state.stamp, state.installed = stamp, Installed(state.folders)
        state.summaries, state.calls, state.read, state.last = {}, {}, [], None


def _calling(proj: Project, state: _Libraries) -> list:
    """The project's summaries that call into (or build on) a library found on disk."""
    from tclint.analyzer.library_context import LibraryReader

    reader = LibraryReader(state.files, state.installed, state.own)
    out = []
    for path, summary in proj.summaries.items():
        known = state.calls.get(path)
        if known is None or known[0] is not summary:
            known = state.calls[path] = (summary, reader.calls_libraries([summary]))
        if known[1]:
            out.append(summary)
    return out


def _phase(index: WorkspaceIndex, key: Path, proj: Project, state: _Libraries, read: list) -> tuple[dict, set]:
    """The project phase with the library modules `read`, and the compiled region it found."""
    if not read:
        by_path = index.diagnostics(key)  # the resolutions keep the region of the phase behind it
        return by_path, proj.resolutions.region.reached
    from tclint.analyzer.project import project_diagnostics
    from tclint.analyzer.resolutions import Resolutions

    if state.resolutions is None:
        state.resolutions = Resolutions()
    paths = frozenset(s.path for s in read)
    found = project_diagnostics([*proj.summaries.values(), *read], proj.settings, state.resolutions,
                                library=paths)
    by_path: dict[str, list] = {}
    for d in found:
        if d.path not in paths:  # e.g. a library's unused noqa
            by_path.setdefault(d.path, []).append(d)
    return by_path, state.resolutions.region.reached


def _walk(index: WorkspaceIndex, proj: Project, state: _Libraries, calling: list, reached: set) -> list:
    """The library modules' summaries that the compiled functions among `calling` lead to,
    round by round in the CLI's order, each read from disk once."""
    from tclint.analyzer.library_context import LibraryReader

    reader = LibraryReader(state.files, state.installed, state.own)
    out = []
    new = reader.next_round(calling, reached=reached)
    while new:
        found = [s for s in (_summary(index, proj, state, f) for f in new) if s is not None]
        out += found
        new = reader.next_round(found)
    return out


def _summary(index: WorkspaceIndex, proj: Project, state: _Libraries, f) -> Any:
    """A library module's summary: from disk the first time (or the summary cache), then kept."""
    path = str(f.path)
    if path not in state.summaries:
        state.summaries[path] = _summarize(index, proj, f)
    return state.summaries[path]


def _summarize(index: WorkspaceIndex, proj: Project, f) -> Any:
    from tclint.analyzer.cache import summary_key
    from tclint.analyzer.discovery import read_source

    try:
        data = read_source(f.path, proj.settings.max_file_size)
    except OSError:  # also NotASourceFile: the CLI leaves such a module out as well
        return None
    path = str(f.path)  # the server names files by their path, libraries' too
    cache = proj.summary_cache()
    key = summary_key(data, path, f.module, f.is_package) if cache is not None else None
    cached = cache.get(key) if cache is not None else None
    if cached is not None:
        return cached
    try:
        summary = index.pool.summarize(data, path, f.module, f.is_package)
    except SummaryFailed:
        return None
    if cache is not None:
        cache.put(key, summary)
    return summary


def _as_file(path: str, summary: Any):
    """A project file as the library reader takes it (the server names files by their path)."""
    from tclint.analyzer.discovery import SourceFile

    p = Path(path)
    return SourceFile(path=p, display=path, module=summary.module, is_package=p.name == "__init__.py")


def _same(before: dict[str, Any], now: dict[str, Any]) -> bool:
    return before.keys() == now.keys() and all(
        before[path] is summary or before[path] == summary for path, summary in now.items())
