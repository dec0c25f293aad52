"""One example module's cases in child processes, within limits enforced from here.

The child (runner.py) writes each event as a JSON line as it happens. This side watches the
clock and the cancel flag: a phase (importing the module and listing its cases, then each
case) that runs past the per-case limit, or a cancel, kills the child's whole process group
(grandchildren too). A case that was stopped or crashed gets a status of its own, and the
cases after it run in a fresh child, so one bad case costs only itself. There is no signal
handler or timer in the child: this works the same where SIGALRM does not exist.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from typing import Callable

POLL_S = 0.05
STARTUP_S = 300.0  # the child's own start (importing torch) on a busy machine
STDERR_TAIL = 2000  # characters of a crashed child's stderr that explain it
MAX_EVENT_BYTES = 64 * 1024 * 1024  # a result file beyond this is not read further


def run_module(cmd: list[str], out: str, cwd: str, timeout: float,
               cancelled: Callable[[], bool] | None = None) -> dict:
    """Run the runner command `cmd` (without --out/--start) until every case has a result.
    Returns {"torch_version", "device", "cases": [...]}, with "error"/"message" when the
    module itself could not run, and "cancelled": True when `cancelled()` stopped it."""
    result: dict = {"cases": []}
    names: list[str] | None = None
    start = 0
    while True:
        part = f"{out}.{start}"
        status, message = _run_child([*cmd, "--out", part, "--start", str(start)], part, cwd, timeout, cancelled)
        running, partial, finished = None, [], 0
        for event in read_events(part):
            kind = event.pop("event", None)
            if kind == "started":
                result.update(event)
            elif kind == "error":
                result.update(error=event.get("error"), message=event.get("message"))
                result.setdefault("torch_version", event.get("torch_version"))
            elif kind == "cases":
                names = [str(n) for n in event.get("names", [])]
            elif kind == "case-start":
                running, partial = event.get("index"), []
            elif kind == "break":
                partial.append(event)
            elif kind == "case":
                result["cases"].append(event)
                running, finished = None, finished + 1
        if status == "cancelled":
            result["cancelled"] = True
            return result
        if "error" in result:
            return result
        if names is None:  # stopped while importing the module or listing its cases
            if status != "exited":
                what = "importing the module and calling tclint_examples()"
                result.update(error=status, message=f"{what} {message}" if status == "timeout" else message)
            return result
        if running is None:
            if status == "exited" or start + finished >= len(names):
                return result
            running = start + finished  # died between cases: blame the next one, so the run moves on
        if status == "exited":
            status, message = "crashed", "the example process ended during the case"
        result["cases"].append({"name": names[running], "status": status, "error": message, "breaks": partial,
                                "recompiles": [], "executed": {}, "seconds": timeout if status == "timeout" else 0.0})
        start = running + 1
        if start >= len(names):
            return result


def _child_env() -> dict[str, str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # torch fails to import with TORCH_LOGS set but blank (an `export TORCH_LOGS=` left in a shell).
    if not env.get("TORCH_LOGS", "x").strip():
        del env["TORCH_LOGS"]
    return env


def _run_child(cmd: list[str], events: str, cwd: str, timeout: float,
               cancelled: Callable[[], bool] | None) -> tuple[str, str | None]:
    """("exited", None), ("timeout" | "cancelled" | "crashed", why). Each phase (importing the
    module and listing its cases, then each case) gets `timeout` seconds; the clock restarts
    when the child writes an event that starts or ends one."""
    with tempfile.TemporaryFile() as stderr:
        try:
            # stdin stays open for as long as this process lives: the child exits when it closes.
            proc = subprocess.Popen([*cmd, "--watch-parent"], cwd=cwd, stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=stderr,
                                    env=_child_env(), **_own_group())
        except OSError as exc:
            return "no-interpreter", f"cannot start {cmd[0]}: {exc}"
        deadline = time.monotonic() + max(timeout, STARTUP_S)  # importing torch is not the example's time
        phases = _PhaseWatch(events)
        try:
            while proc.poll() is None:
                if cancelled is not None and cancelled():
                    return "cancelled", "cancelled"
                if phases.changed():
                    deadline = time.monotonic() + timeout
                if time.monotonic() > deadline:
                    return "timeout", f"ran over {timeout:g} s (stopped)"
                time.sleep(POLL_S)
        finally:
            _kill_group(proc)  # also what the example left behind (grandchildren)
        if proc.returncode == 0:
            return "exited", None
        stderr.seek(0)
        tail = stderr.read()[-STDERR_TAIL:].decode("utf-8", errors="replace").strip().splitlines()[-5:]
        return "crashed", "; ".join([_exit_reason(proc.returncode), *tail])


def _own_group() -> dict:
    if os.name == "nt":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def _kill_group(proc: subprocess.Popen) -> None:
    if os.name == "nt":
        if proc.poll() is None:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True)
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.kill()
    except OSError:
        pass
    proc.wait()
    if proc.stdin is not None:
        proc.stdin.close()


def _exit_reason(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class _PhaseWatch:
    """Reads the result file as it grows; `changed()` says whether a case started or ended
    since the last look (the moments the per-case clock restarts)."""

    PHASES = (b'"event": "started"', b'"event": "cases"', b'"event": "case-start"', b'"event": "case"')

    def __init__(self, path: str):
        self.path = path
        self.offset = 0
        self.rest = b""

    def changed(self) -> bool:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read(1 << 20)
        except OSError:
            return False
        self.offset += len(data)
        *lines, rest = (self.rest + data).split(b"\n")
        self.rest = rest[-4096:]  # only a line's start matters
        return any(line.startswith(b"{" + phase) for line in lines for phase in self.PHASES)


def read_events(path: str) -> list[dict]:
    """The complete JSON lines of a result file (a line cut short by a kill is skipped)."""
    out = []
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_EVENT_BYTES)
    except OSError:
        return out
    for line in data.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            out.append(event)
    return out
