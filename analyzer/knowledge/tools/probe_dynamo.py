"""Asks Dynamo which stdlib, NumPy and torch calls break the graph, and writes the answers as
the versioned table tclint reads (`analyzer/knowledge/dynamo_calls_<torch major.minor>.json`).

Run on demand, with the torch to describe (and NumPy) installed; the analyzer never imports
this file:

    python analyzer/knowledge/tools/probe_dynamo.py [-o TABLE.json] [-k SUBSTRING,... [--merge]]

Each case compiles a one-call function with the eager backend, calls it on a small tensor,
and records the first graph break Dynamo logs while tracing it (its Gb_type and GB id), or
that it traced the call. For a call whose result code iterates (`for i in tqdm(range(n))`,
a pandas Series, a networkx generator), the row's "iterated" says what a `for` over the result
does: the break at the `for` and whether the frame ends there (Dynamo cannot resume at it and
runs the rest of the frame eagerly: a break placed after the loop is never logged);
"iteration_wrappers" says which wrappers (`enumerate`, `zip`, `itertools.islice`) a `for`
ends the frame through as well. Libraries this environment lacks are left out (tqdm, pandas and
networkx are probed where installed). A case that fails eagerly is reported and left out of the table.
Names are spelled as tclint resolves them: the dotted path of the callable as imported.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import platform
import sys
import tempfile
import warnings
from pathlib import Path

import numpy_support  # beside this file (run as a script)

DATACLASS = "@dataclasses.dataclass\nclass DC:\n    a: int = 1\n"

# (qualified name, statement(s) in the compiled body, set-up run once at module level).
# `x` is a float tensor of shape (3,); `xs` a list of two such tensors; `cfg` a small dict;
# `obj` an instance of a plain class with `__init__(self, a=1)`; `fn` a plain function.
CASES: list[tuple[str, str, str]] = [
    # -- the interpreter ----------------------------------------------------------
    ("sys._getframe", "sys._getframe()", ""),
    ("sys.exc_info", "sys.exc_info()", ""),
    ("sys.getrefcount", "sys.getrefcount(cfg)", ""),
    ("sys.getsizeof", "sys.getsizeof(3)", ""),
    ("sys.getrecursionlimit", "sys.getrecursionlimit()", ""),
    ("sys.intern", "sys.intern('a')", ""),
    ("sys.stdout.write", "sys.stdout.write('')", ""),
    ("sys.stdout.flush", "sys.stdout.flush()", ""),
    ("sys.stderr.write", "sys.stderr.write('')", ""),
    ("gc.collect", "gc.collect()", ""),
    ("gc.disable", "gc.disable(); gc.enable()", ""),
    ("builtins.id", "id(cfg)", ""),
    ("builtins.hash", "hash('a')", ""),
    ("builtins.globals", "globals()", ""),
    ("builtins.locals", "locals()", ""),
    ("builtins.vars", "vars(obj)", ""),
    ("builtins.dir", "dir(obj)", ""),
    ("builtins.eval", "eval('1 + 1')", ""),
    ("builtins.exec", "exec('a = 1')", ""),
    ("builtins.compile", "compile('1', 'f', 'eval')", ""),
    ("builtins.repr", "repr(obj)", ""),
    ("builtins.format", "format(3.5, '.2f')", ""),
    ("builtins.sorted", "sorted([3, 1, 2])", ""),
    ("builtins.callable", "callable(fn)", ""),
    ("builtins.object", "object()", ""),
    ("builtins.memoryview", "memoryview(b'ab')", ""),
    ("builtins.bytearray", "bytearray(3)", ""),
    ("builtins.setattr", "setattr(obj, 'a', 2)", ""),
    ("builtins.delattr", "setattr(obj, 'b', 2); delattr(obj, 'b')", ""),
    ("builtins.hasattr", "hasattr(obj, 'a')", ""),
    ("builtins.isinstance", "isinstance(x, torch.Tensor)", ""),
    ("builtins.issubclass", "issubclass(type(obj), object)", ""),
    ("builtins.type", "type(obj)", ""),
    ("builtins.open", "open(os.devnull).close()", ""),
    ("builtins.print", "print(end='')", ""),
    # -- inspect -------------------------------------------------------------------
    ("inspect.signature", "inspect.signature(fn)", ""),
    ("inspect.getfullargspec", "inspect.getfullargspec(fn)", ""),
    ("inspect.currentframe", "inspect.currentframe()", ""),
    ("inspect.stack", "inspect.stack()", ""),
    ("inspect.getmodule", "inspect.getmodule(fn)", ""),
    ("inspect.getsource", "inspect.getsource(fn)", ""),
    ("inspect.getfile", "inspect.getfile(fn)", ""),
    ("inspect.getmembers", "inspect.getmembers(obj)", ""),
    ("inspect.isclass", "inspect.isclass(obj)", ""),
    ("inspect.isfunction", "inspect.isfunction(fn)", ""),
    ("inspect.ismethod", "inspect.ismethod(fn)", ""),
    ("inspect.isgeneratorfunction", "inspect.isgeneratorfunction(fn)", ""),
    ("inspect.iscoroutinefunction", "inspect.iscoroutinefunction(fn)", ""),
    ("inspect.unwrap", "inspect.unwrap(fn)", ""),
    ("inspect.getmro", "inspect.getmro(type(obj))", ""),
    ("inspect.cleandoc", "inspect.cleandoc(' a')", ""),
    ("inspect.getdoc", "inspect.getdoc(fn)", ""),
    # -- importing, serializing, hashing ------------------------------------------
    ("importlib.import_module", "importlib.import_module('math')", ""),
    ("importlib.util.find_spec", "importlib.util.find_spec('math')", ""),
    ("importlib.reload", "importlib.reload(colorsys)", "import colorsys"),
    ("importlib.metadata.version", "importlib.metadata.version('numpy')", "import importlib.metadata"),
    ("traceback.format_exc", "traceback.format_exc()", "import traceback"),
    ("traceback.format_stack", "traceback.format_stack()", "import traceback"),
    ("pickle.dumps", "pickle.dumps(cfg)", ""),
    ("pickle.loads", "pickle.loads(PICKLED)", "PICKLED = pickle.dumps({'a': 1})"),
    ("copyreg.pickle", "copyreg.dispatch_table.get(int)", ""),
    ("json.dumps", "json.dumps(cfg)", ""),
    ("json.loads", "json.loads('{}')", ""),
    ("hashlib.md5", "hashlib.md5(b'a')", ""),
    ("hashlib.sha256", "hashlib.sha256(b'a')", ""),
    ("zlib.crc32", "zlib.crc32(b'a')", ""),
    ("base64.b64encode", "base64.b64encode(b'a')", ""),
    ("struct.pack", "struct.pack('i', 1)", ""),
    ("struct.unpack", "struct.unpack('i', b'\\x01\\x00\\x00\\x00')", ""),
    ("uuid.uuid4", "uuid.uuid4()", ""),
    ("marshal.dumps", "marshal.dumps(1)", ""),
    # -- functional tools ----------------------------------------------------------
    ("functools.partial", "functools.partial(fn, 1)(2)", ""),
    ("functools.reduce", "functools.reduce(operator.add, [1, 2, 3])", ""),
    ("functools.wraps", "functools.wraps(fn)(lambda *a: a)", ""),
    ("functools.update_wrapper", "functools.update_wrapper(lambda *a: a, fn)", ""),
    ("functools.lru_cache", "functools.lru_cache(maxsize=None)(fn)(1, 2)", ""),
    ("functools.cache", "functools.cache(fn)(1, 2)", ""),
    ("functools.cmp_to_key", "sorted([2, 1], key=functools.cmp_to_key(lambda a, b: a - b))", ""),
    ("itertools.product", "list(itertools.product([1, 2], [3]))", ""),
    ("itertools.permutations", "list(itertools.permutations([1, 2]))", ""),
    ("itertools.combinations", "list(itertools.combinations([1, 2, 3], 2))", ""),
    ("itertools.chain", "list(itertools.chain([1], [2]))", ""),
    ("itertools.accumulate", "list(itertools.accumulate([1, 2]))", ""),
    ("itertools.islice", "list(itertools.islice([1, 2, 3], 2))", ""),
    ("itertools.count", "next(itertools.count())", ""),
    ("itertools.repeat", "list(itertools.repeat(1, 2))", ""),
    ("itertools.groupby", "[k for k, _ in itertools.groupby([1, 1, 2])]", ""),
    ("itertools.zip_longest", "list(itertools.zip_longest([1], [2, 3]))", ""),
    ("itertools.starmap", "list(itertools.starmap(operator.add, [(1, 2)]))", ""),
    ("itertools.cycle", "next(itertools.cycle([1]))", ""),
    ("itertools.pairwise", "list(itertools.pairwise([1, 2, 3]))", ""),
    ("operator.itemgetter", "operator.itemgetter(0)([1])", ""),
    ("operator.attrgetter", "operator.attrgetter('a')(obj)", ""),
    ("operator.methodcaller", "operator.methodcaller('keys')(cfg)", ""),
    ("operator.add", "operator.add(x, 1)", ""),
    ("operator.getitem", "operator.getitem(xs, 0)", ""),
    ("operator.index", "operator.index(3)", ""),
    ("heapq.heappush", "heapq.heappush([], 1)", ""),
    ("bisect.bisect", "bisect.bisect([1.0, 2.0], 1.5)", ""),
    ("bisect.bisect_left", "bisect.bisect_left([1.0, 2.0], 1.5)", ""),
    ("bisect.bisect_right", "bisect.bisect_right([1.0, 2.0], 1.5)", ""),
    ("bisect.insort", "bisect.insort([1.0, 2.0], 1.5)", ""),
    # -- containers and types ------------------------------------------------------
    ("collections.OrderedDict", "collections.OrderedDict(a=1)", ""),
    ("collections.defaultdict", "collections.defaultdict(list)['a'].append(1)", ""),
    ("collections.deque", "collections.deque([1, 2]).popleft()", ""),
    ("collections.Counter", "collections.Counter('aab')", ""),
    ("collections.ChainMap", "collections.ChainMap(cfg, {})['a']", ""),
    ("collections.namedtuple", "collections.namedtuple('P', 'a b')(1, 2)", ""),
    ("dataclasses.fields", "dataclasses.fields(DC())", DATACLASS),
    ("dataclasses.asdict", "dataclasses.asdict(DC())", DATACLASS),
    ("dataclasses.replace", "dataclasses.replace(DC(), a=2)", DATACLASS),
    ("dataclasses.is_dataclass", "dataclasses.is_dataclass(obj)", ""),
    ("types.SimpleNamespace", "types.SimpleNamespace(a=1).a", ""),
    ("types.MethodType", "types.MethodType(fn, obj)", ""),
    ("typing.cast", "typing.cast(int, 1)", ""),
    ("typing.get_type_hints", "typing.get_type_hints(fn)", ""),
    ("weakref.ref", "weakref.ref(obj)", ""),
    ("weakref.WeakKeyDictionary", "weakref.WeakKeyDictionary()", ""),
    ("enum.Enum", "enum.Enum('E', 'A B')", ""),
    ("abc.ABCMeta", "abc.ABCMeta('A', (), {})", ""),
    ("array.array", "array.array('f', [1.0])", ""),
    ("fractions.Fraction", "fractions.Fraction(1, 3)", ""),
    ("decimal.Decimal", "decimal.Decimal('1.5')", ""),
    ("statistics.mean", "statistics.mean([1.0, 2.0])", ""),
    ("copy.copy", "copy.copy(cfg)", ""),
    ("copy.deepcopy", "copy.deepcopy(cfg)", ""),
    # -- numbers, text, patterns ---------------------------------------------------
    *[(f"math.{f}", f"math.{f}({a})", "") for f, a in (
        ("sqrt", "2.0"), ("log", "2.0"), ("exp", "1.0"), ("ceil", "1.5"), ("floor", "1.5"),
        ("isclose", "1.0, 1.0"), ("prod", "[2, 3]"), ("gcd", "4, 6"), ("comb", "4, 2"),
        ("factorial", "4"), ("isfinite", "1.0"), ("isnan", "1.0"), ("fsum", "[1.0, 2.0]"),
        ("hypot", "3.0, 4.0"), ("erf", "0.5"), ("log2", "8"), ("pow", "2, 3"), ("cos", "0.5"))],
    ("re.compile", "re.compile('a+')", ""),
    ("re.match", "re.match('a', 'ab')", ""),
    ("re.search", "re.search('b', 'ab')", ""),
    ("re.fullmatch", "re.fullmatch('ab', 'ab')", ""),
    ("re.sub", "re.sub('a', 'b', 'aa')", ""),
    ("re.split", "re.split(',', 'a,b')", ""),
    ("re.findall", "re.findall('a', 'aa')", ""),
    ("re.escape", "re.escape('a.b')", ""),
    ("string.Template", "string.Template('$a')", ""),
    ("textwrap.dedent", "textwrap.dedent(' a')", ""),
    ("fnmatch.fnmatch", "fnmatch.fnmatch('a.py', '*.py')", ""),
    ("linecache.getline", "linecache.getline(__file__, 1)", ""),
    ("io.StringIO", "io.StringIO()", ""),
    ("io.BytesIO", "io.BytesIO(b'a')", ""),
    # -- the operating system, time, randomness ------------------------------------
    ("os.getenv", "os.getenv('HOME')", ""),
    ("os.environ.get", "os.environ.get('HOME')", ""),
    ("os.path.join", "os.path.join('a', 'b')", ""),
    ("os.path.basename", "os.path.basename('a/b')", ""),
    ("os.path.dirname", "os.path.dirname('a/b')", ""),
    ("os.path.splitext", "os.path.splitext('a.b')", ""),
    ("os.path.exists", "os.path.exists('/nonexistent')", ""),
    ("os.path.abspath", "os.path.abspath('a')", ""),
    ("os.getpid", "os.getpid()", ""),
    ("os.cpu_count", "os.cpu_count()", ""),
    ("os.fspath", "os.fspath('a')", ""),
    ("os.listdir", "os.listdir('.')", ""),
    ("pathlib.Path", "pathlib.Path('a') / 'b'", ""),
    ("platform.system", "platform.system()", ""),
    ("socket.gethostname", "socket.gethostname()", ""),
    ("getpass.getuser", "getpass.getuser()", ""),
    ("threading.current_thread", "threading.current_thread()", ""),
    ("threading.get_ident", "threading.get_ident()", ""),
    ("threading.local", "threading.local()", ""),
    ("threading.Lock", "threading.Lock()", ""),
    ("threading.RLock", "threading.RLock()", ""),
    ("threading.Event", "threading.Event()", ""),
    ("queue.Queue", "queue.Queue()", "import queue"),
    ("time.time", "time.time()", ""),
    ("time.perf_counter", "time.perf_counter()", ""),
    ("datetime.datetime.now", "datetime.datetime.now()", ""),
    ("random.random", "random.random()", ""),
    ("random.randint", "random.randint(1, 3)", ""),
    ("random.uniform", "random.uniform(0, 1)", ""),
    ("random.randrange", "random.randrange(3)", ""),
    ("random.choice", "random.choice([1, 2])", ""),
    ("random.shuffle", "random.shuffle([1, 2])", ""),
    ("random.sample", "random.sample([1, 2, 3], 2)", ""),
    ("random.gauss", "random.gauss(0, 1)", ""),
    ("random.seed", "random.seed(0)", ""),
    ("random.getrandbits", "random.getrandbits(8)", ""),
    ("random.Random", "random.Random(0).random()", ""),
    ("warnings.warn", "warnings.warn('w')", ""),
    ("warnings.catch_warnings", "warnings.catch_warnings()", ""),
    ("logging.getLogger", "logging.getLogger('a')", ""),
    ("contextlib.nullcontext", "contextlib.nullcontext()", ""),
    ("contextlib.suppress", "contextlib.suppress(KeyError)", ""),
    ("contextlib.ExitStack", "contextlib.ExitStack()", ""),
    # -- NumPy ---------------------------------------------------------------------
    ("numpy.array", "np.array([1.0, 2.0])", ""),
    ("numpy.asarray", "np.asarray([1.0, 2.0])", ""),
    ("numpy.zeros", "np.zeros(3)", ""),
    ("numpy.ones", "np.ones(3)", ""),
    ("numpy.arange", "np.arange(3)", ""),
    ("numpy.linspace", "np.linspace(0, 1, 3)", ""),
    ("numpy.sqrt", "np.sqrt(2.0)", ""),
    ("numpy.log", "np.log(2.0)", ""),
    ("numpy.exp", "np.exp(1.0)", ""),
    ("numpy.prod", "np.prod([2, 3])", ""),
    ("numpy.cumsum", "np.cumsum([1, 2])", ""),
    ("numpy.ceil", "np.ceil(1.5)", ""),
    ("numpy.floor", "np.floor(1.5)", ""),
    ("numpy.isscalar", "np.isscalar(1.0)", ""),
    ("numpy.iinfo", "np.iinfo(np.int32).max", ""),
    ("numpy.finfo", "np.finfo(np.float32).eps", ""),
    ("numpy.dtype", "np.dtype('float32')", ""),
    ("numpy.float32", "np.float32(1.0)", ""),
    ("numpy.int64", "np.int64(3)", ""),
    ("numpy.concatenate", "np.concatenate([np.zeros(2), np.ones(2)])", ""),
    ("numpy.stack", "np.stack([np.zeros(2), np.ones(2)])", ""),
    ("numpy.where", "np.where(np.arange(3) > 1)", ""),
    ("numpy.unique", "np.unique(np.arange(3))", ""),
    ("numpy.argsort", "np.argsort(np.arange(3))", ""),
    ("numpy.sort", "np.sort(np.arange(3))", ""),
    ("numpy.meshgrid", "np.meshgrid(np.arange(2), np.arange(2))", ""),
    ("numpy.einsum", "np.einsum('i,i->', np.ones(2), np.ones(2))", ""),
    ("numpy.pad", "np.pad(np.ones(2), 1)", ""),
    ("numpy.random.seed", "np.random.seed(0)", ""),
    ("numpy.random.rand", "np.random.rand(3)", ""),
    ("numpy.random.randn", "np.random.randn(3)", ""),
    ("numpy.random.randint", "np.random.randint(0, 3)", ""),
    ("numpy.random.random", "np.random.random(3)", ""),
    ("numpy.random.uniform", "np.random.uniform(0, 1)", ""),
    ("numpy.random.normal", "np.random.normal(0, 1)", ""),
    ("numpy.random.choice", "np.random.choice(3)", ""),
    ("numpy.random.permutation", "np.random.permutation(3)", ""),
    ("numpy.random.shuffle", "np.random.shuffle(np.arange(3))", ""),
    ("numpy.random.beta", "np.random.beta(1.0, 1.0)", ""),
    ("numpy.random.default_rng", "np.random.default_rng(0)", ""),
    ("numpy.random.SeedSequence", "np.random.SeedSequence(0)", ""),
    ("numpy.random.RandomState", "np.random.RandomState(0)", ""),
    ("numpy.random.Generator", "np.random.Generator(np.random.PCG64(0))", ""),
    ("numpy.random.PCG64", "np.random.PCG64(0)", ""),
    # methods of objects built outside the compiled code: "<how it was built>().<method>"
    *[(f"numpy.random.{built}().{m}", f"RNG.{m}({a})", f"RNG = np.random.{built}({seed})")
      for built, seed in (("default_rng", "0"), ("Generator", "np.random.PCG64(0)")) for m, a in (
        ("normal", ""), ("random", ""), ("integers", "3"), ("uniform", ""), ("choice", "3"),
        ("permutation", "3"), ("shuffle", "[1, 2]"), ("standard_normal", "2"), ("exponential", ""),
        ("binomial", "3, 0.5"), ("poisson", ""), ("gamma", "1.0"), ("beta", "1.0, 1.0"),
        ("multivariate_normal", "[0.0], [[1.0]]"), ("dirichlet", "[1.0, 1.0]"), ("spawn", "1"))],
    *[(f"numpy.random.SeedSequence().{m}", f"SS.{m}({a})", "SS = np.random.SeedSequence(0)") for m, a in (
        ("generate_state", "2"), ("spawn", "2"))],
    # a RandomState also as scikit-learn's and TensorLy's `check_random_state(seed)` return it
    *[(f"numpy.random.RandomState().{m}", f"RNG.{m}({a})", "RNG = np.random.RandomState(0)") for m, a in (
        ("rand", ""), ("randn", ""), ("randint", "3"), ("normal", ""), ("uniform", ""), ("choice", "3"),
        ("random_sample", "2"), ("random", "2"), ("permutation", "3"), ("shuffle", "[1, 2]"),
        ("standard_normal", "2"), ("binomial", "3, 0.5"), ("poisson", ""), ("gamma", "1.0"),
        ("beta", "1.0, 1.0"), ("exponential", ""), ("multivariate_normal", "[0.0], [[1.0]]"),
        ("dirichlet", "[1.0, 1.0]"), ("seed", "0"), ("get_state", ""))],
    *[(f"random.Random().{m}", f"RNG.{m}({a})", "RNG = random.Random(0)") for m, a in (
        ("random", ""), ("randint", "1, 3"), ("uniform", "0, 1"), ("choice", "[1, 2]"), ("gauss", "0, 1"),
        ("shuffle", "[1, 2]"), ("sample", "[1, 2, 3], 2"))],
    *[(f"torch.Generator().{m}", f"GEN.{m}({a})", "GEN = torch.Generator()") for m, a in (
        ("manual_seed", "0"), ("seed", ""), ("initial_seed", ""), ("get_state", ""))],
    # -- SciPy (skipped where it is not installed) ------------------------------------
    ("scipy.fftpack.next_fast_len", "scipy.fftpack.next_fast_len(7)", "import scipy.fftpack"),
    ("scipy.fft.next_fast_len", "scipy.fft.next_fast_len(7)", "import scipy.fft"),
    ("scipy.special.gamma", "scipy.special.gamma(2.5)", "import scipy.special"),
    ("scipy.special.gammaln", "scipy.special.gammaln(2.5)", "import scipy.special"),
    ("scipy.special.erfinv", "scipy.special.erfinv(0.5)", "import scipy.special"),
    ("scipy.special.i0", "scipy.special.i0(1.0)", "import scipy.special"),
    ("scipy.special.binom", "scipy.special.binom(5, 2)", "import scipy.special"),
    ("scipy.special.factorial", "scipy.special.factorial(4)", "import scipy.special"),
    ("scipy.special.logsumexp", "scipy.special.logsumexp([1.0, 2.0])", "import scipy.special"),
    ("scipy.linalg.hadamard", "scipy.linalg.hadamard(4)", "import scipy.linalg"),
    ("scipy.signal.get_window", "scipy.signal.get_window('hann', 8)", "import scipy.signal"),
    ("scipy.stats.norm.ppf", "scipy.stats.norm.ppf(0.975)", "import scipy.stats"),
    ("scipy.optimize.linear_sum_assignment", "scipy.optimize.linear_sum_assignment(np.eye(3))",
     "import scipy.optimize"),
    # -- torch ---------------------------------------------------------------------
    ("torch.jit.isinstance", "torch.jit.isinstance(xs, list[torch.Tensor])", ""),
    ("torch.jit.is_scripting", "torch.jit.is_scripting()", ""),
    ("torch.jit.is_tracing", "torch.jit.is_tracing()", ""),
    ("torch.jit.annotate", "torch.jit.annotate(list[int], [])", ""),
    ("torch.manual_seed", "torch.manual_seed(0)", ""),
    ("torch.seed", "torch.seed()", ""),
    ("torch.initial_seed", "torch.initial_seed()", ""),
    ("torch.get_rng_state", "torch.get_rng_state()", ""),
    ("torch.random.fork_rng", "torch.random.fork_rng()", ""),
    ("torch.Generator", "torch.Generator()", ""),
    # quasi-random draws (botorch's QMC samplers): torch.quasirandom is a module Dynamo skips
    ("torch.quasirandom.SobolEngine", "torch.quasirandom.SobolEngine(3)", ""),
    *[(f"torch.quasirandom.SobolEngine().{m}", f"SOBOL.{m}({a})", "SOBOL = torch.quasirandom.SobolEngine(3)")
      for m, a in (("draw", "2"), ("draw_base2", "1"), ("fast_forward", "2"), ("reset", ""))],
    # a sparse tensor built in compiled code (torchkbnufft's interpolation matrices)
    ("torch.sparse_coo_tensor", "s = torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 2]]), x[:2], (3, 3))", ""),
    ("torch.sparse_csr_tensor",
     "s = torch.sparse_csr_tensor(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1]), x[:2], (3, 3))", ""),
    ("torch.sparse_csc_tensor",
     "s = torch.sparse_csc_tensor(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1]), x[:2], (3, 3))", ""),
    ("torch.is_grad_enabled", "torch.is_grad_enabled()", ""),
    ("torch.get_default_dtype", "torch.get_default_dtype()", ""),
    ("torch.set_default_dtype", "torch.set_default_dtype(torch.float32)", ""),
    ("torch.is_tensor", "torch.is_tensor(x)", ""),
    ("torch.is_floating_point", "torch.is_floating_point(x)", ""),
    ("torch.numel", "torch.numel(x)", ""),
    ("torch.typename", "torch.typename(x)", ""),
    ("torch.get_num_threads", "torch.get_num_threads()", ""),
    ("torch.set_num_threads", "torch.set_num_threads(torch.get_num_threads())", ""),
    ("torch.are_deterministic_algorithms_enabled", "torch.are_deterministic_algorithms_enabled()", ""),
    ("torch.use_deterministic_algorithms", "torch.use_deterministic_algorithms(False)", ""),
    ("torch.is_inference_mode_enabled", "torch.is_inference_mode_enabled()", ""),
    ("torch.get_float32_matmul_precision", "torch.get_float32_matmul_precision()", ""),
    ("torch.set_float32_matmul_precision", "torch.set_float32_matmul_precision('highest')", ""),
    ("torch.set_printoptions", "torch.set_printoptions(precision=4)", ""),
    ("torch.cuda.is_available", "torch.cuda.is_available()", ""),
    ("torch.cuda.device_count", "torch.cuda.device_count()", ""),
    ("torch.cuda.empty_cache", "torch.cuda.empty_cache()", ""),
    ("torch.cuda.memory_allocated", "torch.cuda.memory_allocated()", ""),
    ("torch.cuda.is_initialized", "torch.cuda.is_initialized()", ""),
    ("torch.backends.cudnn.is_available", "torch.backends.cudnn.is_available()", ""),
    ("torch.backends.cudnn.flags", "with torch.backends.cudnn.flags(enabled=False):\n        y = x * 2", ""),
    ("torch.backends.cuda.flash_sdp_enabled", "torch.backends.cuda.flash_sdp_enabled()", ""),
    ("torch.backends.cuda.sdp_kernel", "with torch.backends.cuda.sdp_kernel(enable_math=True):\n        y = x * 2", ""),
    ("torch.nn.attention.sdpa_kernel",
     "with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):\n        y = x * 2",
     "import torch.nn.attention"),
    ("torch.cuda.amp.autocast", "with torch.cuda.amp.autocast(enabled=False):\n        y = x * 2", ""),
    ("torch.autograd.graph.saved_tensors_hooks",
     "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n        y = x * 2", ""),
    ("torch.is_autocast_enabled", "torch.is_autocast_enabled()", ""),
    ("torch.get_autocast_dtype", "torch.get_autocast_dtype('cpu')", ""),
    ("torch.get_autocast_gpu_dtype", "torch.get_autocast_gpu_dtype()", ""),
    ("torch._C._get_tracing_state", "torch._C._get_tracing_state()", ""),
    ("torch._C._is_tracing", "torch._C._is_tracing()", ""),
    ("torch.overrides.has_torch_function", "torch.overrides.has_torch_function((x,))", ""),
    ("torch.cuda.nvtx.range_push", "torch.cuda.nvtx.range_push('r')", ""),
    ("torch.nn.utils.rnn.pack_padded_sequence",
     "torch.nn.utils.rnn.pack_padded_sequence(x.view(3, 1, 1), [3])", ""),
    ("torch.nn.utils.parameters_to_vector", "torch.nn.utils.parameters_to_vector([x])", ""),
    ("torch.nn.init.xavier_uniform_", "torch.nn.init.xavier_uniform_(torch.empty(2, 2))", ""),
    ("torch.nn.init.normal_", "torch.nn.init.normal_(torch.empty(2, 2))", ""),
    ("torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint(torch.sin, x, use_reentrant=False)", ""),
    ("torch.distributions.Normal", "torch.distributions.Normal(x, 1.0).rsample()", ""),
    ("torch.distributions.Categorical", "torch.distributions.Categorical(logits=x).sample()", ""),
    ("torch.testing.assert_close", "torch.testing.assert_close(x, x)", ""),
    ("torch._assert", "torch._assert(True, 'm')", ""),
    ("torch._check", "torch._check(x.shape[0] == 3)", ""),
    ("torch.compiler.is_compiling", "torch.compiler.is_compiling()", ""),
    ("torch.func.vmap", "torch.func.vmap(torch.sin)(x)", ""),
    ("torch.vmap", "torch.vmap(torch.sin)(x)", ""),
    ("torch.func.grad", "torch.func.grad(lambda t: t.sin().sum())(x)", ""),
    ("torch.from_numpy", "torch.from_numpy(np.ones(2))", ""),
    ("torch.tensor", "torch.tensor([1.0, 2.0])", ""),
    ("torch.as_tensor", "torch.as_tensor([1.0, 2.0])", ""),
    ("torch.nn.Parameter", "torch.nn.Parameter(torch.ones(2))", ""),
    ("torch.nn.Linear", "torch.nn.Linear(3, 3)(x)", ""),
    ("torch.nn.ModuleList", "torch.nn.ModuleList([torch.nn.ReLU()])", ""),
    ("torch.nn.ReLU", "torch.nn.ReLU()(x)", ""),
    ("torch.nn.Dropout", "torch.nn.Dropout(0.1)(x)", ""),
    ("torch.autocast", "with torch.autocast('cpu', enabled=False):\n        y = x * 2", ""),
    ("torch.no_grad", "with torch.no_grad():\n        y = x * 2", ""),
    ("torch.enable_grad", "with torch.enable_grad():\n        y = x * 2", ""),
    ("torch.inference_mode", "with torch.inference_mode():\n        y = x * 2", ""),
    ("torch.set_grad_enabled", "with torch.set_grad_enabled(False):\n        y = x * 2", ""),
    ("torch.autograd.profiler.record_function",
     "with torch.autograd.profiler.record_function('r'):\n        y = x * 2", ""),
    ("torch.profiler.record_function", "with torch.profiler.record_function('r'):\n        y = x * 2", ""),
    ("torch.save", "torch.save(x, io.BytesIO())", ""),
    ("torch.hub.get_dir", "torch.hub.get_dir()", ""),
    ("torch.utils.data.DataLoader", "torch.utils.data.DataLoader([1, 2])", ""),
    # building an optimizer or a learning-rate scheduler (torchjd FAMO's lazy `Adam`)
    *((f"torch.optim.{name}", f"torch.optim.{name}([w], lr=0.1)", "w = torch.nn.Parameter(torch.ones(2))")
      for name in ("Adam", "AdamW", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
                   "ASGD", "Rprop", "LBFGS", "Adafactor")),
    *((f"torch.optim.lr_scheduler.{name}", f"torch.optim.lr_scheduler.{name}(opt, {args})",
       "w = torch.nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([w], lr=0.1)")
      for name, args in (("StepLR", "1"), ("MultiStepLR", "[1, 2]"), ("ExponentialLR", "0.9"),
                         ("CosineAnnealingLR", "10"), ("LambdaLR", "fn"), ("LinearLR", ""),
                         ("OneCycleLR", "1.0, total_steps=10"), ("ReduceLROnPlateau", ""))),
]

# What iterating a call's result does: (qualname, the call, set-up). Dynamo skips the
# result's `__iter__` (or has no `tp_iter` for it) at the `for`, cannot resume there, and runs
# the rest of the frame eagerly; or it iterates the result (a list) and goes on.
ITER_CASES: list[tuple[str, str, str]] = [
    ("tqdm.tqdm", "tqdm.tqdm(range(2))", "import tqdm"),
    ("tqdm.trange", "tqdm.trange(2)", "import tqdm"),
    ("tqdm.auto.tqdm", "tqdm.auto.tqdm(range(2))", "import tqdm.auto"),
    ("tqdm.auto.trange", "tqdm.auto.trange(2)", "import tqdm.auto"),
    ("tqdm.std.tqdm", "tqdm.std.tqdm(range(2))", "import tqdm.std"),
    ("tqdm.autonotebook.tqdm", "tqdm.autonotebook.tqdm(range(2))", "import tqdm.autonotebook"),
    ("tqdm.autonotebook.trange", "tqdm.autonotebook.trange(2)", "import tqdm.autonotebook"),
    ("tqdm.contrib.tenumerate", "tqdm.contrib.tenumerate([1, 2])", "import tqdm.contrib"),
    ("pandas.Series", "pd.Series([1.0, 2.0])", "import pandas as pd"),
    ("pandas.DataFrame", "pd.DataFrame({'a': [1.0]})", "import pandas as pd"),
    *[(f"pandas.DataFrame().{m}", f"DF.{m}()", "import pandas as pd\nDF = pd.DataFrame({'a': [1.0]})")
      for m in ("iterrows", "itertuples", "items")],
    ("pandas.Series().items", "SER.items()", "import pandas as pd\nSER = pd.Series([1.0, 2.0])"),
    *[(f"networkx.{f}", f"nx.{f}(G{a})", "import networkx as nx\nG = nx.DiGraph([(0, 1), (1, 2)])")
      for f, a in (("topological_sort", ""), ("dfs_preorder_nodes", ", 0"), ("bfs_edges", ", 0"),
                   ("weakly_connected_components", ""), ("dag_longest_path", ""))],
]
# Wrappers around such an iterable: does iterating `wrapper(tqdm.tqdm(...))` end the frame too?
ITER_WRAPPERS: list[tuple[str, str]] = [
    ("builtins.enumerate", "enumerate({})"),
    ("builtins.zip", "zip({}, range(2))"),
    ("itertools.islice", "itertools.islice({}, 2)"),
    ("itertools.chain", "itertools.chain({}, [1])"),
    ("builtins.iter", "iter({})"),
]
MARKER = "torch._dynamo.graph_break()"  # logged only where Dynamo still traces the frame


def _iter_body(iterable: str) -> str:
    """The result bound on one line and iterated on the next, then a marker break."""
    return f"it = {iterable}\n    for _ in it:\n        pass\n    {MARKER}"


ITER_LINE = 2  # of the `for`, in the body (the body's first line is 1)

# Calls that need a tensor requiring grad.
GRAD_CASES: dict[str, str] = {
    "torch.autograd.grad": "torch.autograd.grad((x * x).sum(), x)",
    "torch.autograd.backward": "torch.autograd.backward((x * x).sum())",
}

PRELUDE = """\
import abc, array, base64, bisect, builtins, collections, contextlib, copy, copyreg, dataclasses
import datetime, decimal, enum, fnmatch, fractions, functools, gc, getpass, hashlib, heapq
import importlib, importlib.util, inspect, io, itertools, json, linecache, logging, marshal, math
import operator, os, pathlib, pickle, platform, random, re, socket, statistics, string, struct
import sys, textwrap, threading, time, types, typing, uuid, warnings, weakref, zlib
import numpy as np
import torch

class Obj:
    def __init__(self, a=1):
        self.a = a

def fn(a, b=2):
    "doc"
    return a

obj = Obj()
cfg = {"a": 1}
"""


def _source(body: str, setup: str) -> str:
    return f"{PRELUDE}{setup}\n\ndef probe(x, xs):\n    {body}\n    return x + 1\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, help="table to write (default: beside the analyzer's tables)")
    parser.add_argument("-k", dest="only", help="run only cases whose name contains one of these (comma-separated)")
    parser.add_argument("--merge", action="store_true",
                        help="write the rows of the cases run into the table as it is (with -k)")
    args = parser.parse_args(argv)

    warnings.simplefilter("ignore")
    logging.getLogger("torch").setLevel(logging.CRITICAL)
    import torch
    import torch._dynamo
    from torch._dynamo import symbolic_convert as sc
    from torch._dynamo.exc import _load_gb_type_to_gb_id_map

    gb_ids = _load_gb_type_to_gb_id_map()
    breaks: list[tuple[str, int | None]] = []  # (Gb_type, line in the case's file)
    original = sc.InstructionTranslatorBase.log_graph_break

    def hook(tx, code_options, reason, exc):
        if not getattr(exc, "logged", False):
            stack = getattr(exc, "real_stack", None) or torch._guards.TracingContext.extract_stack()
            lines = [fs.lineno for fs in stack if Path(fs.filename).name.startswith("tclint_probe_")]
            breaks.append((getattr(exc, "gb_type", None) or type(exc).__name__, lines[-1] if lines else None))
        return original(tx, code_options, reason, exc)

    sc.InstructionTranslatorBase.log_graph_break = hook
    tmp = tempfile.TemporaryDirectory()
    count = iter(range(1 << 30))

    def run(name: str, body: str, setup: str) -> list[tuple[str, int | None]] | None:
        """The breaks (Gb_type, line of the body) Dynamo logs on the case; None when the case
        needs a library this environment lacks. Raises where the case fails eagerly."""
        path = Path(tmp.name) / f"tclint_probe_{next(count)}.py"
        source = _source(body, setup)
        path.write_text(source, encoding="utf-8")
        first = source.splitlines().index("def probe(x, xs):") + 1  # the line before the body's
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module  # dataclasses look their module up
        try:
            spec.loader.exec_module(module)
        except ModuleNotFoundError as exc:  # an optional library this environment lacks
            print(f"{name:45} skipped: {exc}", file=sys.stderr)
            return None
        x = torch.randn(3, requires_grad=name in GRAD_CASES)
        xs = [torch.randn(3), torch.randn(3)]
        module.probe(x, xs)  # eagerly first: a case must be valid Python
        torch._dynamo.reset()
        breaks.clear()
        torch.compile(module.probe, backend="eager")(x, xs)
        return [(gb_type, line - first if line else None) for gb_type, line in breaks]

    def row(found: list[tuple[str, int | None]]) -> dict:
        return {"breaks": True, "gb_type": found[0][0], "gb_id": gb_ids.get(found[0][0])} if found else {
            "breaks": False}

    def iterated(found: list[tuple[str, int | None]]) -> dict:
        """What iterating the result does: the frame ends when the marker after the loop is never reached."""
        at_for = [(g, line) for g, line in found if line == ITER_LINE]
        return {"ends_frame": not any(line == ITER_LINE + 2 for _, line in found), **row(at_for)}

    def only(cases):
        return [c for c in cases if any(k in c[0] for k in args.only.split(","))] if args.only else cases

    cases = list(CASES)
    cases += [(name, body, "") for name, body in GRAD_CASES.items()]
    calls: dict[str, dict] = {}
    wrappers: dict[str, bool] = {}
    failed: list[str] = []
    for name, body, setup in only(cases):
        try:
            found = run(name, body, setup)
        except Exception as exc:  # a broken case, not a verdict
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        if found is not None:
            calls[name] = row(found)
            print(f"{name:45} {calls[name].get('gb_type', 'traced')}", file=sys.stderr)
    for name, iterable, setup in only(ITER_CASES):
        try:
            found = run(name, _iter_body(iterable), setup)
        except Exception as exc:
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        if found is not None:
            calls[name] = {**row([b for b in found if b[1] == 1]), "iterated": iterated(found)}
            print(f"{name:45} {calls[name].get('gb_type', 'traced')}; iterated: {calls[name]['iterated']}",
                  file=sys.stderr)
    for name, spelling in only(ITER_WRAPPERS):
        try:
            found = run(name, _iter_body(spelling.format("tqdm.tqdm(range(2))")), "import tqdm")
        except Exception as exc:
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        if found is not None:
            wrappers[name] = iterated(found)["ends_frame"]
            print(f"{name:45} around tqdm.tqdm(): ends the frame: {wrappers[name]}", file=sys.stderr)
    tmp.cleanup()
    version = torch.__version__.split("+")[0]
    table = {
        "torch": version,
        "python": platform.python_version(),
        "numpy": sys.modules["numpy"].__version__,
        "probe": "analyzer/knowledge/tools/probe_dynamo.py",
        "calls": numpy_support.merge(calls),  # plus the NumPy functions Dynamo's own map lacks
        # wrapper -> whether iterating it around a result whose iteration ends the frame ends it too
        "iteration_wrappers": wrappers,
    }
    major_minor = ".".join(version.split(".")[:2])
    out = args.output or Path(__file__).resolve().parent.parent / f"dynamo_calls_{major_minor}.json"
    if args.merge:  # the rows asked again replace theirs in the table as it is
        old = json.loads(out.read_text(encoding="utf-8"))
        if old["torch"] != version:
            print(f"{out} describes torch {old['torch']}, not {version}: not merged", file=sys.stderr)
            return 1
        table = {**old, "calls": {**old["calls"], **calls},
                 "iteration_wrappers": {**old.get("iteration_wrappers", {}), **wrappers}}
    if args.merge or not args.only:
        out.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}: {len(calls)} calls, {sum(c['breaks'] for c in calls.values())} break", file=sys.stderr)
    for line in failed:
        print(f"case failed: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
