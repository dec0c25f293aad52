"""Cross-file state: one FileSummary per Python file of each project.

A project is a workspace folder (or, for a file outside every folder, that file's own
directory, without disk indexing). Its summaries come from disk at start-up and from
the editor's buffers while documents are open; linting a project re-runs the analyzer's
project phase over all of its cached summaries, so a change in one file updates the
findings in every file that depends on it.

Everything here runs on the server's single analysis thread: no locks, and the analyzer
is imported on first use, never at server start.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from tclint.server.parse_pool import ParsePool, SummaryFailed
from tclint.server.star_binding import StarBound, bind_star_names

log = logging.getLogger(__name__)


# Projects of at least this many files freeze what each project phase made (server/heap.py).
# A small one's kept resolutions cost the collector little, and freezing often would keep
# what later turns into cyclic garbage (an LSP session opens and closes many small projects).
SETTLED_PROJECT_FILES = 500


@dataclass
class Project:
    root: Path
    indexed: bool  # a workspace folder (walked on disk) or a loose directory
    settings: Any = None  # tclint.analyzer.config.Settings
    summaries: dict[str, Any] = field(default_factory=dict)  # path -> FileSummary
    buffers: set[str] = field(default_factory=set)  # paths whose summary is the editor's text
    skipped: dict[str, str] = field(default_factory=dict)  # path -> why it is not analyzed
    cache: Any = None  # SummaryCache for files read from disk (False: none)
    last_run: tuple | None = None  # (settings, summaries, findings by path) of the last project phase
    resolutions: Any = None  # analyzer.resolutions.Resolutions: name resolution kept between runs
    stars: StarBound = field(default_factory=StarBound)  # the names star imports bind (server/star_binding.py)

    def summary_cache(self) -> Any:
        """The CLI's content-hash cache of summaries, so a restart does not re-parse the tree."""
        if self.cache is None:
            from tclint.analyzer.cache import SummaryCache

            from tclint.analyzer.cache_folders import cache_folder

            self.cache = SummaryCache(cache_folder(self.settings, self.root)) if self.indexed else False
        return self.cache or None


class WorkspaceIndex:
    def __init__(self, pool: ParsePool | None = None) -> None:
        self.folders: list[Path] = []
        self.projects: dict[Path, Project] = {}
        self.pool = pool or ParsePool()  # files read from disk
        self.buffers = None  # editor buffers: BufferSummaries, made on first use

    def _buffers(self):
        if self.buffers is None:
            from tclint.server.buffer_summaries import BufferSummaries

            self.buffers = BufferSummaries(self.pool)
        return self.buffers

    # -- projects ---------------------------------------------------------------
    def set_folders(self, folders: list[Path]) -> None:
        self.folders = sorted({_resolve(f) for f in folders}, key=lambda p: len(p.parts), reverse=True)

    def project_key(self, path: str) -> Path:
        """The deepest workspace folder holding `path`, else the file's directory."""
        return project_key(self.folders, path)

    def project(self, key: Path) -> Project:
        proj = self.projects.get(key)
        if proj is None:
            proj = Project(root=key, indexed=key in self.folders)
            self.projects[key] = proj
        return proj

    # -- summaries --------------------------------------------------------------
    def set_buffer(self, path: str, text: str) -> str | None:
        """Summarize the editor's text of `path`; returns a notice when it is skipped."""
        from tclint.analyzer.discovery import module_name
        from tclint.analyzer.notebook import SUFFIX as NOTEBOOK_SUFFIX

        proj = self.project(self.project_key(path))
        proj.buffers.add(path)
        limit = proj.settings.max_file_size if proj.settings is not None else None
        data = text.encode("utf-8", errors="surrogatepass")
        if limit is not None and len(data) > limit:
            proj.summaries.pop(path, None)
            why = f"{path}: not analyzed, {len(data)} bytes is over max-file-size ({limit})"
            proj.skipped[path] = why
            return why
        p = Path(path)
        # As api.summarize_source names an in-memory document's module; a notebook's as
        # discovery names it, so that it never stands in for the module of its stem.
        module, is_package = module_name(p) if p.suffix in (".py", NOTEBOOK_SUFFIX) else (p.stem, False)
        # Edits re-analyze only the top-level statements they can change.
        try:
            proj.summaries[path] = self._buffers().summarize(text, path, module, is_package, proj.summary_cache())
            proj.stars.note(path, proj.summaries[path], text, module, is_package)
        except SummaryFailed as exc:
            proj.summaries.pop(path, None)
            proj.skipped[path] = str(exc)
            return str(exc)
        proj.skipped.pop(path, None)
        return None

    def revert_to_disk(self, path: str) -> str | None:
        """The document was closed: its summary comes from the file on disk again."""
        from tclint.analyzer.notebook import SUFFIX as NOTEBOOK_SUFFIX

        proj = self.project(self.project_key(path))
        proj.buffers.discard(path)
        proj.skipped.pop(path, None)
        if self.buffers is not None:
            self.buffers.forget(path)
        if not proj.indexed or path.endswith(NOTEBOOK_SUFFIX):  # the index holds no notebooks from disk
            proj.summaries.pop(path, None)
            return None
        return self.refresh_from_disk(path)

    def refresh_from_disk(self, path: str) -> str | None:
        """Re-read a file that changed on disk (unless the editor holds it open)."""
        from tclint.analyzer.config import DEFAULT_MAX_FILE_SIZE
        from tclint.analyzer.discovery import NotASourceFile, module_name, read_source

        proj = self.project(self.project_key(path))
        if path in proj.buffers:
            return None
        p = Path(path)
        try:
            data = read_source(p, proj.settings.max_file_size if proj.settings is not None else DEFAULT_MAX_FILE_SIZE)
        except NotASourceFile as exc:
            proj.summaries.pop(path, None)
            return f"{path}: {exc}"
        except FileNotFoundError:
            proj.summaries.pop(path, None)
            return None
        except OSError as exc:
            proj.summaries.pop(path, None)
            return f"{path}: cannot read: {exc.strerror or exc}"
        module, is_package = module_name(p.resolve())
        cache = proj.summary_cache()
        key = None
        if cache is not None:
            from tclint.analyzer.cache import summary_key

            key = summary_key(data, path, module, is_package)
            cached = cache.get(key)
            if cached is not None:
                proj.summaries[path] = cached
                proj.stars.note(path, cached, data, module, is_package)
                return None
        try:
            summary = self.pool.summarize(data, path, module, is_package)
        except SummaryFailed as exc:
            proj.summaries.pop(path, None)
            return str(exc)
        proj.summaries[path] = summary
        proj.stars.note(path, summary, data, module, is_package)
        if cache is not None:
            cache.put(key, summary)
        return None

    def index_project(self, key: Path, progress: Callable[[int, int], None] | None = None,
                      cancelled: Callable[[], bool] | None = None, done: set[str] | None = None) -> list[str]:
        """Summarize every Python file of a workspace folder, as the CLI would find them.
        `done`: the paths earlier calls indexed before they were cancelled, skipped here (and
        this call's added), so that indexing can go on in steps."""
        from tclint.analyzer.discovery import discover

        proj = self.project(key)
        files, notices = discover([key], proj.settings)
        if done:
            notices = []  # the first step reported them
        files = [f for f in files if f.path.suffix == ".py"]  # notebooks: only while open in the editor
        total = len(files)
        for i, f in enumerate(files):
            if cancelled is not None and cancelled():
                break
            path = str(f.path)
            if path in proj.buffers or (done is not None and path in done):
                continue
            if done is not None:
                done.add(path)
            try:
                notice = self.refresh_from_disk(path)
            except Exception as exc:  # the analyzer promises not to raise; be safe anyway
                log.exception("indexing %s failed", path)
                notice = f"{path}: internal error while indexing: {exc!r}"
            if notice:
                notices.append(notice)
            if progress is not None:
                progress(i + 1, total)
        else:  # every file is indexed: the summaries stay out of the collector's full passes
            from tclint.server import heap

            heap.settle()
        return notices

    # -- the project phase ------------------------------------------------------
    def diagnostics(self, key: Path) -> dict[str, list]:
        """path -> analyzer Diagnostics, for every file of the project."""
        from tclint.analyzer.api import project_diagnostics

        proj = self.project(key)
        bind_star_names(proj, self.pool)
        last = proj.last_run
        if last is not None and last[0] == proj.settings and _same_summaries(last[1], proj.summaries,
                                                                             proj.resolutions, proj.settings):
            return last[2]  # the project phase is a function of these two: its findings stand
        if proj.resolutions is None:
            from tclint.analyzer.resolutions import Resolutions

            proj.resolutions = Resolutions()
        from tclint.server import heap

        summaries = list(proj.summaries.values())
        # A big project's kept resolutions and findings stay out of the collector's passes
        # (on transformers/models they halved an edit's project phase).
        with heap.kept_out() if len(summaries) >= SETTLED_PROJECT_FILES else heap.collector_off():
            found = project_diagnostics(summaries, proj.settings, proj.resolutions)
        by_path: dict[str, list] = {}
        for d in found:
            by_path.setdefault(d.path, []).append(d)
        proj.last_run = (proj.settings, dict(proj.summaries), by_path)
        return by_path


def _same_summaries(before: dict[str, Any], now: dict[str, Any], resolutions: Any, settings: Any) -> bool:
    """Whether every file's summary is the one (or equal to the one) of the last run, or
    differs from it in nothing the project phase reads (analyzer/project_effect.py): an
    edit inside a function body that changes no call, finding or span leaves it equal.
    `before` stays the last run's, which the kept tables of `resolutions` were built from.
    Roots named in the settings are looked up outside what the kept reads record: with them,
    no edit is judged by what the last run read."""
    if before.keys() != now.keys():
        return False
    changed = [path for path, summary in now.items() if before[path] is not summary and before[path] != summary]
    if not changed:
        return True
    if resolutions is None or resolutions.tables.tables is None or len(changed) > 1:
        return False
    from tclint.analyzer.project_effect import same_in_effect

    path = changed[0]
    return same_in_effect(before[path], now[path], list(before.values()), resolutions.tables.tables,
                          resolutions.names, resolutions.arg_receivers.last,
                          None if settings is not None and settings.roots else resolutions.read)


def project_key(folders: list[Path], path: str) -> Path:
    p = Path(path)
    for folder in folders:  # deepest first
        try:
            p.relative_to(folder)
            return folder
        except ValueError:
            continue
    return p.parent


def _resolve(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def normalize_path(path: str) -> str:
    """The one spelling of a file's path used as a key everywhere (symlinks resolved)."""
    return str(_resolve(Path(path)))
