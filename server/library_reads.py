"""Installed libraries that compiled code calls, read in the language server as the CLI reads
them (analyzer/library_context.py): a break inside a library is a TC227 at the user's call.

The server runs under the interpreter the editor picked (server/settings.py), so the
site-packages it looks in are the project's. Libraries do not change while one types: each
library module is read and summarized once (through the parse pool and the summary cache),
and what was looked up on disk is kept until what is installed changes. Each run walks,
round by round, from the project's compiled functions to the library modules they lead to,
over those kept summaries, so an edit reads no library file and a new call into a module not
read yet reads just that module. A project that calls no library found on disk takes the
workspace index's own project phase, unchanged.

Everything here runs on the analysis thread, as workspace_index.py does.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tclint.server.parse_pool import SummaryFailed
from tclint.server.workspace_index import Project, WorkspaceIndex


@dataclass
class _Libraries:
    """One project's libraries, kept between runs."""
    files_key: tuple = ()  # (path, module) of the project's files the reader below was made for
    reader_files: list = field(default_factory=list)  # those files, as the reader takes them
    installed: Any = None  # library_context.Installed for the folders below
    folders: list[Path] = field(default_factory=list)
    stamp: str | None = None  # library_context.site_stamp of those folders
    summaries: dict[str, Any] = field(default_factory=dict)  # library path -> FileSummary (None: unreadable)
    calls: dict[str, tuple[Any, bool]] = field(default_factory=dict)  # project path -> (summary, calls a library)
    resolutions: Any = None  # analyzer.resolutions.Resolutions of the phase with libraries
    last: tuple | None = None  # (settings, project summaries, stamp, findings by path) of that phase


_STATE: weakref.WeakKeyDictionary[WorkspaceIndex, dict[Path, _Libraries]] = weakref.WeakKeyDictionary()


def diagnostics(index: WorkspaceIndex, key: Path) -> dict[str, list]:
    """path -> analyzer Diagnostics for every file of the project, as WorkspaceIndex.diagnostics
    gives them, with the breaks inside the libraries the compiled code calls."""
    from tclint.analyzer.library_context import Installed, site_folders, site_stamp
    from tclint.server import heap

    proj = index.project(key)
    state = _STATE.setdefault(index, {}).setdefault(key, _Libraries())
    files_key = tuple((path, summary.module) for path, summary in proj.summaries.items())
    if files_key != state.files_key:
        state.files_key, state.reader_files = files_key, [_as_file(path, s) for path, s in proj.summaries.items()]
        state.calls = {}  # what is the project's own and what a library changed
        folders = site_folders(state.reader_files)
        if folders != state.folders:
            state.folders, state.installed = folders, Installed(folders)
    stamp = site_stamp(state.folders)
    if stamp != state.stamp:  # something was installed or removed: look again, read again
        state.stamp, state.installed = stamp, Installed(state.folders)
        state.summaries, state.calls, state.last = {}, {}, None
    last = state.last
    if last is not None and last[0] == proj.settings and _same(last[1], proj.summaries):
        return last[3]
    with heap.collector_off():
        libraries = _read(index, proj, state)
        if not libraries:
            state.last = None
            return index.diagnostics(key)
        from tclint.analyzer.project import project_diagnostics
        from tclint.analyzer.resolutions import Resolutions

        if state.resolutions is None:
            state.resolutions = Resolutions()
        paths = frozenset(s.path for s in libraries)
        found = project_diagnostics([*proj.summaries.values(), *libraries], proj.settings, state.resolutions,
                                    library=paths)
    by_path: dict[str, list] = {}
    for d in found:
        if d.path not in paths:  # e.g. a library's unused noqa
            by_path.setdefault(d.path, []).append(d)
    state.last = (proj.settings, dict(proj.summaries), stamp, by_path)
    return by_path


def _read(index: WorkspaceIndex, proj: Project, state: _Libraries) -> list:
    """The library modules' summaries the project's compiled code leads to, in the order the
    CLI reads them (round by round), each read from disk once."""
    from tclint.analyzer import regions
    from tclint.analyzer.library_context import LibraryReader
    from tclint.analyzer.resolutions import Resolutions

    reader = LibraryReader(state.reader_files, state.installed)
    summaries = list(proj.summaries.values())
    calls = False
    for path, summary in proj.summaries.items():
        known = state.calls.get(path)
        if known is None or known[0] is not summary:
            known = state.calls[path] = (summary, reader.calls_libraries([summary]))
        calls = calls or known[1]
    if not calls:
        return []
    # What the compiled code reaches without the libraries, as the CLI works it out: through
    # the project's kept resolutions, which the project phase without libraries uses too.
    if proj.resolutions is None:
        proj.resolutions = Resolutions()
    project_index = proj.resolutions.index(summaries)
    roots = regions.find_roots(project_index, proj.settings.assume_forward_compiled, list(proj.settings.roots))
    reached = set(regions.reach(project_index, roots))
    proj.resolutions.keep(project_index.name_caches())
    out = []
    new = reader.next_round(summaries, reached=reached)
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
