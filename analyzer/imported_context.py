"""Modules the linted files import from their own packages, read as context.

Linting some files of a package (a pre-commit run, or the files a test touched) must know
what the rest of the package says about the names those files use: the class whose body
sets the table a base class's method reads, the base a class extends, the helper it calls.
The modules a linted file imports (one step, within the packages being linted) are
summarized like the linted files, so the project phase sees them, but nothing is reported
in them.
"""
from __future__ import annotations

from pathlib import Path

from tclint.analyzer.call_refs import StrEnumArg, StrEnumClass
from tclint.analyzer.discovery import SourceFile, source_file
from tclint.analyzer.summary import FileSummary


def imported_files(files: list[SourceFile], summaries: list[FileSummary], stars_only: bool = False) -> list[SourceFile]:
    """The files of the modules `summaries` import that lie in the packages of `files` and
    are not among them nor `summaries`, in a stable order. `stars_only`: only the modules
    they star-import whenever they run (what a star import binds is what the modules it
    reaches bind, so those are followed to the end: star_context.py; one under `if
    TYPE_CHECKING:` binds nothing at run time, and transformers' star-imports the whole
    library)."""
    roots = package_roots(files)
    linted = {f.path for f in files} | {Path(s.path).resolve() for s in summaries}
    found: dict[Path, SourceFile] = {}
    for summary in summaries:
        for qualified in (*(() if stars_only else summary.imports.values()), *summary.bound_star_imports):
            parts = qualified.split(".")
            root = roots.get(parts[0])
            path = module_file(root, parts) if root is not None else None
            if path is not None and path not in linted and path not in found:
                found[path] = source_file(path)
    return sorted(found.values(), key=lambda f: f.display)


# How many package `__init__`s a re-exported str Enum is followed through (`pkg` re-exports
# it from `pkg.utils`, which re-exports it from `pkg.utils.enums`): each step reads files
REEXPORT_STEPS = 3


def reexported_files(files: list[SourceFile], asked: set[str], summaries: list[FileSummary]) -> list[SourceFile]:
    """The next files to read to find the possible str Enums `asked` names (asked_classes)
    where they are defined, through the package `__init__`s among `summaries` (linted or
    context) that import them (`monai.utils.BlendMode`, re-exported by
    `monai/utils/__init__.py` from `.enums`): one step further along each chain, for those
    names only (a module's other re-exports may be large, and are not asked for)."""
    roots = package_roots(files)
    packages = {s.module: s for s in summaries if s.path.endswith("__init__.py")}
    known = {f.path for f in files} | {Path(s.path).resolve() for s in summaries}
    found: dict[Path, SourceFile] = {}
    for dotted in sorted(asked):
        for _ in range(REEXPORT_STEPS):
            module, _, name = dotted.rpartition(".")
            reexported = packages[module].imports.get(name) if module in packages else None
            parts = reexported.split(".") if reexported is not None else ()
            root = roots.get(parts[0]) if parts else None
            path = module_file(root, parts) if root is not None else None
            if path is None:
                break
            if path not in known:
                found[path] = source_file(path)
                break
            dotted = reexported
    return sorted(found.values(), key=lambda f: f.display)


def asked_classes(summaries: list[FileSummary]) -> set[str]:
    """The dotted names the str-Enum questions of `summaries` ask about: the `Cls` of a
    `Cls.MEMBER` a call passes (CallSite.members), a function returns or stores, a parameter
    defaults to (StrEnumArg.default), or whose method a function calls."""
    asked: set[str] = set()
    for summary in summaries:
        for fn in summary.functions.values():
            sources = [fn.returns_members, *fn.stores_members.values()]
            sources += [members for site in fn.calls for _, members in site.members]
            sources += [cand.condition for cand in fn.candidates if cand.condition]
            for ref in (ref for refs in sources for ref in refs):
                if isinstance(ref, StrEnumClass) and not ref.built:
                    asked.add(ref.cls)
                elif isinstance(ref, StrEnumArg):
                    asked.add(ref.default)
    return asked - {""}


def package_roots(files: list[SourceFile]) -> dict[str, Path]:
    """Top-level package name -> the folder that holds it, for each linted file in a package."""
    roots: dict[str, Path] = {}
    for f in files:
        if not f.module or "-" in f.module:  # a script outside any package, or a notebook
            continue
        parts = f.module.split(".")
        depth = len(parts) if f.is_package else len(parts) - 1
        if depth == 0:
            continue  # a top-level module is no package of its own
        roots.setdefault(parts[0], f.path.parents[depth])
    return roots


def module_file(root: Path, parts: list[str]) -> Path | None:
    """The file of the longest module prefix of `parts` (`pkg.mod.Class` -> pkg/mod.py)."""
    for n in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:n])
        for candidate in (base.with_name(base.name + ".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate.resolve()
    return None
