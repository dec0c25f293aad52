"""A raw LSP client for fault tests: `python -m tclint.server` over stdio, with frames written
byte by byte, so a test can send what no well-behaved client would (bad Content-Length,
invalid JSON, wrong params) and still read every answer.

The client advertises no capabilities, so the server never sends it a request to answer.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def frame(body: bytes | str | dict, length: int | str | None = None) -> bytes:
    """One message: `body` (a dict is JSON-encoded) behind a Content-Length header, which is
    `length` when given (a wrong one, for a test) and the body's size otherwise."""
    if isinstance(body, dict):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode("utf-8")
    return f"Content-Length: {len(body) if length is None else length}\r\n\r\n".encode() + body


class Server:
    def __init__(self, cwd: str | Path | None = None, env: dict | None = None, args: tuple[str, ...] = ()) -> None:
        self.stderr_file = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tclint.server", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr_file,
            cwd=str(cwd) if cwd else None, env={**os.environ, **(env or {})},
        )
        self.messages: queue.Queue[dict | None] = queue.Queue()
        self.responses: dict = {}
        self.arrived: dict = {}  # response id -> time.monotonic() when it was read
        self.notifications: list[dict] = []
        self._next_id = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    # -- sending ---------------------------------------------------------------------
    def send_raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_raw(frame({"jsonrpc": "2.0", **message}))

    def request(self, method: str, params=None, id=None) -> int | str:
        if id is None:  # a string: never one a test picks, nor one found in a cut frame
            self._next_id += 1
            id = f"w{self._next_id}"
        message = {"id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return id

    def notify(self, method: str, params=None) -> None:
        self.send({"method": method, **({"params": params} if params is not None else {})})

    # -- receiving -------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
                elif line in (b"\r\n", b"\n") and length is not None:
                    break
            message = json.loads(out.read(length))
            if "id" in message and "method" not in message:
                with self._lock:
                    self.responses[message["id"]] = message
                    self.arrived[message["id"]] = time.monotonic()
            elif "method" in message:
                self.notifications.append(message)
            self.messages.put(message)

    def response(self, id, timeout: float = 10.0) -> dict | None:
        """The response to request `id`, or None when none came within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                if id in self.responses:
                    return self.responses.pop(id)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                if self.messages.get(timeout=min(left, 0.2)) is None and id not in self.responses:
                    return None  # stdout closed
            except queue.Empty:
                pass

    def call(self, method: str, params=None, timeout: float = 10.0) -> dict | None:
        return self.response(self.request(method, params), timeout)

    def initialize(self, root: str | Path | None = None, timeout: float = 30.0) -> dict:
        params = {"processId": os.getpid(), "capabilities": {},
                  "rootUri": Path(root).absolute().as_uri() if root else None}
        answer = self.call("initialize", params, timeout)
        assert answer is not None and "result" in answer, answer
        self.notify("initialized", {})
        return answer

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text}})

    def close_doc(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    # -- ending ------------------------------------------------------------------------
    def wait(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout: float = 10.0) -> int | None:
        """shutdown then exit; the exit status (None if it did not exit in time)."""
        if self.proc.poll() is None:
            try:
                self.call("shutdown", None, timeout)
                self.notify("exit")
            except (BrokenPipeError, OSError):
                pass
        code = self.wait(timeout)
        if code is None:
            self.proc.kill()
            self.proc.wait()
        return code

    def stderr(self) -> str:
        self.stderr_file.seek(0)
        return self.stderr_file.read().decode("utf-8", errors="replace")

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.stderr_file.close()


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` (Linux: /proc/<pid>/task/*/children)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0
