"""`tclint confirm`: run the examples in child processes and merge what Dynamo did into the
static findings (`confirmed` true/false, and new findings for breaks nobody predicted)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tclint.analyzer.cache import ConfirmResults
from tclint.analyzer.confirm import recompiles, verdicts
from tclint.analyzer.confirm.module_run import read_events, run_module
from tclint.analyzer.confirm.statements import same_statement, statement_span
from tclint.analyzer.diagnostic import Diagnostic, Severity, Span
from tclint.analyzer.gb_registry import gb_url
from tclint.analyzer.version import __version__

RUNNER = Path(__file__).with_name("runner.py")
DEFAULT_TIMEOUT = 60.0  # seconds per case (and for importing a module and listing its cases)
EXAMPLES_MARKER = b"def tclint_examples"


@dataclass
class CaseResult:
    module: str  # display path of the example module
    name: str
    status: str  # ok | raised | timeout | torch-missing | import-failed | ...
    seconds: float = 0.0
    error: str | None = None
    breaks: list[dict] = field(default_factory=list)
    recompiles: list[dict] = field(default_factory=list)
    executed: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class ConfirmResult:
    diagnostics: list[Diagnostic]
    cases: list[CaseResult]
    torch_version: str | None


def example_modules(files) -> list:
    """The files (linted or configured in `[tool.tclint.confirm] examples`) that define `tclint_examples()`."""
    out = []
    for f in files:
        if f.path.suffix != ".py":  # a notebook cannot be imported to run its examples
            continue
        try:
            if EXAMPLES_MARKER in f.path.read_bytes():
                out.append(f)
        except OSError:
            continue
    return out


def _sys_path_for(f) -> str:
    """The folder above the module's top-level package (what `python -m` would put first)."""
    depth = f.module.count(".") + (1 if f.is_package else 0)
    folder = f.path.parent
    for _ in range(depth):
        folder = folder.parent
    return str(folder)


def runner_command(python: str, f, root: Path, device: str, memory_mb: int = 0) -> list[str]:
    return [python, str(RUNNER), "--module", str(f.path), "--root", str(root), "--device", device,
            "--memory-mb", str(memory_mb), "--sys-path", _sys_path_for(f)]


def run_command(cmd: list[str], out: str, cwd: str, timeout: float) -> dict:
    """Run one example module's runner command and collect its cases; where the command runs is
    the executor's business (this function is also what a Slurm job executes on its node)."""
    return run_module(cmd, out, cwd, timeout)


class LocalExecutor:
    """Child processes on this machine, `jobs` at a time; `cancelled()` stops them all."""

    def __init__(self, jobs: int = 1, cancelled: Callable[[], bool] | None = None):
        self.jobs = max(1, jobs)
        self.cancelled = cancelled

    def run_all(self, commands: list[tuple[list[str], str, str, float]]) -> list[dict]:
        interrupted = threading.Event()  # Ctrl-C: the children are in their own groups, so kill them

        def cancelled() -> bool:
            return interrupted.is_set() or (self.cancelled is not None and self.cancelled())

        pool = ThreadPoolExecutor(max_workers=self.jobs)
        try:
            return list(pool.map(lambda c: run_module(*c, cancelled=cancelled), commands))
        except BaseException:
            interrupted.set()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class SubmititExecutor:
    """Each example module as a job through submitit: Slurm on a cluster (GPU nodes from a
    laptop), or submitit's local executor. The checkout must be on storage the nodes share."""

    def __init__(self, folder: Path, cluster: str | None = None, parameters: dict | None = None):
        try:
            import submitit
        except ImportError:
            raise RuntimeError("the slurm executor needs submitit: pip install 'torch-tclint[slurm]'") from None
        if cluster == "local":
            self.executor = submitit.LocalExecutor(folder=str(folder))
        else:
            self.executor = submitit.AutoExecutor(folder=str(folder), cluster=cluster)
        if parameters:
            self.executor.update_parameters(**parameters)

    def run_all(self, commands: list[tuple[list[str], str, str, float]]) -> list[dict]:
        jobs = [self.executor.submit(run_command, *c) for c in commands]
        results = []
        for job in jobs:
            try:
                results.append(job.result())
            except Exception as exc:  # the job failed on its node
                lines = str(exc).strip().splitlines()
                results.append({"error": "job-failed", "message": lines[-1] if lines else type(exc).__name__})
        return results


def confirm(files, root: Path, static: list[Diagnostic], python: str, device: str = "cpu",
            timeout: float = DEFAULT_TIMEOUT, jobs: int = 1, cache_dir: Path | None = None,
            executor=None, memory_mb: int | None = None, cancelled: Callable[[], bool] | None = None,
            all_recompiles: bool = False) -> ConfirmResult:
    """Run every example module (each case within `timeout` seconds and `memory_mb` of address
    space) and merge. With `cancelled`, a cancel kills the running example at once; the
    result then holds the cases that finished. `cache_dir`: the project's cache folder, whose
    `confirm/` keeps each module's result."""
    modules = example_modules(files)
    by_path = {str(f.path): f for f in files}
    fingerprint = _files_fingerprint(files, python, device)
    cache = ConfirmResults(cache_dir) if cache_dir else None  # signed: the folder is in the tree
    executor = executor or LocalExecutor(jobs, cancelled)
    memory_mb = default_memory_mb() if memory_mb is None else memory_mb
    raws: dict[int, dict] = {}
    todo = []
    with tempfile.TemporaryDirectory(dir=_shared_tmp(executor)) as tmp:
        for i, f in enumerate(modules):
            key = hashlib.blake2b(f"{fingerprint}\0{f.path}".encode(), digest_size=16).hexdigest()
            cached = cache.get(key) if cache else None
            if cached is not None:
                raws[i] = cached
                continue
            out = Path(tmp) / f"{i}.jsonl"
            todo.append((i, key, (runner_command(python, f, root, device, memory_mb), str(out), str(root), timeout)))
        for (i, key, _), raw in zip(todo, executor.run_all([c for _, _, c in todo])):
            raws[i] = raw
            if cache and _complete(raw):
                cache.put(key, raw)
    cases: list[CaseResult] = []
    torch_version = None
    for i, f in enumerate(modules):
        raw = raws[i]
        torch_version = torch_version or raw.get("torch_version")
        cases.extend(_cases(f.display, raw, by_path))
    return ConfirmResult(merge(static, cases, by_path, all_recompiles), cases, torch_version)


def _complete(raw: dict) -> bool:
    """A module's result worth keeping: it ran, and it was not cancelled halfway."""
    return not raw.get("error") and not raw.get("cancelled")


def default_memory_mb() -> int:
    """Address space per example process: 3/4 of this machine's memory, at least 4 GB
    (CPU torch alone maps a few GB)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (AttributeError, ValueError, OSError):
        return 0
    return max(4096, total * 3 // 4)


def _shared_tmp(executor) -> str | None:
    """Result files of cluster jobs must be where the nodes can write: beside the job folder."""
    folder = getattr(getattr(executor, "executor", None), "folder", None)
    if folder is None:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return str(folder)


def trace(command: list[str], files, root: Path, static: list[Diagnostic], all_recompiles: bool = False) -> ConfirmResult:
    """`tclint trace -- python train.py ...`: run the script (its output passes through) with
    the same capture as `confirm`, then merge with the static findings."""
    python, rest = command[0], command[1:]
    by_path = {str(f.path): f for f in files}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.jsonl"
        cmd = [python, str(RUNNER), "--root", str(root), "--out", str(out), "--trace", *rest]
        try:
            subprocess.run(cmd, cwd=str(Path.cwd()))
        except OSError as exc:
            raw = {"error": "no-interpreter", "message": f"cannot start {python}: {exc}"}
        else:
            raw = _trace_result(str(out))
    cases = _cases(Path(rest[0] if rest and rest[0] != "-m" else " ".join(rest[:2])).name, raw, by_path)
    return ConfirmResult(merge(static, cases, by_path, all_recompiles), cases, raw.get("torch_version"))


def _trace_result(out: str) -> dict:
    raw: dict = {"cases": []}
    for event in read_events(out):
        kind = event.pop("event", None)
        if kind == "case":
            raw["cases"].append(event)
        elif kind in ("started", "error"):
            raw.update(event)
    if not raw["cases"] and "error" not in raw:
        raw.update(error="crashed", message="the traced process ended without a result")
    return raw


def _cases(module: str, raw: dict, by_path) -> list[CaseResult]:
    cases = []
    if raw.get("error"):
        cases.append(CaseResult(module, "*", raw["error"], error=raw.get("message")))
    for c in raw.get("cases", []):
        cases.append(CaseResult(
            module, c["name"], c["status"], c.get("seconds", 0.0), c.get("error"),
            [_display(b, by_path) for b in c.get("breaks", [])],
            [_display(r, by_path) for r in c.get("recompiles", [])],
            {_display_path(p, by_path): lines for p, lines in c.get("executed", {}).items()},
        ))
    return cases


def _display_path(path: str, by_path) -> str:
    f = by_path.get(path)
    return f.display if f is not None else path


def _display(event: dict, by_path) -> dict:
    event = dict(event)
    if event.get("file"):
        event["abs_file"] = event["file"]
        event["file"] = _display_path(event["file"], by_path)
    return event


def merge(static: list[Diagnostic], cases: list[CaseResult], by_path, all_recompiles: bool = False) -> list[Diagnostic]:
    """Mark predictions confirmed or refuted; add findings for breaks and recompiles no rule predicted.

    Every break Dynamo logged counts on its own: a finding is confirmed by a break of a kind
    its rule predicts in the same statement, and any other break there is a TC900 of its own.
    Only cases that ran to the end with their capture intact can refute (a line that ran
    without a break); a case that crashed, timed out or lost a record proves nothing."""
    observed: dict[tuple[str, int, str], tuple[dict, str]] = {}
    executed: dict[str, set[int]] = {}
    abs_of = {f.display: str(f.path) for f in by_path.values()}
    for case in cases:
        if case.status == "ok":
            for path, lines in case.executed.items():
                executed.setdefault(path, set()).update(lines)
        for b in case.breaks:
            if b.get("file") and b.get("gb_type"):
                observed.setdefault((b["file"], b["line"], b["gb_type"]), (b, f"{case.module}::{case.name}"))
    claimed: set[tuple[str, int, str]] = set()
    out = []
    for d in static:
        if d.gb_type is None:
            out.append(d)
            continue
        abs_path = abs_of.get(d.path, d.path)
        here = [k for k in observed if k[0] == d.path and any(
            same_statement(abs_path, k[1], line) for line in range(d.span.line, d.span.end_line + 1))]
        kinds = verdicts.predicted_types(d)
        # One finding stands for one break: the first of the predicted type, else of a kind the
        # rule also predicts, preferring a break no other finding has claimed.
        own = sorted((k for k in here if k[2] in kinds), key=lambda k: (k in claimed, k[2] != d.gb_type))
        if own:
            claimed.add(own[0])
            b = observed[own[0]][0]
            out.append(verdicts.confirmed(d, b["gb_type"], b.get("gb_id")))
        elif here:
            out.append(d)  # its statement broke, but not as predicted: that break is a TC900
        elif any(same_statement(abs_path, line, d.span.line) for line in executed.get(d.path, ())):
            out.append(verdicts.refuted(d))
        else:
            out.append(d)
    for key, (b, case) in observed.items():
        if key in claimed:
            continue
        path, line, gb_type = key
        out.append(Diagnostic(
            path=path, span=statement_span(b.get("abs_file") or path, line), code="TC900", name="dynamo-observed-break",
            severity=Severity.ERROR,
            message=f"Dynamo broke the graph here ({gb_type}) and no rule predicted it; seen in {case}: {b.get('reason', '')}",
            gb_type=gb_type, gb_id=b.get("gb_id"), url=gb_url(b["gb_id"]) if b.get("gb_id") else None, confirmed=True,
        ))
    seen_recompiles = set()
    for case in cases:
        for r in case.recompiles:
            key = (r["file"], r["function"])  # a function and its resume functions are one finding
            described = recompiles.describe(r, f"{case.module}::{case.name}", report_all=all_recompiles)
            if key in seen_recompiles or described is None:
                continue
            seen_recompiles.add(key)
            message, severity = described
            out.append(Diagnostic(
                path=r["file"], span=Span(r["line"], 1, r["line"], 1), code="TC901", name="dynamo-observed-recompile",
                severity=severity, message=message, confirmed=True,
            ))
    out.sort(key=Diagnostic.sort_key)
    return out


def _files_fingerprint(files, python: str, device: str) -> str:
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{__version__}\0{python}\0{device}\0{_torch_stamp(python)}\0".encode())
    h.update(RUNNER.read_bytes())
    for f in sorted(files, key=lambda f: str(f.path)):
        try:
            h.update(str(f.path).encode() + b"\0" + f.path.read_bytes())
        except OSError:
            continue
    return h.hexdigest()


def _torch_stamp(python: str) -> str:
    """The torch version of the interpreter that runs the examples, without importing torch."""
    code = "import importlib.metadata as m\ntry: print(m.version('torch'))\nexcept Exception: print('none')"
    try:
        return subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def default_python() -> str:
    return os.environ.get("TCLINT_PYTHON") or sys.executable
