"""Differential test of the project phase after edits that change names: with the name
resolutions kept from run to run (analyzer/resolutions.py), every finding, every kept
resolution, every kept function's callee list and the patched key tables (in their order)
equal what a fresh whole-project run works out.

A small package of a few modules calls across files, derives classes across files and
compiles some functions. Seeded random edits change what the files say about names: an
import added or removed (also a name the package re-exports, or a star import), a module's
`__all__` toggled, a def or method added or
renamed, a class's base changed, a decorator added or removed; and what the compiled region
holds: a `torch.compile(f)` call added or removed, a body changed so that it now breaks or
calls another file's function; an import or a def of a name nothing looks up, toggled; a module-level wrapper (`_w = wrap(f)`, `logger =
logging.getLogger(__name__)`) toggled to `... or None`, which the server may answer
without a project phase (analyzer/project_effect.py); a function passed to another that
calls its parameter (`apply(f, x)`); a branch on what a function returns or on a
parameter, whose finding reads answers about values kept between runs
(analyzer/project_values.py; each is checked against a fresh index too); code that runs only
where a caller passes a parameter (regions._left_falsy). Imports and bases
only point to modules earlier in the package, so the only cycle is a class named as its own
base (as `class Config(Config)` in modular transformers files). The short run is CI's;
`TCLINT_PROJECT_DIFFERENTIAL=long` runs many more seeds and edits once.
"""
from __future__ import annotations

import os
import random
import textwrap

import pytest

from test_held_methods import PROGRAMS as HELD_PROGRAMS
from tclint.analyzer.api import summarize_source
from tclint.analyzer.call_refs import Named
from tclint.analyzer.config import Settings
from tclint.analyzer.project import project_diagnostics
from tclint.analyzer.project_effect import ArgReceivers, same_in_effect
from tclint.analyzer.project_passers import Passers
from tclint.analyzer import regions
from tclint.analyzer.project_tables import key_tables
from tclint.analyzer.regions import ProjectIndex
from tclint.analyzer.resolutions import Resolutions

LONG = os.environ.get("TCLINT_PROJECT_DIFFERENTIAL") == "long"
SEEDS = range(40) if LONG else range(4)
EDITS = 120 if LONG else 30
MODULES = 4
FUNCTIONS = ("f0", "f1", "f2", "f3")
CLASSES = ("C0", "C1", "C2")
METHODS = ("forward", "solve", "integrate")
DECORATORS = ("torch.compile", "torch.compiler.disable")


def _body(rng: random.Random, i: int, method: bool) -> str:
    options = ["x.sum().item()", "x * 2", f"{rng.choice(FUNCTIONS + CLASSES)}(x)", f"obj.{rng.choice(METHODS)}(x)",
               f"apply({rng.choice(FUNCTIONS)}, x)", "_w(x)", "logger.info(x)",
               # a branch on what a function returns, or on a parameter: a finding only where
               # that is a tensor (a root's input, what its callers pass)
               f"x if {rng.choice(FUNCTIONS)}(x) else 0", f"x if obj.{rng.choice(METHODS)}(x) else 0",
               "x if x else 0", "torch.ones(3)",
               # runs only where a caller passes `obj`: known once the compiled region is
               "if obj: x.sum().item()", f"if obj: {rng.choice(FUNCTIONS)}(x)", f"{rng.choice(FUNCTIONS)}(x, x)"]
    if i:
        options += [f"m{rng.randrange(i)}.{rng.choice(FUNCTIONS)}(x)", f"m{rng.randrange(i)}.apply({rng.choice(FUNCTIONS)}, x)"]
    if method:
        options += [f"self.{rng.choice(METHODS)}(x)", f"super().{rng.choice(METHODS)}(x)",
                    f"x if self.{rng.choice(METHODS)}(x) else 0"]
    return rng.choice(options)


def _base(rng: random.Random, i: int, name: str) -> str:
    options = ["nn.Module", "object", name] + [c for c in CLASSES if c < name]  # `class C1(C1)`: itself
    if i:
        options.append(f"m{rng.randrange(i)}.{rng.choice(CLASSES)}")
    return rng.choice(options)


def _import(rng: random.Random, i: int) -> str:
    j = rng.randrange(i)
    return rng.choice([f"from pkg.m{j} import {rng.choice(FUNCTIONS + CLASSES)}", f"from pkg import m{j}",
                       f"from pkg import {rng.choice(FUNCTIONS)}",  # pkg/__init__.py is not linted: a re-export
                       f"from pkg.m{j} import *"])  # what m{j} exports, re-exported: followed by the project phase


def _module(rng: random.Random, i: int) -> dict:
    m = {"imports": [], "defs": {}, "classes": {}, "decorated": {}, "compiled": [],
         "wrappers": {"_w": f"wrap({rng.choice(FUNCTIONS)})", "logger": "logging.getLogger(__name__)"}}
    if i:
        m["imports"] = [_import(rng, i) for _ in range(rng.randint(1, 3))]
    for name in rng.sample(FUNCTIONS, 2):
        m["defs"][name] = _body(rng, i, False)
    m["compiled"].append(name)  # a compiled region in every module from the start
    for name in rng.sample(CLASSES, 2):
        m["classes"][name] = {"base": _base(rng, i, name),
                              "methods": {meth: _body(rng, i, True) for meth in rng.sample(METHODS, 2)}}
    return m


def _text(m: dict) -> str:
    spare = "; import os as spare_module" if m.get("spare import") else ""  # on a line of its own it moves every def
    exports = [f"__all__ = {m['exports']!r}"] if m.get("exports") is not None else []
    out = ["import logging" + spare, "import torch", "from torch import nn", *m["imports"], *exports, "",
           "def apply(fn, x):", "    return fn(x)", "",
           "def wrap(fn):", "    def inner(x):", "        return fn(x)", "    return inner", "",
           *(f"{name} = {value}" for name, value in m["wrappers"].items()), ""]
    for name, body in m["defs"].items():
        if name in m["decorated"]:
            out.append(f"@{m['decorated'][name]}")
        out += [f"def {name}(x, obj=None):", *_lines(body, "    "), ""]
    for name, cls in m["classes"].items():
        out.append(f"class {name}({cls['base']}):")
        out += [line for meth, body in cls["methods"].items()
                for line in (f"    def {meth}(self, x, obj=None):", *_lines(body, "        "))]
        out.append("")
    out += [f"compiled_{name} = torch.compile({name})" for name in m["compiled"]]
    if m.get("spare def"):
        out += ["", "def spare(x):", "    return x.sum().item()"]
    return "\n".join(out)


def _lines(body: str, indent: str) -> list[str]:
    """A function's body: `return body`, or a statement (an `if`) then `return x`."""
    return [indent + body, f"{indent}return x"] if body.startswith("if ") else [f"{indent}return {body}"]


def _edit(rng: random.Random, i: int, m: dict) -> str:
    """One edit that changes what module `i` says about names; returns its kind."""
    kinds = ["def added", "def renamed", "method added", "method renamed", "base changed", "decorator",
             "compile call", "body changed", "wrapper toggled", "spare import", "spare def", "exports"]
    if i:
        kinds += ["import added", "import removed"]
    kind = rng.choice(kinds)
    if kind == "import added":
        m["imports"].append(_import(rng, i))
    elif kind == "import removed" and m["imports"]:
        m["imports"].pop(rng.randrange(len(m["imports"])))
    elif kind == "def added":
        m["defs"].setdefault(rng.choice(FUNCTIONS), _body(rng, i, False))
    elif kind == "def renamed" and m["defs"]:
        old, new = rng.choice(list(m["defs"])), rng.choice(FUNCTIONS)
        m["defs"] = {new if name == old else name: body for name, body in m["defs"].items()}
        if old in m["decorated"]:
            m["decorated"][new] = m["decorated"].pop(old)
    elif kind.startswith("method") and m["classes"]:
        methods = m["classes"][rng.choice(list(m["classes"]))]["methods"]
        if kind == "method added":
            methods.setdefault(rng.choice(METHODS), _body(rng, i, True))
        elif methods:
            old, new = rng.choice(list(methods)), rng.choice(METHODS)
            methods.update({new: methods.pop(old)})
    elif kind == "base changed" and m["classes"]:
        name = rng.choice(list(m["classes"]))
        m["classes"][name]["base"] = _base(rng, i, name)
    elif kind == "decorator" and m["defs"]:
        name = rng.choice(list(m["defs"]))
        if m["decorated"].pop(name, None) is None:
            m["decorated"][name] = rng.choice(DECORATORS)
    elif kind == "compile call" and m["defs"]:
        name = rng.choice(list(m["defs"]))
        m["compiled"] = [n for n in m["compiled"] if n != name] if name in m["compiled"] else [*m["compiled"], name]
    elif kind == "exports":  # what a star import of the module binds: its `__all__`, or its public names
        m["exports"] = None if m.get("exports") is not None else rng.sample(FUNCTIONS + CLASSES, 2)
    elif kind.startswith("spare"):  # a name nothing looks up (the server answers from the last run)
        m[kind] = not m.get(kind)
    elif kind == "wrapper toggled":
        name = rng.choice(list(m["wrappers"]))
        value = m["wrappers"][name]
        m["wrappers"][name] = value[:-len(" or None")] if value.endswith(" or None") else value + " or None"
    elif kind == "body changed":
        body = rng.choice(["x.sum().item()", _body(rng, i, False)])
        if m["defs"] and rng.random() < 0.5:
            m["defs"][rng.choice(list(m["defs"]))] = body
        elif m["classes"]:
            methods = m["classes"][rng.choice(list(m["classes"]))]["methods"]
            if methods:
                methods[rng.choice(list(methods))] = body
    return kind


def _summary(i: int, m: dict):
    return summarize_source(_text(m), f"/proj/pkg/m{i}.py", f"pkg.m{i}")


def _stale(kept: Resolutions, summaries) -> list[str]:
    """Kept resolutions that a fresh index of the same files works out otherwise."""
    fresh = ProjectIndex(summaries)
    ask = {"resolved": fresh.resolve_ref, "dotted": fresh.resolve_dotted, "mro": fresh.mro,
           "wrappers": fresh.wrappers, "families": fresh._one_family, "module_classes": fresh.is_module_class}
    out = []
    for cache, resolve in ask.items():
        for key, value in list((kept.names.get(cache) or {}).items()):
            if resolve(key) != value:
                out.append(f"{cache}[{key!r}] = {value!r}, fresh: {resolve(key)!r}")
    for path, (fs, assume, roots) in (kept.names.get("roots") or {}).items():  # each file's roots
        if any(fs is s for s in summaries) and fresh.file_roots(fs, assume) != roots:
            out.append(f"roots of {path} = {roots!r}, fresh: {fresh.file_roots(fs, assume)!r}")
    return out


def _tables_differ(kept: Resolutions, summaries) -> list[str]:
    """The kept key tables that differ from a fresh build, in what they hold or in order (the
    callers map, whose first caller messages name, follows the functions table's order)."""
    names = ("modules", "functions", "classes", "methods_by_name")
    return [name for name, patched, fresh in zip(names, kept.tables.tables, key_tables(summaries))
            if _by_identity(patched) != _by_identity(fresh)]


def _by_identity(table: dict) -> list:
    return [(key, value if isinstance(value, list) else tuple(map(id, value)) if isinstance(value, tuple) else id(value))
            for key, value in table.items()]


def _callees_differ(kept: Resolutions, summaries) -> list[str]:
    """Kept per-function callee lists that a fresh index resolves otherwise."""
    fresh = ProjectIndex(summaries)
    return [key for key, (fn, callees) in (kept.names.get("callees") or {}).items()
            if key in fresh.functions and fresh.functions[key][1] is fn and fresh.site_callees(key, fn) != callees]


def _passers_differ(kept: Resolutions, summaries) -> list[str]:
    """Callees whose kept passing sites, brought up to date (on a copy: the next run does
    it), differ from a fresh index's; and kept sites whose resolution is not kept (an edit
    that changes it could not drop them)."""
    kept_passers = kept.names.get("passers")
    if kept_passers is None:
        return []
    resolved = kept.names.get("resolved") or {}
    out = [f"{source}: {site.ref} not kept" for source, (_, pairs) in kept_passers._sources.items()
           for site, _ in pairs if site.ref not in resolved]
    passers = Passers()
    passers._sources = dict(kept_passers._sources)
    passers._by_callee = {callee: {source: list(sites) for source, sites in by_source.items()}
                          for callee, by_source in kept_passers._by_callee.items()}
    passers._users = {ref: set(sources) for ref, sources in kept_passers._users.items()}
    passers._files, passers._dropped = dict(kept_passers._files), set(kept_passers._dropped)
    fresh = ProjectIndex(summaries)
    expected = fresh.sites_passing_functions()
    passers.refresh(fresh.functions, summaries, fresh.resolve_ref)
    return out + [callee for callee in expected.keys() | passers._by_callee.keys()
                  if sorted(map(id, expected.get(callee, ()))) != sorted(map(id, passers.get(callee)))]


def _values_differ(kept: Resolutions, summaries) -> list[str]:
    """Kept answers about values (analyzer/project_values.py) that a fresh index, over the
    same compiled region, works out otherwise."""
    fresh = ProjectIndex(summaries)
    roots = regions.find_roots(fresh, True, [])
    fresh.reached = set(regions.reach(fresh, roots))
    fresh.root_keys = {r.function for r in roots}
    ask = {"returns": fresh.returns_tensor, "attributes": lambda ref: fresh._attribute_source(ref, set()),
           "compiling": lambda ref: fresh._is_compiling(ref, set()), "sources": fresh.tensor_source,
           "falsy": fresh._left_falsy}
    return [f"{cache}[{key!r}] = {value!r}, fresh: {ask[cache](key)!r}"
            for cache, kept_values in kept.values.caches.items() for key, value in list(kept_values.items())
            if ask[cache](key) != value]


def _reach_differs(kept: Resolutions, summaries) -> bool:
    """Whether the kept compiled region differs from a fresh walk's, in order (chains and
    first callers follow it) or in the callers map over it."""
    fresh = ProjectIndex(summaries)
    reached = regions.reach(fresh, regions.find_roots(fresh, True, []))
    fresh.reached = set(reached)
    last = kept.region._index
    return (list(kept.region._reached.items()) != list(reached.items())
            or last._callers_map is not None and last._callers_map != fresh.callers())


def _call_sites_differ(kept: Resolutions) -> bool:
    """Whether the kept callers of each function (project_findings.CallSites) differ from
    those gathered afresh from the run's findings, as loop_skips.Breaking gathers them."""
    fresh: dict[str, list] = {}
    for key, (_, _, ff, *_) in kept.findings._kept.items():
        for callees in ff.calls:
            for callee in set(callees):
                fresh.setdefault(callee, []).append((key, callees))
    sites = kept.findings._sites
    return any(sorted(map(repr, sites.get(callee))) != sorted(map(repr, pairs)) for callee, pairs in fresh.items()) or (
        sites._callers.keys() != fresh.keys())


def _receivers_differ(kept: Resolutions, summaries) -> bool:
    """Whether the functions a compiled call passes a None or a str Enum member, kept and
    patched between runs (project_effect.ArgReceivers), differ from those found afresh."""
    fresh, index = ArgReceivers(), ProjectIndex(summaries)
    index.reached = set(kept.region._reached)
    fresh.found(index)
    return fresh.last != kept.arg_receivers.last


@pytest.mark.parametrize("seed", SEEDS)
def test_findings_after_name_changing_edits_equal_a_fresh_run(seed):
    rng = random.Random(seed)
    modules = [_module(rng, i) for i in range(MODULES)]
    summaries = [_summary(i, m) for i, m in enumerate(modules)]
    kept = Resolutions()
    last = project_diagnostics(summaries, Settings(), kept)
    before = list(summaries)
    reused = effectless = 0
    for step in range(EDITS):
        i = rng.randrange(MODULES)
        kind = _edit(rng, i, modules[i])
        summaries[i] = _summary(i, modules[i])
        # asked as the server asks it: of the last run's names and reads
        same = same_in_effect(before[i], summaries[i], before, key_tables(before), kept.names, read=kept.read)
        incremental = project_diagnostics(summaries, Settings(), kept)
        where = f"seed {seed}, edit {step} ({kind} in m{i}):\n{_text(modules[i])}"
        fresh = project_diagnostics(summaries, Settings())
        assert incremental == fresh, where
        if same:
            assert fresh == last, where  # what the server answers without a project phase
            effectless += 1
        before, last = list(summaries), fresh
        assert _stale(kept, summaries) == [], where
        assert _tables_differ(kept, summaries) == [], where
        assert _callees_differ(kept, summaries) == [], where
        assert _passers_differ(kept, summaries) == [], where
        assert _reach_differs(kept, summaries) is False, where
        assert _values_differ(kept, summaries) == [], where
        assert _call_sites_differ(kept) is False, where
        assert _receivers_differ(kept, summaries) is False, where
        reused += bool(kept.names.get("resolved"))

    assert reused  # the kept caches were in use, not started afresh each time
    assert effectless  # some edits changed nothing the project phase reads


HELPERS = "def bad(x):\n    return x.sum().item()\n\n\ndef good(x):\n    return x * 2\n"
MODEL = ("import torch\nfrom helpers import bad as step\n\n\nclass Net(torch.nn.Module):\n"
         "    def forward(self, x):\n        return step(x)\n")
OTHER = "import torch\n\n\nclass Other(torch.nn.Module):\n    def forward(self, x):\n        return x.sum().item()\n"


def _lint(texts: dict[str, str], resolutions: Resolutions | None = None):
    summaries = [summarize_source(text, f"/p/{name}.py", name) for name, text in texts.items()]
    return project_diagnostics(summaries, Settings(), resolutions)


def test_an_import_edit_drops_only_what_read_the_edited_module():
    kept = Resolutions()
    _lint({"helpers": HELPERS, "model": MODEL, "other": OTHER}, kept)
    other_mro = kept.names["mro"]["other.Other"]
    rebound = MODEL.replace("import bad as step", "import good as step")
    after = _lint({"helpers": HELPERS, "model": rebound, "other": OTHER}, kept)
    assert after == _lint({"helpers": HELPERS, "model": rebound, "other": OTHER})
    assert [d.path for d in after] == ["/p/other.py"]  # model's break is gone, other's stays
    assert kept.last[0] == 1 and kept.last[1] > 0  # one file changed its names; some entries went
    assert kept.names["mro"]["other.Other"] is other_mro  # what read only other.py stayed


MIDDLE_IMPORTS = "from helpers import bad as step\n"
USER = ("import torch\nfrom mid import step\n\n\nclass Net(torch.nn.Module):\n"
        "    def forward(self, x):\n        return step(x)\n")


def test_an_import_edit_drops_only_what_read_the_names_it_changed():
    """What a resolution read is kept per module and name: `mid.step` reads mid's import of
    `step`, so an import of another name added to mid drops nothing, and rebinding `step`
    drops what followed it (the break in helpers.bad is no longer reached)."""
    kept = Resolutions()
    files = {"helpers": HELPERS, "mid": MIDDLE_IMPORTS, "user": USER}
    assert [d.code for d in _lint(files, kept)] == ["TC102"]
    resolved = dict(kept.names["resolved"])
    files["mid"] = "import os\n" + MIDDLE_IMPORTS
    assert _lint(files, kept) == _lint(files)
    assert kept.last == (1, 0) and kept.names["resolved"] == resolved
    files["mid"] = "import os\n" + MIDDLE_IMPORTS.replace("bad", "good")
    assert _lint(files, kept) == _lint(files) == []
    assert kept.last[1] > 0


STAR_PACKAGE = {"pkg/__init__.py": "from pkg.layers import *\n", "pkg/layers/__init__.py": "from pkg.layers.ops import *\n",
                "pkg/layers/ops.py": "import torch\n\n\ndef other(x):\n    return x * 2\n",
                "pkg/model.py": "import torch\nimport pkg\n\n\n@torch.compile\ndef f(x):\n    return pkg.helper(x)\n"}
HELPER = "\n\ndef helper(x):\n    return x.sum().item()\n"


def _package(texts: dict[str, str]) -> list:
    return [summarize_source(text, f"/p/{path}", path[:-3].removesuffix("/__init__").replace("/", "."))
            for path, text in texts.items()]


def test_a_def_added_to_a_star_imported_module_resolves_a_call_until_it_is_removed():
    """`pkg.helper` is bound nowhere until ops defines it, which `pkg` then binds through two
    star imports: the kept resolution of the call (which read pkg's star imports, not ops) is
    dropped and the break is found; the def removed, it goes again. Each run equals a fresh
    one, and neither edit is one the server may answer from the last run."""
    kept = Resolutions()
    files = dict(STAR_PACKAGE)
    before = _package(files)
    assert project_diagnostics(before, Settings(), kept) == []
    for text in (STAR_PACKAGE["pkg/layers/ops.py"] + HELPER, STAR_PACKAGE["pkg/layers/ops.py"]):
        files["pkg/layers/ops.py"] = text
        after = _package(files)
        assert not same_in_effect(before[2], after[2], before, key_tables(before), kept.names, read=kept.read)
        found = project_diagnostics(after, Settings(), kept)
        assert found == project_diagnostics(after, Settings())
        assert [(d.path, d.code) for d in found] == ([("/p/pkg/layers/ops.py", "TC102")] if "helper" in text else [])
        before = after


SOLVER = ("import torch\n\n\nclass Euler:\n    def integrate(self, x):\n        return x * 2\n\n\n"
          "class Net(torch.nn.Module):\n    def forward(self, x, solver=None):\n        return solver.integrate(x)\n")
STEPS = "class Midpoint:\n    def other(self, x):\n        return x.sum().item()\n"


def test_a_method_added_in_another_file_joins_what_obj_method_can_run():
    kept = Resolutions()
    before = {"solver": SOLVER, "steps": STEPS}
    assert _lint(before, kept) == []
    after = {"solver": SOLVER, "steps": STEPS.replace("def other", "def integrate")}
    found = _lint(after, kept)
    assert found == _lint(after) and [(d.path, d.code) for d in found] == [("/p/steps.py", "TC102")]


BASE = "import torch\n\n\nclass Base(torch.nn.Module):\n    def forward(self, x):\n        return self.solve(x)\n"
MIDDLE = "class Middle(object):\n    pass\n"
LEAF = "from middle import Middle\n\n\nclass Leaf(Middle):\n    def solve(self, x):\n        return x.sum().item()\n"


def test_a_class_that_becomes_a_subclass_through_another_file_overrides_its_methods():
    """middle.py now derives Middle from Base: Leaf, in a file not edited, overrides Base.solve."""
    kept = Resolutions()
    before = {"base": BASE, "middle": MIDDLE, "leaf": LEAF}
    assert _lint(before, kept) == []
    after = {**before, "middle": "from base import Base\n\n\nclass Middle(Base):\n    pass\n"}
    found = _lint(after, kept)
    assert found == _lint(after) and [(d.path, d.code) for d in found] == [("/p/leaf.py", "TC102")]


def test_a_class_that_names_itself_as_its_base_is_linted_as_a_fresh_run_lints_it():
    """`class Config(Config)` (a modular transformers file re-defines an imported name) makes
    a cycle the class order guards against: reading that guard while kept must not fail."""
    texts = {"m": "import torch\n\n\nclass A(A, torch.nn.Module):\n    def forward(self, x):\n        return self.helper(x)\n\n"
                  "    def helper(self, x):\n        return x.sum().item()\n"}
    kept = Resolutions()
    assert _lint(texts, kept) == _lint(texts) != []


def test_a_resolution_that_reads_subclasses_is_dropped_when_a_class_becomes_one(monkeypatch):
    """Today only the overrides of `self.method()` read a class's subclasses, through ("method",
    name); any other resolution that reads them is dropped once a class's bases change."""
    monkeypatch.setattr(ProjectIndex, "_resolve_wrapped", lambda self, ref: list(self.subclasses(ref.dotted)))
    kept = Resolutions()
    first = [summarize_source("class A:\n    pass\n", "/p/a.py", "a"), summarize_source("class B:\n    pass\n", "/p/b.py", "b")]
    index = kept.index(first)
    assert index.resolve_ref(Named("a.A")) == ()
    kept.keep(index.name_caches())
    derived = summarize_source("from a import A\n\n\nclass B(A):\n    pass\n", "/p/b.py", "b")
    assert kept.index([first[0], derived]).resolve_ref(Named("a.A")) == ("b.B",)


APPLY = '''
def apply(fn, x):
    return fn(x)
'''
CALLER = '''
import torch
from apply import apply

def loud(x):
    return x.sum().item()

def quiet(x):
    return x * 2

@torch.compile
def run(x):
    return apply(loud, x)
'''


def test_what_a_function_parameter_runs_follows_the_callers_edits():
    # apply.py keeps its summary (as the server does); only its caller changes what `fn` is
    apply = summarize_source(APPLY, "/p/apply.py", "apply")
    kept = Resolutions()
    before = [apply, summarize_source(CALLER, "/p/caller.py", "caller")]
    assert [d.code for d in project_diagnostics(before, Settings(), kept)] == ["TC102"]
    after = [apply, summarize_source(CALLER.replace("apply(loud, x)", "apply(quiet, x)"), "/p/caller.py", "caller")]
    assert project_diagnostics(after, Settings(), kept) == project_diagnostics(after, Settings()) == []


def test_the_compiled_region_is_walked_again_only_when_what_it_read_changed():
    kept = Resolutions()
    texts = {"helpers": HELPERS, "model": MODEL}
    _lint(texts, kept)
    region = kept.region._reached
    unused = {**texts, "helpers": HELPERS + "\n\ndef unused(x):\n    return x\n"}  # a def nobody calls
    assert _lint(unused, kept) == _lint(unused)
    assert kept.region._reached is region
    rebound = {**unused, "model": MODEL.replace("import bad as step", "import good as step")}
    assert _lint(rebound, kept) == _lint(rebound) == []
    assert kept.region._reached is not region and "helpers.good" in kept.region._reached


def test_an_edit_in_one_file_moves_the_calls_of_a_function_in_a_file_it_left_as_it_was():
    """`Net.forward` calls `step`, which `steps` re-exports: rebinding it there changes what
    forward's call runs though model.py's summary is the very same object. The walk asks
    again of the edges of re-summarized files and of those whose kept callee lists were
    dropped (TrackedIndex.callees_dropped), not of every edge."""
    kept = Resolutions()
    reexport = "from helpers import bad as step\n"
    model = ("import torch\nfrom steps import step\n\n\nclass Net(torch.nn.Module):\n"
             "    def forward(self, x):\n        return step(x)\n")
    summaries = [summarize_source(HELPERS, "/p/helpers.py", "helpers"), summarize_source(reexport, "/p/steps.py", "steps"),
                 summarize_source(model, "/p/model.py", "model")]
    assert [d.line for d in project_diagnostics(summaries, Settings(), kept)] == [2]
    for text, lines in ((reexport.replace("bad", "good"), []), (reexport, [2])):
        summaries[1] = summarize_source(text, "/p/steps.py", "steps")
        found = project_diagnostics(summaries, Settings(), kept)
        assert found == project_diagnostics(summaries, Settings())
        assert [d.line for d in found] == lines


LIB = "def inner(x, closure):\n    return closure(x)\n\n\ndef bad(x):\n    return x.sum().item()\n\n\ndef good(x):\n    return x * 2\n"
OUTER = "from lib import bad, good\n\n\ndef outer(x, sub):\n    return sub(x, bad)\n"
RUN_OUTER = "import torch\nfrom lib import inner\nfrom outer import outer\n\n\n@torch.compile\ndef run(x):\n    return outer(x, inner)\n"


def test_a_call_of_a_parameter_passing_a_function_follows_its_edits():
    """`sub(x, bad)` calls a parameter (`inner`, passed by `run`) with a function: inner's
    `closure(x)` runs `bad`. Such calls are kept per file between runs
    (TrackedIndex._parameter_passing_sites); the one edited to pass `good` is read anew."""
    kept = Resolutions()
    summaries = [summarize_source(LIB, "/p/lib.py", "lib"), summarize_source(OUTER, "/p/outer.py", "outer"),
                 summarize_source(RUN_OUTER, "/p/run.py", "run")]
    assert [(d.path, d.line) for d in project_diagnostics(summaries, Settings(), kept)] == [("/p/lib.py", 6)]
    for passed, lines in (("good", []), ("bad", [6])):
        summaries[1] = summarize_source(OUTER.replace("sub(x, bad)", f"sub(x, {passed})"), "/p/outer.py", "outer")
        found = project_diagnostics(summaries, Settings(), kept)
        assert found == project_diagnostics(summaries, Settings())
        assert [d.line for d in found] == lines


RETURNS = "import torch\n\n\ndef ones(x):\n    return torch.ones(3)\n"
BRANCH = ("import torch\nfrom returns import ones\n\n\n@torch.compile\ndef run(x):\n    if ones(x):\n"
          "        return x\n    return 0\n")
ELSEWHERE = ("import torch\nfrom returns import ones\n\n\n@torch.compile\ndef other(x):\n    if ones(x):\n"
             "        return x\n    return 0\n")


def test_an_edit_keeps_the_answers_and_findings_that_read_nothing_it_changed():
    kept = Resolutions()
    texts = {"returns": RETURNS, "branch": BRANCH, "elsewhere": ELSEWHERE}
    first = _lint(texts, kept)
    assert sorted(d.path for d in first) == ["/p/branch.py", "/p/elsewhere.py"]
    answers = dict(kept.values.caches["sources"])
    other = next(d for d in first if d.path == "/p/elsewhere.py")
    edited = {**texts, "branch": "import os\n" + BRANCH}  # its lines move; names it reads stay
    after = _lint(edited, kept)
    assert after == _lint(edited)
    assert next(d for d in after if d.path == "/p/elsewhere.py") is other  # kept, not made again
    assert kept.values.caches["sources"] == answers  # what `ones` returns was kept
    changed = {**edited, "returns": RETURNS.replace("torch.ones(3)", "3")}  # now a Python int
    assert _lint(changed, kept) == _lint(changed) == []


def test_kept_inputs_are_reused_while_the_answers_about_values_they_asked_for_stand():
    """A function's summary, codes, kept callee list and the kept answers its summary asks
    for are all it reads: while none of those answers was dropped, its kept inputs are
    reused as they are (project_findings.KeptFindings.inputs)."""
    kept = Resolutions()
    names = ("helpers", "model", "returns", "branch")
    summaries = [summarize_source({"helpers": HELPERS, "model": MODEL, "returns": RETURNS, "branch": BRANCH}[name],
                                  f"/p/{name}.py", name) for name in names]
    project_diagnostics(summaries, Settings(), kept)
    summaries[0] = summarize_source("import os\n" + HELPERS, "/p/helpers.py", "helpers")  # names change, callees stay
    assert project_diagnostics(summaries, Settings(), kept) == project_diagnostics(summaries, Settings())

    def reused(index, key):
        inputs = kept.findings._kept[key][0]
        fs, fn = index.functions[key]
        return kept.findings.inputs(index, key, fs.path, fn, inputs[2]) is inputs

    index = kept.index(summaries)
    assert reused(index, "returns.ones") and reused(index, "branch.run")  # `if ones(x)`: its answer stands
    summaries[2] = summarize_source(RETURNS.replace("torch.ones(3)", "3"), "/p/returns.py", "returns")
    assert not reused(kept.index(summaries), "branch.run")  # what `ones` returns was dropped


STEP = '''import torch


def step(x, mask=None):
    if mask is not None:
        torch.ones(3).sum().item()
    return x
'''
RUN = '''import torch
from step import step


@torch.compile
def run(x):
    return step({args})
'''


def test_whether_every_compiled_caller_leaves_a_parameter_falsy_is_kept_only_while_the_callers_are():
    # An import added elsewhere leaves the region and its callers map: the last run's answer
    # (`mask` is left None, so the arm is not traced) is kept. A caller that passes it
    # walks again, and the answer is worked out anew.
    kept = Resolutions()
    step = summarize_source(STEP, "/p/step.py", "step")
    states = [("x", ""), ("x", "import os\n"), ("x, True", "import os\n"), ("x", ""), ("x", "import os\n")]
    items = []
    for args, other in states:
        files = [step, summarize_source(RUN.format(args=args), "/p/run.py", "run"),
                 summarize_source(other + "def unused(x):\n    return x\n", "/p/other.py", "other")]
        found = project_diagnostics(files, Settings(), kept)
        assert found == project_diagnostics(files, Settings(), Resolutions())
        items.append([d.line for d in found if d.code == "TC102"])
    assert items == [[], [], [6], [], []]


ELSEWHERE_ROOT = "import torch\n\n\ndef other(x):\n    return x + 1\n"


def test_a_root_added_elsewhere_keeps_the_answer_a_root_that_reads_it_changes(monkeypatch):
    """Whether every compiled caller leaves `mask` None reads `step`'s callers and whether
    `step` is a root, nothing else: a root added in another file keeps the answer, not
    worked out again; `step` compiled itself (its inputs come from outside) or a new root
    passing the mask works it out again, and the arm is traced."""
    worked_out = []
    left_falsy = regions.ProjectIndex._left_falsy

    def counted(index, ref, _active=None):
        if _active is None:
            worked_out.append(ref.function)
        return left_falsy(index, ref, _active)

    monkeypatch.setattr(regions.ProjectIndex, "_left_falsy", counted)
    kept = Resolutions()
    run = summarize_source(RUN.format(args="x"), "/p/run.py", "run")
    compiled_other = ELSEWHERE_ROOT.replace("def other", "@torch.compile\ndef other")
    passing = compiled_other.replace("import torch\n", "import torch\nfrom step import step\n").replace(
        "x + 1", "step(x, x)")
    states = [(STEP, ELSEWHERE_ROOT), (STEP, compiled_other), (STEP.replace("def step", "@torch.compile\ndef step"),
                                                                compiled_other), (STEP, passing), (STEP, ELSEWHERE_ROOT)]
    lines, counts = [], []
    for step_text, other_text in states:
        files = [summarize_source(step_text, "/p/step.py", "step"), run,
                 summarize_source(other_text, "/p/other.py", "other")]
        del worked_out[:]
        found = project_diagnostics(files, Settings(), kept)
        counts.append(len(worked_out))
        assert found == project_diagnostics(files, Settings())
        lines.append([d.line for d in found if d.code == "TC102"])
    assert lines == [[], [], [7], [6], []]
    assert counts == [1, 0, 1, 1, 1]


SHARED = "def bad(x):\n    return x.sum().item()\n\n\ndef mid(x):\n    return bad(x)\n"
NET = ("import torch\nfrom shared import mid\n\n\nclass Net(torch.nn.Module):\n"
       "    def forward(self, x):\n        return mid(x)\n")
ENTRY = "import torch\nfrom shared import bad\n\n\ndef entry(x):\n    return bad(x)\n"


def _chains(found) -> list:
    return [[step.label for step in d.chain] for d in found]


def test_a_root_added_or_removed_walks_the_kept_calls_and_moves_the_chains_it_shortens():
    """`@torch.compile` added on `entry` reaches `shared.bad` before `Net.forward` does:
    its finding's chain becomes entry -> bad, and back once the decorator goes. The region
    is walked again over the calls kept from the last walk (project_reach.KeptReach), and
    only the chains below a function reached otherwise are checked again."""
    kept = Resolutions()
    plain = {"shared": SHARED, "net": NET, "entry": ENTRY}
    compiled = {**plain, "entry": ENTRY.replace("def entry", "@torch.compile\ndef entry")}
    first = _lint(plain, kept)
    assert _chains(first) == [["Net.forward: an nn.Module forward, assumed compiled", "calls mid", "calls bad"]]
    calls = kept.region._calls["net.Net.forward"]
    for texts in (compiled, plain, compiled):
        found = _lint(texts, kept)
        assert found == _lint(texts)
        assert kept.region._calls["net.Net.forward"] is calls  # kept, not worked out again
    assert _chains(found) == [["entry: compiled at entry.py:6", "calls bad"]]
    assert kept.region.moved[1] == {"entry.entry", "shared.bad"}  # mid keeps forward's chain


WRAPPED = ("import torch\nfrom shared import bad\n\n\nclass Net(torch.nn.Module):\n"
           "    def forward(\n            self, x):\n        return bad(x)\n")


def test_a_root_whose_def_moves_keeps_its_calls_but_starts_its_chains_at_its_new_line():
    """A forward's signature joined onto one line a line lower: it and what it calls in
    another file are reached from the same call lines as before, yet their chains start at
    the def's new line."""
    kept = Resolutions()
    texts = {"shared": SHARED, "model": WRAPPED}
    assert [step.line for d in _lint(texts, kept) for step in d.chain] == [6, 8]
    joined = {**texts, "model": WRAPPED.replace("    def forward(\n            self, x):", "\n    def forward(self, x):")}
    found = _lint(joined, kept)
    assert found == _lint(joined)
    assert [step.line for d in found for step in d.chain] == [7, 8]


def test_the_callers_map_is_patched_where_the_region_or_its_calls_changed():
    """`entry` compiled joins the region and calls `bad`; a line added above `Net` moves
    forward's call of `mid`: the callers of `bad` and `mid` are made again (in key order, as
    a fresh run builds them), and a callee no changed function calls keeps its very list:
    the answers about values that read callers compare those two lists only."""
    kept = Resolutions()
    leafy = SHARED + "\n\ndef leaf(x):\n    return x\n\n\ndef uses(x):\n    return leaf(x)\n"
    other = "import torch\nfrom shared import uses\n\n\n@torch.compile\ndef other(x):\n    return uses(x)\n"
    texts = {"shared": leafy, "net": NET, "entry": ENTRY, "other": other}
    _lint(texts, kept)
    before = kept.region._index._callers_map
    edited = {**texts, "entry": ENTRY.replace("def entry", "@torch.compile\ndef entry"), "net": "import os\n" + NET}
    assert _lint(edited, kept) == _lint(edited)
    fresh = ProjectIndex([summarize_source(text, f"/p/{name}.py", name) for name, text in edited.items()])
    fresh.reached = set(kept.region._reached)
    after = kept.region._index._callers_map
    assert after == fresh.callers()
    assert [caller for caller, _ in after["shared.bad"]] == ["entry.entry", "shared.mid"]
    assert after["shared.mid"][0][1].span.line == before["shared.mid"][0][1].span.line + 1
    assert after["shared.mid"] is not before["shared.mid"]
    assert after["shared.leaf"] is before["shared.leaf"]
    # what KeptValues compares of the callers for the answers that read them: these lists only
    assert kept.region._index.callers_patch == (before, {"shared.bad", "shared.mid"})


def test_the_passes_after_the_findings_loop_look_at_the_functions_an_edit_gives_what_they_look_for():
    """The held-method pass looks only at the functions whose summary holds a bound method
    (analyzer/pass_subjects.py, kept per file): `f` holding the object itself has none; edited
    to hold `sf.closure` across the break at `print`, it gets TC249 there (Dynamo:
    Reconstruction failure, tests/test_held_methods.py); not once the edit is undone."""
    holder = textwrap.dedent(HELD_PROGRAMS["a break of the frame's own while the method is read later"][0])
    plain = holder.replace("closure = sf.closure", "closure = sf")
    kept = Resolutions()
    lines = []
    for text in (plain, holder, plain):
        found = _lint({"prog": text, "other": OTHER}, kept)
        assert found == _lint({"prog": text, "other": OTHER})
        lines.append([d.line for d in found if d.code == "TC249"])
    assert lines == [[], [16], []]
