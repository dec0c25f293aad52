"""The tclint language server: its state, initialization, settings, workspace indexing,
and the registration of every LSP feature.

The behaviour lives by concern in mixins: documents.py (the document lifecycle and the lint
run), features.py (diagnostics, hover, code actions) and confirm_flow.py (confirming with
Dynamo). Start-up imports only pygls and lsprotocol; the analyzer is imported on the
analysis thread the first time something is linted (never torch).
"""
from __future__ import annotations

import asyncio
import logging
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from tclint.server import code_actions as actions_mod
from tclint.server import conversions
from tclint.server import confirm as confirm_mod
from tclint.server.confirm_flow import ConfirmFlow, uri_argument
from tclint.server.documents import DocumentLifecycle
from tclint.server.features import Features
from tclint.server.lint_run import DocResult, OpenDocument
from tclint.server.protocol import TclintProtocol
from tclint.server.scheduler import Scheduler
from tclint.server.settings import ClientSettings, parse_client_settings, unwrap
from tclint.server.workspace_index import WorkspaceIndex, normalize_path, project_key

log = logging.getLogger(__name__)

NAME = "tclint"
CONFIG_FILES = ("pyproject.toml", "tclint.toml")
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


class TclintLanguageServer(DocumentLifecycle, Features, ConfirmFlow, LanguageServer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("protocol_cls", TclintProtocol)
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

    async def begin_progress(self, kind: str, begin: types.WorkDoneProgressBegin) -> str | None:
        """A new work-done progress token, begun; None when the client has no progress UI."""
        if not self.client_supports("window", "work_done_progress"):
            return None
        self._progress_counter += 1
        token = f"tclint-{kind}-{self._progress_counter}"
        try:
            await asyncio.wait_for(self.work_done_progress.create_async(token), 10)
            self.work_done_progress.begin(token, begin)
        except Exception as exc:  # noqa: BLE001
            self.log(f"tclint: no progress reporting: {exc!r}")
            return None
        return token

    # -- workspace indexing ----------------------------------------------------------
    async def index_workspace(self) -> None:
        folders = list(self.folders)
        if not folders:
            return
        token = await self.begin_progress("index", types.WorkDoneProgressBegin(
            title="tclint: indexing", message="finding Python files", percentage=0, cancellable=False))
        loop = asyncio.get_running_loop()
        last = [-1]

        def progress(done: int, total: int) -> None:
            pct = int(done * 100 / total) if total else 100
            if token is None or pct == last[0]:
                return
            last[0] = pct
            loop.call_soon_threadsafe(self._report_progress, token, f"{done}/{total} files", pct)

        # Indexing steps aside (between two files) for every lint run that waits behind it on
        # the analysis thread, and goes on after it: a document opened while a big workspace is
        # indexed gets its diagnostics in seconds, not after the whole workspace.
        done: dict[Path, set[str]] = {key: set() for key in folders}
        indexed: set[Path] = set()

        def stop() -> bool:
            return self.scheduler.closed or self.scheduler.runs_waiting()

        def work() -> tuple[list[str], list[str]]:
            errors: list[str] = []
            notices: list[str] = []
            self.index.set_folders(self.folders)
            for key in folders:
                if key in indexed:
                    continue
                try:
                    self._ensure_settings(key, errors)
                    notices.extend(self.index.index_project(key, progress, stop, done[key]))
                    if not self.scheduler.closed and self.scheduler.runs_waiting():
                        break  # a lint run goes first; the next step goes on from here
                    indexed.add(key)
                except Exception:  # noqa: BLE001
                    errors.append(f"tclint: internal error while indexing {key}:\n{traceback.format_exc()}")
                    indexed.add(key)
            return notices, errors

        notices, errors = [], []
        try:
            while len(indexed) < len(folders) and not self.scheduler.closed:
                more_notices, more_errors = await self.scheduler.submit(work)
                notices += more_notices
                errors += more_errors
            count = sum(len(self.index.project(key).summaries) for key in folders)
        except Exception as exc:  # noqa: BLE001
            count, errors = 0, errors + [f"tclint: internal error while indexing: {exc!r}"]
        for message in dict.fromkeys(errors):
            self.problem(message)
        for notice in notices:
            self.log(notice, types.MessageType.Info)
        if token is not None:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=f"{count} files"))
        self.log(f"tclint: indexed {count} Python files in {len(folders)} folder(s)", types.MessageType.Info)
        for key in {d.key for d in self.docs.values()}:
            self.lint(key, 0.0)

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




def create_server() -> TclintLanguageServer:
    server = TclintLanguageServer()
    server.protocol.on_exit.append(server.index.pool.close)  # `exit` kills the parser worker

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
        return ls.hover_at(params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, actions_mod.FIX_ALL_KIND],
            resolve_provider=False,
        ),
    )
    def code_action(ls: TclintLanguageServer, params: types.CodeActionParams):
        return ls.code_actions_for(params)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["[", ",", " "]))
    def completion(ls: TclintLanguageServer, params: types.CompletionParams):
        return ls.completion_at(params)

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
        return await ls.confirm_command(uri_argument(args), workspace=False)

    @server.command(confirm_mod.CONFIRM_WORKSPACE_COMMAND)
    async def confirm_workspace(ls: TclintLanguageServer, *args: Any) -> dict | None:
        return await ls.confirm_command(uri_argument(args), workspace=True)

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
