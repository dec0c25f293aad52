"""Ask Dynamo where the audit cases break: writes truth.json for ../../../shared/eval/score.py.

Runs in the audit venv (torch 2.13 CPU and the packages of requirements.txt). Every case runs
in its own child process, twice:
  1. compiled with `torch.compile(backend="eager")`, with a handler on Dynamo's
     `graph_breaks` log artifact (what `TORCH_LOGS=graph_breaks` prints; it sees every break,
     `explain()` only part of them). A break is placed on the innermost frame of its user
     traceback that lies in a studied package: (file, line, Gb_type). A hook on
     `step_graph_break` adds what that log never lists: "step_unsupported" on the line of
     the checkpoint Dynamo compiled up to when it could not resume after a break;
  2. eagerly under `sys.settrace`, recording every line that ran in a studied package.
Paths are relative to site-packages.

    python truth.py [-o truth.json] [-j 2] [--only PREFIX[,PREFIX]] [--merge OLD_TRUTH]
"""
from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import logging
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.realpath(sysconfig.get_paths()["purelib"])
# top-level packages whose files are audited: the packages of requirements.txt and the
# helper packages they pull in, none of them in the shared realworld set
STUDIED = {
    "kornia", "monai", "pyro", "torchsde", "torchmetrics", "vector_quantize_pytorch",
    "st_moe_pytorch", "colt5_attention", "local_attention", "hyper_connections", "diffusers",
    "julius", "entmax", "zuko", "pytorch_metric_learning", "geomloss",
    "torchcde", "normflows", "torch_optimizer", "ncps", "fast_pytorch_kmeans", "rotary_embedding_torch",
    "nystrom_attention", "perceiver_pytorch", "torch_dct", "torchode",
    "auraloss", "torch_ema", "schedulefree", "prodigyopt", "torchcrf", "mambapy", "pytorch_tabnet",
    "asteroid_filterbanks", "performer_pytorch", "axial_positional_embedding", "x_unet",
    "reformer_pytorch", "routing_transformer", "linear_attention_transformer", "linformer",
    "product_key_memory", "mixture_of_experts", "dadaptation", "pytorch_wavelets",
    "snntorch", "pytorch_msssim", "roma", "pytorch_tcn", "rtdl_revisiting_models.py", "ema_pytorch",
    "lion_pytorch", "lambda_networks", "siren_pytorch", "geoopt", "kymatio", "torchkbnufft",
    "peft", "botorch", "esm", "nnAudio", "torchdyn", "nflows", "torchquad", "neuralop", "minGRU_pytorch",
    "gateloop_transformer", "bs_roformer",
    "pytorch_optimizer", "optimi", "adan_pytorch", "FrEIA", "torchmin", "egnn_pytorch",
    "point_transformer_pytorch", "tab_transformer_pytorch", "x_mlps_pytorch",
    "discrete_continuous_embed_readout", "torchfm", "stable_baselines3",
    "conformer", "graph_transformer_pytorch", "mega_pytorch", "h_transformer_1d", "palm_pytorch",
    "madgrad", "adabelief_pytorch", "came_pytorch", "kan", "pytorch_forecasting",
    "torch_struct", "kmeans_pytorch", "torch_kmeans", "sparsemax", "en_transformer",
    "taylor_series_linear_attention", "soft_moe_pytorch", "compressive_transformer_pytorch", "mogrifier",
    "sinkhorn_transformer", "MEGABYTE_pytorch", "torchlayers", "pytorch_lamb",
    "torchlibrosa", "adamp", "charformer_pytorch", "flowtorch", "bayesian_torch", "torchcfm", "pfrl",
    "torchist", "torchkde", "torch_pca", "torchinterp1d",
    "efficientnet_pytorch", "rtdl_num_embeddings.py", "info_nce", "TorchCRF", "torchbnn", "xitorch",
    "torch_cubic_spline_grids", "sophia_opt", "muon.py", "deepctr_torch", "TorchDiffEqPack", "torchjd",
    "captum", "tntorch", "torch_kf", "torch_harmonics", "recurrent_memory_transformer_pytorch",
    "sentence_transformers", "deepxde", "tensorly", "torchani", "tensordict",
    "ignite", "neurodiffeq", "iTransformer", "pykeen", "torch_ppr", "torchattacks",
    "invariant_point_attention", "memory_efficient_attention_pytorch", "hourglass_transformer_pytorch",
    "coca_pytorch",
}
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+)$')
_WRAPPERS = ("Encountered graph break when attempting to trace", "Failed to handle graph break gracefully",
             "Encountered graph break that we cannot resume from", "Graph break encountered")
_HEAD = re.compile(r"Graph break in user code at (?P<file>.+):(?P<line>\d+)$")


def studied(path):
    """site-packages-relative path of a studied file, else None."""
    if not path or path.startswith("<"):
        return None
    p = os.path.realpath(path)
    if not p.startswith(SITE + os.sep):
        return None
    rel = os.path.relpath(p, SITE)
    return rel.replace(os.sep, "/") if rel.split(os.sep, 1)[0] in STUDIED else None


class BreakLog(logging.Handler):
    """Collects the records of Dynamo's graph_breaks artifact logger."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def parse_break(message):
    """(gb_type, reason, [(file, line, name), ...] innermost last) from one log record;
    None for the short record Dynamo writes for a break it already logged."""
    lines = message.splitlines()
    if not lines or not _HEAD.match(lines[0].strip()):
        return None
    reason, frames, in_reason = [], [], False
    for text in lines:
        if text.startswith("Graph Break Reason: "):
            in_reason = True
            text = text[len("Graph Break Reason: "):]
        elif text.startswith("User code traceback:"):
            in_reason = False
        if in_reason:
            reason.append(text)
        m = _FRAME.match(text)
        if m:
            frames.append((m["file"], int(m["line"]), m["name"].strip()))
    if not frames:
        head = _HEAD.match(lines[0].strip())
        frames = [(head["file"], int(head["line"]), "?")]
    # the Gb_type is the cause's own: the first unindented line that is not one of the
    # wrappers Dynamo puts around a break in an inlined call or a skipped frame
    causes = [t.strip() for t in reason if t.strip() and not t.startswith(" ")
              and not t.startswith(_WRAPPERS)]
    gb_type = causes[0] if causes else (reason[0].strip() if reason else "?")
    if gb_type.startswith("generic_jump"):  # legacy wording
        gb_type = "Data-dependent branching"
    return gb_type, " ".join(t.strip() for t in reason if t.strip())[:400], frames


def entry_of(fn):
    """'module:Qualname' of the package function or forward a case calls."""
    import functools

    import torch

    obj = fn
    while isinstance(obj, functools.partial):
        obj = obj.func
    if isinstance(obj, torch.nn.Module):
        obj = type(obj).forward
    elif not inspect.isroutine(obj) and callable(obj):
        obj = type(obj).__call__
    elif inspect.ismethod(obj) and "<locals>" in obj.__func__.__qualname__:
        # a method a decorator wrapped without functools.wraps: the user names the method
        owner = type(obj.__self__)
        name = next((n for c in owner.__mro__ for n, v in vars(c).items() if v is obj.__func__), None)
        if name is not None:
            return owner.__module__ + ":" + owner.__qualname__ + "." + name
    obj = inspect.unwrap(getattr(obj, "__func__", obj))
    try:
        path = studied(inspect.getsourcefile(obj))
    except TypeError:
        path = None
    if path is None or "<locals>" in obj.__qualname__:
        return None
    return obj.__module__ + ":" + obj.__qualname__


def worker(cid, out_path):
    import random

    import numpy as np
    import torch
    import torch._dynamo

    torch.set_num_threads(1)
    sys.path.insert(0, HERE)
    import cases

    c = cases.load_all()[cid]
    torch._logging.set_logs(graph_breaks=True)
    log = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")
    handler = BreakLog()
    log.addHandler(handler)
    log.propagate = False
    for h in list(log.handlers):  # keep the terminal quiet: only our handler listens
        if h is not handler:
            log.removeHandler(h)

    steps = []  # (file, line) of each checkpoint Dynamo compiled up to
    convert = torch._dynamo.symbolic_convert.InstructionTranslatorBase
    step_graph_break = convert.step_graph_break

    def step_hook(tx, continue_inst):
        # a break Dynamo cannot resume from (inside a `try`, a `with` it cannot rebuild):
        # it compiles the frame up to the last checkpoint and runs the rest eagerly; the
        # graph_breaks log never names this "step_unsupported" on the checkpoint's line
        summary = tx.frame_summary()
        steps.append((summary.filename, summary.lineno))
        return step_graph_break(tx, continue_inst)

    convert.step_graph_break = step_hook

    def build():
        random.seed(0)
        np.random.seed(0)
        torch.manual_seed(0)
        return c.build()

    grad = contextlib.nullcontext if c.grad else torch.no_grad
    fn, args, kwargs = build()
    entry = entry_of(fn)
    torch._dynamo.reset()
    error = None
    t0 = time.time()
    try:
        with grad():
            torch.compile(fn, backend="eager")(*args, **kwargs)
    except Exception as e:  # recorded: a case that fails under Dynamo is reported, not hidden
        error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    seconds = time.time() - t0
    torch._dynamo.reset()

    breaks, unplaced = {}, []
    parsed_records = [parse_break(message) for message in handler.records]
    parsed_records += [("step_unsupported", "compiled up to the last checkpoint, the rest runs eagerly",
                        [(file, line, "?")]) for file, line in steps]
    for parsed in parsed_records:
        if parsed is None:
            continue
        gb_type, reason, frames = parsed
        inside = [(studied(f), ln, name) for f, ln, name in frames if studied(f)]
        if not inside:
            unplaced.append({"gb_type": gb_type, "reason": reason, "at": frames[-1][:2]})
            continue
        file, line, _ = inside[-1]
        b = breaks.setdefault((file, line, gb_type), {
            "file": file, "line": line, "gb_type": gb_type, "reason": reason,
            "stack": [list(f) for f in inside], "count": 0})
        b["count"] += 1

    executed = {}
    fn2, args2, kwargs2 = build()
    hits = set()

    def local(frame, event, arg):
        if event == "line":
            hits.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def global_(frame, event, arg):
        return local if studied(frame.f_code.co_filename) else None

    sys.settrace(global_)
    try:
        with grad():
            fn2(*args2, **kwargs2)
    except Exception as e:
        error = error or f"eager {type(e).__name__}: {e}"
    finally:
        sys.settrace(None)
    for f, ln in hits:
        executed.setdefault(studied(f), set()).add(ln)
    for b in breaks.values():  # Dynamo traced these frames, so they ran
        for f, ln, _ in b["stack"]:
            executed.setdefault(f, set()).add(ln)

    with open(out_path, "w") as fh:
        json.dump({
            "case": cid, "entry": entry, "grad": c.grad, "error": error,
            "seconds": round(seconds, 1),
            "breaks": sorted(breaks.values(), key=lambda b: (b["file"], b["line"], b["gb_type"])),
            "unplaced_breaks": unplaced,
            "executed": {k: sorted(v) for k, v in sorted(executed.items())},
        }, fh)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", default=os.path.join(HERE, "truth.json"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated case id prefixes")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per case")
    ap.add_argument("--merge", help="truth.json whose other cases are kept (with --only: ask Dynamo "
                                    "about some cases, keep the rest)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--worker-out", help=argparse.SUPPRESS)
    a = ap.parse_args()
    sys.dont_write_bytecode = True
    if a.worker:
        worker(a.worker, a.worker_out)
        return 0
    sys.path.insert(0, HERE)
    import cases

    ids = sorted(cases.load_all())
    if a.only:
        ids = [i for i in ids if i.startswith(tuple(a.only.split(",")))]
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
               HF_HUB_OFFLINE="1")
    tmp = tempfile.mkdtemp(prefix="tclint_audit_")
    pending, running, results = list(ids), {}, {}
    start = time.time()
    while pending or running:
        while pending and len(running) < a.jobs:
            cid = pending.pop(0)
            out = os.path.join(tmp, cid + ".json")
            logf = open(os.path.join(tmp, cid + ".log"), "w")
            proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", cid,
                                     "--worker-out", out], env=env, stdout=logf,
                                    stderr=subprocess.STDOUT, cwd=HERE)
            running[cid] = (proc, out, time.time(), logf)
        time.sleep(0.2)
        for cid, (proc, out, t0, logf) in list(running.items()):
            if proc.poll() is None:
                if time.time() - t0 > a.timeout:
                    proc.kill()
                continue
            logf.close()
            del running[cid]
            if proc.returncode == 0 and os.path.exists(out):
                with open(out) as fh:
                    r = json.load(fh)
            else:
                with open(os.path.join(tmp, cid + ".log")) as fh:
                    tail = fh.read()[-800:]
                r = {"case": cid, "entry": None, "error": f"worker rc={proc.returncode}: {tail}",
                     "breaks": [], "unplaced_breaks": [], "executed": {}}
            results[cid] = r
            print(f"{cid:45s} breaks={len(r['breaks']):<3d} unplaced={len(r['unplaced_breaks']):<2d} "
                  f"{time.time() - t0:6.1f}s {('ERROR ' + r['error'][:160]) if r.get('error') else ''}",
                  flush=True)
    import torch

    if a.merge:
        with open(a.merge) as fh:
            old = json.load(fh)
        for r in old["cases"] + old["failed_cases"]:
            if r["case"] not in results:
                results[r["case"]] = r
        ids = sorted(results)
    # a case Dynamo fails on ran only partly under it: its eager lines are no truth
    truth = {"torch_version": torch.__version__, "site_packages": SITE,
             "build_seconds": round(time.time() - start, 1),
             "cases": [results[i] for i in ids if not results[i].get("error")],
             "failed_cases": [results[i] for i in ids if results[i].get("error")]}
    with open(a.out, "w") as fh:
        json.dump(truth, fh, indent=1)
        fh.write("\n")
    n = len({(b["file"], b["line"], b["gb_type"]) for c in truth["cases"] for b in c["breaks"]})
    print(f"wrote {a.out}: {len(truth['cases'])} cases ({len(truth['failed_cases'])} failed under Dynamo), "
          f"{n} unique breaks, {truth['build_seconds']}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
