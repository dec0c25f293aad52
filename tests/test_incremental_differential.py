"""Differential test: after every one of a series of seeded random edits of real files, the
editor's incremental summary equals a fresh whole-file summary.

The edits are of every kind an editor makes: an import added or removed, a module-level
name bound to a tensor, a number, a module or a literal list of classes, a line in a class
body or in a function body, a decorator, a definition added or removed, and a syntax error
followed by its repair; and the edits that cross the members of a class, which are analyzed
one by one: a class attribute its methods read, `self.x = ...` in a method, a decorator on
a method, a method removed, a module-level name that a method reads, a line at some
indentation between two members (an edited member is parsed alone where that is sound).

The short run (CI) edits the examples and a few torch modules; the
long run (`TCLINT_DIFFERENTIAL=long`) edits torch/nn/functional.py and every model of an
installed transformers too (the one in ~/.cache/tclint-eval/realworld-venv, or the
importable one; TCLINT_DIFFERENTIAL_MODELS of them, spread over the alphabet), and writes its
figures to TCLINT_DIFFERENTIAL_REPORT when set. Each summary is also passed on as the
parse worker sends it to the server (what changed, records moved down as moves), and the
server's rebuilt summary must equal the whole file's too.
"""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import pickle
import random
import time
from pathlib import Path

import pytest

from tclint.analyzer.incremental import IncrementalSummarizer
from tclint.analyzer.project import summarize
from tclint.server.buffer_summaries import _rebuilt, delta

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("TCLINT_DIFFERENTIAL") == "long"
EDITS = int(os.environ.get("TCLINT_DIFFERENTIAL_EDITS", "40" if LONG else "12"))


def _torch_dir() -> Path | None:
    spec = importlib.util.find_spec("torch")
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


def _transformers_models() -> list[Path]:
    venv = Path.home() / ".cache" / "tclint-eval" / "realworld-venv"
    found = sorted(venv.glob("lib/python3*/site-packages/transformers/models"))
    if not found:
        spec = importlib.util.find_spec("transformers")
        if spec and spec.submodule_search_locations:
            found = [Path(spec.submodule_search_locations[0]) / "models"]
    return sorted(found[0].glob("*/modeling_*.py")) if found else []


def _files() -> list[Path]:
    files = sorted((ROOT / "examples").rglob("*.py"))
    torch_dir = _torch_dir()
    if torch_dir is not None:
        nn = torch_dir / "nn"
        files += [nn / "utils" / "rnn.py", nn / "modules" / "linear.py"]
        if LONG:
            files += [nn / "functional.py", nn / "modules" / "activation.py", nn / "modules" / "rnn.py",
                      torch_dir / "_tensor.py", nn / "modules" / "module.py"]
    if LONG:
        models = _transformers_models()
        wanted = int(os.environ.get("TCLINT_DIFFERENTIAL_MODELS", "24"))
        files += models[::max(1, len(models) // wanted)][:wanted]  # spread over the alphabet
    return [f for f in files if f.is_file()]


# -- edits: each takes the text and a random source, returns the edited text or None -------
def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _top_level_line(tree: ast.Module, rng: random.Random) -> int:
    """A line where a new top-level statement may go (before a statement and its decorators)."""
    if not tree.body:
        return 1
    stmt = rng.choice(tree.body)
    return min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])


def _insert(text: str, line: int, new: str) -> str:
    lines = _lines(text)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join(lines[:line - 1] + [new] + lines[line - 1:])


def _delete(text: str, first: int, last: int) -> str:
    lines = _lines(text)
    return "".join(lines[:first - 1] + lines[last:])


def add_import(text, tree, rng):
    new = rng.choice(["import numpy as np\n", "from torch import compile as jit\n", "import torch as T\n",
                      "import logging\n", "from torch.nn import functional as F\n", "import torch\n",
                      "from . import sibling\n", "import random\n", "from .sibling import *\n"])
    return _insert(text, _top_level_line(tree, rng), new)


def remove_import(text, tree, rng):
    imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    if not imports:
        return None
    stmt = rng.choice(imports)
    return _delete(text, stmt.lineno, stmt.end_lineno)


def module_name(text, tree, rng):
    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}) or ["x"]
    defs = [s.name for s in tree.body if isinstance(s, ast.ClassDef)]
    name = rng.choice(names)
    value = rng.choice(["torch.ones(3)", "3", "None", "torch.nn.Linear(2, 2)", "logging.getLogger(__name__)",
                        f"[{', '.join(defs[:2])}]" if defs else "[1, 2]", "(x > 0).sum()", "lambda t: t.item()"])
    return _insert(text, _top_level_line(tree, rng), f"{name} = {value}\n")


def _statements_in(tree, kinds) -> list[ast.stmt]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, kinds):
            body = node.body
            out.extend(s for s in body if isinstance(s, ast.stmt))
    return out


def _line_before(text, stmt, new_body: str):
    line = _lines(text)[stmt.lineno - 1]
    indent = line[:stmt.col_offset]
    if indent.strip():  # `a; b`: not at the start of its line
        return None
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
    return _insert(text, first, "".join(indent + part + "\n" for part in new_body.split("\n")))


def class_body(text, tree, rng):
    stmts = _statements_in(tree, ast.ClassDef)
    if not stmts:
        return None
    new = rng.choice(["counter = 0", "def extra(self, x):\n    return x.item()",
                      "def forward(self, x):\n    if x.sum() > 0:\n        return x\n    return -x",
                      "scale = torch.ones(1)"])
    return _line_before(text, rng.choice(stmts), new)


def function_body(text, tree, rng):
    stmts = _statements_in(tree, (ast.FunctionDef, ast.AsyncFunctionDef))
    if not stmts:
        return None
    new = rng.choice(["y = x.item()", "print(x)", "import numpy as np", "if x.sum() > 0:\n    pass",
                      "torch._dynamo.graph_break()", "n = len(x)", "logger.info('step')"])
    return _line_before(text, rng.choice(stmts), new)


def decorator(text, tree, rng):
    defs = [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if not defs:
        return None
    stmt = rng.choice(defs)
    new = rng.choice(["@torch.compile", "@torch.compile(mode='max-autotune')", "@torch.compiler.disable",
                      "@jit", "@precompile", "@torch._dynamo.config.patch(capture_scalar_outputs=True)"])
    return _line_before(text, stmt, new)


def add_def(text, tree, rng):
    name = rng.choice(["helper", "forward", "precompile", "step", "_fn"])
    new = rng.choice([f"def {name}(x):\n    if x.sum() > 0:\n        return x.item()\n    return x\n",
                      f"@torch.compile\ndef {name}(x, n):\n    return x * n\n",
                      f"class {name.title()}(torch.nn.Module):\n    def forward(self, x):\n        return x.tolist()\n"])
    return _insert(text, _top_level_line(tree, rng), new)


def remove_def(text, tree, rng):
    defs = [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if not defs:
        return None
    stmt = rng.choice(defs)
    first = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
    return _delete(text, first, stmt.end_lineno)


# -- edits of the members of classes, which the incremental summarizer analyzes one by one --
def _methods(tree) -> list[tuple[ast.ClassDef, ast.FunctionDef]]:
    return [(cls, m) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
            for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _self_attributes(cls: ast.ClassDef) -> list[str]:
    return sorted({n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute)
                   and isinstance(n.value, ast.Name) and n.value.id == "self"})


def class_attribute(text, tree, rng):
    """A class-level binding of a name that the class's methods read as `self.<name>`."""
    classes = [c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and _self_attributes(c)]
    if not classes:
        return None
    cls = rng.choice(classes)
    value = rng.choice(["torch.ones(1)", "0", "None", "torch.nn.Linear(2, 2)", "logging.getLogger('m')"])
    return _line_before(text, rng.choice(cls.body), f"{rng.choice(_self_attributes(cls))} = {value}")


def method_self_attribute(text, tree, rng):
    """`self.<name> = ...` at the top of a method, for a name other methods read."""
    methods = [(c, m) for c, m in _methods(tree) if m.args.args and m.body and _self_attributes(c)]
    if not methods:
        return None
    cls, method = rng.choice(methods)
    value = rng.choice(["torch.ones(1)", "3", "torch.nn.LSTM(2, 2)", "x", "logging.getLogger('m')", "self.forward"])
    this = method.args.args[0].arg
    return _line_before(text, method.body[0], f"{this}.{rng.choice(_self_attributes(cls))} = {value}")


def method_decorator(text, tree, rng):
    methods = _methods(tree)
    if not methods:
        return None
    _, method = rng.choice(methods)
    new = rng.choice(["@torch.compile", "@torch.compiler.disable", "@property", "@staticmethod",
                      f"@{method.name}.setter", "@functools.cached_property", "@jit"])
    return _line_before(text, method, new)


def remove_method(text, tree, rng):
    methods = [(c, m) for c, m in _methods(tree) if len(c.body) > 1]
    if not methods:
        return None
    _, method = rng.choice(methods)
    first = min([method.lineno, *(d.lineno for d in method.decorator_list)])
    return _delete(text, first, method.end_lineno)


def name_read_by_a_method(text, tree, rng):
    """A module-level binding of a name that a method reads."""
    names = sorted({n.id for _, m in _methods(tree) for n in ast.walk(m) if isinstance(n, ast.Name)})
    if not names:
        return None
    value = rng.choice(["torch.ones(3)", "3", "None", "logging.getLogger(__name__)", "torch.nn.Linear(2, 2)",
                        "lambda t: t.item()"])
    return _insert(text, _top_level_line(tree, rng), f"{rng.choice(names)} = {value}\n")


def member_line(text, tree, rng):
    """A comment, a blank or whitespace-only line, or a statement at some indentation, above a
    member of a class or after a method's last statement: where the lines between two members
    go decides whether the edited member may be parsed alone (analyzer/class_members.py)."""
    methods = _methods(tree)
    if not methods:
        return None
    _, method = rng.choice(methods)
    line = rng.choice([min([method.lineno, *(d.lineno for d in method.decorator_list)]), method.end_lineno + 1])
    indent = " " * rng.choice([0, method.col_offset, method.col_offset + 4, method.col_offset + 8])
    new = rng.choice([f"{indent}# a note\n", "\n", f"{indent}\n", f"{indent}x = 1\n", f"{indent}pass\n"])
    return _insert(text, line, new)


EDIT_KINDS = [add_import, remove_import, module_name, class_body, function_body, decorator, add_def, remove_def,
              class_attribute, method_self_attribute, method_decorator, remove_method, name_read_by_a_method,
              member_line]


def _check(inc: IncrementalSummarizer, text: str, path: str, what: str, stats: dict, server: dict) -> None:
    t = time.perf_counter()
    got = inc.summarize(text, path, "pkg.mod", False)
    stats["incremental_s"].append(time.perf_counter() - t)
    stats["analyzed"].append(inc.analyzed)
    t = time.perf_counter()
    want = summarize(text, path, "pkg.mod", False)
    stats["whole_s"].append(time.perf_counter() - t)
    assert got == want, f"{path}: after {what}, the incremental summary differs from the whole file's"
    # As the server gets it from the parse worker: what changed since the last one, pickled.
    now = (len(stats["analyzed"]), got, {} if inc.whole else inc.origins)
    sent = pickle.loads(pickle.dumps(delta(server.get("sent"), server.get("token"), now)))
    server["summary"] = sent.summary if sent.base is None else _rebuilt(server["summary"], sent)
    server["sent"], server["token"] = now, sent.token
    assert server["summary"] == want, f"{path}: after {what}, the server's summary differs from the whole file's"


def run_edits(path: Path, seed: int, edits: int, stats: dict) -> None:
    rng = random.Random(f"{seed}:{path.name}")
    text = path.read_text(encoding="utf-8")
    inc = IncrementalSummarizer()
    server: dict = {}
    _check(inc, text, str(path), "opening", stats, server)
    done = 0
    while done < edits:
        tree = ast.parse(text)
        if rng.random() < 0.1:  # a syntax error, then its repair
            line = _top_level_line(tree, rng)
            broken = _insert(text, line, "def broken(:\n")
            _check(inc, broken, str(path), "a syntax error", stats, server)
            stats["kinds"]["syntax_error"] = stats["kinds"].get("syntax_error", 0) + 1
            _check(inc, text, str(path), "repairing a syntax error", stats, server)
            done += 1
            continue
        kind = rng.choice(EDIT_KINDS)
        edited = kind(text, tree, rng)
        if edited is None:
            continue
        try:
            ast.parse(edited)
        except SyntaxError:
            continue  # e.g. a line inserted into a one-line compound statement; syntax errors are above
        text = edited
        _check(inc, text, str(path), kind.__name__, stats, server)
        stats["kinds"][kind.__name__] = stats["kinds"].get(kind.__name__, 0) + 1
        done += 1


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_incremental_equals_whole_file_after_random_edits(path):
    stats = {"incremental_s": [], "whole_s": [], "analyzed": [], "kinds": {}}
    run_edits(path, seed=int(os.environ.get("TCLINT_DIFFERENTIAL_SEED", "0")), edits=EDITS, stats=stats)
    assert len(stats["kinds"]) >= min(EDITS, 4)  # several kinds of edit each time
    report = os.environ.get("TCLINT_DIFFERENTIAL_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as out:
            out.write(json.dumps({"file": str(path), "lines": path.read_text(encoding="utf-8").count("\n"), **stats}) + "\n")
