"""Runs one example module's cases (or a whole script) under Dynamo and writes what happened as JSON.

Started by tclint in a child process, with the user's interpreter:
    python runner.py --module FILE --root DIR --out OUT.jsonl [--device cpu|cuda|auto]
                     [--start INDEX] [--memory-mb MB] [--sys-path DIR ...]
    python runner.py --root DIR --out OUT.jsonl --trace SCRIPT.py ARGS...   (or --trace -m MODULE ARGS...)
Self-contained on purpose (standard library and torch only), so it works in any
environment that has torch, whether tclint is installed there or not.

What happens is written to OUT as JSON lines, flushed as it happens ("started", "cases",
"case-start", "break", "case", "error"), so that the parent, which enforces the time limits
by killing this process's group, keeps every case that finished and knows which one was
running. There is no timer in here: SIGALRM does not exist everywhere, and a timer inside
cannot stop a loop in native code.

For each case of the module's `tclint_examples()` -- `(name, callable, args, kwargs)`, or
`(name, callable, [(args, kwargs), ...])` for shape variants -- it resets Dynamo, compiles
the callable with the eager backend, calls it once per variant, and records:
  * every graph break, from a hook on Dynamo's graph-break logging (explain() alone misses
    breaks that close an empty graph), with Gb_type, GB id and the user stack;
  * every recompilation, from Dynamo's guard-failure records;
  * the project lines the case runs, from one eager call under sys.settrace;
  * a failure of that capture, which makes the case "capture-failed" (never a clean run).
Under `--trace`, the lines that count as run are those Dynamo traced (a hook on its
per-line step): lines that ran inside compiled frames, at no cost once compiled.
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
import sys
import time
import traceback
import warnings

_GB_URL = re.compile(r"gb(\d{4})\.html")
_RESUME = re.compile(r"^torch_dynamo_resume_in_(.+)_at_\d+$")


class Events:
    """The JSON-lines result file, one flushed line per event."""

    def __init__(self, path: str):
        self._fh = open(path, "a", encoding="utf-8")

    def write(self, event: str, **fields) -> None:
        self._fh.write(json.dumps({"event": event, **fields}) + "\n")
        self._fh.flush()


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
    def __init__(self, torch, root: str, sink: Events | None = None, traced_lines: bool = False):
        from torch._dynamo import symbolic_convert

        self.torch = torch
        self.root = root
        self.sink = sink
        self.events: list[dict] = []
        self.failures: list[str] = []  # why a break could not be recorded
        self.traced: dict[str, set[int]] = {}  # project lines Dynamo traced (--trace)
        self._cls = symbolic_convert.InstructionTranslatorBase
        self._original = self._cls.log_graph_break
        self._original_starts_line = self._cls.starts_line
        self._by_type = self._registry_types()
        collector = self

        def log_graph_break(tx, code_options, reason, exc):
            try:
                if not getattr(exc, "logged", False):
                    collector.record(exc)
            except Exception as error:  # never disturb Dynamo, but never pretend the break did not happen
                collector.failures.append(f"{type(error).__name__}: {error}"[:500])
            return collector._original(tx, code_options, reason, exc)

        self._cls.log_graph_break = log_graph_break
        if traced_lines:
            known: dict[str, str | None] = {}

            def starts_line(tx, lineno):
                name = tx.f_code.co_filename
                if name not in known:
                    known[name] = _in_root(name, root)
                if known[name] is not None:
                    collector.traced.setdefault(known[name], set()).add(lineno)
                return collector._original_starts_line(tx, lineno)

            self._cls.starts_line = starts_line

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
        event = {
            "gb_type": gb_type,
            "gb_id": gb_id,
            "outer_gb_type": hinted if hinted and hinted != gb_type else None,
            "reason": re.sub(r"0x[0-9a-fA-F]+", "0x?", first),
            "file": frames[-1][0] if frames else None,
            "line": frames[-1][1] if frames else None,
            "stack": frames,
        }
        self.events.append(event)
        if self.sink is not None:  # kept by the parent even if the case never finishes
            self.sink.write("break", **event)

    def close(self) -> None:
        self._cls.log_graph_break = self._original
        self._cls.starts_line = self._original_starts_line


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


def _out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, MemoryError) or (isinstance(exc, RuntimeError) and "can't allocate memory" in str(exc))


class _Discard(io.TextIOBase):
    """Where the examples' prints go: nowhere (a print of 100 MB costs no memory here)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def _null_output():
    return contextlib.redirect_stdout(_Discard())


def run(module_path: str, root: str, device_name: str, start: int, events: Events) -> None:
    warnings.simplefilter("ignore")
    logging.getLogger("torch").setLevel(logging.CRITICAL)
    try:
        import torch
        import torch._dynamo
        from torch._dynamo.utils import guard_failures
    except ImportError as exc:
        return events.write("error", error="torch-missing", message=str(exc))
    device = None
    if device_name == "cuda" or (device_name == "auto" and torch.cuda.is_available()):
        if not torch.cuda.is_available():
            return events.write("error", error="no-cuda", torch_version=torch.__version__,
                                message="--device cuda, but torch.cuda.is_available() is False")
        device = torch.device("cuda")
        # Tensors the examples create without a device (`torch.ones(t, t)`) land there too,
        # as they do when a training script sets its default device.
        torch.set_default_device(device)
    _warm_up(torch)
    events.write("started", torch_version=torch.__version__, device=str(device or "cpu"))
    try:
        spec = importlib.util.spec_from_file_location(f"tclint_examples_{abs(hash(module_path))}", module_path)
        module = importlib.util.module_from_spec(spec)
        with _null_output():
            spec.loader.exec_module(module)
        factory = module.tclint_examples
        takes_device = bool(inspect.signature(factory).parameters)
    except BaseException as exc:  # the user's module failed to import
        error = "memory" if _out_of_memory(exc) else "import-failed"
        return events.write("error", error=error, message=_exception_line(exc)[-500:])
    collector = BreakCollector(torch, root, events)
    try:
        with _null_output():
            cases = list(factory(str(device or "cpu")) if takes_device else factory())
        events.write("cases", names=[_variants(c)[0] for c in cases])
        for index in range(start, len(cases)):
            events.write("case-start", index=index)
            events.write("case", **_run_case(torch, guard_failures, collector, factory, takes_device,
                                             index, device, root))
    except BaseException as exc:
        events.write("error", error="memory" if _out_of_memory(exc) else "examples-failed",
                     message=_exception_line(exc))
    finally:
        collector.close()


def _warm_up(torch) -> None:
    """Compile something once, so that the module's and the first case's limits are not spent
    importing Dynamo (nor the default backend, which `@torch.compile` at import time loads)."""
    try:
        with _null_output():
            torch.compile(lambda x: x + 1, backend="eager")(torch.zeros(1))
            torch.compile(lambda x: x)
    except Exception:  # the cases will say what is wrong
        pass
    torch._dynamo.reset()


def _exception_line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()[:2000]


def _failure(exc: BaseException) -> str:
    """"TorchRuntimeError: ... (cause: mat1 and mat2 shapes cannot be multiplied) (at
    models.py:56)": the exception's own first line, its root cause's, and the user's line
    (Dynamo keeps it in `real_stack`), not Dynamo's closing advice ("Set
    TORCHDYNAMO_VERBOSE=1 ..."), which ends many of its errors."""
    text = _first_line(exc)
    cause = exc
    while cause.__cause__ is not None and cause.__cause__ is not cause:
        cause = cause.__cause__
    if cause is not exc:
        text += f" (cause: {_first_line(cause)})"
    frames = list(getattr(exc, "real_stack", None) or []) or traceback.extract_tb(exc.__traceback__)
    stack = [f for f in frames if f"{os.sep}torch{os.sep}" not in f.filename and f.filename != __file__]
    if stack:
        text += f" (at {os.path.basename(stack[-1].filename)}:{stack[-1].lineno})"
    return text[:2000]


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def _run_case(torch, guard_failures, collector, factory, takes_device, index, device, root) -> dict:
    # A fresh set of cases per run: examples may hold state that a run changes.
    with _null_output():
        torch.manual_seed(0)
        case = list(factory(str(device or "cpu")) if takes_device else factory())[index]
    name, fn, variants = _variants(case)
    fn = _to_device(fn, device, torch)
    variants = [(_to_device(a, device, torch), _to_device(k, device, torch)) for a, k in variants]
    out = {"name": name, "status": "ok", "breaks": [], "recompiles": [], "executed": {}}
    torch._dynamo.reset()
    guard_failures.clear()
    collector.events = []
    collector.failures = []
    calls: list[dict] = []
    started = time.perf_counter()
    try:
        with _null_output():
            compiled = torch.compile(fn, backend="eager")
            for args, kwargs in variants:
                calls.append(_call_values(fn, args, kwargs))
                compiled(*args, **kwargs)
            out["executed"] = _executed_lines(fn, variants[0][0], variants[0][1], root)
    except BaseException as exc:
        if _out_of_memory(exc):
            out["status"], out["error"] = "memory", f"over the memory cap: {_exception_line(exc)}"
        else:
            out["status"], out["error"] = "raised", _failure(exc)
    out["seconds"] = round(time.perf_counter() - started, 3)
    out["breaks"] = list(collector.events)
    out["recompiles"] = _recompiles(guard_failures, root, calls, _recompile_limit(torch))
    if collector.failures and out["status"] == "ok":
        out["status"] = "capture-failed"
        out["error"] = f"a graph break could not be recorded: {collector.failures[0]}"
    return out


_COMPILE_ID = re.compile(r"^\s*(\d+/\d+):\s*")
_SIZE = re.compile(r"tensor '([^']+)' size mismatch at index (\d+)\. expected (\d+), actual (\d+)")
_RANK = re.compile(r"tensor '([^']+)' rank mismatch\. expected (\d+), actual (\d+)")
_VALUE = re.compile(r"^(?:L\['([^']+)'\]|([A-Za-z_]\w*)) == (.+?)\s*(?:#.*)?$")


def _recompiles(guard_failures, root: str, calls: list[dict] | None = None, limit: int | None = None) -> list[dict]:
    """Each project function Dynamo compiled again: how often, and what changed, in parts the
    parent can put into words (`calls`: each call's arguments by name, as short reprs)."""
    found = []
    for code, reasons in guard_failures.items():
        path = _in_root(getattr(code, "co_filename", ""), root)
        if path is None or not reasons:
            continue
        entries, changes = set(), []
        for reason in map(str, reasons):
            first = reason.splitlines()[0] if reason else ""
            m = _COMPILE_ID.match(first)
            if m:
                entries.add(m.group(1))
                first = first[m.end():]
            change = _change(first.strip(), calls)
            if change not in changes:
                changes.append(change)
        found.append({"file": path, "line": code.co_firstlineno, "function": _frame_name(code.co_name),
                      "count": max(1, len(entries)), "calls": len(calls) if calls is not None else None,
                      "limit": limit, "changes": changes[:5], "reasons": [str(r)[:500] for r in reasons[:3]]})
    return found


def _change(guard: str, calls: list[dict] | None) -> dict:
    m = _SIZE.search(guard)
    if m:
        return {"kind": "size", "name": m.group(1), "dim": int(m.group(2)), "was": m.group(3), "now": m.group(4)}
    m = _RANK.search(guard)
    if m:
        return {"kind": "rank", "name": m.group(1), "was": m.group(2), "now": m.group(3)}
    m = _VALUE.match(guard)
    if m:
        name, was = m.group(1) or m.group(2), m.group(3).strip()
        values = [c[name] for c in calls or () if name in c]
        now = next((v for v in values if v != was), None)
        return {"kind": "value", "name": name, "was": was, "now": now,
                "type": next((c.get(f"{name}:type") for c in calls or () if f"{name}:type" in c), None)}
    return {"kind": "other", "text": guard.split("  #")[0].strip()[:200]}


def _recompile_limit(torch) -> int | None:
    config = torch._dynamo.config
    limit = getattr(config, "recompile_limit", None) or getattr(config, "cache_size_limit", None)
    return limit if isinstance(limit, int) else None


def _call_values(fn, args, kwargs) -> dict:
    """Arguments of one call by name, as short reprs (and the type of each Python scalar)."""
    try:
        target = fn.forward if not inspect.isfunction(fn) and hasattr(fn, "forward") else fn
        bound = inspect.signature(target).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    out = {}
    for name, value in bound.arguments.items():
        if isinstance(value, (bool, int, float, str)) or value is None:
            out[name] = repr(value)[:40]
            out[f"{name}:type"] = type(value).__name__
    return out


def trace(command: list[str], root: str, events: Events) -> None:
    """Run a script as `python SCRIPT ARGS` would, recording every break and recompilation."""
    import runpy

    try:
        import torch
        import torch._dynamo
        from torch._dynamo.utils import guard_failures
    except ImportError as exc:
        return events.write("error", error="torch-missing", message=str(exc))
    events.write("started", torch_version=torch.__version__, device="as the script chooses")
    collector = BreakCollector(torch, root, traced_lines=True)
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
        case["error"] = _failure(exc)
    finally:
        collector.close()
    case["seconds"] = round(time.perf_counter() - started, 3)
    case["breaks"] = list(collector.events)
    case["recompiles"] = _recompiles(guard_failures, root, None, _recompile_limit(torch))
    case["executed"] = {path: sorted(lines) for path, lines in collector.traced.items()}
    if collector.failures and case["status"] == "ok":
        case["status"] = "capture-failed"
        case["error"] = f"a graph break could not be recorded: {collector.failures[0]}"
    events.write("case", **case)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--module")
    p.add_argument("--trace", nargs=argparse.REMAINDER, help="a script (or -m module) and its arguments")
    p.add_argument("--root", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"))
    p.add_argument("--start", type=int, default=0, help="the first case to run (after a case was stopped)")
    p.add_argument("--memory-mb", type=int, default=0, help="address-space cap in MB (POSIX); 0: none")
    p.add_argument("--sys-path", action="append", default=[])
    p.add_argument("--watch-parent", action="store_true", help="exit, with this process group, when stdin closes")
    args = p.parse_args()
    for path in reversed(args.sys_path):
        sys.path.insert(0, path)
    sys.dont_write_bytecode = True
    if args.watch_parent:
        _die_with_parent()
    events = Events(args.out)
    if args.memory_mb > 0:
        _cap_memory(args.memory_mb)
    if args.trace:
        trace(args.trace, os.path.realpath(args.root), events)
    else:
        run(os.path.realpath(args.module), os.path.realpath(args.root), args.device, args.start, events)
    return 0


def _die_with_parent() -> None:
    """The parent holds our stdin open; when it dies, the pipe closes and so does this
    process, with its group (what the example started). The example gets /dev/null as stdin."""
    import threading

    pipe = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)

    def watch() -> None:
        try:
            while os.read(pipe, 4096):
                pass
        except OSError:
            pass
        if hasattr(os, "killpg") and os.getpgid(0) == os.getpid():
            os.killpg(0, 9)
        os._exit(70)

    threading.Thread(target=watch, daemon=True, name="tclint-parent-watch").start()


def _cap_memory(megabytes: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: no address-space limit from here
        return
    limit = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


if __name__ == "__main__":
    sys.exit(main())
