"""A short fuzz campaign of the CLI: mutated real files, hostile hand-made inputs, odd
trees and a workspace that plants modules, linted cold, warm and in parallel.

Every run must end with exit 0 or 1, no traceback, no internal error (TC004), within its
time limit, and a warm run must print what the cold run printed; no planted module may
run. `TCLINT_CAMPAIGN_SECONDS` sets the length (60 s by default; the issue's campaign ran
it for 30 minutes), `TCLINT_CAMPAIGN_SEED` the first seed. The counts are printed.
"""
from __future__ import annotations

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


def _tree(folder: Path, rng: random.Random, markers: Path) -> None:
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


def _lint(folder: Path, cache: Path, *args: str) -> tuple[str, subprocess.CompletedProcess | None]:
    env = {**os.environ, "TCLINT_CACHE_DIR": str(cache), "PYTHONIOENCODING": "utf-8"}
    script = Path(sys.executable).with_name("tclint")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "tclint.analyzer"]
    try:
        proc = subprocess.run([*command, "--format", "json", *args, "."], cwd=folder, env=env,
                              capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "hang", None
    err = proc.stderr.decode(errors="replace")
    if proc.returncode not in (0, 1) or "Traceback" in err:
        return "crash", proc
    if b'"TC004"' in proc.stdout:
        return "internal-error", proc
    return "ok", proc


def test_campaign(tmp_path):
    seconds = float(os.environ.get("TCLINT_CAMPAIGN_SECONDS", "60"))
    rng = random.Random(int(os.environ.get("TCLINT_CAMPAIGN_SEED", "2026")))
    counts = {"trees": 0, "runs": 0, "crash": 0, "hang": 0, "internal-error": 0, "warm-differs": 0}
    failures = []
    markers = tmp_path / "markers"
    markers.mkdir()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline or counts["trees"] == 0:
        n = counts["trees"]
        counts["trees"] += 1
        folder, cache = tmp_path / f"tree{n}", tmp_path / f"cache{n}"
        _tree(folder, rng, markers)
        outputs = []
        for args in ((), (), ("--no-cache", "--jobs", "2")):
            counts["runs"] += 1
            verdict, proc = _lint(folder, cache, *args)
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
