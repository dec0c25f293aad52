"""Confirm with Dynamo from the editor: commands `tclint.confirmFile` / `tclint.confirmWorkspace`.

A run executes the project's example modules (files that define `tclint_examples()`) with
`tclint.analyzer.confirm.driver.confirm`, one module at a time on a dedicated thread (the
analysis thread keeps linting), so that progress is reported per module and a cancel stops
before the next module. The cases are merged with the project's static findings; what
each file gets (predictions confirmed or refuted, TC900 / TC901 findings) is kept in a
`ConfirmStore`, together with a hash of the file's contents at the time of the run, and
laid over the static findings of every later lint run (`overlay`). When a file's text
(editor buffer, or the file on disk) no longer matches the hash, the results for that file
are dropped; the other files keep theirs. A later run with every file unchanged adds its
modules' cases to those of earlier runs; when any file changed in between, the earlier
cases are dropped and only the new run's count.

Running examples executes the user's code: it only happens when the client sent
`confirm.enabled = true` (the VS Code extension does so in trusted workspaces only).
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

CONFIRM_FILE_COMMAND = "tclint.confirmFile"
CONFIRM_WORKSPACE_COMMAND = "tclint.confirmWorkspace"
DISABLED_MESSAGE = (
    "tclint: confirming graph breaks runs the project's code and is disabled here "
    "(setting tclint.confirm.enabled is false; VS Code enables it in trusted workspaces only)."
)


def digest(data: bytes) -> str:
    from tclint.analyzer.confirm.saved_results import content_digest  # the same hash the CLI saves

    return content_digest(data)


@dataclass
class FileConfirmation:
    hash: str  # of the file's contents when the examples ran
    by_key: dict  # (code, span) -> merged Diagnostic (confirmed True or False)
    extra: list  # TC900 / TC901 Diagnostics of this file


@dataclass
class ProjectConfirmation:
    hashes: dict[str, str] = field(default_factory=dict)  # path -> content hash at the last run
    cases: dict[str, list] = field(default_factory=dict)  # example module path -> CaseResults
    files: dict[str, FileConfirmation] = field(default_factory=dict)


class ConfirmStore:
    """Results per project; written on the event loop, read on the analysis thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.projects: dict[Path, ProjectConfirmation] = {}

    def previous(self, key: Path, hashes: dict[str, str]) -> dict[str, list]:
        """Cases of earlier runs that still hold (every file unchanged since)."""
        with self._lock:
            proj = self.projects.get(key)
            if proj is None or proj.hashes != hashes:
                return {}
            return dict(proj.cases)

    def put(self, key: Path, hashes: dict[str, str], cases: dict[str, list], merged: list) -> set[str]:
        """Store a run's merged diagnostics; returns the paths whose results changed."""
        files: dict[str, FileConfirmation] = {}
        for d in merged:
            if d.confirmed is None or d.path not in hashes:
                continue
            entry = files.setdefault(d.path, FileConfirmation(hashes[d.path], {}, []))
            if d.code in ("TC900", "TC901"):
                entry.extra.append(d)
            else:
                entry.by_key[(d.code, tuple(d.span))] = d
        with self._lock:
            old = self.projects.get(key)
            self.projects[key] = ProjectConfirmation(hashes=dict(hashes), cases=dict(cases), files=files)
        changed = set(files)
        if old is not None:
            changed |= set(old.files)
        return changed

    def drop(self, key: Path) -> None:
        with self._lock:
            self.projects.pop(key, None)

    def get(self, key: Path, path: str) -> FileConfirmation | None:
        with self._lock:
            proj = self.projects.get(key)
            return proj.files.get(path) if proj is not None else None

    def overlay(self, key: Path, path: str, findings: list, text: str | None,
                show_refuted: bool = True, selected: Callable[[str], bool] | None = None) -> list:
        """The static `findings` of `path` with the confirmation applied (when it still holds)."""
        with self._lock:
            proj = self.projects.get(key)
            entry = proj.files.get(path) if proj is not None else None
            if entry is None:
                return findings
            if text is not None:
                current = digest(text.encode("utf-8", errors="surrogatepass"))
            else:
                try:
                    current = digest(Path(path).read_bytes())
                except OSError:
                    current = None
            if current != entry.hash:
                del proj.files[path]  # the file changed since the run: its results are dropped
                return findings
        from tclint.analyzer.confirm import verdicts
        from tclint.analyzer.diagnostic import Severity

        out = []
        for d in findings:
            # The stored row only lends its verdict: what the finding says is this run's.
            verdict = entry.by_key.get((d.code, tuple(d.span)))
            if verdict is None or verdict.confirmed is None:
                out.append(d)
            elif verdict.confirmed:
                out.append(verdicts.apply(d, verdict))
            elif show_refuted:
                out.append(verdicts.apply(d, verdict).with_changes(severity=Severity.HINT))
        for d in entry.extra:
            if selected is None or selected(d.code):
                out.append(d)
        out.sort(key=lambda d: d.sort_key())
        return out


@dataclass
class ConfirmRequest:
    key: Path  # the project
    settings: Any  # tclint.analyzer.config.Settings of the project
    python: str | None
    device: str | None
    timeout: float | None
    only: str | None = None  # run only this example module (a path), else every one
    under: str | None = None  # run only the example modules in this folder


@dataclass
class ConfirmOutcome:
    key: Path
    modules: list[str]  # example modules run (paths)
    cases: list  # CaseResults of this run
    merged: list  # Diagnostics: static findings with the confirmation applied, plus TC900/TC901
    hashes: dict[str, str]
    all_cases: dict[str, list]  # module path -> CaseResults (this run and still valid earlier ones)
    cancelled: bool = False
    python: str = ""
    torch_version: str | None = None


def project_files(key: Path, settings) -> list:
    """The project's files as SourceFiles whose display is the (normalized) absolute path, as
    the server's diagnostics name them."""
    from tclint.analyzer.discovery import SourceFile, discover
    from tclint.server.workspace_index import normalize_path

    roots = [key]
    cfg = getattr(settings, "confirm", None)
    for extra in getattr(cfg, "examples", ()) or ():
        p = settings.base_dir / extra
        if p.exists():
            roots.append(p)
    found, _ = discover(roots, settings)
    out, seen = [], set()
    for f in found:
        path = normalize_path(str(f.path))
        if path in seen:
            continue
        seen.add(path)
        out.append(SourceFile(path=Path(path), display=path, module=f.module, is_package=f.is_package))
    return out


def run_confirm(req: ConfirmRequest, static: list, store: ConfirmStore,
                progress: Callable[[int, int, str], None], cancelled: Callable[[], bool]) -> ConfirmOutcome:
    """On the confirm thread: run the example modules one by one, then merge."""
    from tclint.analyzer.cache_folders import cache_folder
    from tclint.analyzer.confirm.driver import DEFAULT_TIMEOUT, confirm, default_python, example_modules, merge

    cfg = getattr(req.settings, "confirm", None)
    python = req.python or getattr(cfg, "python", None) or default_python()
    device = req.device or getattr(cfg, "device", None) or "cpu"
    timeout = float(req.timeout or getattr(cfg, "timeout", None) or DEFAULT_TIMEOUT)
    files = project_files(req.key, req.settings)
    hashes: dict[str, str] = {}
    for f in files:
        try:
            hashes[str(f.path)] = digest(f.path.read_bytes())
        except OSError:
            continue
    all_modules = example_modules(files)
    modules = all_modules
    if req.only is not None:
        # The file's own examples; a file without any is confirmed by every example module of
        # the project (any of them may run its code).
        modules = [f for f in modules if str(f.path) == req.only] or all_modules
    if req.under is not None:
        modules = [f for f in modules if str(f.path).startswith(req.under.rstrip("/\\") + os.sep)]
    module_paths = {str(f.path) for f in modules}
    example_paths = {str(m.path) for m in all_modules}
    plain = [f for f in files if str(f.path) not in example_paths]
    # Without a config file, the project's root is the workspace folder, never the server's
    # working directory.
    cache_dir = cache_folder(req.settings, Path(req.key))
    previous = store.previous(req.key, hashes)
    run_cases: dict[str, list] = {}
    torch_version = None
    was_cancelled = False
    for i, module in enumerate(modules):
        if cancelled():
            was_cancelled = True
            break
        # One module per call: the fingerprint (cache key) covers this module and every
        # file that is not an example module.
        result = confirm([module, *plain], req.key, [], python=python, device=device, timeout=timeout,
                         jobs=1, cache_dir=cache_dir, memory_mb=getattr(cfg, "memory_mb", None), cancelled=cancelled)
        torch_version = torch_version or result.torch_version
        run_cases[str(module.path)] = result.cases
        progress(i + 1, len(modules), module.path.name)
    if cancelled():
        was_cancelled = True
    all_cases = {k: v for k, v in previous.items() if k not in module_paths}
    all_cases.update(run_cases)
    by_path = {str(f.path): f for f in files}
    _forget_statements()
    merged = merge(static, [c for cs in all_cases.values() for c in cs], by_path)
    return ConfirmOutcome(key=req.key, modules=[str(m.path) for m in modules],
                          cases=[c for cs in run_cases.values() for c in cs], merged=merged, hashes=hashes,
                          all_cases=all_cases, cancelled=was_cancelled, python=python, torch_version=torch_version)


def _forget_statements() -> None:
    """The analyzer caches each file's statements by path (fine for one CLI run); in the server
    a file may have changed since the last run, so the caches are cleared before merging."""
    from tclint.analyzer.confirm import statements

    for value in vars(statements).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def case_line(case, python: str) -> str:
    where = f"{Path(case.module).name}::{case.name}"
    if case.status == "ok":
        n = len({(b.get("file"), b.get("line"), b.get("gb_type")) for b in case.breaks})
        return f"tclint: confirm {where}: ok in {case.seconds:.2f} s, {n} graph break{'s' if n != 1 else ''}"
    if case.status == "torch-missing":
        return f"tclint: confirm {where}: torch is not installed for {python}; set tclint.confirm.python"
    detail = f": {case.error}" if case.error else ""
    return f"tclint: confirm {where}: {case.status}{detail}"


def summary(outcome: ConfirmOutcome) -> str:
    confirmed = sum(1 for d in outcome.merged if d.confirmed and d.code not in ("TC900", "TC901"))
    refuted = sum(1 for d in outcome.merged if d.confirmed is False)
    new = sum(1 for d in outcome.merged if d.code == "TC900")
    recompiles = sum(1 for d in outcome.merged if d.code == "TC901")
    failed = sum(1 for c in outcome.cases if c.status not in ("ok", "raised"))
    n = len(outcome.modules)
    text = (f"tclint: ran the examples of {n} module{'s' if n != 1 else ''}: {confirmed} predicted break"
            f"{'s' if confirmed != 1 else ''} confirmed, {refuted} refuted, {new} unpredicted, "
            f"{recompiles} recompilation{'s' if recompiles != 1 else ''}")
    if failed:
        text += f"; {failed} case{'s' if failed != 1 else ''} did not run (see the tclint output)"
    return text
