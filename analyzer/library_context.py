"""Installed libraries that the compiled code calls, read as context.

Compiled code that calls into an installed package (a CDE solver calling
`torchdiffeq.odeint`) breaks wherever that package's code breaks. Dynamo reports the break
inside the package, but the line a user can change is their own call. The library modules
that define what the compiled functions call are summarized like the linted files, and so,
round by round, are the modules that what they call in turn needs (re-exports followed).
Nothing is reported in them; a break the project phase finds there is reported at the
linted call that leads to it (TC227).

Libraries are looked up where the linted packages lie (a site-packages folder) and in the
site-packages of the Python running tclint (a project's own virtual environment). torch
and NumPy are known from tclint's tables instead, and packages Dynamo skips are never traced.
"""
from __future__ import annotations

import os
import re
import sysconfig
from pathlib import Path

from tclint.analyzer.call_refs import Method, Named, SuperMethod
from tclint.analyzer.diagnostic import Diagnostic
from tclint.analyzer.discovery import SourceFile, display_path
from tclint.analyzer.imported_context import module_file, package_roots
from tclint.analyzer.knowledge import trace_rules
from tclint.analyzer.library_extensions import binary_module
from tclint.analyzer.loop_skips import is_break
from tclint.analyzer.rules import all_rules
from tclint.analyzer.summary import FileSummary

CODE = "TC227"
# Enough for a solver library and the modules it is made of; a run that imports a large
# framework reads only this many of its modules (the nearest to the linted code first).
MAX_FILES = 200
_TOP_LEVEL_DEF = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)
_STAR_IMPORT = re.compile(r"^from\s+(\.?)([\w.]+)\s+import\s+\*", re.MULTILINE)
_FROM_IMPORT = re.compile(r"^from\s+(\.?)([\w.]*)\s+import\s+\(?\s*(\w+)", re.MULTILINE)
_KNOWN = frozenset({"torch", "numpy", "functorch", "torchgen", "triton", "tclint"})


class LibraryReader:
    """Finds, round by round, the library modules that define what the code read so far
    calls: the modules of the called functions and classes (and their bases), the modules
    a library's package re-exports those names from, and the modules of a library that hand
    functions to `allow_in_graph` (so that calls into them are known to stay whole)."""

    def __init__(self, files: list[SourceFile], installed: Installed | None = None, own: set[str] | None = None):
        """`installed` and `own` (own_packages) as kept by a caller that reads again and again."""
        self.installed = installed if installed is not None else Installed(site_folders(files))
        self._own = own if own is not None else own_packages(files, self.installed.folders)
        self._skipped = trace_rules.installed().skipped_modules
        self._seen: set[Path] = {f.path for f in files}
        self._wanted: dict[str, set[str]] = {}  # library module -> the names asked of it
        self._done: dict[str, set[str]] = {}  # library module -> the names followed already
        self._library: dict[str, FileSummary] = {}  # library modules read, by name
        self._scanned: set[str] = set()
        self.files: list[SourceFile] = []

    def calls_libraries(self, summaries: list[FileSummary]) -> bool:
        """Whether any function here calls into a library found on disk: without one, the
        project's reach need not be worked out before the project phase."""
        return any(self._library_top(dotted) and self.installed.find(dotted) is not None
                   for summary in summaries for dotted in _called(summary.functions.values(), summary.classes.values()))

    def next_round(self, summaries: list[FileSummary], reached: set[str] | None = None) -> list[SourceFile]:
        """The library modules that `summaries` lead to, not read yet: from the linted files
        (with the keys of their compiled functions, `reached`), what those functions call in
        any library, and what their classes build on; from a library's modules (read in the
        round before), what the names asked of them call in that library."""
        queue: list[str] = []
        for summary in summaries:
            if reached is not None:
                compiled = [fn for key, fn in summary.functions.items() if key in reached]
                queue += sorted(_called(compiled, summary.classes.values()))
            else:
                self._library[summary.module] = summary
                queue += sorted(self._expand(summary))
        found: dict[Path, SourceFile] = {}
        while queue:
            dotted = queue.pop(0)
            if not self._library_top(dotted):
                continue
            hit = self.installed.find(dotted)
            if hit is None:
                continue
            asked = [(hit, dotted.split(".")[len(hit.module.split(".")):])]
            package, _, name = dotted.rpartition(".")
            if not asked[0][1] and package:
                # a submodule, or what its package binds over it (`from .odeint import odeint`)
                parent = self.installed.find(package)
                if parent is not None and parent.is_package and parent.module == package:
                    asked.append((parent, [name]))
            for f, rest in asked:
                if rest:
                    self._wanted.setdefault(f.module, set()).add(rest[0])
                if f.module in self._library:  # read before: a new name asked of it
                    queue += sorted(self._expand(self._library[f.module]))
                for g in (f, *self._registering(dotted.partition(".")[0])):
                    if g.path not in self._seen and g.path not in found and len(self.files) + len(found) < MAX_FILES:
                        found[g.path] = g
        self._seen.update(found)
        new = sorted(found.values(), key=lambda f: f.display)
        self.files.extend(new)
        return new

    def _expand(self, summary: FileSummary) -> set[str]:
        """What the names asked of a library module lead to in its library: a re-exported
        name's source, and what the named functions and classes (their methods, bases,
        submodules) call. Names of the module itself are followed there and then."""
        module, home = summary.module, summary.module.partition(".")[0]
        done = self._done.setdefault(module, set())
        todo = sorted(self._wanted.get(module, set()) - done)
        out: set[str] = set()
        while todo:
            name = todo.pop()
            if name in done:
                continue
            done.add(name)
            if name in summary.imports:
                out.add(summary.imports[name])
                continue
            key = f"{module}.{name}"
            fns = [fn for k, fn in summary.functions.items() if k == key or k.startswith(key + ".")]
            cls = summary.classes.get(key)
            if not fns and cls is None and summary.path.endswith("__init__.py"):
                # maybe bound by a star import (`from ._dwt import *`); followed only to a module
                # that wraps a compiled extension (TC236): any other would read a framework's
                # modules name by name for nothing
                subs = self.installed.wrapping(summary.path, module, name)
                if len(subs) == 1:
                    # Bound where the project resolves names; the same binding on every read,
                    # so a summary kept between runs stays right.
                    summary.imports[name] = f"{module}.{subs[0]}.{name}"
                    out.add(summary.imports[name])
                continue
            for dotted in _called(fns, [cls] if cls is not None else []):
                if dotted.rpartition(".")[0] == module:
                    todo.append(dotted.rpartition(".")[2])
                else:
                    out.add(dotted)
        return {d for d in out if d.partition(".")[0] == home}

    def _library_top(self, dotted: str) -> bool:
        top = dotted.partition(".")[0]
        return top not in self._own and top not in _KNOWN and top not in self._skipped

    def _registering(self, top: str) -> list[SourceFile]:
        if top in self._scanned:
            return []
        self._scanned.add(top)
        return self.installed.registering(top)


class Installed:
    """The folders libraries are looked up in, and what was found there: each dotted name and
    each library's scan is done once (the language server keeps this between edits)."""

    def __init__(self, folders: list[Path]):
        self.folders = folders
        self._found: dict[str, SourceFile | None] = {}  # dotted name -> its module
        self._registering: dict[str, list[SourceFile]] = {}
        self._defined: dict[Path, dict[str, list[str]]] = {}  # a package folder -> top-level names of its extension wrappers

    def find(self, dotted: str) -> SourceFile | None:
        """The library module that defines `dotted` (the longest prefix that is a module)."""
        if dotted not in self._found:
            self._found[dotted] = None
            parts = dotted.split(".")
            for folder in self.folders:
                if (folder / parts[0]).is_dir() or (folder / f"{parts[0]}.py").is_file():
                    path = module_file(folder, parts)
                    self._found[dotted] = _library_file(folder, parts[0], path) if path is not None else None
                    break
        return self._found[dotted]

    def wrapping(self, init: str, package: str, name: str) -> list[str]:
        """The modules beside a package's `__init__.py` (`package`) that it star-imports, that
        define `name` at top level and import from a compiled extension module of the package (pywt's `_dwt`
        wraps `_extensions/_dwt.*.so`). Each folder's modules are scanned once, as text."""
        folder = Path(init).parent
        if folder not in self._defined:
            found: dict[str, list[str]] = {}
            starred = _star_imported(Path(init), package)
            for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
                if path.stem not in starred:
                    continue
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                if not _imports_binary(text, str(path), package, path.stem):
                    continue
                for match in _TOP_LEVEL_DEF.finditer(text):
                    found.setdefault(match.group(1), []).append(path.stem)
            self._defined[folder] = found
        return self._defined[folder].get(name, [])

    def registering(self, top: str) -> list[SourceFile]:
        """A library's modules that call `allow_in_graph` (anywhere, as einops does inside a
        function run at import)."""
        if top not in self._registering:
            self._registering[top] = []
            for folder in self.folders:
                package = folder / top
                if package.is_dir():
                    found = [_library_file(folder, top, path) for path in sorted(package.rglob("*.py"))
                             if _mentions(path, b"allow_in_graph")]
                    self._registering[top] = [f for f in found if f is not None]
                    break
        return self._registering[top]


def _star_imported(init: Path, package: str) -> set[str]:
    """The sibling modules a package's `__init__.py` star-imports (`from ._dwt import *`)."""
    try:
        text = init.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    out = set()
    for dots, source in _STAR_IMPORT.findall(text):
        if dots == "." and "." not in source:
            out.add(source)
        elif not dots and source.rpartition(".")[0] == package:
            out.add(source.rpartition(".")[2])
    return out


def _imports_binary(text: str, path: str, package: str, stem: str) -> bool:
    """Whether a module (`package.stem`, its source `text`) imports a name from a compiled
    module of its own package (`from ._extensions._dwt import dwt_axis`)."""
    for match in _FROM_IMPORT.finditer(text):
        dots, source, first = match.groups()
        if dots == ".":
            dotted = f"{package}.{source}" if source else package
        elif not dots and source.partition(".")[0] == package.partition(".")[0]:
            dotted = source
        else:
            continue
        if binary_module(path, f"{package}.{stem}", f"{dotted}.{first}") is not None:
            return True
    return False


def own_packages(files: list[SourceFile], folders: list[Path]) -> set[str]:
    """The linted packages' top names, also those without `__init__.py` files (namespace
    packages): never read as libraries."""
    own = set(package_roots(files)) | {f.module.partition(".")[0] for f in files if f.module}
    for f in files:
        for folder in folders:
            if f.path.is_relative_to(folder):
                own.add(f.path.relative_to(folder).parts[0].removesuffix(".py"))
    return own


def site_folders(files: list[SourceFile]) -> list[Path]:
    """Where libraries are looked up: the folders holding the linted packages (a
    site-packages folder), then the site-packages of the Python running tclint."""
    folders = list(dict.fromkeys(package_roots(files).values()))
    for key in ("purelib", "platlib"):
        folder = Path(sysconfig.get_paths()[key])
        if folder.is_dir() and folder not in folders:
            folders.append(folder)
    return folders


def site_stamp(folders: list[Path]) -> str:
    """What is installed in `folders`: the names a library is found by (packages, modules) and
    its dist-info (a version changed). Other entries (an editor's swap file beside the linted
    packages) leave it alone."""
    parts = []
    for folder in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        kept = sorted(n for n in names if n.isidentifier() or n.endswith((".py", ".dist-info", ".egg-info")))
        parts.append("\0".join([str(folder), *kept]))
    return "\0\0".join(parts)


def _called(functions, classes) -> set[str]:
    """The dotted names these functions call (functions, classes, the classes whose methods
    they call) and these classes build on (bases, submodules) or store to call later
    (`self.ot_fn = partial(ot.emd, ...)`)."""
    out: set[str] = set()
    for fn in functions:
        for site in fn.calls:
            if isinstance(site.ref, Named):
                out.add(site.ref.dotted)
            elif isinstance(site.ref, (Method, SuperMethod)):
                out.add(site.ref.cls)
    for cls in classes:
        out.update(cls.bases)
        out.update(cls.submodules.values())
        out.update(ref.dotted for stored in cls.attr_callables.values() for ref in stored if isinstance(ref, Named))
    return out


def _library_file(folder: Path, top: str, path: Path) -> SourceFile | None:
    """A library module, named by where it lies under its site-packages folder (namespace
    folders without `__init__.py` included). A package `top` linked from the folder names its
    modules from where the link leads; a link inside it that leads out of it gives None."""
    entry = folder / top if (folder / top).is_dir() else folder / f"{top}.py"
    try:
        parts = list(path.resolve().relative_to(entry.resolve().parent).with_suffix("").parts)
    except ValueError:
        return None
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return SourceFile(path=path.resolve(), display=display_path(path), module=".".join(parts), is_package=is_package)


def _mentions(path: Path, needle: bytes) -> bool:
    try:
        return needle in path.read_bytes()
    except OSError:
        return False


def at_library_calls(raw: list[Diagnostic], library: frozenset[str], summaries: list[FileSummary]) -> list[Diagnostic]:
    """`raw` less the findings in library modules; a break there that linted code reaches
    becomes one TC227 at the linted call it goes through (the nearest break if several,
    preferring one that runs in inference too)."""
    if not library:
        return raw
    out = [d for d in raw if d.path not in library]
    by_call: dict[tuple[str, int, int], list[tuple[Diagnostic, int]]] = {}
    for d in raw:
        if d.path not in library or not is_break(d):
            continue
        last = max((i for i, step in enumerate(d.chain) if step.path not in library), default=None)
        if last is None or last == 0:
            continue  # reached from a library's own entry point only
        step = d.chain[last]
        by_call.setdefault((step.path, step.line, step.column), []).append((d, last))
    if not by_call:
        return out
    rule = all_rules()[CODE]
    modules = {s.path: s.module for s in summaries}
    spans = _call_spans(summaries, {key[0] for key in by_call})
    for (path, line, column), found in sorted(by_call.items()):
        span = spans.get((path, line, column))
        if span is None:
            continue
        # the nearest break, one that also runs in inference first (a model compiled after
        # `.eval()` never reaches an `if self.training:` arm)
        inner, last = min(found, key=lambda f: (f[0].training_only, len(f[0].chain), f[0].path,
                                                f[0].span.line))
        callee = inner.chain[last].label.removeprefix("calls ").split(" (")[0]  # less "(one of 2 candidates)"
        where = f"{modules.get(inner.path, inner.path)}, line {inner.span.line}"
        notes = [f"there: {inner.statement().rstrip('.')}" + (f" ({inner.because})" if inner.because else "")]
        others = len({(d.path, d.span.line) for d, _ in found}) - 1
        if others:
            notes.append(f"{others} more break{'s' if others > 1 else ''} in what this call reaches")
        out.append(Diagnostic(
            path=path, span=span,
            code=CODE, name=rule.name, severity=rule.severity,
            message=f"`{callee}` breaks the graph inside an installed library ({where})",
            gb_type=inner.gb_type, gb_id=inner.gb_id, url=inner.url,
            chain=tuple(inner.chain[:last]), notes=tuple(notes)))
    return out


def _call_spans(summaries: list[FileSummary], paths: set[str]) -> dict:
    """(path, line, column) of each call site in `paths` -> the call's full span."""
    out = {}
    for fs in summaries:
        if fs.path not in paths:
            continue
        for fn in fs.functions.values():
            for site in fn.calls:
                out.setdefault((fs.path, site.span.line, site.span.column), site.span)
    return out
