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

A top-level class is cut one level further: its head (what entering it records, such as the
kinds of the `self.x` its __init__ assigns) and its members (each def, each run of other
statements), each analyzed on its own inside the class, the class's own tables recorded
like the module's. A module-level edit re-analyzes only the methods that read what changed;
an edit in a method, that method, which is also the only part of the class parsed again
where that gives the tree a parse of the whole class gives (analyzer/class_members.py).
"""
from __future__ import annotations

import ast
import bisect
from collections import OrderedDict
from dataclasses import dataclass, field, fields
from typing import Any, Callable

import libcst as cst

from tclint.analyzer import parse_guard, project
from tclint.analyzer import class_members
from tclint.analyzer.class_members import LINE_END, class_of, longest, spliced
from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.diagnostic import Fix, Span, TextEdit
from tclint.analyzer.file_analysis import FileAnalyzer
from tclint.analyzer.positions import positions as _positions
from tclint.analyzer.positions import statement_positions
from tclint.analyzer.names import ImportTable
from tclint.analyzer.rules import visitor_rules
from tclint.analyzer.summary import ClassSummary, FileSummary
from tclint.analyzer.suppressions import find_suppressions
from tclint.analyzer.tree_walk import visited_fields, walk

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
        "lambdas": (analyzer.facts.lambdas, "module"),
        "local_defs": (analyzer.facts, "local_defs"),
        "local_classes": (analyzer.facts, "local_classes"),
        "compiled_defs": (analyzer, "compiled_defs"),
        "literal_names": (analyzer, "_literal_names"),
        "string_tables": (analyzer, "_string_tables"),
        "callable_tables": (analyzer, "_callable_tables"),
        "loop_sources": (analyzer, "_loop_sources"),
        "properties": (analyzer, "_properties"),
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
    # A class analyzed as its members (see _analyze_class): (member text, occurrence) -> member,
    # and what its members saw of the class (key, name, bases as scope and as summary, optional keys).
    members: dict[tuple[str, int], _Member] | None = None
    context: tuple | None = None
    cut: list | None = None  # the class body of `tree` cut into members (see _members)
    order: list[tuple[_Member, int]] = field(default_factory=list)  # members, each with its first line in `tree`


@dataclass
class _Member:
    """A member of a class body, analyzed on its own: a def (with its decorators and the
    comments above it), or a run of the other statements between two defs."""

    nodes: tuple[cst.BaseStatement, ...]  # in the class piece's latest tree
    reads: dict[str, dict]  # as a piece's, over the module's tables and the class's (_CLASS_TABLES)
    writes: dict[str, dict]
    part: FileSummary  # lines counted from the member's first line
    positions: dict  # node -> CodeRange from the member's first line, of the nodes placed
    shifted: tuple[int, FileSummary] | None = None  # as the piece's, from the file's first line


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
        self.members_analyzed = 0  # of which, members of classes analyzed (see _analyze_class)
        self.whole = False  # whether the last call analyzed the whole file at once
        # Of the last call (when not whole): ("functions" or "classes", key) -> (the record as
        # its piece found it, lines it was moved down). Two summaries' records with the same
        # first differ by a move (see moved_records).
        self.origins: dict[tuple[str, str], tuple[Any, int]] = {}
        self._cuts: dict[int, list] = {}  # of the last call: id of a spliced class tree -> its cut

    def knows(self, path: str, module: str, is_package: bool) -> bool:
        """Whether pieces of a version of this document are kept (an edit reuses them)."""
        return (path, module, is_package) in self._documents

    def summarize(self, text: str, path: str, module: str, is_package: bool) -> FileSummary:
        self.analyzed = self.members_analyzed = 0
        self.whole = True
        self.origins = {}
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
        edited = _edited_piece(previous, sources) if previous is not None else None
        self._cuts = {}
        trees = []
        for i, source in enumerate(sources):
            tree = known.get(source)
            if tree is None and edited is not None and edited[0] == i and edited[2].cut is not None:
                # A class with one member edited: that member alone is parsed (class_members.spliced)
                found = spliced(edited[1], edited[2].tree, edited[2].cut, source)
                if found is not None:
                    tree, self._cuts[id(tree)] = found
            trees.append(tree if tree is not None else _parse(source))
        if any(t is None for t in trees):  # Python accepted it, libcst did not: as the CLI sees it
            return self.whole_file(text, path, module, is_package)
        pieces: dict[tuple[str, int], _Piece] = {}
        try:
            summary = self._summarize(sources, trees, path, module, is_package,
                                      previous.pieces if previous else {}, pieces)
        except Exception:  # noqa: BLE001 - recursion, or a bug: the whole file reports it as the CLI would
            return project.summarize(text, path, module, is_package)
        finally:
            self._cuts = {}
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
        # The classes of the previous version, by name and occurrence: an edited class
        # reuses the members its edit left alone.
        earlier: dict[tuple[str, int], _Piece] = {}
        counted: dict[str, int] = {}
        for piece in before.values():
            if piece.members is not None:
                name = piece.context[1]
                counted[name] = counted.get(name, -1) + 1
                earlier[(name, counted[name])] = piece
        # what the prescan alone finds (the pieces' walks skip the module node)
        summary = FileSummary(path=path, module=module, bound_star_imports=start.summary.bound_star_imports)
        seen: dict[str, int] = {}
        classes_seen: dict[str, int] = {}
        line = 1
        for source, tree in zip(sources, trees):
            seen[source] = seen.get(source, -1) + 1
            piece = before.get((source, seen[source]))
            cls = class_of(tree)
            if cls is not None:
                classes_seen[cls.name.value] = classes_seen.get(cls.name.value, -1) + 1
            if piece is None or not _still_holds(piece.reads, live):
                if piece is None and cls is not None:
                    piece = earlier.get((cls.name.value, classes_seen[cls.name.value]))
                piece = self._analyze(source, tree, path, module, is_package, rules, live, piece)
                self.analyzed += 1
            pieces[(source, seen[source])] = piece
            _replay(piece.writes, live)
            if piece.shifted is None or piece.shifted[0] != line - 1:
                piece.shifted = (line - 1, _shifted(piece.part, line - 1))
            _merge(summary, piece.shifted[1])
            self._note_origins(piece.part, line - 1)
            for member, first in piece.order:  # shifted each on its own: the unchanged stay the same objects
                by = line - 1 + first - 1
                if member.shifted is None or member.shifted[0] != by:
                    member.shifted = (by, _shifted(member.part, by))
                _merge(summary, member.shifted[1])
                self._note_origins(member.part, by)
            line += piece.lines
        return summary

    def _note_origins(self, part: FileSummary, by: int) -> None:
        for table in ("functions", "classes"):
            for key, record in getattr(part, table).items():
                self.origins[(table, key)] = (record, by)

    def _analyze(self, source: str, tree: cst.Module, path: str, module: str, is_package: bool, rules, live,
                 previous: _Piece | None) -> _Piece:
        """`previous`: what was kept of this statement (same text, or the same class before an edit)."""
        if class_of(tree) is not None:
            try:
                piece = self._analyze_class(source, tree, path, module, is_package, rules, live, previous)
            except _Uncut:
                piece = None
            if piece is not None:
                return piece
        known = previous.positions if previous is not None and previous.tree is tree else {}
        analyzer = FileAnalyzer(path, module, is_package, rules)
        recorders = _record(analyzer, live, module, is_package)
        skip = analyzer.unobserved()
        for stmt in tree.body:  # not the module: its prescan was done for the whole file
            walk(stmt, analyzer, skip)
        positions = _Positions(lambda wanted: _positions(tree, wanted), known)
        return _Piece(tree=tree, reads=_reads(recorders), writes=_writes(recorders),
                      part=_finished(analyzer, recorders, positions),
                      lines=_line_count(source), positions=positions.kept)  # tree.code is source

    def _analyze_class(self, source: str, tree: cst.Module, path: str, module: str, is_package: bool, rules,
                       live, previous: _Piece | None) -> _Piece | None:
        """A top-level class as its head (decorators, bases, keywords; what the analyzer
        records on entering it, such as the kinds of `self.x` its __init__ assigns) and its
        members, in order. The class's own tables (the kinds of `self.x`, what they were built
        from, its methods) are recorded the way the module's are: a member is reused when its
        text, what it saw of the class, and every entry it read are unchanged. None when the
        class is not cut (no def in its body, or a body the cut cannot follow)."""
        cls = class_of(tree)
        # The cut of the same tree is kept: Python's parse of a big class costs milliseconds.
        members = (previous.cut if previous is not None and previous.tree is tree
                   else self._cuts.get(id(tree)) or class_members.members(source, cls))
        if members is None or not any(isinstance(nodes[0], cst.FunctionDef) for nodes, _, _ in members):
            return None
        head = FileAnalyzer(path, module, is_package, rules)
        recorders = _record(head, live, module, is_package)
        entered: dict[str, Any] = {}

        def at_body() -> None:
            scope = head._class_stack[-1]
            entered.update(scope=scope, attrs=dict(scope.attrs), built_from=dict(scope.built_from),
                           pending=len(head._pending))

        if not _walk_class(cls, head, head.unobserved(), at_body):
            return None
        if not entered or len(head._pending) != entered["pending"] or _marked(head, members):
            return None  # leaving the class recorded something, or the class body is not plain
        scope = entered["scope"]
        summary = head.summary.classes[scope.key]
        context = (scope.key, scope.name, scope.bases, tuple(summary.bases), summary.optional_keys,
                   scope.tensor_overrides)
        known = previous.positions if previous is not None and previous.tree is tree else {}
        head_positions = _Positions(lambda wanted: _head_positions(tree, cls, wanted), known)
        part = _finished(head, recorders, head_positions)
        reads = {name: dict(keys) for name, keys in _reads(recorders).items()}
        writes = {name: dict(own) for name, own in _writes(recorders).items()}
        local = {name: _copy(table) for name, table in live.items()}
        _replay(writes, local)
        local[_ATTRS], local[_BUILT_FROM] = entered["attrs"], entered["built_from"]
        local[_METHODS], local[_ATTR_KINDS] = dict(summary.methods), dict(summary.attr_kinds)
        kept = previous.members if previous is not None and previous.context == context else {}
        indent = cls.body.indent if cls.body.indent is not None else tree.default_indent
        analyzed: dict[tuple[str, int], _Member] = {}
        order: list[tuple[_Member, int]] = []
        seen: dict[str, int] = {}
        for nodes, first, text in members:
            seen[text] = seen.get(text, -1) + 1
            member = kept.get((text, seen[text]))
            if member is None or not _still_holds(member.reads, local):
                known = member.positions if member is not None and member.nodes == nodes else {}
                member = self._analyze_member(nodes, tree, indent, path, module, is_package, rules, local,
                                              scope, summary, known)
                self.members_analyzed += 1
            elif member.nodes != nodes:  # the same text in a new tree: its positions were of the old one
                member.nodes, member.positions = nodes, {}
            analyzed[(text, seen[text])] = member
            order.append((member, first))
            _fold(reads, writes, member, live)
            _replay(member.writes, local)
        summary.methods, summary.attr_kinds = local[_METHODS], local[_ATTR_KINDS]
        return _Piece(tree=tree, reads=reads, writes={n: w for n, w in writes.items() if n not in _CLASS_TABLES},
                      part=part, lines=_line_count(source), positions=head_positions.kept, members=analyzed,
                      context=context,
                      cut=members, order=order)

    def _analyze_member(self, nodes: tuple, tree: cst.Module, indent: str, path: str, module: str,
                        is_package: bool, rules, local: dict, scope: tf.ClassScope, summary: ClassSummary,
                        known: dict) -> _Member:
        analyzer = FileAnalyzer(path, module, is_package, rules)
        recorders = _record(analyzer, local, module, is_package)
        # Inside the class, as the whole-file walk is when it reaches this member.
        inner = tf.ClassScope(key=scope.key, name=scope.name, bases=scope.bases,
                              tensor_overrides=scope.tensor_overrides)
        inner.attrs = recorders[_ATTRS] = _DictRecorder(local[_ATTRS])
        inner.built_from = recorders[_BUILT_FROM] = _DictRecorder(local[_BUILT_FROM])
        entered = ClassSummary(key=summary.key, name=summary.name, bases=summary.bases,
                               optional_keys=summary.optional_keys)
        entered.methods = recorders[_METHODS] = _DictRecorder(local[_METHODS])
        entered.attr_kinds = recorders[_ATTR_KINDS] = _DictRecorder(local[_ATTR_KINDS])
        analyzer.summary.classes[scope.key] = entered
        analyzer._class_stack.append(inner)
        analyzer._containers.append(inner)
        analyzer.facts.class_scope = inner
        skip = analyzer.unobserved()
        for node in nodes:
            walk(node, analyzer, skip)
        blank = ClassSummary(key=summary.key, name=summary.name, bases=summary.bases,
                             optional_keys=summary.optional_keys)
        if any(getattr(entered, f.name) != getattr(blank, f.name) for f in fields(ClassSummary)
               if f.name not in _CLASS_SUMMARY_TABLES):
            raise _Uncut  # the member wrote into the class's summary where no table carries it
        positions = _Positions(lambda wanted: statement_positions(nodes, tree, indent, wanted), known)
        part = _finished(analyzer, recorders, positions)
        del part.classes[scope.key]  # the class is the head's; its methods, a table
        return _Member(nodes=nodes, reads=_reads(recorders), writes=_writes(recorders), part=part,
                       positions=positions.kept)


# The tables of the class being analyzed, beside the module's (see _analyze_class): of its
# scope, and of its summary (ClassSummary fields the methods write).
_ATTRS, _BUILT_FROM = "class.attrs", "class.built_from"
_METHODS, _ATTR_KINDS = "class.methods", "class.attr_kinds"
_CLASS_TABLES = frozenset({_ATTRS, _BUILT_FROM, _METHODS, _ATTR_KINDS})
_CLASS_SUMMARY_TABLES = frozenset({"methods", "attr_kinds"})


class _Uncut(Exception):
    """A class that is analyzed whole: a member changed what no table of the class carries."""


def _record(analyzer: FileAnalyzer, live: dict, module: str, is_package: bool) -> dict[str, Any]:
    """Put recorders over `live` in place of the analyzer's file-wide tables; name -> recorder."""
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
    return recorders


def _reads(recorders: dict) -> dict[str, dict]:
    return {n: r.reads for n, r in recorders.items() if r.reads}


def _writes(recorders: dict) -> dict[str, dict]:
    return {n: r.own for n, r in recorders.items() if r.own}


def _finished(analyzer: FileAnalyzer, recorders: dict, positions: _Positions) -> FileSummary:
    positions.wanted = analyzer.placed_nodes()
    part = analyzer.finish(None, positions)
    part.functions = {k: v for k, v in recorders["functions"].own.items() if v is not _MISSING}
    return part


def _fold(reads: dict, writes: dict, member: _Member, live: dict) -> None:
    """Add a member's reads and writes of the module's tables to its class's (in place):
    what the class read of the tables as they were before it (`live`), and what it wrote.
    An entry that an earlier part of the class wrote is the class's own; a question about a
    whole table written earlier becomes a read of the whole table before the class."""
    for name, keys in member.reads.items():
        if name in _CLASS_TABLES:
            continue
        written = writes.get(name, {})
        into = reads.setdefault(name, {})
        for key, value in keys.items():
            if key is _ALL or (isinstance(key, tuple) and key and key[0] is _QUESTION):
                if not written:
                    into.setdefault(key, value)
                elif _ALL not in into:
                    into[_ALL] = _frozen_table(live[name])
            elif key not in written:
                into.setdefault(key, value)
    for name, own in member.writes.items():
        writes.setdefault(name, {}).update(own)


def _walk_class(cls: cst.ClassDef, analyzer: FileAnalyzer, skip: frozenset, at_body: Callable[[], None]) -> bool:
    """walk() of the class without the statements of its body: at_body() is called where
    they would be walked. False when libcst's visiting order is not known."""
    class_fields, block_fields = visited_fields(cst.ClassDef), visited_fields(cst.IndentedBlock)
    if class_fields is None or block_fields is None:
        return False
    analyzer.on_visit(cls)
    for name in class_fields:
        if name != "body":
            _walk_field(getattr(cls, name), analyzer, skip)
            continue
        analyzer.on_visit(cls.body)
        for inner in block_fields:
            if inner == "body":
                at_body()
            else:
                _walk_field(getattr(cls.body, inner), analyzer, skip)
        analyzer.on_leave(cls.body)
    analyzer.on_leave(cls)
    return True


def _walk_field(value, analyzer: FileAnalyzer, skip: frozenset) -> None:
    if isinstance(value, cst.CSTNode):
        walk(value, analyzer, skip)
    elif isinstance(value, (tuple, list)):
        for child in value:
            walk(child, analyzer, skip)


def _marked(analyzer: FileAnalyzer, members: list) -> bool:
    """Whether entering the class marked a statement of its body (as eager-only, guarded...),
    which a member analyzed on its own would not know."""
    marks = (analyzer._eager_blocks, analyzer._guarded, analyzer._narrowed, analyzer._loop_bodies,
             analyzer._training_blocks, analyzer._tensor_branches, analyzer._assert_messages)
    return any(id(node) in mark for nodes, _, _ in members for node in nodes for mark in marks if mark)


def _head_positions(tree: cst.Module, cls: cst.ClassDef, wanted):
    """Positions of the nodes before the class body (its name, decorators, bases) from the
    code generation of the class without its body; of the whole class when another is asked for."""
    stub = tree.with_changes(body=[cls.with_changes(body=cls.body.with_changes(body=()))])
    return _HeadPositions(_positions(stub), lambda: _positions(tree, wanted))


class _HeadPositions:
    __slots__ = ("head", "whole", "all")

    def __init__(self, head, whole: Callable) -> None:
        self.head, self.whole, self.all = head, whole, None

    def __getitem__(self, node):
        if node in self.head:
            return self.head[node]
        if self.all is None:
            self.all = self.whole()
        return self.all[node]


class _Positions:
    """A piece's node positions for its analyzer: those earlier analyses of the same tree
    placed, and the others computed (`compute(nodes)`: a code generation of the piece up to
    the last of `nodes`, at most half of the cost of an analysis) only when a node is not
    among those. `wanted`: every node the analyzer will ask for; `kept`: the ones placed so far."""

    __slots__ = ("compute", "kept", "all", "wanted")

    def __init__(self, compute: Callable, kept: dict) -> None:
        self.compute = compute
        self.kept = dict(kept)
        self.all = None
        self.wanted: list = []

    def __getitem__(self, node):
        where = self.kept.get(node)
        if where is None:
            if self.all is None:
                self.all = self.compute([n for n in (*self.wanted, node) if n not in self.kept])
            where = self.kept[node] = self.all[node]
        return where


def _edited_piece(previous: _Document, sources: list[str]) -> tuple[int, str, _Piece] | None:
    """(its index in `sources`, its old text, its old piece) of the one piece an edit changed,
    when the pieces around it are the previous version's; None otherwise."""
    old = previous.sources
    if len(old) != len(sources):
        return None
    changed = [i for i, (a, b) in enumerate(zip(old, sources)) if a is not b and a != b]
    if len(changed) != 1:
        return None
    i = changed[0]
    piece = previous.pieces.get((old[i], old[:i].count(old[i])))
    return (i, old[i], piece) if piece is not None else None


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
    for m in LINE_END.finditer(text):
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
    prefix = longest(lambda n: old[:n] == new[:n], limit)
    suffix = longest(lambda n: old[len(old) - n:] == new[len(new) - n:], limit - prefix)
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece))
    first = max(0, bisect.bisect_right(starts, prefix) - 1)
    first = min(first, len(pieces) - 1)
    last = max(first, min(len(pieces) - 1, bisect.bisect_right(starts, len(old) - suffix - 1) - 1))
    while True:
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
        if tree.body:
            return pieces[:first] + _split(tree, region) + pieces[last + 1:]
        # Only blank lines and comments (a statement deleted): they go with the statement
        # below them, or the last one when none is below.
        if last + 1 < len(pieces):
            last += 1
        elif first > 0:
            first -= 1
        else:
            return None


def _line_count(source: str) -> int:
    return len(LINE_END.findall(source))


def _shift(span: Span | None, by: int) -> Span | None:
    if span is None or not by:
        return span
    return Span(span.line + by, span.column, span.end_line + by, span.end_column)


def _shift_fix(fix: Fix | None, by: int) -> Fix | None:
    if fix is None or not by:
        return fix
    return Fix(fix.title, tuple(TextEdit(e.path, _shift(e.span, by), e.new_text) for e in fix.edits))


def _with(record, **changes):
    """dataclasses.replace for the summary's plain records, without a call of __init__: a
    shallow copy, as replace makes (an edit that adds a line shifts thousands of them)."""
    copy = object.__new__(type(record))
    copy.__dict__.update(record.__dict__)
    copy.__dict__.update(changes)
    return copy


def _shifted_function(fn, by: int):
    return _with(fn, span=_shift(fn.span, by),
                 calls=[_with(c, span=_shift(c.span, by)) for c in fn.calls],
                 candidates=[_with(c, span=_shift(c.span, by), fix=_shift_fix(c.fix, by)) for c in fn.candidates],
                 blocks=[_with(b, span=_shift(b.span, by), checkpoint=_shift(b.checkpoint, by)) for b in fn.blocks],
                 forks=[tuple(_with(a, span=_shift(a.span, by)) for a in fork) for fork in fn.forks],
                 held_methods=[_with(h, span=_shift(h.span, by)) for h in fn.held_methods],
                 returned_calls=[_with(r, span=_shift(r.span, by)) for r in fn.returned_calls])


def moved_records(before: dict, after: dict) -> dict[tuple[str, str], int]:
    """(table, key) -> lines moved down, for the functions and classes of `after` (origins,
    see IncrementalSummarizer.origins) that are those of `before` moved: an edit that adds or
    removes a line moves every record below it, and the record moved is `moved(record, by)`."""
    return {key: by - before[key][1] for key, (record, by) in after.items()
            if key in before and before[key][0] is record}


def moved(record, by: int):
    """A function's or a class's record (FunctionSummary, ClassSummary) `by` lines further down."""
    if isinstance(record, ClassSummary):
        return _with(record, span=_shift(record.span, by))
    return _shifted_function(record, by)


def _shifted(part: FileSummary, by: int) -> FileSummary:
    """A piece's findings `by` lines further down."""
    out = FileSummary(path=part.path, module=part.module, imports=part.imports, aliases=part.aliases,
                      star_imports=part.star_imports, exports=part.exports,
                      callable_tables=part.callable_tables, hook_functions=part.hook_functions,
                      in_graph=part.in_graph, dynamo_config=part.dynamo_config)
    out.functions = {key: _shifted_function(fn, by) for key, fn in part.functions.items()}
    out.classes = {key: moved(cls, by) for key, cls in part.classes.items()}
    out.compile_sites = [_with(s, span=_shift(s.span, by)) for s in part.compile_sites]
    out.module_calls = [_with(s, span=_shift(s.span, by)) for s in part.module_calls]
    out.module_candidates = [_with(c, span=_shift(c.span, by), fix=_shift_fix(c.fix, by))
                             for c in part.module_candidates]
    return out


def _merge(summary: FileSummary, part: FileSummary) -> None:
    """Add a piece's findings (in place) to the file's, in statement order."""
    summary.functions.update(part.functions)
    summary.classes.update(part.classes)
    summary.imports.update(part.imports)
    summary.aliases.update(part.aliases)
    summary.star_imports += tuple(m for m in part.star_imports if m not in summary.star_imports)
    if part.exports is not None:
        summary.exports = part.exports
    summary.callable_tables.update(part.callable_tables)
    summary.compile_sites.extend(part.compile_sites)
    summary.hook_functions.extend(part.hook_functions)
    summary.in_graph.extend(part.in_graph)
    summary.module_calls.extend(part.module_calls)
    summary.module_candidates.extend(part.module_candidates)
    summary.dynamo_config.update(part.dynamo_config)
