"""What reading installed libraries costs an edit in `tclint server` (issue 8's library item).

A small project whose compiled function calls torchdiffeq's `odeint` is opened in the
server run by this interpreter, then edited (a call added to and removed from a function
body, in turn); each didChange is timed to its publishDiagnostics. The same project run
with the import renamed to a package that is not installed is the baseline: the same code,
no library read. Needs torchdiffeq installed for this interpreter (`pip install --no-deps
torchdiffeq`: only its source is read).

    .venv/bin/python benchmarks/bench_library_edits.py [--edits 40]
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from lsp_wire import Server  # noqa: E402

MODEL = textwrap.dedent("""\
    import torch
    from torch import nn
    from torchdiffeq import odeint


    class ODEFunc(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim, 64), nn.Tanh(), nn.Linear(64, dim))

        def forward(self, t, y):
            return self.net(y)


    @torch.compile
    def solve(func, y0, t):
        return odeint(func, y0, t, method="dopri5")
""")


def _published(srv: Server, uri: str, version: int, timeout: float = 60.0) -> list:
    deadline = time.monotonic() + timeout
    seen = 0
    while time.monotonic() < deadline:
        for m in srv.notifications[seen:]:
            p = m.get("params") or {}
            if m["method"] == "textDocument/publishDiagnostics" and p.get("uri") == uri and p.get("version") == version:
                return p["diagnostics"]
        seen = len(srv.notifications)
        time.sleep(0.001)
    raise TimeoutError(f"no diagnostics for version {version}")


def session(root: Path, text: str, edits: int) -> tuple[float, list[float], list[str]]:
    """First open (ms), each edit's latency (ms), the last diagnostics' codes."""
    (root / "odeproj").mkdir(parents=True)
    (root / "odeproj" / "__init__.py").write_text("")
    model = root / "odeproj" / "model.py"
    model.write_text(text)
    uri = model.as_uri()
    texts = [text, text.replace("return self.net(y)", "return self.net(y).tanh()")]
    with Server(cwd=tempfile.gettempdir()) as srv:
        srv.initialize(root / "odeproj")
        start = time.monotonic()
        srv.open(uri, text, 1)
        codes = [d["code"] for d in _published(srv, uri, 1)]
        first = 1000 * (time.monotonic() - start)
        times = []
        for version in range(2, edits + 2):
            start = time.monotonic()
            srv.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"text": texts[version % 2]}]})
            codes = [d["code"] for d in _published(srv, uri, version)]
            times.append(1000 * (time.monotonic() - start))
            time.sleep(0.05)  # one edit at a time: no debounce merges two
        srv.stop()
    return first, sorted(times), codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=40)
    args = parser.parse_args()
    if importlib.util.find_spec("torchdiffeq") is None:
        sys.exit("torchdiffeq is not installed for this interpreter (pip install --no-deps torchdiffeq)")
    for label, text in (("torchdiffeq read", MODEL),
                        ("not installed", MODEL.replace("from torchdiffeq", "from torchdiffeq_absent"))):
        with tempfile.TemporaryDirectory() as tmp:
            first, times, codes = session(Path(tmp), text, args.edits)
        p95 = times[max(0, int(0.95 * len(times)) - 1)]
        print(f"{label:17} first open {first:6.0f} ms   didChange p50 {statistics.median(times):4.0f} ms"
              f"  p95 {p95:4.0f} ms   findings {codes}")


if __name__ == "__main__":
    main()
