"""Runs snippets under Dynamo and prints every graph break as JSON (used by the tests).

Usage: python dynamo_oracle.py < cases.json (or `ask(cases)` from a test), where cases.json is a list of
{"id", "source", "call"}. Each snippet is written to a file, imported, Dynamo is reset,
and `call` is evaluated in the module's namespace with a hook on Dynamo's graph-break
logging (explain() alone misses breaks that close an empty graph), and every graph compiled
up to a point Dynamo could resume from ("step_unsupported", as explain() names it). Each break comes
with the snippet line it happened on. `torch.compile` defaults to the eager backend.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
import tempfile
import warnings


def ask(cases: list[dict], timeout: int = 600) -> dict:
    """The verdicts on `cases` (id -> {breaks, error, frames}), from this script run in a
    child process: the test process never imports torch."""
    proc = subprocess.run([sys.executable, __file__], input=json.dumps(cases), capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def main() -> None:
    warnings.simplefilter("ignore")
    logging.getLogger("torch").setLevel(logging.CRITICAL)
    import torch
    import torch._dynamo
    from torch._dynamo import symbolic_convert as sc
    from torch._dynamo.utils import counters

    events: list[tuple[str, str | None, int | None]] = []
    original = sc.InstructionTranslatorBase.log_graph_break

    def hook(tx, code_options, reason, exc):
        if not getattr(exc, "logged", False):
            stack = getattr(exc, "real_stack", None) or torch._guards.TracingContext.extract_stack()
            frames = [fs for fs in stack if os.path.basename(fs.filename).startswith("tclint_case_")]
            line = frames[-1].lineno if frames else None
            events.append((getattr(exc, "gb_type", None) or type(exc).__name__, line))
        return original(tx, code_options, reason, exc)

    sc.InstructionTranslatorBase.log_graph_break = hook
    step_graph_break = sc.InstructionTranslatorBase.step_graph_break

    def step_hook(tx, continue_inst):
        # A break where Dynamo cannot resume: the graph is compiled up to this checkpoint and
        # explain() lists it as "step_unsupported" on the checkpoint's line.
        summary = tx.frame_summary()
        if os.path.basename(summary.filename).startswith("tclint_case_"):
            events.append(("step_unsupported", summary.lineno))
        return step_graph_break(tx, continue_inst)

    sc.InstructionTranslatorBase.step_graph_break = step_hook
    torch.compile = _eager_by_default(torch.compile)
    cases = json.load(sys.stdin)
    results = {}
    out, sys.stdout = sys.stdout, sys.stderr  # snippets may print
    with tempfile.TemporaryDirectory() as tmp:
        for n, case in enumerate(cases):
            path = os.path.join(tmp, f"tclint_case_{n}.py")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(case["source"])
            torch._dynamo.reset()
            counters.clear()
            events.clear()
            error = None
            try:
                spec = importlib.util.spec_from_file_location(f"tclint_case_{n}", path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module  # inspect (torch.jit.script) finds source through it
                spec.loader.exec_module(module)
                torch.manual_seed(0)
                eval(case["call"], vars(module))
            except Exception as exc:  # reported, the test decides
                error = f"{type(exc).__name__}: {exc}"
            # frames compiled without a graph break: more than one means recompilation
            results[case["id"]] = {"breaks": list(events), "error": error, "frames": counters["frames"]["ok"]}
    json.dump(results, out)


def _eager_by_default(compile_fn):
    """torch.compile with the eager backend unless a backend, mode or options are given:
    graph breaks are Dynamo's alone, and skipping Inductor keeps the examples fast."""

    def compile_eager(model=None, **kwargs):
        if not {"backend", "mode", "options"} & kwargs.keys():
            kwargs["backend"] = "eager"
        return compile_fn(**kwargs) if model is None else compile_fn(model, **kwargs)

    return compile_eager


if __name__ == "__main__":
    main()
