"""The tclint language server: pygls LanguageServer, state, and feature registration.

Start-up imports only pygls and lsprotocol; the analyzer is imported on the analysis
thread the first time something is linted (never torch).
"""
from __future__ import annotations

import asyncio
import logging
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Hashable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from tclint.server import code_actions as actions_mod
from tclint.server import conversions
from tclint.server import confirm as confirm_mod
from tclint.server.hover import build_hover, contains, rule_hover, suppression_code_at
from tclint.server.lint_run import DocResult, OpenDocument, RunResult, Snapshot, analyze
from tclint.server.scheduler import Scheduler
from tclint.server.settings import ClientSettings, parse_client_settings, unwrap
from tclint.server.workspace_index import WorkspaceIndex, normalize_path, project_key

log = logging.getLogger(__name__)

NAME = "tclint"
CONFIG_FILES = ("pyproject.toml", "tclint.toml")
PULL_WAIT_S = 60.0
# Jupyter notebooks' Python cells come in notebookDocument/* notifications (LSP 3.17).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[types.NotebookDocumentFilterWithCells(
        notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")])],
    save=True,
)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("tclint")
    except Exception:  # noqa: BLE001
        return "0"


class TclintLanguageServer(LanguageServer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(NAME, _version(), *args, notebook_document_sync=NOTEBOOK_SYNC, **kwargs)
        self.docs: dict[str, OpenDocument] = {}
        self.results: dict[str, DocResult] = {}
        self.published: dict[str, tuple[int, list]] = {}  # uri -> (version, diagnostics) sent
        self.waiters: dict[str, list[asyncio.Future]] = {}
        self.index = WorkspaceIndex()
        self.folders: list[Path] = []
        self.client_settings = ClientSettings()  # without a folder (and the default)
        self.folder_settings: dict[Path, ClientSettings] = {}  # scoped to a workspace folder
        self.folder_uris: dict[Path, str] = {}
        self.init_options: dict = {}
        self.init_folder_options: dict[Path, dict] = {}
        self._settling: asyncio.Future | None = None  # set while settings are being reloaded
        self.pull_mode = False
        self.refresh_support = False
        self.encoding = types.PositionEncodingKind.Utf16.value
        self.pending_reverts: dict[Path, list[str]] = {}
        self.pending_disk: dict[Path, list[str]] = {}
        self.shown_errors: set[str] = set()
        self._progress_counter = 0
        self.scheduler = Scheduler(self._snapshot, self._analyze, self._apply, self._run_failed)
        # Confirm with Dynamo: its own thread (examples run for minutes), one run at a time.
        self.confirmations = confirm_mod.ConfirmStore()
        self._trace_stamps: dict[Path, int] = {}  # project -> mtime of the trace file last shown
        self.confirm_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tclint-confirm")
        self.confirm_running: str | None = None  # what the run in progress confirms

    # -- logging ------------------------------------------------------------------
    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        log.info(message)
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001 - no transport yet / closed
            pass

    def problem(self, message: str) -> None:
        """An internal error goes to the log; a user's problem (bad config) is also shown."""
        if "internal error" in message:
            self.log(message, types.MessageType.Error)
        else:
            self.show(message if message.startswith("tclint") else f"tclint: {message}")

    def show(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        if message in self.shown_errors:
            self.log(message, kind)
            return
        self.shown_errors.add(message)
        self.log(message, kind)
        try:
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001
            pass

    # -- capabilities -----------------------------------------------------------------
    def client_supports(self, *path: str) -> Any:
        node: Any = self.client_capabilities
        for name in path:
            node = getattr(node, name, None)
            if node is None:
                return None
        return node

    def on_initialize(self, params: types.InitializeParams) -> None:
        self.pull_mode = self.client_supports("text_document", "diagnostic") is not None
        self.refresh_support = bool(self.client_supports("workspace", "diagnostics", "refresh_support"))
        self.encoding = conversions.encoding_name(self.workspace.position_encoding)
        uris = [f.uri for f in (params.workspace_folders or [])]
        if not uris and params.root_uri:
            uris = [params.root_uri]
        elif not uris and params.root_path:
            uris = [Path(params.root_path).absolute().as_uri()]
        self.set_folder_uris(uris)
        raw = params.initialization_options
        options = unwrap(raw)
        if isinstance(options, dict):
            self.init_options = options
            self.client_settings = parse_client_settings(options)
        # vscode-extension style: {"settings": {...}, "workspaceSettings": [{"workspace": uri, ...}]}
        per_folder = raw.get("workspaceSettings") if isinstance(raw, dict) else None
        for entry in per_folder if isinstance(per_folder, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("workspace"), str):
                path = conversions.uri_to_path(entry["workspace"])
                if path:
                    key = Path(normalize_path(path))
                    self.init_folder_options[key] = entry
                    self.folder_settings[key] = parse_client_settings(entry)

    def set_folder_uris(self, uris: list[str]) -> None:
        self.folder_uris = {}
        for uri in uris:
            path = conversions.uri_to_path(uri)
            if path:
                self.folder_uris[Path(normalize_path(path))] = uri
        self.set_folders(list(self.folder_uris))

    def settings_for(self, key: Path) -> ClientSettings:
        """The editor's settings that apply to a project (its folder's, else the global ones)."""
        return self.folder_settings.get(key, self.client_settings)

    def set_folders(self, folders: list[Path]) -> None:
        self.folders = [Path(normalize_path(str(f))) for f in folders]
        self.folders.sort(key=lambda p: len(p.parts), reverse=True)

    def key_for(self, path: str) -> Path:
        return project_key(self.folders, path)


    # -- documents -------------------------------------------------------------------
    def open_document(self, uri: str, version: int, language_id: str = "python") -> None:
        path = conversions.uri_to_path(uri)
        if path is None:
            if language_id != "python":
                return
            # An unsaved buffer: linted on its own, under a stand-in path.
            path = conversions.unsaved_path(uri)
        elif language_id != "python" and not path.endswith((".py", ".pyi")):
            return
        else:
            path = normalize_path(path)
        key = self.key_for(path)
        self.docs[uri] = OpenDocument(uri=uri, path=path, version=version or 0, key=key)
        self.lint(key, 0.0)

    def change_document(self, uri: str, version: int) -> None:
        doc = self.docs.get(uri)
        if doc is None:
            return
        doc.version = version
        doc.dirty = True
        settings = self.settings_for(doc.key)
        if settings.lint_on_change:
            self.lint(doc.key, settings.debounce_ms / 1000.0)

    def save_document(self, uri: str) -> None:
        doc = self.docs.get(uri)
        if doc is None:
            return
        doc.dirty = True
        self.lint(doc.key, 0.0)
        settings = self.settings_for(doc.key)
        if settings.confirm_on_save and settings.confirm_enabled and self.confirm_running is None:
            asyncio.get_running_loop().create_task(self.confirm_command(uri, workspace=False, quiet=True))

    def close_document(self, uri: str) -> None:
        doc = self._forget(uri)
        if doc is None:
            return
        self.pending_reverts.setdefault(doc.key, []).append(doc.path)
        self.lint(doc.key, 0.0)

    def _forget(self, uri: str) -> OpenDocument | None:
        """Stop following a document: its diagnostics are cleared, waiting pulls answered."""
        doc = self.docs.pop(uri, None)
        self.results.pop(uri, None)
        for fut in self.waiters.pop(uri, []):
            if not fut.done():
                fut.set_result(None)
        if doc is not None and self.pushes(doc):
            self.published.pop(uri, None)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        return doc

    def pushes(self, doc: OpenDocument) -> bool:
        """Whether `doc`'s diagnostics are published. Notebook cells always are: VS Code's
        client (vscode-languageclient 9) never pulls them."""
        return not self.pull_mode or doc.cell is not None

    # -- notebooks: each Python code cell is an OpenDocument with the notebook's path ------
    def notebook_changed(self, uri: str, typing: bool = False) -> None:
        """Notebook `uri` was opened, edited (`typing`), saved or closed: match its documents to
        its Python code cells now (none once closed) and lint it, like a text document."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        path = conversions.uri_to_path(uri)
        path = normalize_path(path) if path else conversions.unsaved_path(uri)
        key = self.key_for(path)
        cells = [c.document for c in (notebook.cells if notebook is not None else [])
                 if c.kind == types.NotebookCellKind.Code
                 and self.workspace.get_text_document(c.document).language_id == "python"]
        gone = [self._forget(u) for u, d in list(self.docs.items())
                if d.cell is not None and d.path == path and u not in cells]
        for number, cell in enumerate(cells, 1):
            # All dirty: an edit in one cell moves the lines of the next ones in the module.
            version = self.workspace.get_text_document(cell).version or 0
            self.docs[cell] = OpenDocument(uri=cell, path=path, version=version, key=key, cell=number)
        if not cells and gone:
            self.pending_reverts.setdefault(key, []).append(path)  # the project forgets its module
        if not cells and not gone:
            return
        settings = self.settings_for(key)
        if not typing:
            self.lint(key, 0.0)
        elif settings.lint_on_change:
            self.lint(key, settings.debounce_ms / 1000.0)

    def files_changed_on_disk(self, paths: list[str]) -> None:
        keys = set()
        open_paths = {d.path for d in self.docs.values()}
        for p in paths:
            p = normalize_path(p)
            if p in open_paths:
                continue
            key = self.key_for(p)
            self.pending_disk.setdefault(key, []).append(p)
            keys.add(key)
        for key in keys:
            self.lint(key, self.settings_for(key).debounce_ms / 1000.0)

    def lint(self, key: Path, delay: float) -> None:
        self.scheduler.schedule(key, delay)

    # -- the run: snapshot (loop) -> analyze (thread) -> apply (loop) -----------------------
    def _snapshot(self, key: Hashable) -> Snapshot | None:
        changed: dict[str, str | None] = {}
        open_docs: dict[str, tuple[str, int, str]] = {}
        cells: list[tuple[int, str, str]] = []
        for doc in self.docs.values():
            if doc.key != key:
                continue
            text = self.workspace.get_text_document(doc.uri).source
            open_docs[doc.uri] = (doc.path, doc.version, text)
            if doc.cell is not None:
                cells.append((doc.cell, doc.uri, doc.path))
            if doc.dirty:
                changed[doc.path] = text if doc.cell is None else None
                doc.dirty = False
        notebooks: dict[str, list[str]] = {}
        for _, uri, path in sorted(cells):
            notebooks.setdefault(path, []).append(uri)
        reverted = self.pending_reverts.pop(key, [])
        disk = self.pending_disk.pop(key, [])
        return Snapshot(key=key, encoding=self.encoding, changed=changed, reverted=reverted,
                        disk=disk, open_docs=open_docs, notebooks=notebooks)

    def _ensure_settings(self, key: Path, errors: list[str]) -> None:
        """Settings for a project, resolved on the analysis thread the first time it is seen."""
        proj = self.index.project(key)
        if proj.settings is None:
            from tclint.server.settings import resolve

            proj.settings, problems = resolve(self.anchor_for(key), self.settings_for(key))
            errors.extend(problems)

    def anchor_for(self, key: Path) -> Path:
        """Where settings are looked up for a project (unsaved buffers: the first folder)."""
        if str(key) == conversions.UNTITLED_DIR and self.folders:
            return self.folders[-1]
        return key

    def _analyze(self, snap: Snapshot, superseded) -> RunResult | None:
        """On the analysis thread (see lint_run.analyze)."""
        self.index.set_folders(self.folders)
        key = snap.key
        show_refuted = self.settings_for(key).confirm_show_refuted

        def selected(code: str) -> bool:
            from tclint.analyzer.selection import is_selected

            settings = self.index.project(key).settings
            return settings is None or is_selected(code, settings)

        def overlay(path: str, findings: list, text: str | None) -> list:
            return self.confirmations.overlay(key, path, findings, text, show_refuted, selected)

        self._load_saved_trace(key)
        return analyze(self.index, snap, superseded, self._ensure_settings, overlay)

    def _load_saved_trace(self, key: Path) -> None:
        """Verdicts `tclint trace` saved for this project, when that file is new or changed."""
        from tclint.analyzer.confirm import saved_results

        settings = self.index.project(key).settings
        base = settings.base_dir if settings is not None and settings.source is not None else key
        path = base / saved_results.TRACE_FILE
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return
        if self._trace_stamps.get(key) == stamp:
            return
        self._trace_stamps[key] = stamp
        hashes, diagnostics = saved_results.load(path, self.log)
        if diagnostics:
            self.confirmations.put(key, hashes, {}, diagnostics)
            self.log(f"tclint: showing Dynamo's verdicts from {path}")

    def _apply(self, run: RunResult) -> None:
        for message in run.errors:
            self.problem(message)
        for notice in run.notices:
            self.log(notice, types.MessageType.Info)
        others_changed = False
        for uri, res in run.results.items():
            doc = self.docs.get(uri)
            if doc is None or doc.version != res.version:
                continue  # superseded by an edit made while this run was going on
            previous = self.results.get(uri)
            self.results[uri] = res
            changed = previous is None or previous.lsp != res.lsp
            if not self.pushes(doc):
                for fut in self.waiters.pop(uri, []):
                    if not fut.done():
                        fut.set_result(res)
                if changed and previous is not None and uri not in run.changed_uris:
                    others_changed = True
            elif self.published.get(uri) != (res.version, res.lsp):
                # New findings, or a new version of the text (even with the same findings:
                # the client learns that its latest edit was analyzed).
                self.published[uri] = (res.version, res.lsp)
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=res.lsp, version=res.version)
                )
        if others_changed and self.refresh_support:
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:  # noqa: BLE001
                log.exception("workspace/diagnostic/refresh failed")

    def _run_failed(self, key: Hashable, exc: BaseException) -> None:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.log(f"tclint: internal error while linting {key}:\n{text}", types.MessageType.Error)
        # Nobody may wait forever on a run that failed: answer with what we have.
        for doc in self.docs.values():
            if doc.key == key:
                for fut in self.waiters.pop(doc.uri, []):
                    if not fut.done():
                        fut.set_result(self.results.get(doc.uri))

    # -- pull diagnostics ---------------------------------------------------------------
    async def document_diagnostics(self, uri: str, previous_result_id: str | None):
        if self._settling is not None and not self._settling.done():
            await asyncio.shield(self._settling)
        doc = self.docs.get(uri)
        if doc is not None and doc.cell is not None:
            # Pushed (see `pushes`): answering here too would show each finding twice.
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        res = self.results.get(uri)
        if doc is not None and (
            res is None
            or self.scheduler.pending(doc.key)
            or (self.settings_for(doc.key).lint_on_change and res.version != doc.version)
        ):
            # Wait for the run that covers the current text of every file of the project.
            fut = asyncio.get_running_loop().create_future()
            self.waiters.setdefault(uri, []).append(fut)
            if not self.scheduler.pending(doc.key):
                self.lint(doc.key, 0.0)
            else:
                self.scheduler.expedite(doc.key)
            try:
                res = await asyncio.wait_for(asyncio.shield(fut), PULL_WAIT_S)
            except asyncio.TimeoutError:  # a very slow run: answer with what we have
                self.log(f"tclint: diagnostics for {uri} took over {PULL_WAIT_S}s", types.MessageType.Warning)
                res = self.results.get(uri)
        if res is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if previous_result_id is not None and previous_result_id == res.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=res.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=res.lsp, result_id=res.result_id)

    # -- findings under a position / range ----------------------------------------------
    def findings_at(self, uri: str, rng: types.Range) -> list[tuple[Any, types.Diagnostic]]:
        res = self.results.get(uri)
        if res is None:
            return []
        start = (rng.start.line, rng.start.character)
        end = (rng.end.line, rng.end.character)
        found = []
        for d, lsp in zip(res.findings, res.lsp):
            r = lsp.range
            if (r.start.line, r.start.character) <= end and start <= (r.end.line, r.end.character):
                found.append((d, lsp))
        return found

    def document_lines(self, uri: str) -> list[str]:
        return conversions.split_lines(self.workspace.get_text_document(uri).source)

    # -- configuration -----------------------------------------------------------------
    async def load_configuration(self, pushed: Any = None) -> None:
        """Client settings: workspace/configuration when the client has it, else what was pushed."""
        raw = unwrap(pushed)
        scoped: dict[Path, Any] = {}
        if self.client_supports("workspace", "configuration"):
            folders = list(self.folder_uris.items())
            items = [types.ConfigurationItem(section="tclint")]
            items += [types.ConfigurationItem(scope_uri=uri, section="tclint") for _, uri in folders]
            try:
                result = await asyncio.wait_for(
                    self.workspace_configuration_async(types.ConfigurationParams(items=items)), 10
                )
                result = list(result or [])
                if result and result[0] is not None:
                    raw = result[0]
                for (key, _), value in zip(folders, result[1:]):
                    if isinstance(value, dict):
                        scoped[key] = value
            except Exception as exc:  # noqa: BLE001
                self.log(f"tclint: workspace/configuration failed: {exc!r}", types.MessageType.Warning)
        if isinstance(raw, dict):
            self.client_settings = parse_client_settings({**self.init_options, **unwrap(raw)})
            if pushed is not None and not self.client_supports("workspace", "configuration"):
                self.folder_settings.clear()  # pushed settings apply everywhere
        for key, value in scoped.items():
            base = self.init_folder_options.get(key, self.init_options)
            self.folder_settings[key] = parse_client_settings({**base, **unwrap(value)})

    async def settings_changed(self, pushed: Any = None, initial: bool = False) -> None:
        settling = asyncio.get_running_loop().create_future()
        self._settling = settling
        try:
            before = (self.client_settings, dict(self.folder_settings))
            await self.load_configuration(pushed)
            after = (self.client_settings, self.folder_settings)
            if not initial or (after != before and self.docs):
                await self.reresolve_settings()
        finally:
            if not settling.done():
                settling.set_result(None)

    async def reresolve_settings(self) -> None:
        keys = {d.key for d in self.docs.values()} | set(self.folders)

        def work() -> list[str]:
            from tclint.server.settings import resolve

            errors: list[str] = []
            for key in keys | set(self.index.projects):
                proj = self.index.project(key)
                proj.settings, problems = resolve(self.anchor_for(key), self.settings_for(key))
                proj.cache = None  # cache-dir may have changed
                errors.extend(problems)
            return errors

        try:
            errors = await self.scheduler.submit(work)
        except Exception as exc:  # noqa: BLE001
            errors = [f"tclint: cannot resolve settings: {exc!r}"]
        if not errors:
            self.shown_errors.clear()  # fixed: show the next problem again
        for message in dict.fromkeys(errors):
            self.problem(message)
        for key in {d.key for d in self.docs.values()}:
            for doc in self.docs.values():
                if doc.key == key:
                    doc.dirty = True  # max-file-size may have changed
            self.lint(key, 0.0)

    # -- workspace indexing ----------------------------------------------------------
    async def index_workspace(self) -> None:
        folders = list(self.folders)
        if not folders:
            return
        token = None
        if self.client_supports("window", "work_done_progress"):
            self._progress_counter += 1
            token = f"tclint-index-{self._progress_counter}"
            try:
                await asyncio.wait_for(self.work_done_progress.create_async(token), 10)
                self.work_done_progress.begin(token, types.WorkDoneProgressBegin(
                    title="tclint: indexing", message="finding Python files", percentage=0, cancellable=False))
            except Exception as exc:  # noqa: BLE001
                self.log(f"tclint: no progress reporting: {exc!r}")
                token = None
        loop = asyncio.get_running_loop()
        last = [-1]

        def progress(done: int, total: int) -> None:
            pct = int(done * 100 / total) if total else 100
            if token is None or pct == last[0]:
                return
            last[0] = pct
            loop.call_soon_threadsafe(self._report_progress, token, f"{done}/{total} files", pct)

        def work() -> tuple[int, list[str], list[str]]:
            errors: list[str] = []
            notices: list[str] = []
            count = 0
            self.index.set_folders(self.folders)
            for key in folders:
                try:
                    self._ensure_settings(key, errors)
                    notices.extend(self.index.index_project(key, progress, lambda: self.scheduler.closed))
                    count += len(self.index.project(key).summaries)
                except Exception:  # noqa: BLE001
                    errors.append(f"tclint: internal error while indexing {key}:\n{traceback.format_exc()}")
            return count, notices, errors

        try:
            count, notices, errors = await self.scheduler.submit(work)
        except Exception as exc:  # noqa: BLE001
            count, notices, errors = 0, [], [f"tclint: internal error while indexing: {exc!r}"]
        for message in dict.fromkeys(errors):
            self.problem(message)
        for notice in notices:
            self.log(notice, types.MessageType.Info)
        if token is not None:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=f"{count} files"))
        self.log(f"tclint: indexed {count} Python files in {len(folders)} folder(s)", types.MessageType.Info)
        for key in {d.key for d in self.docs.values()}:
            self.lint(key, 0.0)

    # -- confirm with Dynamo ---------------------------------------------------------------
    async def confirm_command(self, uri: str | None, workspace: bool, quiet: bool = False) -> dict | None:
        """tclint.confirmFile (a document URI) / tclint.confirmWorkspace (none, or a folder URI)."""
        if workspace:
            path = conversions.uri_to_path(uri) if uri else None
            under = None
            if path:
                path = normalize_path(path)
                key = self.key_for(path) if Path(path) not in self.folders else Path(path)
                if Path(path) != key and Path(path).is_dir():
                    under = path  # a folder inside a project: its example modules only
                keys = [key]
            else:
                keys = list(self.folders) or sorted({d.key for d in self.docs.values()})
            only = None
        else:
            under = None
            doc = self.docs.get(uri) if uri else None
            path = doc.path if doc is not None else (conversions.uri_to_path(uri) if uri else None)
            if not path or path.startswith(conversions.UNTITLED_DIR) or (doc is not None and doc.cell is not None):
                self._message("tclint: confirm needs a saved Python file.", types.MessageType.Error)
                return None
            path = normalize_path(path)
            keys = [doc.key if doc is not None else self.key_for(path)]
            only = path
        if not keys:
            self._message("tclint: no workspace folder to confirm.", types.MessageType.Error)
            return None
        if not all(self.settings_for(k).confirm_enabled for k in keys):
            self._message(confirm_mod.DISABLED_MESSAGE, types.MessageType.Error)
            return {"ran": False, "reason": "disabled"}
        if self.confirm_running is not None:
            if not quiet:
                self._message(f"tclint: a confirmation is already running ({self.confirm_running}).",
                              types.MessageType.Warning)
            return {"ran": False, "reason": "busy"}
        self.confirm_running = Path(only).name if only else "workspace"
        token = None
        cancel = threading.Event()
        try:
            if self.client_supports("window", "work_done_progress"):
                self._progress_counter += 1
                token = f"tclint-confirm-{self._progress_counter}"
                try:
                    await asyncio.wait_for(self.work_done_progress.create_async(token), 10)
                    self.work_done_progress.begin(token, types.WorkDoneProgressBegin(
                        title="tclint: confirming graph breaks with Dynamo", message=self.confirm_running,
                        percentage=0, cancellable=True))
                    fut = self.work_done_progress.tokens.get(token)
                    if fut is not None:
                        fut.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
                except Exception as exc:  # noqa: BLE001
                    self.log(f"tclint: no progress reporting: {exc!r}")
                    token = None
            results = []
            for key in keys:
                if cancel.is_set():
                    break
                outcome = await self._confirm_project(key, only, under, token, cancel)
                if outcome is not None:
                    results.append(outcome)
            cancelled = cancel.is_set() or self.scheduler.closed
            if token is not None:
                self.work_done_progress.end(token, types.WorkDoneProgressEnd(
                    message="cancelled" if cancelled else "done"))
        finally:
            self.confirm_running = None
        if cancelled:
            self.log("tclint: confirmation cancelled; its results were dropped", types.MessageType.Info)
            return {"ran": False, "reason": "cancelled"}
        cases = []
        for outcome in results:
            changed = self.confirmations.put(outcome.key, outcome.hashes, outcome.all_cases, outcome.merged)
            for case in outcome.cases:
                self.log(confirm_mod.case_line(case, outcome.python), types.MessageType.Info)
                cases.append({"module": case.module, "name": case.name, "status": case.status,
                              "breaks": len(case.breaks), "recompiles": len(case.recompiles)})
            # Republish: the next run of the project lays the results over its findings.
            for key in {d.key for d in self.docs.values() if d.key == outcome.key or d.path in changed}:
                self.lint(key, 0.0)
        modules = [m for o in results for m in o.modules]
        if not modules:
            message = ("tclint: no example module to run: define tclint_examples() in a module "
                       "(see 'Confirm with Dynamo' in tclint's README).")
            if quiet:
                self.log(message, types.MessageType.Info)
            else:
                self._message(message, types.MessageType.Warning)
        elif not quiet:
            for outcome in results:
                self._message(confirm_mod.summary(outcome), types.MessageType.Info)
        return {"ran": True, "modules": modules, "cases": cases}

    async def _confirm_project(self, key: Path, only: str | None, under: str | None, token: str | None,
                               cancel: threading.Event) -> confirm_mod.ConfirmOutcome | None:
        settings = self.settings_for(key)

        def static_work():
            errors: list[str] = []
            self.index.set_folders(self.folders)
            self._ensure_settings(key, errors)
            proj = self.index.project(key)
            if not proj.summaries and proj.indexed:
                self.index.index_project(key)
            by_path = self.index.diagnostics(key)
            return proj.settings, [d for ds in by_path.values() for d in ds]

        try:
            project_settings, static = await self.scheduler.submit(static_work)
        except Exception:  # noqa: BLE001
            self.log(f"tclint: internal error before confirming {key}:\n{traceback.format_exc()}",
                     types.MessageType.Error)
            return None
        req = confirm_mod.ConfirmRequest(key=key, settings=project_settings, python=settings.confirm_python,
                                         device=settings.confirm_device, timeout=settings.confirm_timeout,
                                         only=only, under=under)
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int, name: str) -> None:
            if token is not None:
                loop.call_soon_threadsafe(self._report_progress, token, f"{done}/{total} modules: {name}",
                                          int(done * 100 / total) if total else 100)

        def cancelled() -> bool:
            return cancel.is_set() or self.scheduler.closed

        try:
            return await loop.run_in_executor(self.confirm_executor, confirm_mod.run_confirm, req, static,
                                              self.confirmations, progress, cancelled)
        except Exception:  # noqa: BLE001
            self.log(f"tclint: internal error while confirming {key}:\n{traceback.format_exc()}",
                     types.MessageType.Error)
            self._message("tclint: confirming failed; see the tclint output.", types.MessageType.Error)
            return None

    def _message(self, message: str, kind: types.MessageType) -> None:
        """window/showMessage every time (unlike `show`, which shows a message once)."""
        self.log(message, kind)
        try:
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001
            pass

    def _report_progress(self, token: str, message: str, pct: int) -> None:
        try:
            self.work_done_progress.report(token, types.WorkDoneProgressReport(message=message, percentage=pct))
        except Exception:  # noqa: BLE001
            pass

    async def register_watchers(self) -> None:
        if not self.client_settings.watch_files:
            return
        if not self.client_supports("workspace", "did_change_watched_files", "dynamic_registration"):
            return
        watchers = [types.FileSystemWatcher(glob_pattern="**/*.py")]
        watchers += [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
        registration = types.Registration(
            id="tclint-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            await asyncio.wait_for(
                self.client_register_capability_async(types.RegistrationParams(registrations=[registration])), 10
            )
        except Exception as exc:  # noqa: BLE001
            self.log(f"tclint: cannot watch files: {exc!r}", types.MessageType.Warning)


def _uri_argument(args: tuple) -> str | None:
    """A command's URI argument: a string, `{"uri": ...}` or a one-element list of either."""
    value: Any = args[0] if args else None
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("uri") or value.get("external")
    return value if isinstance(value, str) else None


def create_server() -> TclintLanguageServer:
    server = TclintLanguageServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: TclintLanguageServer, params: types.InitializeParams) -> None:
        ls.on_initialize(params)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: TclintLanguageServer, params: types.InitializedParams) -> None:
        # Documents opened meanwhile were linted with the old settings: settings_changed
        # re-resolves when the client's settings differ.
        await ls.settings_changed(initial=True)
        ls.log(
            f"tclint {ls.version}: {'pull' if ls.pull_mode else 'push'} diagnostics, "
            f"{ls.encoding} positions, folders: {', '.join(map(str, ls.folders)) or 'none'}",
            types.MessageType.Info,
        )
        await ls.register_watchers()
        await ls.index_workspace()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TclintLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        ls.open_document(doc.uri, doc.version, doc.language_id)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TclintLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.change_document(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TclintLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.save_document(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TclintLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.close_document(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: TclintLanguageServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.notebook_changed(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: TclintLanguageServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.notebook_changed(params.notebook_document.uri, typing=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: TclintLanguageServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.notebook_changed(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: TclintLanguageServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.notebook_changed(params.notebook_document.uri)  # pygls has dropped it: its cells are cleared

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def diagnostic(ls: TclintLanguageServer, params: types.DocumentDiagnosticParams):
        return await ls.document_diagnostics(params.text_document.uri, params.previous_result_id)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: TclintLanguageServer, params: types.HoverParams) -> types.Hover | None:
        pos = params.position
        found = [(d, lsp) for d, lsp in ls.findings_at(params.text_document.uri, types.Range(start=pos, end=pos))
                 if contains(lsp.range, pos)]
        formats = ls.client_supports("text_document", "hover", "content_format") or []
        markdown = not formats or types.MarkupKind.Markdown in formats
        try:
            if not found:
                lines = ls.document_lines(params.text_document.uri)
                line = lines[pos.line] if pos.line < len(lines) else ""
                code = suppression_code_at(line, pos.character)
                return rule_hover(code, markdown) if code else None
            return build_hover(found, markdown)
        except Exception:  # noqa: BLE001
            ls.log(f"tclint: hover failed:\n{traceback.format_exc()}", types.MessageType.Error)
            return None

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, actions_mod.FIX_ALL_KIND],
            resolve_provider=False,
        ),
    )
    def code_action(ls: TclintLanguageServer, params: types.CodeActionParams):
        uri = params.text_document.uri
        res = ls.results.get(uri)
        if res is None:
            return None
        try:
            literal = ls.client_supports("text_document", "code_action", "code_action_literal_support") is not None
            return actions_mod.code_actions(
                uri,
                ls.findings_at(uri, params.range),
                list(zip(res.findings, res.lsp)),
                params.context.only,
                ls.document_lines(uri),
                ls.encoding,
                literal,
            ) or None
        except Exception:  # noqa: BLE001
            ls.log(f"tclint: code actions failed:\n{traceback.format_exc()}", types.MessageType.Error)
            return None

    @server.command(actions_mod.OPEN_DOC_COMMAND)
    async def open_documentation(ls: TclintLanguageServer, *args: Any) -> bool:
        url = args[0] if args else None
        if isinstance(url, list):
            url = url[0] if url else None
        if not isinstance(url, str):
            return False
        if ls.client_supports("window", "show_document", "support"):
            result = await ls.window_show_document_async(types.ShowDocumentParams(uri=url, external=True))
            if result is not None and result.success:
                return True
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=f"Documentation: {url}"))
        return True

    @server.command(confirm_mod.CONFIRM_FILE_COMMAND)
    async def confirm_file(ls: TclintLanguageServer, *args: Any) -> dict | None:
        return await ls.confirm_command(_uri_argument(args), workspace=False)

    @server.command(confirm_mod.CONFIRM_WORKSPACE_COMMAND)
    async def confirm_workspace(ls: TclintLanguageServer, *args: Any) -> dict | None:
        return await ls.confirm_command(_uri_argument(args), workspace=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: TclintLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        await ls.settings_changed(params.settings)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: TclintLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        py: list[str] = []
        config_changed = False
        for change in params.changes:
            path = conversions.uri_to_path(change.uri)
            if path is None:
                continue
            if Path(path).name in CONFIG_FILES:
                config_changed = True
            elif path.endswith(".py"):
                py.append(path)
        if py:
            ls.files_changed_on_disk(py)
        if config_changed:
            await ls.reresolve_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_folders(ls: TclintLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {f.uri for f in params.event.removed}
        uris = [uri for uri in ls.folder_uris.values() if uri not in removed]
        uris += [f.uri for f in params.event.added]
        ls.set_folder_uris(uris)
        for doc in ls.docs.values():
            doc.key = ls.key_for(doc.path)
            doc.dirty = True
        await ls.settings_changed()  # the new folders' settings
        await ls.index_workspace()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: TclintLanguageServer, params: Any) -> None:
        ls.scheduler.close()
        ls.confirm_executor.shutdown(wait=False, cancel_futures=True)
        ls.index.pool.close()

    return server
