"""Speed of `tclint` against TorchFix and Fixit on real code, measured in the same run.

Usage:
    python benchmarks/bench_cli.py [--corpus NAME=PATH ...] [--tools tclint,torchfix,fixit]
                                   [--limit-files N] [--skip-warm]

Default corpora: the installed `transformers` package's `models/` folder (large) and
`torch/nn` (medium), found without importing either. Each tool runs as a subprocess; CPU
seconds come from the children's rusage, so multi-process tools are counted in full.
Prints lines/s and CPU ms per line for each tool and its ratio to tclint. Never fails:
a missing tool or corpus is reported and skipped.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def find_package_dir(name: str, python: str | None) -> Path | None:
    if python:
        code = f"import importlib.util as u; s = u.find_spec({name!r}); print(s.submodule_search_locations[0] if s else '')"
        out = subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip()
        return Path(out) if out else None
    spec = importlib.util.find_spec(name)
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


def corpus_files(root: Path, limit: int | None) -> list[Path]:
    files = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    return files[:limit] if limit else files


def count_lines(files: list[Path]) -> int:
    return sum(p.read_bytes().count(b"\n") for p in files)


def run_tool(cmd: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process tree, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def tool_path(name: str, explicit: str | None) -> str | None:
    if explicit:
        return explicit
    sibling = Path(sys.executable).parent / name
    return str(sibling) if sibling.exists() else shutil.which(name)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", action="append", default=[], help="NAME=PATH (repeatable)")
    p.add_argument("--python-for-corpora", help="interpreter whose site-packages hold transformers and torch")
    p.add_argument("--tools", default="tclint,torchfix,fixit")
    p.add_argument("--tclint"), p.add_argument("--torchfix"), p.add_argument("--fixit")
    p.add_argument("--limit-files", type=int, help="lint only the first N files of each corpus (a quick sample)")
    p.add_argument("--skip-warm", action="store_true", help="skip tclint's warm (cached) re-run")
    args = p.parse_args()

    corpora: list[tuple[str, Path]] = []
    for spec in args.corpus:
        name, _, path = spec.partition("=")
        corpora.append((name, Path(path)))
    if not corpora:
        tf = find_package_dir("transformers", args.python_for_corpora)
        torch_dir = find_package_dir("torch", args.python_for_corpora)
        if tf:
            corpora.append(("transformers/models", tf / "models"))
        if torch_dir:
            corpora.append(("torch/nn", torch_dir / "nn"))
    if not corpora:
        print("no corpus found: pass --corpus NAME=PATH")
        return 0

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    exe = {t: tool_path(t, getattr(args, t, None)) for t in tools}
    print(f"cores: {os.cpu_count()}  tools: " + ", ".join(f"{t}={exe[t] or 'MISSING'}" for t in tools))

    tclint = exe.get("tclint")
    if tclint:
        start = time.perf_counter()
        subprocess.run([tclint, "--version"], capture_output=True)
        print(f"tclint --version: {time.perf_counter() - start:.3f} s")

    for name, root in corpora:
        files = corpus_files(root, args.limit_files)
        if not files:
            print(f"\n{name}: no Python files under {root}")
            continue
        lines = count_lines(files)
        print(f"\n== {name}: {len(files)} files, {lines} lines ({root})")
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            # A private copy: tools that honour .gitignore (Fixit) would skip a corpus that
            # lives inside a virtual environment of a git checkout.
            copy_root = work / "corpus"
            for f in files:
                dest = copy_root / f.relative_to(root)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, dest)
            subprocess.run(["git", "init", "-q", str(copy_root)], check=False)
            listing = [str(copy_root / f.relative_to(root)) for f in files]
            results: dict[str, tuple[float, float, int]] = {}
            for tool in tools:
                path = exe.get(tool)
                if not path:
                    print(f"  {tool:22s} missing, skipped")
                    continue
                if tool == "tclint":
                    runs = {
                        "tclint (1 process)": [path, "--no-cache", "--jobs", "1", "--exit-zero", *listing],
                        "tclint (all cores)": [path, "--no-cache", "--exit-zero", *listing],
                    }
                elif tool == "torchfix":
                    runs = {"torchfix": [path, *listing]}
                else:
                    runs = {"fixit": [path, "lint", *listing]}
                for label, cmd in runs.items():
                    results[label] = run_tool(cmd, work)
            if tclint and not args.skip_warm:
                cache = work / "cache"
                cfg = work / "tclint.toml"
                cfg.write_text(f'cache-dir = "{cache}"\n')
                run_tool([tclint, "--config", str(cfg), "--exit-zero", *listing], work)
                results["tclint (warm cache)"] = run_tool([tclint, "--config", str(cfg), "--exit-zero", *listing], work)
            base = results.get("tclint (1 process)")
            print(f"  {'tool':22s} {'wall s':>8s} {'CPU s':>8s} {'lines/s':>10s} {'CPU ms/line':>12s} {'CPU vs tclint':>14s}")
            for label, (wall, cpu, rc) in results.items():
                ratio = f"{cpu / base[1]:.1f}x" if base and base[1] > 0 else "-"
                print(f"  {label:22s} {wall:8.2f} {cpu:8.2f} {lines / wall:10.0f} {1000 * cpu / lines:12.3f} {ratio:>14s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
