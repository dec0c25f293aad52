"""Editor latency and memory of `tclint server` against Fixit's and Ruff's language servers.

Usage:
    python benchmarks/bench_lsp.py [--servers tclint,fixit,ruff] [--edits N] [--quick-edits N]
                                   [--python-for-corpora PY] [--large-file PATH] [--small-file PATH]
                                   [--functional-file PATH|none] [--hovers N] [--fixit-edits N]
                                   [--tclint EXE] [--fixit EXE] [--ruff EXE] [--timeout S]

Each server is spawned over stdio and driven by a small JSON-RPC client written here
(Content-Length framing, asyncio pipes; no LSP library needed). The client declares only
`textDocument.publishDiagnostics`, so every server pushes its diagnostics. Measured per
server, one after the other in the same run:

- start: spawn -> `initialize` response, and spawn -> `initialized` sent;
- open: `didOpen` of each file -> its first `publishDiagnostics` (first open);
- latency per edit kind: `didChange` -> the next `publishDiagnostics` for that document (one
  whose `version`, when the server sends one, is the edited one), p50 and p95 over --edits
  edits of each kind, on a large real model file (transformers' seamless_m4t modeling file),
  on torch/nn/functional.py and on a ~100-line one. The kinds (see `edit_sites`): inside a
  def, in the import block, a module-level assignment, a class attribute, a decorator added
  to a function; each edit toggles one line, so the text ends as it began. Incremental sync
  when the server asks for it, full text otherwise. A server that publishes nothing within
  --timeout is counted as a timeout;
- hover while busy: `textDocument/hover` on a finding of the small file, back to back (up
  to --hovers), while the server analyzes a first open of a copy of the biggest file;
- RSS (VmRSS of the server and its child processes) after opening the files (once the
  processes stopped using CPU), and after
  --quick-edits edits of the large file sent back to back, once the final version's
  diagnostics arrived.

Servers run with their default settings (debounce included: tclint 10 ms, Fixit 0.5 s,
Ruff none); --no-debounce turns tclint's and Fixit's off. Never fails: a missing tool or
file is reported and skipped, and the exit status is 0.
"""
from __future__ import annotations

import argparse
import ast
import asyncio
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

LARGE_REL = Path("models/seamless_m4t/modeling_seamless_m4t.py")
WORKSPACE_FILE = LARGE_REL.relative_to("models")
SMALL_SEED = Path(__file__).resolve().parent.parent / "examples/tinyvit/layers.py"
SERVERS = ("tclint", "fixit", "ruff")


# -- corpus ---------------------------------------------------------------------------
def find_package_dir(name: str, python: str | None) -> Path | None:
    if python:
        code = (f"import importlib.util as u; s = u.find_spec({name!r}); "
                "print(s.submodule_search_locations[0] if s and s.submodule_search_locations else '')")
        try:
            out = subprocess.run([python, "-c", code], check=False, capture_output=True, text=True,
                                 timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None
        return Path(out) if out else None
    spec = importlib.util.find_spec(name)
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


PADDING = '''

class Head(nn.Module):
    """Padding for the benchmark: a classifier head with a few plain statements."""

    def __init__(self, dim: int, classes: int, dropout: float = 0.1):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, classes)
        self.dropout = dropout

    def forward(self, x):
        x = self.norm(x)
        pooled = x.mean(dim=1)
        pooled = F.dropout(pooled, self.dropout, self.training)
        logits = self.fc(pooled)
        return logits


def count_parameters(model: nn.Module) -> int:
    total = 0
    for p in model.parameters():
        total = total + p.numel()
    return total
'''


def small_text(path: str | None) -> tuple[str, str]:
    """(text, where it came from) of a ~100-line model file."""
    if path:
        return Path(path).read_text(encoding="utf-8"), path
    text = SMALL_SEED.read_text(encoding="utf-8") if SMALL_SEED.exists() else "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    text = text.rstrip("\n") + "\n" + PADDING
    block = 0
    while text.count("\n") < 95:  # the seed shrank: add helper functions until ~100 lines
        block += 1
        text += f"\n\ndef helper_{block}(x):\n    y = x * {block}\n    y = y + x\n    return y\n"
    return text, f"{SMALL_SEED} + padding ({text.count(chr(10))} lines)"


def edit_line(text: str) -> int | None:
    """A one-line assignment inside a function body, near the middle of the file, whose line
    ends with the expression (no comment, no continuation): ` + 0` can be appended to it."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    lines = text.splitlines()
    candidates = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and node.lineno == node.end_lineno and node is not fn:
                line = lines[node.lineno - 1]
                if "#" in line or line.rstrip().endswith(("\\", ",", "(", "[", "{", ":")):
                    continue
                if not isinstance(node.value, (ast.Call, ast.BinOp, ast.Name, ast.Attribute, ast.Subscript)):
                    continue
                if line.rstrip() != line[: node.end_col_offset]:
                    continue
                candidates.append(node.lineno - 1)
    if not candidates:
        return None
    middle = len(lines) // 2
    return min(sorted(set(candidates)), key=lambda i: abs(i - middle))


EDIT_KINDS = ("def", "import", "module", "class", "decorator", "newdef")


def _whole_line(lines: list[str], node: ast.stmt) -> bool:
    """A one-line statement that ends its line with its expression (no comment, no `;`)."""
    if node.lineno != node.end_lineno:
        return False
    line = lines[node.lineno - 1]
    return "#" not in line and ";" not in line and line.rstrip() == line[: node.end_col_offset]


def edit_sites(text: str) -> dict[str, tuple[int, str]]:
    """Per edit kind, a line (0-based) and what it becomes; each edit toggles between the two.

    def: ` + 0` on an assignment in a function body (edit_line); import: `; import os` after
    an import of the import block; module: ` or None` on a module-level assignment (a value
    functions may read); class: ` or None` on a class attribute; decorator: `@torch.compile`
    added above a top-level function (a method when there is none); newdef: a function added
    at the end of the file (a new name)."""
    sites: dict[str, tuple[int, str]] = {}
    lines = text.split("\n")
    line = edit_line(text)
    if line is not None:
        sites["def"] = (line, lines[line] + " + 0")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return sites
    for stmt in tree.body:
        if ("import" not in sites and isinstance(stmt, (ast.Import, ast.ImportFrom)) and _whole_line(lines, stmt)
                and not (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__")):
            sites["import"] = (stmt.lineno - 1, lines[stmt.lineno - 1] + "; import os")
        elif "module" not in sites and isinstance(stmt, ast.Assign) and _whole_line(lines, stmt):
            sites["module"] = (stmt.lineno - 1, lines[stmt.lineno - 1] + " or None")
        elif "class" not in sites and isinstance(stmt, ast.ClassDef):
            for inner in stmt.body:
                if isinstance(inner, ast.Assign) and _whole_line(lines, inner):
                    sites["class"] = (inner.lineno - 1, lines[inner.lineno - 1] + " or None")
                    break
    functions = [s for s in tree.body if isinstance(s, ast.FunctionDef) and not s.decorator_list]
    methods = [m for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body
               if isinstance(m, ast.FunctionDef) and not m.decorator_list]
    for fn in (functions or methods)[len(functions or methods) // 2:][:1]:
        original = lines[fn.lineno - 1]
        indent = original[: len(original) - len(original.lstrip())]
        sites["decorator"] = (fn.lineno - 1, f"{indent}@torch.compile\n{original}")
    sites["newdef"] = (len(lines) - 1, f"{lines[-1]}\n\ndef tclint_bench_new_def(x):\n    return x\n")
    return {kind: sites[kind] for kind in EDIT_KINDS if kind in sites}


def workspace_folder(args: argparse.Namespace) -> Path | None:
    """The folder of the whole-workspace run (see --workspace), None when skipped or missing."""
    if args.workspace == "none":
        return None
    if args.workspace:
        return Path(args.workspace).resolve() if Path(args.workspace).is_dir() else None
    pkg = find_package_dir("transformers", args.python_for_corpora)
    if pkg is None or not (pkg / "models").is_dir():
        print("whole workspace: transformers not found (pass --workspace or --python-for-corpora); skipped")
        return None
    copy = Path(tempfile.gettempdir()) / "tclint-bench-lsp-models" / "models"
    if not copy.is_dir():  # site-packages may sit under a venv's `*` .gitignore: tools would skip it
        shutil.copytree(pkg / "models", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


# -- process memory -------------------------------------------------------------------
def rss_tree_kb(pid: int) -> tuple[int, int] | None:
    """(VmRSS in kB, process count) of pid and all its descendants (None when /proc cannot tell)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, seen, todo = 0, set(), [pid]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            if p == pid:
                return None
        todo.extend(children.get(p, []))
    return total, len(seen)


def cpu_tree_ticks(pid: int) -> int:
    """CPU time (clock ticks) pid and its children used so far; 0 when /proc cannot tell."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(entry) == pid or int(fields[1]) == pid:  # the server's workers are its children
            ticks += int(fields[11]) + int(fields[12])
    return ticks


async def settle(pid: int, quiet_s: float = 0.5, limit_s: float = 30.0) -> None:
    """Wait until the server's processes stop using CPU (at most `limit_s`): work an open left
    its workers (cutting a document for its next edit) would count as growth otherwise."""
    end = time.perf_counter() + limit_s
    last = cpu_tree_ticks(pid)
    while time.perf_counter() < end:
        await asyncio.sleep(quiet_s)
        now = cpu_tree_ticks(pid)
        if now - last <= 1:
            return
        last = now


# -- JSON-RPC over the server's pipes -----------------------------------------------------
@dataclass
class Publish:
    t: float
    version: int | None
    count: int
    first: dict | None = None  # the first diagnostic's start position


class Client:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.publishes: dict[str, list[Publish]] = {}
        self.waiters: list[tuple[str, int | None, int, asyncio.Future]] = []
        self.server_requests: dict[str, int] = {}
        self.progress: dict[object, str] = {}  # work-done progress token -> its last kind (begin/report/end)
        self.progress_changed = asyncio.Event()
        self.closed = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        stream = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await stream.readline()
                    if not line:
                        raise EOFError
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                body = await stream.readexactly(length)
                self._dispatch(json.loads(body), time.perf_counter())
        except (EOFError, asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            if not self.closed.done():
                self.closed.set_result(None)
            for fut in list(self.pending.values()) + [w[3] for w in self.waiters]:
                if not fut.done():
                    fut.set_exception(EOFError("server closed its output"))

    def _dispatch(self, msg: dict, now: float) -> None:
        method = msg.get("method")
        if method is None:  # a response
            fut = self.pending.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                if "error" in msg:
                    fut.set_exception(RuntimeError(f"LSP error: {msg['error']}"))
                else:
                    fut.set_result(msg.get("result"))
            return
        if "id" in msg:  # a request from the server: answer so that it never waits on us
            self.server_requests[method] = self.server_requests.get(method, 0) + 1
            result = None
            if method == "workspace/configuration":
                result = [None] * len((msg.get("params") or {}).get("items", []))
            asyncio.get_running_loop().create_task(self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result}))
            return
        if method == "$/progress":
            params = msg.get("params") or {}
            kind = (params.get("value") or {}).get("kind")
            if kind:
                self.progress[params.get("token")] = kind
                self.progress_changed.set()
            return
        if method == "textDocument/publishDiagnostics":
            params = msg.get("params") or {}
            uri = params.get("uri", "")
            diags = params.get("diagnostics") or []
            first = diags[0].get("range", {}).get("start") if diags and isinstance(diags[0], dict) else None
            pub = Publish(now, params.get("version"), len(diags), first)
            seq = len(self.publishes.setdefault(uri, []))
            self.publishes[uri].append(pub)
            for waiter in list(self.waiters):
                w_uri, min_version, after, fut = waiter
                if w_uri == uri and seq >= after and (pub.version is None or min_version is None or pub.version >= min_version):
                    self.waiters.remove(waiter)
                    if not fut.done():
                        fut.set_result(pub)

    async def _send(self, msg: dict) -> None:
        body = json.dumps(msg, separators=(",", ":")).encode()
        try:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            await self.proc.stdin.drain()
        except (ConnectionError, RuntimeError):
            pass

    async def request(self, method: str, params, timeout: float):
        self.next_id += 1
        fut = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        await self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await asyncio.wait_for(fut, timeout)

    async def notify(self, method: str, params) -> None:
        await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def mark(self, uri: str) -> int:
        """A position in the publish stream of uri: wait_publish only accepts later ones."""
        return len(self.publishes.get(uri, []))

    def busy(self) -> bool:
        """Whether work-done progress the server began has not ended."""
        return any(kind != "end" for kind in self.progress.values())

    async def wait_idle(self, began_within: float, timeout: float) -> bool:
        """Wait for the server's work-done progress (indexing) to end: first up to `began_within`
        seconds for one to begin, then up to `timeout` for all to end. False on a timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + began_within
        while not self.progress and loop.time() < deadline:
            self.progress_changed.clear()
            try:
                await asyncio.wait_for(self.progress_changed.wait(), deadline - loop.time())
            except asyncio.TimeoutError:
                break
        deadline = loop.time() + timeout
        while self.busy():
            self.progress_changed.clear()
            if loop.time() >= deadline:
                return False
            try:
                await asyncio.wait_for(self.progress_changed.wait(), deadline - loop.time())
            except asyncio.TimeoutError:
                return False
        return True

    async def wait_publish(self, uri: str, min_version: int | None, after: int, timeout: float) -> Publish | None:
        for pub in self.publishes.get(uri, [])[after:]:
            if pub.version is None or min_version is None or pub.version >= min_version:
                return pub
        fut = asyncio.get_running_loop().create_future()
        waiter = (uri, min_version, after, fut)
        self.waiters.append(waiter)
        try:
            return await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            return None
        finally:
            if waiter in self.waiters:
                self.waiters.remove(waiter)


# -- one document under edit ------------------------------------------------------------
def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


class Doc:
    def __init__(self, path: Path, text: str, sites: dict[str, tuple[int, str]]) -> None:
        self.uri = path.as_uri()
        self.lines = text.split("\n")
        self.sites = sites
        self.base = {kind: self.lines[line] for kind, (line, _) in sites.items()}
        self.version = 1

    def text(self) -> str:
        return "\n".join(self.lines)

    def at_base(self, kind: str) -> bool:
        return self.lines[self.sites[kind][0]] == self.base[kind]

    def next_change(self, incremental: bool, kind: str = "def") -> dict:
        """Toggle the `kind` edit (see edit_sites); returns didChange params."""
        line, other = self.sites[kind]
        old = self.lines[line]
        new = other if old == self.base[kind] else self.base[kind]
        self.lines[line] = new
        self.version += 1
        if incremental:
            last = old.split("\n")
            change = {"range": {"start": {"line": line, "character": 0},
                                "end": {"line": line + len(last) - 1, "character": utf16_len(last[-1])}},
                      "text": new}
        else:
            change = {"text": self.text()}
        return {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [change]}


# -- one server ---------------------------------------------------------------------------
@dataclass
class Result:
    name: str
    note: str = ""
    init_ms: float | None = None
    initialized_ms: float | None = None
    open_ms: dict[str, float | None] = field(default_factory=dict)
    lat: dict[str, list[float]] = field(default_factory=dict)
    timeouts: dict[str, int] = field(default_factory=dict)
    rss_before: tuple[int, int] | None = None
    rss_after: tuple[int, int] | None = None
    versioned: bool | None = None
    flood_ms: float | None = None
    flood_publishes: int | None = None
    sync: str = ""
    failed: str = ""
    busy_ms: float | None = None
    index_ms: float | None = None  # workspace run: initialized -> the end of the server's work-done progress


CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": True},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True, "codeDescriptionSupport": True,
                               "dataSupport": True, "tagSupport": {"valueSet": [1, 2]}},
    },
    "workspace": {"workspaceFolders": True},
    "window": {"workDoneProgress": True},
}


async def bench_server(name: str, cmd: list[str], docs: dict[str, tuple[Path, str, dict]], workspace: Path,
                       args: argparse.Namespace, init_options: dict | None, whole_workspace: bool = False) -> Result:
    """`whole_workspace`: the workspace is a big folder the server may index; edits start once its
    work-done progress ended and its publishes went quiet, and there are no quick edits or hovers."""
    res = Result(name)
    stderr_file = tempfile.TemporaryFile()
    t0 = time.perf_counter()
    try:
        proc = await asyncio.create_subprocess_exec(
            *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr_file,
            cwd=workspace, limit=1 << 26,
        )
    except OSError as exc:
        res.failed = f"cannot start: {exc}"
        return res
    client = Client(proc)

    def stderr_tail() -> str:
        stderr_file.seek(0)
        lines = stderr_file.read().decode(errors="replace").strip().splitlines()
        return " | ".join(lines[-3:])[-300:]

    try:
        init = await client.request("initialize", {
            "processId": os.getpid(),
            "clientInfo": {"name": "tclint-bench-lsp"},
            "rootUri": workspace.as_uri(),
            "workspaceFolders": [{"uri": workspace.as_uri(), "name": workspace.name}],
            "capabilities": CAPABILITIES,
            "initializationOptions": init_options,
        }, timeout=args.timeout * 2)
        res.init_ms = 1000 * (time.perf_counter() - t0)
        await client.notify("initialized", {})
        res.initialized_ms = 1000 * (time.perf_counter() - t0)

        sync = (init or {}).get("capabilities", {}).get("textDocumentSync")
        kind = sync.get("change") if isinstance(sync, dict) else sync
        incremental = kind == 2
        res.sync = {0: "none", 1: "full", 2: "incremental"}.get(kind, str(kind))

        open_docs: dict[str, Doc] = {}
        for label, (path, text, sites) in docs.items():
            doc = Doc(path, text, sites)
            open_docs[label] = doc
            mark = client.mark(doc.uri)
            sent = time.perf_counter()
            await client.notify("textDocument/didOpen", {"textDocument": {
                "uri": doc.uri, "languageId": "python", "version": doc.version, "text": text}})
            pub = await client.wait_publish(doc.uri, doc.version, mark, args.timeout * 2)
            res.open_ms[label] = None if pub is None else 1000 * (pub.t - sent)
        if whole_workspace:
            if not await client.wait_idle(began_within=10.0, timeout=args.index_timeout):
                res.note += f"indexing not over within {args.index_timeout:.0f}s; "
            elif client.progress:
                res.index_ms = 1000 * (time.perf_counter() - t0) - res.initialized_ms
            for doc in open_docs.values():  # the re-lint after indexing, then quiet for 2 s
                while await client.wait_publish(doc.uri, None, client.mark(doc.uri), 2.0) is not None:
                    pass
        await asyncio.sleep(0.5)  # let work queued by the open (workspace indexing) settle
        await settle(proc.pid)
        res.rss_before = rss_tree_kb(proc.pid)

        for label, doc in open_docs.items():
            for kind in doc.sites:
                lat, timeouts = [], 0
                for i in range(args.edits + args.edits % 2):  # an even count: the text ends as it began
                    params = doc.next_change(incremental, kind)
                    mark = client.mark(doc.uri)
                    sent = time.perf_counter()
                    await client.notify("textDocument/didChange", params)
                    pub = await client.wait_publish(doc.uri, doc.version, mark, args.timeout)
                    if i >= args.edits:
                        continue
                    if pub is None:
                        timeouts += 1
                    else:
                        lat.append(1000 * (pub.t - sent))
                res.lat[f"{label}:{kind}"], res.timeouts[f"{label}:{kind}"] = lat, timeouts


        doc = next((d for d in (open_docs.get("large"), open_docs.get("small")) if d and "def" in d.sites), None)
        if args.quick_edits > 0 and doc is not None and not whole_workspace:
            mark = client.mark(doc.uri)
            for _ in range(args.quick_edits):
                await client.notify("textDocument/didChange", doc.next_change(incremental))
            sent = time.perf_counter()
            pub = await client.wait_publish(doc.uri, doc.version, mark, args.timeout * 4)
            if pub is not None and pub.version is None:
                # No version in the publishes: wait until the server has been quiet for 1 s.
                while True:
                    later = await client.wait_publish(doc.uri, None, client.mark(doc.uri), 1.0)
                    if later is None:
                        break
                    pub = later
            if pub is None:
                res.note += f"no diagnostics within {args.timeout * 4:.0f}s after {args.quick_edits} quick edits; "
            else:
                res.flood_ms = 1000 * (pub.t - sent)
            res.flood_publishes = client.mark(doc.uri) - mark
            res.rss_after = rss_tree_kb(proc.pid)
        if whole_workspace:
            res.rss_after = rss_tree_kb(proc.pid)
        elif args.hovers > 0:  # last: the copy it opens would count in the RSS after the edits
            await hover_while_busy(client, open_docs, docs, workspace, args, res)
        res.versioned = any(pub.version is not None for pubs in client.publishes.values() for pub in pubs)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not fail
        res.failed = f"{type(exc).__name__}: {exc}".strip()
        if proc.returncode is not None or client.closed.done():
            res.failed += f" (exited; stderr: {stderr_tail()})"
    finally:
        if client.server_requests:
            res.note += "server requests: " + ", ".join(f"{k} x{v}" for k, v in client.server_requests.items()) + "; "
        try:
            if proc.returncode is None and not client.closed.done():
                await client.request("shutdown", None, timeout=10)
                await client.notify("exit", None)
            await asyncio.wait_for(proc.wait(), 10)
        except Exception:  # noqa: BLE001
            pass
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        client.reader.cancel()
        stderr_file.close()
    return res


async def hover_while_busy(client: Client, open_docs: dict[str, Doc], docs: dict, workspace: Path,
                           args: argparse.Namespace, res: Result) -> None:
    """Hover on a finding of the small document, back to back, while the server analyzes a
    copy of the biggest file that it has never seen (a first open)."""
    small = open_docs.get("small")
    pubs = client.publishes.get(small.uri, []) if small else []
    where = next((p.first for p in reversed(pubs) if p.first), None) or {"line": 0, "character": 0}
    big = max(docs, key=lambda label: len(docs[label][1]))
    if small is None or big == "small":
        res.note += "hover during analysis: needs the small file and a big one; "
        return
    copy = workspace / "busy_copy.py"
    text = docs[big][1] + "\n"  # not a text the server has seen
    copy.write_text(text, encoding="utf-8")
    mark = client.mark(copy.as_uri())
    opened = time.perf_counter()
    await client.notify("textDocument/didOpen", {"textDocument": {
        "uri": copy.as_uri(), "languageId": "python", "version": 1, "text": text}})
    busy = asyncio.ensure_future(client.wait_publish(copy.as_uri(), 1, mark, args.timeout * 4))
    params = {"textDocument": {"uri": small.uri}, "position": where}
    lat = []
    for _ in range(args.hovers):
        if busy.done():
            break
        sent = time.perf_counter()
        try:
            await client.request("textDocument/hover", params, timeout=args.timeout)
        except asyncio.TimeoutError:
            res.timeouts["hover"] = res.timeouts.get("hover", 0) + 1
            continue
        except RuntimeError:  # an LSP error answers too
            pass
        if not busy.done():
            lat.append(1000 * (time.perf_counter() - sent))
        await asyncio.sleep(0.01)
    pub = await busy
    res.lat["hover"] = lat
    res.busy_ms = None if pub is None else 1000 * (pub.t - opened)
    await client.notify("textDocument/didClose", {"textDocument": {"uri": copy.as_uri()}})


# -- report -------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def fmt(v: float | None, digits: int = 0) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def mb(rss: tuple[int, int] | None) -> str:
    return "-" if rss is None else f"{rss[0] / 1024:.0f}"


def print_table(results: list[Result], edits: int, quick: int, verbose: bool = False) -> None:
    head = (f"{'server':8s} {'start ms':>9s} {'RSS MB before':>14s} {'RSS MB after':>13s} {'flood ms':>9s} "
            f"{'hover p50':>10s} {'hover p95':>10s} {'busy open ms':>13s}")
    print("\n" + head)
    print("-" * len(head))
    for r in results:
        if r.failed and r.init_ms is None:
            print(f"{r.name:8s} {r.failed}")
            continue
        hover = r.lat.get("hover", [])
        print(f"{r.name:8s} {fmt(r.init_ms):>9s} {mb(r.rss_before):>14s} {mb(r.rss_after):>13s} {fmt(r.flood_ms):>9s} "
              f"{fmt(pct(hover, 50)):>10s} {fmt(pct(hover, 95)):>10s} {fmt(r.busy_ms):>13s}")
    head = f"{'server':8s} {'file':11s} {'open ms':>8s} " + " ".join(f"{k + ' p50/p95':>20s}" for k in EDIT_KINDS)
    print("\n" + head)
    print("-" * len(head))
    for r in results:
        for label in r.open_ms:
            cells = []
            for kind in EDIT_KINDS:
                values = r.lat.get(f"{label}:{kind}")
                lost = r.timeouts.get(f"{label}:{kind}", 0)
                cell = "-" if values is None else f"{fmt(pct(values, 50))}/{fmt(pct(values, 95))}"
                cells.append(f"{cell + (f' ({lost} t/o)' if lost else ''):>20s}")
            print(f"{r.name:8s} {label:11s} {fmt(r.open_ms.get(label)):>8s} " + " ".join(cells))
    print(f"\nstart: spawn -> initialize response; open: didOpen -> first diagnostics; per edit kind, didChange -> "
          f"publishDiagnostics in ms over {edits} edits (t/o: none within the timeout; see edit_sites for the kinds); "
          f"RSS: server + children after opening, and after {quick} quick edits (flood ms: last of them sent -> its "
          f"diagnostics); hover: textDocument/hover on a finding of the small file while the server analyzes a "
          f"first open of a copy of the biggest file (busy open ms: that open -> its diagnostics).")
    for r in results:
        bits = []
        if r.initialized_ms is not None:
            bits.append(f"initialized sent at {r.initialized_ms:.0f} ms")
        if r.index_ms is not None:
            bits.append(f"indexing over {r.index_ms / 1000:.1f} s after initialized")
        if r.sync:
            bits.append(f"sync {r.sync}")
        if "hover" in r.lat:
            bits.append(f"{len(r.lat['hover'])} hovers during the busy open")
        procs = sorted({rss[1] for rss in (r.rss_before, r.rss_after) if rss})
        if procs:
            bits.append(f"RSS over {'/'.join(map(str, procs))} process(es)")
        if r.versioned is False:
            bits.append("publishes carry no version")
        if r.flood_publishes is not None:
            bits.append(f"{r.flood_publishes} publishes during the {quick} quick edits")
        if r.failed:
            bits.append(f"FAILED: {r.failed}")
        if r.note:
            bits.append(r.note.rstrip("; "))
        print(f"  {r.name}: " + "; ".join(bits))
        for label, values in r.lat.items() if verbose else ():
            print(f"    {label} ms: " + " ".join(f"{v:.0f}" for v in values))


def tool_path(name: str, explicit: str | None, extra_dirs: list[Path]) -> str | None:
    if explicit:  # absolute: servers run in the benchmark's workspace
        return str(Path(explicit).absolute()) if Path(explicit).exists() else shutil.which(explicit)
    for d in [Path(sys.executable).parent, *extra_dirs]:
        if (d / name).exists():
            return str(d / name)
    return shutil.which(name)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--servers", default=",".join(SERVERS), help="comma-separated: tclint,fixit,ruff")
    p.add_argument("--edits", type=int, default=50, help="edits per file for the latency percentiles")
    p.add_argument("--quick-edits", type=int, default=1000, help="back-to-back edits before the second RSS reading")
    p.add_argument("--python-for-corpora", help="interpreter whose site-packages hold transformers "
                                                 "(its bin/ folder is also searched for fixit and ruff)")
    p.add_argument("--large-file", help="the large file (default: transformers' seamless_m4t modeling file)")
    p.add_argument("--small-file", help="the ~100-line file (default: examples/tinyvit/layers.py, padded)")
    p.add_argument("--functional-file", help="a second large file (default: torch/nn/functional.py); 'none' skips it")
    p.add_argument("--fixit-edits", type=int, default=6,
                   help="edits per kind for Fixit, which re-lints the whole file on each (seconds on the big ones)")
    p.add_argument("--hovers", type=int, default=200, help="most hovers sent while the server is busy (0: none)")
    p.add_argument("--workspace", help="a folder opened as the workspace for the whole-workspace run (default: "
                                       "transformers' models/ folder, copied once to a stable temporary folder "
                                       "so that summary caches stay warm between runs); 'none' skips that run")
    p.add_argument("--workspace-file", default=str(WORKSPACE_FILE),
                   help="the file edited in the whole-workspace run, relative to the workspace")
    p.add_argument("--workspace-edits", type=int, help="edits per kind in the whole-workspace run (default: --edits)")
    p.add_argument("--index-timeout", type=float, default=3600.0, help="seconds to wait for the server's indexing")
    p.add_argument("--tclint"), p.add_argument("--fixit"), p.add_argument("--ruff")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for one edit's diagnostics")
    p.add_argument("--no-debounce", action="store_true", help="tclint debounceMs=0, fixit --debounce-interval 0")
    p.add_argument("-v", "--verbose", action="store_true", help="also print every edit's latency")
    args = p.parse_args()

    names = [s.strip() for s in args.servers.split(",") if s.strip()]
    for unknown in [n for n in names if n not in SERVERS]:
        print(f"unknown server {unknown!r} ignored (known: {', '.join(SERVERS)})")
    names = [n for n in names if n in SERVERS]

    large_path = Path(args.large_file) if args.large_file else None
    if large_path is None:
        pkg = find_package_dir("transformers", args.python_for_corpora)
        large_path = pkg / LARGE_REL if pkg else None
    texts: dict[str, tuple[str, str]] = {}
    if large_path is not None and large_path.is_file():
        texts["large"] = (large_path.read_text(encoding="utf-8"), str(large_path))
    else:
        print(f"large file not found ({large_path or 'transformers not installed'}): pass --large-file or "
              "--python-for-corpora; skipped")
    functional = Path(args.functional_file) if args.functional_file else None
    if functional is None:
        torch_dir = find_package_dir("torch", args.python_for_corpora)
        functional = torch_dir / "nn" / "functional.py" if torch_dir else None
    if args.functional_file != "none" and functional is not None and functional.is_file():
        texts["functional"] = (functional.read_text(encoding="utf-8"), str(functional))
    try:
        texts["small"] = small_text(args.small_file)
    except OSError as exc:
        print(f"small file: {exc}; skipped")

    workspace = Path(tempfile.mkdtemp(prefix="bench-lsp-"))
    docs: dict[str, tuple[Path, str, dict]] = {}
    for label, (text, origin) in texts.items():
        sites = edit_sites(text)
        if not sites:
            print(f"{label}: nothing to edit in {origin}; skipped")
            continue
        path = workspace / f"{label}_model.py"
        path.write_text(text, encoding="utf-8")
        docs[label] = (path, text, sites)
        print(f"{label}: {origin}, {text.count(chr(10))} lines; edits: " + ", ".join(
            f"{kind} line {line + 1}" for kind, (line, _) in sites.items()))

    ws_root = workspace_folder(args)
    ws_docs: dict[str, tuple[Path, str, dict]] = {}
    if ws_root is not None:
        edited = ws_root / args.workspace_file
        text = edited.read_text(encoding="utf-8") if edited.is_file() else ""
        sites = edit_sites(text)
        if sites:
            ws_docs["workspace"] = (edited, text, sites)
            count = sum(1 for _ in ws_root.rglob("*.py"))
            print(f"whole workspace: {ws_root} ({count} .py files); edits in {edited}: " + ", ".join(
                f"{kind} line {line + 1}" for kind, (line, _) in sites.items()))
        else:
            print(f"whole workspace: nothing to edit in {edited}; skipped")

    extra = [Path(args.python_for_corpora).parent] if args.python_for_corpora else []
    exe = {"tclint": tool_path("tclint", args.tclint, extra), "fixit": tool_path("fixit", args.fixit, extra),
           "ruff": tool_path("ruff", args.ruff, extra)}
    print(f"cores: {os.cpu_count()}  load: {os.getloadavg()[0]:.2f}  edits: {args.edits}  quick edits: "
          f"{args.quick_edits}  debounce: {'off' if args.no_debounce else 'server defaults'}  workspace: {workspace}")
    results, ws_results = [], []
    if not docs and not ws_docs:
        print("nothing to edit; done")
    for name in names if docs or ws_docs else []:
        if not exe[name]:
            print(f"{name}: not installed, skipped")
            continue
        init_options = None
        if name == "tclint":
            cmd = [exe[name], "server"]
            if args.no_debounce:
                init_options = {"debounceMs": 0}
        elif name == "fixit":
            cmd = [exe[name], "lsp"] + (["--debounce-interval", "0"] if args.no_debounce else [])
        else:
            cmd = [exe[name], "server"]
        try:
            version = subprocess.run([exe[name], "--version"], check=False, capture_output=True, text=True,
                                     timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            version = ""
        print(f"{name}: {' '.join(cmd)}  ({version.splitlines()[0] if version else 'version unknown'}) ...", flush=True)
        # Fixit lints a whole file per edit (seconds on the big ones): fewer edits per kind.
        run_args = argparse.Namespace(**{**vars(args), "edits": min(args.edits, args.fixit_edits)}) \
            if name == "fixit" else args
        if docs:
            start = time.perf_counter()
            res = asyncio.run(bench_server(name, cmd, docs, workspace, run_args, init_options))
            if run_args.edits != args.edits:
                res.note += f"{run_args.edits} edits per kind (--fixit-edits); "
            print(f"  done in {time.perf_counter() - start:.1f} s" + (f"; {res.failed}" if res.failed else ""), flush=True)
            results.append(res)
        if ws_docs:
            start = time.perf_counter()
            ws_edits = args.workspace_edits or args.edits
            ws_args = argparse.Namespace(**{**vars(args), "edits": min(ws_edits, args.fixit_edits)
                                            if name == "fixit" else ws_edits})
            res = asyncio.run(bench_server(name, cmd, ws_docs, ws_root, ws_args, init_options, whole_workspace=True))
            print(f"  whole workspace done in {time.perf_counter() - start:.1f} s"
                  + (f"; {res.failed}" if res.failed else ""), flush=True)
            ws_results.append(res)
    if results:
        print_table(results, args.edits, args.quick_edits, args.verbose)
    if ws_results:
        print(f"\nwhole workspace {ws_root}, edits in {args.workspace_file} once the server's indexing is over "
              "(RSS before: after indexing; after: after the edits):")
        print_table(ws_results, args.workspace_edits or args.edits, 0, args.verbose)
    shutil.rmtree(workspace, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(0)
    except Exception as exc:  # noqa: BLE001 - a benchmark prints, it never fails a build
        print(f"bench_lsp: {type(exc).__name__}: {exc}")
        sys.exit(0)
