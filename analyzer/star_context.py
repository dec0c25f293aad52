"""What a file's star imports bind, given to its file phase where the run holds the modules.

`from ..layers import *` binds `nn`, `torch` or a class of the package in the importing
module. The file phase reads one file, so there `nn.GRU(...)` was no torch module and
`class Net(nn.Module)` no nn.Module. Once the files of a run are summarized, what each star
import binds is known (star_exports.StarExports: a literal `__all__`, else the public names,
those of its own star imports included, the later one winning), so a file whose text uses
such a name is summarized again with the names bound in the star import's place
(names.ImportTable), under a cache key that names them. A binding can come from another
file's new summary (`Layer = nn.Module` is an alias once `nn` is known there), so this goes
round until no file's names change.
"""
from __future__ import annotations

import hashlib
import re
from typing import Callable

from tclint.analyzer.star_exports import StarExports
from tclint.analyzer.summary import FileSummary

ROUNDS = 4  # a name travels one star-importing file a round; chains in real packages are short
_WORD = re.compile(r"\w+")


def star_names(fs: FileSummary, modules: dict[str, FileSummary], stars: StarExports,
               words: set[str]) -> dict[str, dict[str, str]]:
    """star-imported module -> name -> qualified name, for the names among `words` (those
    of the file's text) that `fs`'s star imports bind whenever it runs."""
    out: dict[str, dict[str, str]] = {}
    for source in fs.bound_star_imports:
        bound = {}
        for name, binder in stars.exported(source).items():
            if name in words:
                other = modules[binder]
                bound[name] = other.imports.get(name) or other.aliases.get(name) or f"{binder}.{name}"
        if bound:
            out[source] = bound
    return out


def with_star_names(summaries: list[FileSummary], words: Callable[[int], set[str]],
                    summarize: Callable[[list[tuple[int, dict]]], list[FileSummary]]) -> list[FileSummary]:
    """`summaries`, those of the files whose star imports bind names they use summarized
    again by `summarize` (given [(index, star_names)]); `words(index)`: the words of that
    file's text, asked only of files with star imports that bind names."""
    summaries = list(summaries)
    given: dict[int, dict[str, dict[str, str]]] = {}
    seen: dict[int, set[str]] = {}
    for _ in range(ROUNDS):
        modules: dict[str, FileSummary] = {}
        for fs in summaries:
            modules.setdefault(fs.module, fs)
        stars = StarExports(modules)
        todo = []
        for i, fs in enumerate(summaries):
            if not fs.bound_star_imports:
                continue
            if i not in seen:
                seen[i] = words(i)
            names = star_names(fs, modules, stars, seen[i])
            if names != given.get(i, {}):
                given[i] = names
                todo.append((i, names))
        if not todo:
            break
        for (i, _), fs in zip(todo, summarize(todo)):
            summaries[i] = fs
    return summaries


def words_of(text: bytes | str) -> set[str]:
    """The words of a file's text: a name its star imports bind is given only where one uses it."""
    return set(_WORD.findall(text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text))


def star_key(key: str, names: dict[str, dict[str, str]]) -> str:
    """The summary's cache key with the names its star imports bind."""
    text = repr(sorted((source, sorted(bound.items())) for source, bound in names.items()))
    return hashlib.blake2b(f"{key}\0{text}".encode("utf-8", errors="surrogateescape"), digest_size=20).hexdigest()
