"""Callables Dynamo cannot trace, by qualified name, with the break each one causes.

Verdicts come from torch 2.13 (`TORCH_LOGS=graph_breaks`); the rule examples that use
these rows are checked under Dynamo by the test suite.
"""
from __future__ import annotations

from dataclasses import dataclass

from tclint.analyzer.knowledge import hazards as gb


@dataclass(frozen=True)
class Untraceable:
    kind: str  # what the user is doing, in a few words ("reads the wall clock")
    graph_break: gb.GraphBreak
    fix: str


_CLOCK = Untraceable("reads the wall clock", gb.SKIPPED,
                     "Time the compiled call from outside it, or use torch.cuda.Event / torch.profiler.")
_PY_RANDOM = Untraceable("draws from Python's `random` module", gb.SKIPPED,
                         "Draw randomness with torch (`torch.rand`, `torch.randint`, `torch.bernoulli`) so it stays in the graph.")
_FILESYSTEM = Untraceable("touches the file system", gb.SKIPPED,
                          "Do file-system work before or after the compiled call.")
_PROCESS = Untraceable("starts processes or opens sockets", gb.SKIPPED,
                       "Move it out of the compiled region.")
_SERIALIZE = Untraceable("serializes with a library Dynamo skips", gb.SKIPPED,
                         "Serialize after the compiled call returns; return the tensors instead.")
_JSON = Untraceable("serializes to JSON", gb.METHOD_CALL,
                    "Build the record after the compiled call returns; return the values instead.")
_CLOCK_OBJ = Untraceable("reads the calendar clock", gb.METHOD_CALL,
                         "Take the timestamp outside the compiled region and pass it in if needed.")
_UUID = Untraceable("generates a UUID", gb.SKIPPED, "Generate identifiers outside the compiled region.")
_COPY = Untraceable("copies objects with `copy`", gb.SKIPPED,
                    "Use `tensor.clone()` for tensors; copy modules once, outside the compiled region.")
_DEEPCOPY = Untraceable("deep-copies tensors or modules", gb.DEEPCOPY,
                        "Use `tensor.clone()`, or copy the module once outside the compiled region (e.g. in `__init__`).")
_WARN = Untraceable("emits a Python warning", gb.SKIPPED,
                    "Warn outside the compiled region, or guard it with `if not torch.compiler.is_compiling():`.")
_LOGGING = Untraceable("logs through the `logging` module", gb.PYTHON_TYPE,
                       "Log outside the compiled region, or add the function to `torch._dynamo.config.reorderable_logging_functions`.")
_SIZEOF = Untraceable("asks the interpreter for object sizes", gb.SKIPPED,
                      "Use `tensor.element_size() * tensor.numel()` for tensor memory.")
_SAVE = Untraceable("saves or loads with torch.save / torch.load", gb.SKIPPED,
                    "Save after the compiled call returns.")
_GRAPH_BREAK = Untraceable("asks Dynamo for a graph break", gb.GRAPH_BREAK_CALL,
                           "Remove the call if the break is no longer needed.")
_PDB = Untraceable("enters the debugger", gb.SKIPPED, "Debug with `torch.compiler.set_stance(\"force_eager\")` instead.")

UNTRACEABLE_CALLS: dict[str, Untraceable] = {
    **dict.fromkeys((
        "time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
        "time.perf_counter_ns", "time.monotonic_ns", "time.sleep", "time.strftime",
        "time.localtime", "time.gmtime",
    ), _CLOCK),
    **dict.fromkeys((
        "random.random", "random.gauss", "random.choice", "random.choices", "random.shuffle",
        "random.sample", "random.normalvariate", "random.betavariate", "random.expovariate",
        "random.triangular", "random.lognormvariate",
    ), _PY_RANDOM),
    **dict.fromkeys((
        "os.makedirs", "os.mkdir", "os.remove", "os.unlink", "os.rename", "os.replace",
        "os.listdir", "os.scandir", "os.walk", "os.stat", "os.getcwd", "os.chdir",
        "os.path.exists", "os.path.isfile", "os.path.isdir", "os.path.getsize",
        "os.path.getmtime", "shutil.copy", "shutil.copyfile", "shutil.rmtree", "shutil.move",
        "glob.glob",
    ), _FILESYSTEM),
    **dict.fromkeys(("os.system", "subprocess.run", "subprocess.Popen", "subprocess.call",
                     "subprocess.check_output", "socket.socket"), _PROCESS),
    **dict.fromkeys(("pickle.dump", "pickle.dumps", "pickle.load", "pickle.loads"), _SERIALIZE),
    **dict.fromkeys(("json.dumps", "json.dump"), _JSON),
    **dict.fromkeys(("datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
                     "datetime.date.today"), _CLOCK_OBJ),
    **dict.fromkeys(("uuid.uuid4", "uuid.uuid1"), _UUID),
    "copy.copy": _COPY,
    "copy.deepcopy": _DEEPCOPY,
    "warnings.warn": _WARN,
    **dict.fromkeys(("logging.debug", "logging.info", "logging.warning", "logging.error",
                     "logging.exception", "logging.critical", "logging.log"), _LOGGING),
    "sys.getsizeof": _SIZEOF,
    **dict.fromkeys(("torch.save", "torch.load"), _SAVE),
    **dict.fromkeys(("torch._dynamo.graph_break",), _GRAPH_BREAK),
    **dict.fromkeys(("pdb.set_trace", "builtins.breakpoint"), _PDB),
}

# Methods of `logging.Logger` objects; Dynamo breaks on each.
LOGGER_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
