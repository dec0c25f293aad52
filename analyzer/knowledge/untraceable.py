"""Callables Dynamo cannot trace, by qualified name, with the break each one causes and
the rule that reports it.

Verdicts come from torch 2.13 (`TORCH_LOGS=graph_breaks`); the rule examples that use
these rows are checked under Dynamo by the test suite. Only calls Dynamo really breaks on
are listed: `random.randint`, `random.uniform`, `random.randrange`, `os.getenv`,
`os.environ.get`, `os.path.join` and `copy.deepcopy` of plain Python data trace fine, and so
do `warnings.catch_warnings()`, `torch.seed()`, `numpy.random.seed/shuffle`,
`torch.distributed.all_reduce/all_gather/get_rank` and the functional collectives.
"""
from __future__ import annotations

from dataclasses import dataclass

from tclint.analyzer.knowledge import hazards as gb


@dataclass(frozen=True)
class Untraceable:
    kind: str  # what the user is doing, in a few words ("reads the wall clock")
    graph_break: gb.GraphBreak
    fix: str
    rule: str  # the code of the rule that reports it


WALL_CLOCK = "TC203"
PYTHON_RANDOM = "TC204"
SIDE_EFFECT = "TC205"
LOGGING = "TC206"
COPY = "TC207"
GRAPH_BREAK = "TC208"
DEBUGGER = "TC209"

_CLOCK = Untraceable("reads the wall clock", gb.SKIPPED,
                     "Time the compiled call from outside it, or use torch.cuda.Event / torch.profiler.",
                     WALL_CLOCK)
_CLOCK_OBJ = Untraceable("reads the calendar clock", gb.METHOD_CALL,
                         "Take the timestamp outside the compiled region and pass it in if needed.",
                         WALL_CLOCK)
_PY_RANDOM = Untraceable("draws from Python's `random` module", gb.SKIPPED,
                         "Draw randomness with torch (`torch.rand`, `torch.randint`, `torch.bernoulli`) so it stays in the graph.",
                         PYTHON_RANDOM)
_NP_RANDOM = Untraceable("draws from NumPy's global random state", gb.DATA_DEPENDENT_OP,
                         "Draw randomness with torch (`torch.rand`, `torch.randint`) so it stays in the graph.",
                         PYTHON_RANDOM)
_NP_RANDOM_UNSUPPORTED = Untraceable(
    "draws from a NumPy distribution that torch._numpy does not implement", gb.NUMPY_UNSUPPORTED,
    "Draw with torch (`torch.distributions.Beta(a, b).sample()`, `torch.randperm`) so it stays in the graph, "
    "or draw outside the compiled region and pass the value in.", PYTHON_RANDOM)
_FILESYSTEM = Untraceable("touches the file system", gb.SKIPPED,
                          "Do file-system work before or after the compiled call.", SIDE_EFFECT)
_OPEN = Untraceable("opens a file", gb.BUILTIN_OP,
                    "Read or write files before or after the compiled call.", SIDE_EFFECT)
_PROCESS = Untraceable("starts processes or opens sockets", gb.SKIPPED,
                       "Move it out of the compiled region.", SIDE_EFFECT)
_SERIALIZE = Untraceable("serializes with a library Dynamo skips", gb.SKIPPED,
                         "Serialize after the compiled call returns; return the tensors instead.", SIDE_EFFECT)
_JSON = Untraceable("reads or writes JSON", gb.METHOD_CALL,
                    "Build or parse the record outside the compiled call; pass or return the values instead.",
                    SIDE_EFFECT)
_UUID = Untraceable("generates a UUID", gb.SKIPPED, "Generate identifiers outside the compiled region.", SIDE_EFFECT)
_SIZEOF = Untraceable("asks the interpreter for object sizes", gb.SKIPPED,
                      "Use `tensor.element_size() * tensor.numel()` for tensor memory.", SIDE_EFFECT)
_WARNING_FILTERS = Untraceable("changes the warning filters", gb.SKIPPED,
                               "Set warning filters once at start-up, outside the compiled region.", SIDE_EFFECT)
_COLLECTIVE = Untraceable("synchronizes processes with a c10d call Dynamo skips", gb.SKIPPED,
                          "Synchronize outside the compiled region, or use the functional collectives "
                          "(`torch.distributed._functional_collectives`) that Dynamo traces.", SIDE_EFFECT)
_RNG_STATE = Untraceable("reseeds or reads torch's global random state", gb.SKIPPED,
                         "Seed once before the compiled call; inside it, draw with torch ops.", SIDE_EFFECT)
_GENERATOR = Untraceable("creates a torch.Generator, an object Dynamo cannot put in a graph", gb.OPAQUE_OBJECT,
                         "Draw the random values outside the compiled region and pass the tensor in, or use the "
                         "global RNG: a generator passed in breaks the graph where it is used (TC230).",
                         SIDE_EFFECT)
_LOCK = Untraceable("creates a thread lock", gb.SKIPPED,
                    "Create locks at module level or in `__init__`; keep locking outside the compiled region.",
                    SIDE_EFFECT)
_INTERPRETER = Untraceable("asks the interpreter for its frames or collects garbage", gb.SKIPPED,
                           "Do it outside the compiled region.", SIDE_EFFECT)
_STREAM_WRITE = Untraceable("writes to a console stream", gb.METHOD_CALL,
                            "Write after the compiled call, or guard it with `if not torch.compiler.is_compiling():`.",
                            SIDE_EFFECT)
_CUDA_QUERY = Untraceable("queries the CUDA runtime for a Python number", gb.NON_TENSOR_RESULT,
                          "Query devices and memory outside the compiled region and pass the number in.", SIDE_EFFECT)
_FORK_RNG = Untraceable("forks torch's random state", gb.NON_TENSOR_RESULT,
                        "Fork the random state around the compiled call, not inside it.", SIDE_EFFECT)
_ANOMALY = Untraceable("switches on autograd anomaly detection", gb.INLINE_SKIPPED,
                       "Turn anomaly detection on around the whole step, outside the compiled region.", SIDE_EFFECT)
_REDIRECT = Untraceable("redirects or creates OS-level resources", gb.METHOD_CALL,
                        "Do it around the compiled call, not inside it.", SIDE_EFFECT)
_SAVE = Untraceable("saves or loads with torch.save / torch.load", gb.SKIPPED,
                    "Save after the compiled call returns; load before it.", SIDE_EFFECT)
_COPY = Untraceable("copies an object with `copy.copy`", gb.SKIPPED,
                    "Use `tensor.clone()` for tensors, `dict(d)` / `list(l)` for containers.", COPY)
_DEEPCOPY = Untraceable("deep-copies tensors or modules", gb.DEEPCOPY,
                        "Use `tensor.clone()`, or copy the module once outside the compiled region (e.g. in `__init__`).",
                        COPY)
_WARN = Untraceable("emits a Python warning", gb.SKIPPED,
                    "Warn outside the compiled region, or guard it with `if not torch.compiler.is_compiling():`.",
                    LOGGING)
_LOGGING = Untraceable("logs through the `logging` module", gb.PYTHON_TYPE,
                       "Log outside the compiled region, or add the function to `torch._dynamo.config.reorderable_logging_functions`.",
                       LOGGING)
_LOGURU = Untraceable("logs through loguru", gb.SKIPPED,
                      "Log outside the compiled region, or guard it with `if not torch.compiler.is_compiling():`.",
                      LOGGING)
_GRAPH_BREAK = Untraceable("asks Dynamo for a graph break", gb.GRAPH_BREAK_CALL,
                           "Remove the call if the break is no longer needed.", GRAPH_BREAK)
_PDB = Untraceable("enters the debugger", gb.SKIPPED,
                   "Debug with `torch.compiler.set_stance(\"force_eager\")` instead, or remove the call.", DEBUGGER)
_BREAKPOINT = Untraceable("enters the debugger", gb.BUILTIN_OP,
                          "Debug with `torch.compiler.set_stance(\"force_eager\")` instead, or remove the call.",
                          DEBUGGER)

UNTRACEABLE_CALLS: dict[str, Untraceable] = {
    **dict.fromkeys((
        "time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
        "time.perf_counter_ns", "time.monotonic_ns", "time.process_time_ns", "time.sleep",
        "time.strftime", "time.localtime", "time.gmtime", "time.ctime", "time.asctime",
    ), _CLOCK),
    **dict.fromkeys(("datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
                     "datetime.date.today"), _CLOCK_OBJ),
    **dict.fromkeys((
        "random.random", "random.gauss", "random.choice", "random.choices", "random.shuffle",
        "random.sample", "random.normalvariate", "random.betavariate", "random.expovariate",
        "random.triangular", "random.lognormvariate", "random.seed", "random.getrandbits",
        "random.getstate", "random.setstate",
    ), _PY_RANDOM),
    **dict.fromkeys((
        "numpy.random.rand", "numpy.random.randn", "numpy.random.randint", "numpy.random.random",
        "numpy.random.uniform", "numpy.random.normal", "numpy.random.choice",
    ), _NP_RANDOM),
    **dict.fromkeys((
        "numpy.random.beta", "numpy.random.gamma", "numpy.random.permutation", "numpy.random.poisson",
        "numpy.random.binomial", "numpy.random.exponential", "numpy.random.dirichlet",
        "numpy.random.laplace", "numpy.random.standard_normal", "numpy.random.default_rng",
    ), _NP_RANDOM_UNSUPPORTED),
    **dict.fromkeys((
        "os.makedirs", "os.mkdir", "os.remove", "os.unlink", "os.rename", "os.replace",
        "os.listdir", "os.scandir", "os.walk", "os.stat", "os.getcwd", "os.chdir",
        "os.path.exists", "os.path.isfile", "os.path.isdir", "os.path.getsize",
        "os.path.getmtime", "shutil.copy", "shutil.copyfile", "shutil.copytree", "shutil.rmtree",
        "shutil.move", "glob.glob",
    ), _FILESYSTEM),
    "builtins.open": _OPEN,
    **dict.fromkeys(("os.system", "subprocess.run", "subprocess.Popen", "subprocess.call",
                     "subprocess.check_call", "subprocess.check_output", "socket.socket"), _PROCESS),
    **dict.fromkeys(("pickle.dump", "pickle.dumps", "pickle.load", "pickle.loads"), _SERIALIZE),
    **dict.fromkeys(("json.dumps", "json.dump", "json.loads", "json.load"), _JSON),
    **dict.fromkeys(("uuid.uuid4", "uuid.uuid1"), _UUID),
    "sys.getsizeof": _SIZEOF,
    **dict.fromkeys(("warnings.simplefilter", "warnings.filterwarnings", "warnings.resetwarnings"),
                    _WARNING_FILTERS),
    **dict.fromkeys(("torch.distributed.barrier", "torch.distributed.broadcast"), _COLLECTIVE),
    **dict.fromkeys(("torch.manual_seed", "torch.random.manual_seed", "torch.cuda.manual_seed",
                     "torch.cuda.manual_seed_all", "torch.get_rng_state", "torch.set_rng_state"), _RNG_STATE),
    "torch.Generator": _GENERATOR,
    "threading.Lock": _LOCK,
    "torch.random.fork_rng": _FORK_RNG,
    **dict.fromkeys(("torch.autograd.set_detect_anomaly", "torch.autograd.detect_anomaly"), _ANOMALY),
    **dict.fromkeys(("contextlib.redirect_stdout", "contextlib.redirect_stderr", "tempfile.TemporaryDirectory"),
                    _REDIRECT),
    **dict.fromkeys(("traceback.print_stack", "gc.collect"), _INTERPRETER),
    **dict.fromkeys(("sys.stdout.write", "sys.stderr.write"), _STREAM_WRITE),
    **dict.fromkeys(("torch.cuda.device_count", "torch.cuda.memory_allocated", "torch.cuda.max_memory_allocated",
                     "torch.cuda.memory_reserved", "torch.cuda.max_memory_reserved"), _CUDA_QUERY),
    **dict.fromkeys(("torch.save", "torch.load"), _SAVE),
    "copy.copy": _COPY,
    "copy.deepcopy": _DEEPCOPY,
    "warnings.warn": _WARN,
    **dict.fromkeys(("logging.debug", "logging.info", "logging.warning", "logging.warn", "logging.error",
                     "logging.exception", "logging.critical", "logging.fatal", "logging.log"), _LOGGING),
    # loguru's one shared `logger` object: Dynamo skips its methods
    **dict.fromkeys(("loguru.logger.trace", "loguru.logger.debug", "loguru.logger.info", "loguru.logger.success",
                     "loguru.logger.warning", "loguru.logger.error", "loguru.logger.critical",
                     "loguru.logger.exception", "loguru.logger.log"), _LOGURU),
    **dict.fromkeys(("torch._dynamo.graph_break",), _GRAPH_BREAK),
    "pdb.set_trace": _PDB,
    "builtins.breakpoint": _BREAKPOINT,
}

# NumPy draws that return an array trace (through torch._numpy); only a scalar draw breaks.
# Where each takes its size (`rand` and `randn` take the shape as positional dimensions).
NUMPY_SIZE_ARGUMENT: dict[str, int] = {
    "numpy.random.rand": 0, "numpy.random.randn": 0, "numpy.random.random": 0,
    "numpy.random.uniform": 2, "numpy.random.normal": 2, "numpy.random.randint": 2,
}

# Methods of `logging.Logger` objects; Dynamo breaks on each (GB0291), whether or not
# the level is enabled.
LOGGER_METHODS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log",
    "isEnabledFor",
    "warning_once", "info_once",  # added to Logger by transformers and diffusers
})


def calls_for(rule: str) -> dict[str, Untraceable]:
    """The rows one rule reports."""
    return {name: row for name, row in UNTRACEABLE_CALLS.items() if row.rule == rule}
