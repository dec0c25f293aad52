"""Re-summarizing an edited document by re-analyzing only what an edit can change.

The whole-file analysis (file_analysis.FileAnalyzer) is one pass over the top-level
statements, in order. From one statement to the next it carries a few file-wide tables:
import aliases, module-level names and what they hold, the file's definitions and which
of them are compiled, literal sequences, the functions found so far, and what rules keep
in their `file_state`. Here the text is cut into pieces of one top-level statement each
(at Python's own statement boundaries, with the comments above it), and the same analyzer
analyzes each piece on its own, seeing those tables through recorders that note what the
piece read and what it wrote. A piece whose text is unchanged is reused as long as every
entry it read still holds the value it read then; its writes are replayed. An edit thus
re-analyzes the statement it touches and the statements that read a name whose value
changed, and the summary is the whole-file summary: the same analyzer, the same import
resolution, the same order (tests/test_incremental_differential.py checks it under
random edits of real files).
"""
from __future__ import annotations

import ast
import bisect
import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Callable

import libcst as cst

from tclint.analyzer import parse_guard, project
from tclint.analyzer.diagnostic import Fix, Span, TextEdit
from tclint.analyzer.file_analysis import FileAnalyzer
from tclint.analyzer.positions import positions as _positions
from tclint.analyzer.names import ImportTable
from tclint.analyzer.rules import visitor_rules
from tclint.analyzer.summary import FileSummary
from tclint.analyzer.suppressions import find_suppressions
from tclint.analyzer.tree_walk import walk

_LINE_END = re.compile(r"\r\n|\r|\n")  # Python's newlines (str.splitlines knows more)
_MISSING = object()  # an absent key, as read or as written (a deletion)
_ALL = object()  # the key under which a recorder notes that the whole table was read
_QUESTION = object()  # heads the key of a question about the values (see _DERIVED)


class _DictRecorder:
    """A dict as one piece sees it: the file's table so far (`base`, never written here),
    the piece's own writes, and the first value the piece read under each key."""

    __slots__ = ("base", "own", "reads")

    def __init__(self, base: dict) -> None:
        self.base = base
        self.own: dict = {}
        self.reads: dict = {}

    def _value(self, key):
        if key in self.own:
            return self.own[key]
        value = self.base.get(key, _MISSING)
        if key not in self.reads:
            self.reads[key] = _frozen(value)
        if isinstance(value, (set, list, dict)):  # the caller may change it: the piece's copy
            value = value.copy()
            self.own[key] = value
        return value

    def get(self, key, default=None):
        value = self._value(key)
        return default if value is _MISSING else value

    def __getitem__(self, key):
        value = self._value(key)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __contains__(self, key) -> bool:
        return self._value(key) is not _MISSING

    def __setitem__(self, key, value) -> None:
        self.own[key] = value

    def __delitem__(self, key) -> None:
        self[key]  # noqa: B018 - KeyError when absent, as a dict
        self.own[key] = _MISSING

    def pop(self, key, *default):
        value = self._value(key)
        if value is _MISSING:
            if default:
                return default[0]
            raise KeyError(key)
        self.own[key] = _MISSING
        return value

    def setdefault(self, key, default=None):
        value = self._value(key)
        if value is _MISSING:
            self.own[key] = value = default
        return value

    def update(self, other=(), **more) -> None:
        self.own.update(other, **more)

    def derived(self, name: str, arg):
        """A question about the values (see _DERIVED), noted as one read while the piece
        has written nothing here; otherwise it depends on the whole table."""
        if self.own:
            return _DERIVED[name](self._whole(), arg)
        key = (_QUESTION, name, arg)
        if key not in self.reads:
            self.reads[key] = _DERIVED[name](self.base, arg)
        return self.reads[key]

    def _whole(self) -> dict:
        merged = {**self.base, **self.own}
        if _ALL not in self.reads:
            self.reads[_ALL] = _frozen_table(self.base)
        return {k: v for k, v in merged.items() if v is not _MISSING}

    def __iter__(self):
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def keys(self):
        return self._whole().keys()

    def values(self):
        return self._whole().values()

    def items(self):
        return self._whole().items()


class _SetRecorder:
    """A set as one piece sees it (see _DictRecorder); own writes: key -> present?"""

    __slots__ = ("base", "own", "reads")

    def __init__(self, base: set) -> None:
        self.base = base
        self.own: dict = {}
        self.reads: dict = {}

    def __contains__(self, key) -> bool:
        if key in self.own:
            return self.own[key]
        present = key in self.base
        self.reads.setdefault(key, present)
        return present

    def add(self, key) -> None:
        self.own[key] = True

    def discard(self, key) -> None:
        self.own[key] = False

    def remove(self, key) -> None:
        if key not in self:
            raise KeyError(key)
        self.own[key] = False

    def update(self, *others) -> None:
        for other in others:
            for key in other:
                self.own[key] = True

    def _whole(self) -> set:
        if _ALL not in self.reads:
            self.reads[_ALL] = frozenset(self.base)
        return {k for k in self.base if self.own.get(k, True)} | {k for k, v in self.own.items() if v}

    def __iter__(self):
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())


_DERIVED: dict[str, Callable[[dict, Any], Any]] = {
    "key_for": lambda table, value: next((k for k, v in table.items() if v == value), None),
    "has_value": lambda table, value: value in table.values(),
}


class _RecordedImports(ImportTable):
    """The import table over a recorder: its questions about values are single reads."""

    def local_name(self, qualified: str) -> str | None:
        return self.aliases.derived("key_for", qualified)

    def binds(self, qualified: str) -> bool:
        return self.aliases.derived("has_value", qualified)


def _frozen(value):
    """A value as it was read, unaffected by later changes of the object."""
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(value)  # syntax nodes compare by identity: a re-parsed source is new
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    return value


def _frozen_table(table) -> Any:
    if isinstance(table, (set, frozenset)):
        return frozenset(table)
    return tuple((k, _frozen(v)) for k, v in table.items())


def _tables(analyzer: FileAnalyzer) -> dict[str, tuple[Any, str]]:
    """Where the analyzer keeps each table that crosses top-level statements: name -> (holder, attribute)."""
    tables = {
        "aliases": (analyzer.imports, "aliases"),
        "module_names": (analyzer.facts, "module_names"),
        "module_instances": (analyzer.facts, "module_instances"),
        "record_classes": (analyzer.facts, "record_classes"),
        "local_defs": (analyzer.facts, "local_defs"),
        "compiled_defs": (analyzer, "compiled_defs"),
        "literal_names": (analyzer, "_literal_names"),
        "string_tables": (analyzer, "_string_tables"),
        "callable_tables": (analyzer, "_callable_tables"),
        "loop_sources": (analyzer, "_loop_sources"),
        "functions": (analyzer.summary, "functions"),
    }
    for rule in analyzer.rules:
        for attr in rule.file_state:
            tables[f"{rule.code}.{attr}"] = (rule, attr)
    return tables


@dataclass
class _Piece:
    """One top-level statement (with the comments above it), analyzed on its own."""

    tree: cst.Module
    reads: dict[str, dict]  # table -> key -> value read (frozen)
    writes: dict[str, dict]  # table -> key -> value written (_MISSING: deleted; sets: present?)
    part: FileSummary  # what the piece found, lines counted from the piece's first line
    lines: int  # newlines in the piece's text
    positions: dict  # node -> CodeRange in `tree`, of the nodes its analyses placed
    shifted: tuple[int, FileSummary] | None = None  # (lines down, `part` that many lines down), last used


@dataclass
class _Document:
    """What the summarizer keeps of a document: its last text that parsed, and its pieces."""

    text: str
    sources: list[str]
    pieces: dict[tuple[str, int], _Piece]  # (text, occurrence of that text) -> piece


class IncrementalSummarizer:
    def __init__(self, max_documents: int = 64,
                 whole_file: Callable[[str, str, str, bool], FileSummary] | None = None):
        """`whole_file(text, path, module, is_package)`: the whole-file summary, used when the
        text does not parse (project.summarize by default). Only the pieces of each
        document's latest version are kept, for the `max_documents` used last."""
        self._documents: OrderedDict[tuple, _Document] = OrderedDict()
        self.max_documents = max_documents
        self.whole_file = whole_file or project.summarize
        self.analyzed = 0  # pieces analyzed by the last call (the others were reused)
        self.whole = False  # whether the last call analyzed the whole file at once

    def knows(self, path: str, module: str, is_package: bool) -> bool:
        """Whether pieces of a version of this document are kept (an edit reuses them)."""
        return (path, module, is_package) in self._documents

    def summarize(self, text: str, path: str, module: str, is_package: bool) -> FileSummary:
        self.analyzed = 0
        self.whole = True
        key = (path, module, is_package)
        previous = self._documents.get(key)
        sources = _resplit(previous.text, previous.sources, text) if previous is not None else None
        if sources is None:
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return self.whole_file(text, path, module, is_package)  # reports the error
            sources = _split(tree, text)
        known = {source: piece.tree for (source, _), piece in previous.pieces.items()} if previous else {}
        trees = [known[source] if source in known else _parse(source) for source in sources]
        if any(t is None for t in trees):  # Python accepted it, libcst did not: as the CLI sees it
            return self.whole_file(text, path, module, is_package)
        pieces: dict[tuple[str, int], _Piece] = {}
        try:
            summary = self._summarize(sources, trees, path, module, is_package,
                                      previous.pieces if previous else {}, pieces)
        except Exception:  # noqa: BLE001 - recursion, or a bug: the whole file reports it as the CLI would
            return project.summarize(text, path, module, is_package)
        self._documents[key] = _Document(text, sources, pieces)
        self._documents.move_to_end(key)
        if len(self._documents) > self.max_documents:
            self._documents.popitem(last=False)
        summary.suppressions = find_suppressions(text)
        self.whole = False
        return summary

    def forget(self, path: str) -> None:
        """Drop what is kept of `path` (its editor closed it)."""
        for key in [key for key in self._documents if key[0] == path]:
            del self._documents[key]

    def _summarize(self, sources: list[str], trees: list[cst.Module], path: str, module: str,
                   is_package: bool, before: dict, pieces: dict) -> FileSummary:
        rules = visitor_rules()
        # The file's imports, definitions and compiled definitions, known before the first
        # statement is read: the analyzer's own prescan of the whole module.
        start = FileAnalyzer(path, module, is_package, rules)
        start._visit_module(cst.Module(body=[stmt for t in trees for stmt in t.body]))
        live = {name: _copy(getattr(holder, attr)) for name, (holder, attr) in _tables(start).items()}
        summary = FileSummary(path=path, module=module)
        seen: dict[str, int] = {}
        line = 1
        for source, tree in zip(sources, trees):
            seen[source] = seen.get(source, -1) + 1
            piece = before.get((source, seen[source]))
            if piece is None or not _still_holds(piece.reads, live):
                known = piece.positions if piece is not None and piece.tree is tree else {}
                piece = self._analyze(source, tree, path, module, is_package, rules, live, known)
                self.analyzed += 1
            pieces[(source, seen[source])] = piece
            _replay(piece.writes, live)
            if piece.shifted is None or piece.shifted[0] != line - 1:
                piece.shifted = (line - 1, _shifted(piece.part, line - 1))
            _merge(summary, piece.shifted[1])
            line += piece.lines
        return summary

    def _analyze(self, source: str, tree: cst.Module, path: str, module: str, is_package: bool, rules, live,
                 known: dict) -> _Piece:
        analyzer = FileAnalyzer(path, module, is_package, rules)
        recorders: dict[str, Any] = {}
        imports = _RecordedImports(module, is_package)
        # id of a table replaced -> what replaces it; `replaced` keeps the tables alive until
        # the rules are rewired, so that no new object takes the id of a freed one.
        swapped: dict[int, Any] = {id(analyzer.imports): imports}
        replaced = [analyzer.imports]
        analyzer.imports = analyzer.facts.imports = imports
        for name, (holder, attr) in _tables(analyzer).items():
            base = live[name]
            recorder = _SetRecorder(base) if isinstance(base, set) else _DictRecorder(base)
            replaced.append(getattr(holder, attr))
            swapped[id(replaced[-1])] = recorder
            setattr(holder, attr, recorder)
            recorders[name] = recorder
        for rule in analyzer.rules:  # a rule may hold a table of the analyzer's (compiled_defs)
            for attr, value in vars(rule).items():
                if id(value) in swapped:
                    setattr(rule, attr, swapped[id(value)])
        del replaced
        skip = analyzer.unobserved()
        for stmt in tree.body:  # not the module: its prescan was done for the whole file
            walk(stmt, analyzer, skip)
        positions = _Positions(tree, known)
        part = analyzer.finish(tree, positions)
        part.functions = {k: v for k, v in recorders["functions"].own.items() if v is not _MISSING}
        return _Piece(tree=tree, reads={n: r.reads for n, r in recorders.items() if r.reads},
                      writes={n: r.own for n, r in recorders.items() if r.own}, part=part,
                      lines=_line_count(source), positions=positions.kept)  # tree.code is source


class _Positions:
    """A piece's node positions for its analyzer: those earlier analyses of the same tree
    placed, and all of them computed (one code generation of the piece, half of the cost of
    an analysis) only when a node is not among those. `kept`: the ones placed so far."""

    __slots__ = ("tree", "kept", "all")

    def __init__(self, tree: cst.Module, kept: dict) -> None:
        self.tree = tree
        self.kept = dict(kept)
        self.all = None

    def __getitem__(self, node):
        where = self.kept.get(node)
        if where is None:
            if self.all is None:
                self.all = _positions(self.tree)
            where = self.kept[node] = self.all[node]
        return where


def _parse(source: str) -> cst.Module | None:
    """None where libcst does not parse the piece, or must not (see parse_guard): the whole
    file then reports it, as the CLI would."""
    if parse_guard.refusal(source) is not None:
        return None
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError):
        return None


def _copy(table):
    if isinstance(table, set):
        return set(table)
    return {k: (v.copy() if isinstance(v, (set, list, dict)) else v) for k, v in table.items()}


def _still_holds(reads: dict[str, dict], live: dict) -> bool:
    for name, keys in reads.items():
        table = live[name]
        is_set = isinstance(table, set)
        for key, seen in keys.items():
            if key is _ALL:
                now = _frozen_table(table)
            elif isinstance(key, tuple) and key[0] is _QUESTION:
                now = _DERIVED[key[1]](table, key[2])
            elif is_set:
                now = key in table
            else:
                now = _frozen(table.get(key, _MISSING))
            if now != seen:
                return False
    return True


def _replay(writes: dict[str, dict], live: dict) -> None:
    for name, own in writes.items():
        table = live[name]
        if isinstance(table, set):
            for key, present in own.items():
                (table.add if present else table.discard)(key)
        else:
            for key, value in own.items():
                if value is _MISSING:
                    table.pop(key, None)
                else:
                    table[key] = value.copy() if isinstance(value, (set, list, dict)) else value


def _split(tree: ast.Module, text: str) -> list[str]:
    """The text cut before each top-level statement's first line (its decorators included),
    comments and blank lines going with the statement below them; statements sharing a line
    (`a = 1; b = 2`) stay in one piece. The pieces joined are the text."""
    starts = [0]
    for m in _LINE_END.finditer(text):
        starts.append(m.end())
    cuts = []
    last_end = 0
    for stmt in tree.body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        if cuts and first <= last_end:
            last_end = max(last_end, stmt.end_lineno or stmt.lineno)
            continue
        cuts.append(last_end + 1 if cuts else 1)  # from the line after the previous statement
        last_end = max(last_end, stmt.end_lineno or stmt.lineno)
    offsets = [starts[line - 1] for line in cuts] + [len(text)]
    return [text[a:b] for a, b in zip(offsets, offsets[1:])]


def _resplit(old: str, pieces: list[str], new: str) -> list[str] | None:
    """The pieces of `new`, an edit of `old` (cut into `pieces`), re-splitting only the
    pieces the edit touched; None when that cannot be done safely (the caller splits it all)."""
    if not pieces:
        return None
    limit = min(len(old), len(new))
    prefix = _longest(lambda n: old[:n] == new[:n], limit)
    suffix = _longest(lambda n: old[len(old) - n:] == new[len(new) - n:], limit - prefix)
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece))
    first = max(0, bisect.bisect_right(starts, prefix) - 1)
    first = min(first, len(pieces) - 1)
    last = max(first, min(len(pieces) - 1, bisect.bisect_right(starts, len(old) - suffix - 1) - 1))
    begin, end = starts[first], starts[last + 1] + len(new) - len(old)
    if end < begin or (end < len(new) and new[end - 1:end] not in ("\n", "\r")):
        return None  # the edit joined lines across the region's end
    if (begin and old[begin - 1] == "\r" and new[begin:begin + 1] == "\n") or (
            new[end - 1:end] == "\r" and new[end:end + 1] == "\n"):
        return None  # a CR and an LF became one line end
    region = new[begin:end]
    try:
        tree = ast.parse(region)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not tree.body:
        return None
    return pieces[:first] + _split(tree, region) + pieces[last + 1:]


def _longest(same: Callable[[int], bool], limit: int) -> int:
    """The largest n <= limit with same(n), for a `same` true up to some n and false after
    (a binary search of string slices compared at C speed)."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _line_count(source: str) -> int:
    return len(_LINE_END.findall(source))


def _shift(span: Span | None, by: int) -> Span | None:
    if span is None or not by:
        return span
    return Span(span.line + by, span.column, span.end_line + by, span.end_column)


def _shift_fix(fix: Fix | None, by: int) -> Fix | None:
    if fix is None or not by:
        return fix
    return Fix(fix.title, tuple(TextEdit(e.path, _shift(e.span, by), e.new_text) for e in fix.edits))


def _shifted(part: FileSummary, by: int) -> FileSummary:
    """A piece's findings `by` lines further down."""
    out = FileSummary(path=part.path, module=part.module, imports=part.imports, aliases=part.aliases,
                      callable_tables=part.callable_tables,
                      hook_functions=part.hook_functions, dynamo_config=part.dynamo_config)
    for key, fn in part.functions.items():
        out.functions[key] = replace(
            fn,
            span=_shift(fn.span, by),
            calls=[replace(c, span=_shift(c.span, by)) for c in fn.calls],
            candidates=[replace(c, span=_shift(c.span, by), fix=_shift_fix(c.fix, by)) for c in fn.candidates],
        )
    out.classes = {key: replace(cls, span=_shift(cls.span, by)) for key, cls in part.classes.items()}
    out.compile_sites = [replace(s, span=_shift(s.span, by)) for s in part.compile_sites]
    out.module_candidates = [replace(c, span=_shift(c.span, by), fix=_shift_fix(c.fix, by))
                             for c in part.module_candidates]
    return out


def _merge(summary: FileSummary, part: FileSummary) -> None:
    """Add a piece's findings (in place) to the file's, in statement order."""
    summary.functions.update(part.functions)
    summary.classes.update(part.classes)
    summary.imports.update(part.imports)
    summary.aliases.update(part.aliases)
    summary.callable_tables.update(part.callable_tables)
    summary.compile_sites.extend(part.compile_sites)
    summary.hook_functions.extend(part.hook_functions)
    summary.module_candidates.extend(part.module_candidates)
    summary.dynamo_config.update(part.dynamo_config)
