"""The confirmation flow of the server: the tclint.confirmFile / tclint.confirmWorkspace
commands run Dynamo (server/confirm.py) on the confirmation thread, with progress and
cancellation, and re-lint the projects whose verdicts changed.
"""
from __future__ import annotations

import asyncio
import threading
import traceback
from pathlib import Path
from typing import Any

from lsprotocol import types

from tclint.server import confirm as confirm_mod
from tclint.server import conversions, library_reads
from tclint.server.workspace_index import normalize_path


class ConfirmFlow:
    """Mixed into TclintLanguageServer (server/app.py), whose state it uses."""

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
            token = await self.begin_progress("confirm", types.WorkDoneProgressBegin(
                title="tclint: confirming graph breaks with Dynamo", message=self.confirm_running,
                percentage=0, cancellable=True))
            fut = self.work_done_progress.tokens.get(token) if token else None
            if fut is not None:
                fut.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
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
            by_path = library_reads.diagnostics(self.index, key)
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


def uri_argument(args: tuple) -> str | None:
    """A command's URI argument: a string, `{"uri": ...}` or a one-element list of either."""
    value: Any = args[0] if args else None
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("uri") or value.get("external")
    return value if isinstance(value, str) else None

