"""Something worked out from each file's summary, kept between project phases while the
summary is the same object: the server re-summarizes only the files an edit changed, so a
pass over every file of a big workspace reads the kept answers of all the others."""
from __future__ import annotations

from typing import Callable, Generic, TypeVar

from tclint.analyzer.summary import FileSummary

T = TypeVar("T")


class PerFile(Generic[T]):
    def __init__(self, derive: Callable[[FileSummary], T]) -> None:
        self._derive = derive
        self._kept: dict[str, tuple[FileSummary, T]] = {}  # path -> (summary, what it gave)

    def of(self, fs: FileSummary) -> T:
        known = self._kept.get(fs.path)
        if known is None or known[0] is not fs:
            known = self._kept[fs.path] = (fs, self._derive(fs))
        return known[1]

    def clear(self) -> None:
        self._kept = {}
