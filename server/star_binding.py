"""The names star imports bind, given to the summaries of a project's files as the CLI gives
them (analyzer/star_context.py), so that the editor's findings equal a whole-project run's.

The files are summarized as their text alone says (the editor's buffers through the
incremental summarizer, the files on disk through the parse pool and the summary cache);
before a project phase, a file whose star imports bind names its text uses is summarized
again, whole, with them bound. That summary takes the file's place in `Project.summaries`
and is kept, with the names it was given, until the file's own summary or those names
change: an edit of the module a star import reads (its `__all__`, its names, its own star
imports) re-summarizes the files that use what it binds, and an edit of such a file
re-summarizes it whole. Files whose star imports bind nothing they use cost one look at
their summary.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class StarBound:
    """A project's files whose star imports bind names: what is kept between runs."""

    # path -> (text, module, is_package, its words or None) of the files with star imports
    # that run whenever the module does, as last summarized from the text alone
    sources: dict[str, tuple] = field(default_factory=dict)
    # path -> (its summary from the text alone, the names given, the summary with them)
    bound: dict[str, tuple] = field(default_factory=dict)

    def note(self, path: str, summary: Any, text: bytes | str, module: str, is_package: bool) -> None:
        """`summary` of `path`'s `text` alone: its text is kept where its star imports may bind names."""
        if summary.bound_star_imports:
            self.sources[path] = (text, module, is_package, None)
        else:
            self.sources.pop(path, None)


def bind_star_names(proj: Any, pool: Any) -> None:
    """Put in `proj.summaries` the summaries with the names star imports bind, as the CLI's
    run over the whole project makes them (`pool`: the parse pool that summarizes them)."""
    from tclint.analyzer.star_context import with_star_names, words_of

    stars: StarBound = proj.stars
    paths, alone = [], []
    for path, summary in proj.summaries.items():
        kept = stars.bound.get(path)
        paths.append(path)
        alone.append(kept[0] if kept is not None and kept[2] is summary else summary)
    if not stars.bound and not any(s.bound_star_imports for s in alone):
        return

    def words(i: int) -> set[str]:
        path = paths[i]
        text, module, is_package, found = stars.sources[path]
        if found is None:
            found = words_of(text)
            stars.sources[path] = (text, module, is_package, found)
        return found

    def summarize(todo: list[tuple[int, dict]]) -> list:
        return [_with_names(proj, pool, paths[i], alone[i], names) for i, names in todo]

    given = with_star_names(alone, lambda i: words(i) if paths[i] in stars.sources else set(), summarize)
    stars.bound = {path: kept for path, kept in stars.bound.items() if path in proj.summaries}
    stars.sources = {path: kept for path, kept in stars.sources.items() if path in proj.summaries}
    for path, first, summary in zip(paths, alone, given):
        proj.summaries[path] = summary
        if summary is first:
            stars.bound.pop(path, None)


def _with_names(proj: Any, pool: Any, path: str, alone: Any, names: dict) -> Any:
    """`path`'s summary with `names` bound: kept from the last run while its own summary and
    the names are the same; else made (from the summary cache, for a file read from disk)."""
    from tclint.analyzer.cache import summary_key
    from tclint.analyzer.star_context import star_key
    from tclint.server.parse_pool import SummaryFailed

    kept = proj.stars.bound.get(path)
    if kept is not None and kept[0] is alone and kept[1] == names:
        return kept[2]
    text, module, is_package, _ = proj.stars.sources[path]
    cache = proj.summary_cache() if isinstance(text, bytes) and path not in proj.buffers else None
    key = star_key(summary_key(text, path, module, is_package), names) if cache is not None else None
    summary = cache.get(key) if cache is not None else None
    if summary is None:
        try:
            summary = pool.summarize(text, path, module, is_package, names)
        except SummaryFailed:
            return alone  # the names stay unbound in this file, as before star imports bound any
        if cache is not None:
            cache.put(key, summary)
    proj.stars.bound[path] = (alone, names, summary)
    return summary
