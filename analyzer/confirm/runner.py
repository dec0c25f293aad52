"""Runs one example module's cases (or a whole script) under Dynamo and writes what happened as JSON.

Started by tclint in a child process, with the user's interpreter:
    python runner.py --module FILE --root DIR --out OUT.json [--device cpu|cuda|auto]
                     [--timeout SECONDS] [--sys-path DIR ...]
    python runner.py --root DIR --out OUT.json --trace SCRIPT.py ARGS...   (or --trace -m MODULE ARGS...)
Self-contained on purpose (standard library and torch only), so it works in any
environment that has torch, whether tclint is installed there or not.

For each case of the module's `tclint_examples()` -- `(name, callable, args, kwargs)`, or
`(name, callable, [(args, kwargs), ...])` for shape variants -- it resets Dynamo, compiles
the callable with the eager backend, calls it once per variant, and records:
  * every graph break, from a hook on Dynamo's graph-break logging (explain() alone misses
    breaks that close an empty graph), with Gb_type, GB id and the user stack;
  * every recompilation, from Dynamo's guard-failure records;
  * the project lines the case runs, from one eager call under sys.settrace.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import inspect
import io
import json
import logging
import os
import re
import signal
import sys
import time
import traceback
import warnings

_GB_URL = re.compile(r"gb(\d{4})\.html")
_RESUME = re.compile(r"^torch_dynamo_resume_in_(.+)_at_\d+$")


class CaseTimeout(Exception):
    pass


def _in_root(filename: str, root: str) -> str | None:
    if filename.startswith("<"):  # `<frozen genericpath>`, `<string>`: no file, and realpath would invent one
        return None
    try:
        path = os.path.realpath(filename)
    except (OSError, ValueError):
        return None
    return path if path.startswith(root + os.sep) else None


def _frame_name(name: str) -> str:
    m = _RESUME.match(name)
    return m.group(1) if m else name


class BreakCollector:
    def __init__(self, torch, root: str):
        from torch._dynamo import symbolic_convert

        self.torch = torch
        self.root = root
        self.events: list[dict] = []
        self._cls = symbolic_convert.InstructionTranslatorBase
        self._original = self._cls.log_graph_break
        self._by_type = self._registry_types()
        collector = self

        def log_graph_break(tx, code_options, reason, exc):
            try:
                if not getattr(exc, "logged", False):
                    collector.record(exc)
            except Exception:  # never disturb Dynamo
                pass
            return collector._original(tx, code_options, reason, exc)

        self._cls.log_graph_break = log_graph_break

    def _registry_types(self) -> dict[str, str]:
        path = os.path.join(os.path.dirname(self.torch._dynamo.__file__), "graph_break_registry.json")
        try:
            with open(path, encoding="utf-8") as fh:
                registry = json.load(fh)
        except (OSError, ValueError):
            return {}
        by_type: dict[str, str] = {}
        for gb_id, entries in registry.items():
            for entry in entries if isinstance(entries, list) else ():
                if isinstance(entry, dict) and entry.get("Gb_type"):
                    by_type.setdefault(entry["Gb_type"], gb_id)
        return by_type

    def record(self, exc) -> None:
        stack = getattr(exc, "real_stack", None)
        if stack is None:
            stack = self.torch._guards.TracingContext.extract_stack()
        text = str(exc).strip()
        first = text.splitlines()[0].strip() if text else ""
        hinted = getattr(exc, "gb_type", None)
        # The first line names the innermost cause; wrappers ("graph break in loop") add theirs.
        if first.startswith("generic_jump"):
            gb_type = "Data-dependent branching"
        elif first in self._by_type:
            gb_type = first
        else:
            gb_type = hinted or first or type(exc).__name__
        gb_id = None
        for m in _GB_URL.finditer(text):
            gb_id = "GB" + m.group(1)
            break
        if gb_id is None or self._by_type.get(gb_type) not in (None, gb_id):
            gb_id = self._by_type.get(gb_type, gb_id)
        frames = []
        for fs in stack:
            path = _in_root(fs.filename, self.root)
            if path is not None:
                frames.append([path, fs.lineno, _frame_name(fs.name)])
        self.events.append({
            "gb_type": gb_type,
            "gb_id": gb_id,
            "outer_gb_type": hinted if hinted and hinted != gb_type else None,
            "reason": re.sub(r"0x[0-9a-fA-F]+", "0x?", first),
            "file": frames[-1][0] if frames else None,
            "line": frames[-1][1] if frames else None,
            "stack": frames,
        })

    def close(self) -> None:
        self._cls.log_graph_break = self._original


def _to_device(value, device, torch):
    if device is None:
        return value
    if isinstance(value, (torch.Tensor, torch.nn.Module)):
        return value.to(device)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_to_device(v, device, torch) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(_to_device(v, device, torch) for v in value)
    if isinstance(value, dict):
        return {k: _to_device(v, device, torch) for k, v in value.items()}
    return value


def _variants(case) -> tuple[str, object, list[tuple[tuple, dict]]]:
    if len(case) == 4:
        name, fn, args, kwargs = case
        return str(name), fn, [(tuple(args), dict(kwargs or {}))]
    name, fn, variants = case
    return str(name), fn, [(tuple(a), dict(k or {})) for a, k in variants]


def _executed_lines(fn, args, kwargs, root: str) -> dict[str, list[int]]:
    executed: dict[str, set[int]] = {}
    known: dict[str, str | None] = {}

    def local(frame, event, arg):
        if event == "line":
            executed.setdefault(known[frame.f_code.co_filename], set()).add(frame.f_lineno)
        return local

    def global_trace(frame, event, arg):
        name = frame.f_code.co_filename
        if name not in known:
            known[name] = _in_root(name, root)
        if known[name] is None or frame.f_code.co_name == "tclint_examples":
            return None
        return local

    sys.settrace(global_trace)
    try:
        fn(*args, **kwargs)
    except Exception:
        pass
    finally:
        sys.settrace(None)
    return {k: sorted(v) for k, v in executed.items()}


def _alarm(signum, frame):
    raise CaseTimeout()


def run(module_path: str, root: str, device_name: str, timeout: float) -> dict:
    warnings.simplefilter("ignore")
    logging.getLogger("torch").setLevel(logging.CRITICAL)
    try:
        import torch
        import torch._dynamo
        from torch._dynamo.utils import guard_failures
    except ImportError as exc:
        return {"error": "torch-missing", "message": str(exc)}
    device = None
    if device_name == "cuda" or (device_name == "auto" and torch.cuda.is_available()):
        if not torch.cuda.is_available():
            return {"error": "no-cuda", "message": "--device cuda, but torch.cuda.is_available() is False",
                    "torch_version": torch.__version__}
        device = torch.device("cuda")
    result = {"torch_version": torch.__version__, "device": str(device or "cpu"), "cases": []}
    try:
        spec = importlib.util.spec_from_file_location(f"tclint_examples_{abs(hash(module_path))}", module_path)
        module = importlib.util.module_from_spec(spec)
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
        factory = module.tclint_examples
        takes_device = bool(inspect.signature(factory).parameters)
    except BaseException as exc:  # the user's module failed to import
        result["error"] = "import-failed"
        result["message"] = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return result
    collector = BreakCollector(torch, root)
    signal.signal(signal.SIGALRM, _alarm)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            cases = list(factory(str(device or "cpu")) if takes_device else factory())
        for index in range(len(cases)):
            result["cases"].append(_run_case(torch, guard_failures, collector, factory, takes_device,
                                             index, device, root, timeout))
    except BaseException as exc:
        result["error"] = "examples-failed"
        result["message"] = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    finally:
        collector.close()
    return result


def _run_case(torch, guard_failures, collector, factory, takes_device, index, device, root, timeout) -> dict:
    # A fresh set of cases per run: examples may hold state that a run changes.
    with contextlib.redirect_stdout(io.StringIO()):
        torch.manual_seed(0)
        case = list(factory(str(device or "cpu")) if takes_device else factory())[index]
    name, fn, variants = _variants(case)
    fn = _to_device(fn, device, torch)
    variants = [(_to_device(a, device, torch), _to_device(k, device, torch)) for a, k in variants]
    out = {"name": name, "status": "ok", "breaks": [], "recompiles": [], "executed": {}}
    torch._dynamo.reset()
    guard_failures.clear()
    collector.events = []
    started = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            compiled = torch.compile(fn, backend="eager")
            for args, kwargs in variants:
                compiled(*args, **kwargs)
            out["executed"] = _executed_lines(fn, variants[0][0], variants[0][1], root)
    except CaseTimeout:
        out["status"] = "timeout"
    except BaseException as exc:
        out["status"] = "raised"
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        out["error"] = "".join(tb[-3:]).strip()[-2000:]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    out["seconds"] = round(time.perf_counter() - started, 3)
    out["breaks"] = list(collector.events)
    out["recompiles"] = _recompiles(guard_failures, root)
    return out


def _recompiles(guard_failures, root: str) -> list[dict]:
    """Each project function Dynamo compiled again, with the guard failures that caused it."""
    found = []
    for code, reasons in guard_failures.items():
        path = _in_root(getattr(code, "co_filename", ""), root)
        if path is not None and reasons:
            found.append({"file": path, "line": code.co_firstlineno,
                          "function": _frame_name(code.co_name), "reasons": [str(r) for r in reasons]})
    return found


def trace(command: list[str], root: str) -> dict:
    """Run a script as `python SCRIPT ARGS` would, recording every break and recompilation."""
    import runpy

    try:
        import torch
        import torch._dynamo
        from torch._dynamo.utils import guard_failures
    except ImportError as exc:
        return {"error": "torch-missing", "message": str(exc)}
    collector = BreakCollector(torch, root)
    case = {"name": " ".join(command), "status": "ok", "breaks": [], "recompiles": [], "executed": {}}
    started = time.perf_counter()
    try:
        if command[0] == "-m":
            sys.argv = command[1:]
            runpy.run_module(command[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(command)
            sys.path.insert(0, os.path.dirname(os.path.abspath(command[0])))
            runpy.run_path(command[0], run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            case["status"] = "raised"
            case["error"] = f"SystemExit: {exc.code}"
    except BaseException as exc:
        case["status"] = "raised"
        case["error"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-3:]).strip()[-2000:]
    finally:
        collector.close()
    case["seconds"] = round(time.perf_counter() - started, 3)
    case["breaks"] = list(collector.events)
    case["recompiles"] = _recompiles(guard_failures, root)
    return {"torch_version": torch.__version__, "device": "as the script chooses", "cases": [case]}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--module")
    p.add_argument("--trace", nargs=argparse.REMAINDER, help="a script (or -m module) and its arguments")
    p.add_argument("--root", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"))
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--sys-path", action="append", default=[])
    args = p.parse_args()
    for path in reversed(args.sys_path):
        sys.path.insert(0, path)
    sys.dont_write_bytecode = True
    if args.trace:
        result = trace(args.trace, os.path.realpath(args.root))
    else:
        result = run(os.path.realpath(args.module), os.path.realpath(args.root), args.device, args.timeout)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
