"""The reached functions each pass after the project phase's findings loop looks at.

Those passes (held_methods, returned_defaults, unresumable_blocks, comprehension_frames) act
only on the functions whose summary records what they look for: a bound method held, a
returned call, a `try`/`with` block or operator, a comprehension. A transformers/models
workspace reaches some 12,000 functions and a few hundred have any; looking up every reached
function's summary cost each pass 25-35 ms an edit there. Which functions of a file have what
is kept with the file's summary (PerFile) where the caller keeps it between runs.
"""
from __future__ import annotations

from typing import Callable

from tclint.analyzer.per_file import PerFile
from tclint.analyzer.summary import FileSummary

FIELDS = ("held_methods", "returned_calls", "blocks", "comprehensions")


def subjects_of(fs: FileSummary) -> tuple[tuple[str, ...], ...]:
    """Per field of FIELDS, the keys of the file's functions whose summary has some."""
    return tuple(tuple(key for key, fn in fs.functions.items() if getattr(fn, name)) for name in FIELDS)


def pass_subjects(index, found: dict, of: Callable[[FileSummary], tuple] = subjects_of) -> dict[str, list[str]]:
    """Field -> the keys of `found` (the run's findings by function) whose summary has some,
    in `found`'s order; `of`: subjects_of, or kept answers of it."""
    some: set[str] = set()  # keys some file's function has one of the fields for
    for fs in index.files:
        for keys in of(fs):
            some.update(keys)
    out: dict[str, list[str]] = {name: [] for name in FIELDS}
    functions = index.functions
    for key in found:
        if key in some:
            fn = functions[key][1]  # the summary of the file that claims the key
            for name in FIELDS:
                if getattr(fn, name):
                    out[name].append(key)
    return out


class KeptSubjects:
    """pass_subjects with each file's subjects_of kept while its summary stands."""

    def __init__(self) -> None:
        self._per_file = PerFile(subjects_of)

    def __call__(self, index, found: dict) -> dict[str, list[str]]:
        return pass_subjects(index, found, self._per_file.of)
