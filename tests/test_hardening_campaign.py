"""A fuzz campaign: generated programs (hypothesmith), mutated real files, hostile hand-made
inputs, odd trees and configs, and a workspace that plants modules, linted cold, warm and in
parallel; then the language server under faults and load (test_lsp_campaign, at the end).

Every CLI run must end with exit 0 or 1 (2, with a one-line message, for a config that is
wrong by design), no traceback, no internal error (TC004), within its time limit, and a warm
run must print what the cold run printed; no planted module may run. `TCLINT_CAMPAIGN_SECONDS`
sets the length of the whole campaign (100 s by default, for CI; the issue's campaign ran
1800), shared out by PARTS; `TCLINT_CAMPAIGN_SEED` the first seed. The counts are printed
(pytest -s).
"""
from __future__ import annotations

import collections
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "analyzer" / "rules").glob("t*.py"))
HOSTILE = [
    b"x = " + b"(" * 1300 + b"1" + b")" * 1300 + b"\n",
    b"x = " + b"not " * 20000 + b"1\n",
    b"x = a" + b".b" * 3000 + b"\n",
    b"x = " + b"1+" * 30000 + b"1\n",
    b"# coding: idna\nx = 1\n",
    b"# coding: no-such-codec\nx = 1\n",
    b"\xef\xbb\xbfimport torch\n@torch.compile\ndef f(x):\n    return x.item()\n",
    b"x = 1\0\n",
    b"def f(:\n",
    b"\r\n".join([b"import torch", b"@torch.compile", b"def f(x):", b"    return x.tolist()"]),
]
NOTEBOOKS = [
    b'{"cells": [{"cell_type": "code", "source": [1, 2]}]}',
    b"[" * 50000 + b"]" * 50000,
    b'{"cells": "no"}',
    b"\xff\xfe",
    json.dumps({"cells": [{"cell_type": "code", "source": "import torch\n@torch.compile\ndef f(x):\n"},
                          {"cell_type": "code", "source": ["    return x.item()\n"]}]}).encode(),
]
PLANTED = ["argparse.py", "logging/__init__.py", "multiprocessing/__init__.py", "tclint/__init__.py"]
# [tool.tclint] tables: odd but valid (exit 0 or 1), and wrong (exit 2, with a message).
GOOD_CONFIGS = [
    "", "exclude = []", 'exclude = ["**/*"]', 'extend-exclude = ["h*.py", "[!a-z]*"]', "max-file-size = 1",
    'select = ["TC"]', 'ignore = ["TC1"]', "respect-gitignore = false", 'cache-dir = "/"',
    'roots = ["m0:f", "no.such:Thing.method"]', 'severity = {TC1 = "hint"}',
    'per-file-ignores = {"*" = ["TC"]}', "assume-forward-compiled = true",
]
BAD_CONFIGS = [
    'exclude = ["\\\\"]', "roots = " + "[" * 5000 + "]" * 5000, "max-file-size = -1", 'select = ["NOPE9"]',
    "exclude = 3", "no-such-key = 1", 'severity = {TC1 = "loud"}', "dynamo = []", 'confirm = {device = 1}',
    "x = [", "\0",
]
PARTS = {"programs": 0.15, "trees": 0.5, "lsp": 0.35}  # shares of TCLINT_CAMPAIGN_SECONDS


def _seconds(part: str) -> float:
    return float(os.environ.get("TCLINT_CAMPAIGN_SECONDS", "100")) * PARTS[part]


def _seed() -> int:
    return int(os.environ.get("TCLINT_CAMPAIGN_SEED", "2026"))


def test_generated_programs():
    """hypothesmith's programs, in batches of 25 under successive seeds until the time is up:
    the analyzer turns each into diagnostics, never an internal error (TC004)."""
    import hypothesmith
    from hypothesis import HealthCheck, given, seed, settings
    from hypothesis import strategies as st

    from tclint.analyzer import api

    prefixes = st.sampled_from(["", "import torch\n@torch.compile\ndef f(x):\n    return x\n",
                                "import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n"
                                "        return x\n"])
    programs = [0]

    @settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(prefix=prefixes, program=hypothesmith.from_grammar())
    def lint(prefix, program):
        programs[0] += 1
        text = prefix + program
        internal = [d.message for d in api.lint_source(text, path="generated.py") if d.code == "TC004"]
        assert not internal, f"{internal}\n--- program ---\n{text}"

    deadline = time.monotonic() + _seconds("programs")
    batch = 0
    while time.monotonic() < deadline or batch == 0:
        seed(_seed() + batch)(lint)()
        batch += 1
    print(f"\nprograms: {json.dumps({'programs': programs[0], 'batches': batch, 'internal-error': 0})}")


def _mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        if not out:
            break
        i = rng.randrange(len(out))
        what = rng.randrange(5)
        if what == 0:
            del out[i:i + rng.randrange(1, 40)]
        elif what == 1:
            out[i:i] = rng.choice([b"(", b")", b"[", b":", b"\n    ", b"\\", b'"""', b"\xff", b"\0", b".item()"])
        elif what == 2:
            out[i] ^= 1 << rng.randrange(8)
        elif what == 3:
            j = rng.randrange(len(out))
            out[i:i] = out[j:j + rng.randrange(1, 200)]
        else:
            del out[i:]
    return bytes(out)


def _tree(folder: Path, rng: random.Random, markers: Path) -> bool:
    """A tree to lint; True when its config is wrong by design."""
    folder.mkdir()
    for n, src in enumerate(rng.sample(SOURCES, min(8, len(SOURCES)))):
        (folder / f"m{n}.py").write_bytes(_mutate(src.read_bytes(), rng))
    for n, data in enumerate(rng.sample(HOSTILE, 3)):
        (folder / f"h{n}.py").write_bytes(data)
    (folder / f"nb{rng.randrange(99)}.ipynb").write_bytes(rng.choice(NOTEBOOKS))
    (folder / os.fsdecode(b"odd\xff.py")).write_bytes(rng.choice(HOSTILE[4:]))
    pkg = folder / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "loop").symlink_to(pkg)
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.py")
        (folder / "zero.py").symlink_to("/dev/zero")
    for rel in PLANTED:
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"open({str(markers / rel.replace('/', '_'))!r}, 'a').write('ran')\n")
    if rng.random() < 0.4:
        bad = rng.random() < 0.5
        table = rng.choice(BAD_CONFIGS if bad else GOOD_CONFIGS)
        (folder / "pyproject.toml").write_text(f"[tool.tclint]\n{table}\n")
        return bad
    return False


def _lint(folder: Path, cache: Path, *args: str, bad_config: bool = False) -> tuple[str, subprocess.CompletedProcess | None]:
    env = {**os.environ, "TCLINT_CACHE_DIR": str(cache), "PYTHONIOENCODING": "utf-8"}
    script = Path(sys.executable).with_name("tclint")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "tclint.analyzer"]
    try:
        proc = subprocess.run([*command, "--format", "json", *args, "."], cwd=folder, env=env,
                              capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "hang", None
    err = proc.stderr.decode(errors="replace")
    if "Traceback" in err or proc.returncode not in (0, 1, 2):
        return "crash", proc
    if bad_config:
        return ("ok", proc) if proc.returncode == 2 and len(err.strip().splitlines()) == 1 else ("bad-config-not-2", proc)
    if proc.returncode == 2:
        return "exit-2", proc
    if b'"TC004"' in proc.stdout:
        return "internal-error", proc
    return "ok", proc


def test_campaign(tmp_path):
    seconds = _seconds("trees")
    rng = random.Random(_seed())
    counts = {"trees": 0, "runs": 0, "bad-configs": 0, "crash": 0, "hang": 0, "exit-2": 0, "bad-config-not-2": 0,
              "internal-error": 0, "warm-differs": 0}
    failures = []
    markers = tmp_path / "markers"
    markers.mkdir()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline or counts["trees"] == 0:
        n = counts["trees"]
        counts["trees"] += 1
        folder, cache = tmp_path / f"tree{n}", tmp_path / f"cache{n}"
        bad_config = _tree(folder, rng, markers)
        counts["bad-configs"] += bad_config
        outputs = []
        for args in ((), (), ("--no-cache", "--jobs", "2")):
            counts["runs"] += 1
            verdict, proc = _lint(folder, cache, *args, bad_config=bad_config)
            if verdict != "ok":
                counts[verdict] += 1
                failures.append((n, args, verdict, proc.stderr.decode(errors="replace")[-2000:] if proc else ""))
                break
            outputs.append(proc.stdout)
        if len(outputs) == 3 and not (outputs[0] == outputs[1] == outputs[2]):
            counts["warm-differs"] += 1
            failures.append((n, (), "warm-differs", ""))
    counts["markers"] = len(list(markers.iterdir()))
    print(f"\ncampaign: {json.dumps(counts)}")
    assert not failures, failures[:3]
    assert counts["markers"] == 0


# -- the language server: faults and load -------------------------------------------------

LSP_REQUESTS = ["textDocument/hover", "textDocument/codeAction", "textDocument/completion",
                "textDocument/diagnostic", "workspace/executeCommand", "textDocument/documentSymbol",
                "textDocument/didOpen", "initialize", "$/cancelRequest", "no/such"]


def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False, 0, -1, 2**31, 2**40, -2**63, 1.5])
    if kind == 2:
        return rng.choice(["", "x", "file:///", "\0", "\udcff" if False else "\u00ff", "../../etc/passwd"])
    if kind == 3:
        return rng.randrange(-3, 50)
    if kind == 4:
        return "a" * rng.randrange(0, 300)
    if kind == 5:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["textDocument", "position", "range", "context", "uri", "line", "character", "start", "end",
            "command", "arguments", "diagnostics", "id", "x"]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def _position(rng: random.Random) -> dict:
    def coordinate() -> int:
        return rng.choice([0, 1, 3, 10, 500, rng.randrange(200), -1, 2**31 - 1, 2**40])
    return {"line": coordinate(), "character": coordinate()}


def _lsp_params(rng: random.Random, method: str, uri: str):
    if rng.random() < 0.3:
        return _random_json(rng)
    doc = {"uri": uri}
    rng_range = {"start": _position(rng), "end": _position(rng)}
    if method == "textDocument/codeAction":
        return {"textDocument": doc, "range": rng_range, "context": {"diagnostics": []}}
    if method == "workspace/executeCommand":
        return {"command": rng.choice(["tclint.confirmFile", "tclint.confirmWorkspace", "tclint.openDocumentation",
                                       "nope"]), "arguments": rng.choice([[uri], [], [None], [{"uri": uri}]])}
    if method == "textDocument/diagnostic":
        return {"textDocument": doc}
    return {"textDocument": doc, "position": _position(rng)}


def _bad_frame(rng: random.Random, id: int) -> tuple[bytes, bool]:
    """A malformed frame, and whether its id can still be read (so it must be answered)."""
    body = json.dumps({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {}}).encode()
    kind = rng.randrange(6)
    if kind == 0:
        return f"Content-Length: {rng.choice(['abc', '-5', '', '99999999999999'])}\r\n\r\n".encode() + body, True
    if kind == 1:
        return f"Content-Length: {len(body) + rng.randrange(1, 5000)}\r\n\r\n".encode() + body, True
    if kind == 2:  # cut short: its id may be cut off, then only the bytes after it are skipped
        cut = rng.randrange(1, len(body))
        return f"Content-Length: {cut}\r\n\r\n".encode() + body, b'"id": %d' % id in body[:cut]
    if kind == 3:
        return f"Content-Length: {len(body) - 1}\r\n\r\n".encode() + body[:-1], True  # invalid JSON
    if kind == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\r\n\r\n", False
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body, True  # well formed: InvalidParams


def _lsp_workspace(folder: Path, rng: random.Random, markers: Path) -> None:
    folder.mkdir()
    for n, src in enumerate(rng.sample(SOURCES, min(6, len(SOURCES)))):
        (folder / f"m{n}.py").write_bytes(_mutate(src.read_bytes(), rng))
    (folder / "big.py").write_text("import torch\n\n" + "".join(
        f"def f{i}(x):\n    return x.sum() + {i}\n\n" for i in range(2500)))  # over the worker's threshold
    (folder / "h.py").write_bytes(rng.choice(HOSTILE))
    for rel in PLANTED:
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"open({str(markers / rel.replace('/', '_'))!r}, 'a').write('ran')\n")


def _edit(rng: random.Random, text: str) -> dict:
    lines = text.count("\n") + 1
    start = {"line": rng.randrange(lines + 2), "character": rng.randrange(80)}
    end = rng.choice([start, {"line": start["line"] + rng.randrange(3), "character": rng.randrange(80)}])
    return {"range": {"start": start, "end": end},
            "text": rng.choice(["", "x", "(", ")", "\n", "    ", ".item()", "import torch\n", "\udcff"[:0] + "é"])}


ANSWER_WITHIN_S = 30.0  # generous: the CI machine is slow, and a request may wait for a lint run


def _diagnostics_of(server, uri: str, timeout: float = 120) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for n in server.notifications:
            if "Diagnostics" in n["method"] and n["params"].get("uri") == uri:
                return n["params"]["diagnostics"]
        time.sleep(0.1)
    return []


def _warm_features(server, folder: Path) -> None:
    """Open a file with findings, ask hover, code actions, completion, symbols and a command at
    its first finding, and close it."""
    warm = folder / "warm.py"
    warm.write_text((ROOT / "examples" / "tinyvit" / "layers.py").read_text())
    uri = warm.as_uri()
    server.open(uri, warm.read_text())
    found = _diagnostics_of(server, uri)
    at = found[0]["range"] if found else {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}
    doc = {"uri": uri}
    for method, params in [
            ("textDocument/hover", {"textDocument": doc, "position": at["start"]}),
            ("textDocument/codeAction", {"textDocument": doc, "range": at, "context": {"diagnostics": found[:1]}}),
            ("textDocument/completion", {"textDocument": doc, "position": at["end"]}),
            ("textDocument/documentSymbol", {"textDocument": doc}),
            ("textDocument/diagnostic", {"textDocument": doc}),
            ("workspace/executeCommand", {"command": "tclint.openDocumentation", "arguments": [uri]})]:
        server.call(method, params, timeout=ANSWER_WITHIN_S)
    server.close_doc(uri)


def test_lsp_campaign(tmp_path):
    """The server as the VS Code extension starts it (its workspace plants modules) under
    malformed frames, random requests with random params, rapid edits and open/close churn.
    Every request must be answered within a bound, the server must never die, stderr must hold
    no traceback, memory must come back, no child may outlive it and no planted module run."""
    from lsp_wire import Server, alive, descendants, rss_kb

    seconds = _seconds("lsp")
    rng = random.Random(_seed() + 1)
    markers = tmp_path / "markers"
    markers.mkdir()
    folder, neutral = tmp_path / "ws", tmp_path / "neutral"
    _lsp_workspace(folder, rng, markers)
    neutral.mkdir()
    counts = {"servers": 0, "requests": 0, "answered": 0, "errors": 0, "unanswered": 0, "bad-frames": 0,
              "edits": 0, "opens": 0, "closes": 0, "crash": 0, "slow-answers": 0, "hang": 0, "tracebacks": 0,
              "exit-status-not-0": 0, "leftover-processes": 0}
    failures = []

    def tree_mb(pid: int) -> float:
        return sum(rss_kb(p) for p in {pid} | descendants(pid) if alive(p)) / 1024

    deadline = time.monotonic() + seconds
    memory = []
    slowest = 0.0
    while time.monotonic() < deadline or counts["servers"] == 0:
        counts["servers"] += 1
        with Server(cwd=neutral) as server:  # as the VS Code extension starts it
            server.initialize(folder)
            open_docs: dict[str, str] = {}
            uris = [(folder / f"m{n}.py").as_uri() for n in range(3)] + [(folder / "new.py").as_uri()]
            # A warm baseline: the parse worker started, a big document linted and every feature
            # asked once on a file with findings, so what the churn loads lazily is loaded already.
            big = (folder / "big.py").as_uri()
            server.open(big, (folder / "big.py").read_text())
            _diagnostics_of(server, big)
            server.close_doc(big)
            _warm_features(server, folder)
            time.sleep(3)
            before = tree_mb(server.proc.pid)
            waiting: dict[int, tuple[float, str]] = {}  # id -> (when sent, method)
            next_id = 1000
            server_end = max(time.monotonic() + 20, min(deadline, time.monotonic() + seconds / 4))
            while time.monotonic() < server_end and server.proc.poll() is None:
                what = rng.randrange(10)
                uri = rng.choice(uris)
                try:
                    if what < 3:  # a request with (often) random params
                        next_id += 1
                        method = rng.choice(LSP_REQUESTS)
                        if method in ("$/cancelRequest",):
                            server.notify(method, {"id": rng.choice(list(waiting) or [1])})
                        else:
                            server.request(method, _lsp_params(rng, method, uri), id=next_id)
                            waiting[next_id] = (time.monotonic(), method)
                    elif what == 3:
                        next_id += 1
                        data, answered = _bad_frame(rng, next_id)
                        server.send_raw(data)
                        counts["bad-frames"] += 1
                        if answered:
                            waiting[next_id] = (time.monotonic(), "a malformed frame")
                    elif what < 8:  # rapid edits
                        if uri not in open_docs:
                            continue
                        for _ in range(rng.randrange(1, 20)):
                            server.notify("textDocument/didChange", {
                                "textDocument": {"uri": uri, "version": counts["edits"]},
                                "contentChanges": [_edit(rng, open_docs[uri])]})
                            counts["edits"] += 1
                    elif uri in open_docs:
                        server.close_doc(uri)
                        del open_docs[uri]
                        counts["closes"] += 1
                    else:
                        src = rng.choice(SOURCES).read_bytes()
                        open_docs[uri] = _mutate(src, rng).decode("utf-8", "replace")
                        server.open(uri, open_docs[uri])
                        counts["opens"] += 1
                except (BrokenPipeError, OSError):
                    break
                time.sleep(rng.choice([0, 0, 0.01, 0.05]))
            for uri in list(open_docs):
                server.close_doc(uri)
            # A frame that claims more bytes than it has is known to be cut only once the next
            # header comes: send one.
            waiting[server.request("textDocument/hover", _lsp_params(rng, "textDocument/hover", uri))] = (
                time.monotonic(), "textDocument/hover")
            for id, (sent, method) in waiting.items():
                counts["requests"] += 1
                answer = server.response(id, max(1.0, ANSWER_WITHIN_S + 30 - (time.monotonic() - sent)))
                if answer is None:
                    counts["unanswered"] += 1
                    failures.append(("unanswered", id, method))
                else:
                    counts["answered"] += 1
                    counts["errors"] += "error" in answer
                    latency = server.arrived[id] - sent
                    slowest = max(slowest, latency)
                    if latency > ANSWER_WITHIN_S:
                        counts["slow-answers"] += 1
                        failures.append(("slow answer", id, method, round(latency, 1)))
            if server.proc.poll() is not None:
                counts["crash"] += 1
                failures.append(("crash", server.proc.returncode, server.stderr()[-2000:]))
                continue
            time.sleep(3)
            after = tree_mb(server.proc.pid)
            memory.append((round(before), round(after)))
            children = descendants(server.proc.pid)
            status = server.stop(timeout=30)
            if status is None:
                counts["hang"] += 1
                failures.append(("no exit", server.stderr()[-2000:]))
            elif status != 0:
                counts["exit-status-not-0"] += 1
                failures.append(("exit status", status, server.stderr()[-2000:]))
            time.sleep(1)
            left = [p for p in children if alive(p)]
            counts["leftover-processes"] += len(left)
            log = server.stderr()
            if "Traceback" in log:
                counts["tracebacks"] += 1
                failures.append(("traceback", log[log.index("Traceback"):][:2000]))
    counts["markers"] = len(list(markers.iterdir()))
    print(f"\nlsp campaign: {json.dumps(counts)} slowest answer {slowest:.1f} s; "
          f"memory MB before/after per server: {memory}")
    assert not failures, (collections.Counter(f[:1] + f[2:3] for f in failures), failures[:3])
    assert counts["requests"] > 0 and counts["edits"] > 0 and counts["bad-frames"] > 0
    assert counts["markers"] == 0, sorted(p.name for p in markers.iterdir())
    assert counts["leftover-processes"] == 0
    # Flat: once its documents closed, a server (with its parse worker) holds what it held
    # before the churn, give or take what a loaded machine's allocator keeps.
    assert all(after <= before + 10 for before, after in memory), memory
