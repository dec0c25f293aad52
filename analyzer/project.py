"""Linting a set of files: discovery, phase 1 per file (parallel, cached), phase 2 over the
project, then selection, severities and suppressions. The CLI and the server call this."""
from __future__ import annotations

import ast
import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from tclint.analyzer import parse_guard, regions
from tclint.analyzer.call_refs import Named
from tclint.analyzer.cache import SummaryCache, run_cache_key, summary_key
from tclint.analyzer.cache_folders import cache_folder
from tclint.analyzer.comprehension_frames import add_comprehension_breaks
from tclint.analyzer.config import Settings
from tclint.analyzer.diagnostic import ChainStep, Diagnostic, Span
from tclint.analyzer.discovery import NotASourceFile, SourceFile, discover, read_source, source_file
from tclint.analyzer.dynamo_hints import setting_hint
from tclint.analyzer.file_analysis import analyze_module
from tclint.analyzer.gb_registry import gb_url
from tclint.analyzer.held_methods import add_held_method_breaks
from tclint.analyzer.imported_context import REEXPORT_STEPS, asked_classes, imported_files, reexported_files
from tclint.analyzer.library_context import LibraryReader, at_library_calls, site_folders, site_stamp
from tclint.analyzer.loop_skips import Breaking, FunctionFindings, keep_reached
from tclint.analyzer.neutral_dir import in_neutral_directory
from tclint.analyzer.notebook import SUFFIX as NOTEBOOK_SUFFIX
from tclint.analyzer.notebook import Notebook, read_notebook
from tclint.analyzer.pass_subjects import pass_subjects
from tclint.analyzer.per_file import PerFile
from tclint.analyzer.resolutions import Resolutions
from tclint.analyzer.resume_breaks import add_resume_breaks
from tclint.analyzer.returned_defaults import add_returned_defaults
from tclint.analyzer.unresumable_blocks import add_block_breaks
from tclint.analyzer.rules import all_rules, visitor_rules
from tclint.analyzer.selection import ignored_for_file, is_selected, severity_for
from tclint.analyzer.star_context import star_key, with_star_names, words_of
from tclint.analyzer.summary import Candidate, FileSummary
from tclint.analyzer.suppressions import find_suppressions
from tclint.analyzer.worker_lifetime import die_with_parent

DISABLED_CALL = "TC210"


@dataclass
class LintResult:
    diagnostics: list[Diagnostic]
    files: int
    notices: list[str] = field(default_factory=list)  # skipped files, unreadable paths


def summarize(data: bytes | str, path: str, module: str, is_package: bool,
              star_names: dict[str, dict[str, str]] | None = None) -> FileSummary:
    """Phase 1 for one file's bytes (decoded as Python does) or an editor's text; never raises.
    `star_names`: what its star imports bind, where the project knows it (star_context.py)."""
    refused = parse_guard.refusal(data)
    if refused is not None:  # libcst would crash or take minutes on it
        summary = FileSummary(path=path, module=module)
        summary.syntax_error = refused
        return summary
    try:
        tree = cst.parse_module(data)
    except cst.ParserSyntaxError as exc:
        summary = FileSummary(path=path, module=module)
        summary.syntax_error = _syntax_error(data, exc)
        return summary
    except (UnicodeDecodeError, LookupError, SyntaxError, ValueError) as exc:
        summary = FileSummary(path=path, module=module)
        summary.syntax_error = (f"cannot decode this file: {exc}", Span(1, 1, 1, 1))
        return summary
    try:
        summary = analyze_module(tree, path, module, is_package, visitor_rules(), star_names=star_names)
    except RecursionError:
        summary = FileSummary(path=path, module=module)
        summary.syntax_error = ("code nested too deeply to analyze", Span(1, 1, 1, 1))
        return summary
    except Exception as exc:  # a bug in tclint: report it for this file, lint the others
        summary = FileSummary(path=path, module=module)
        where = traceback.extract_tb(exc.__traceback__)[-1]
        summary.internal_error = (f"tclint failed on this file ({type(exc).__name__} at "
                                  f"{Path(where.filename).name}:{where.lineno}); please report it")
        return summary
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode(tree.encoding, errors="replace")
        except (LookupError, UnicodeError):  # `# coding: idna` has no "replace" handler
            text = data.decode("utf-8", errors="replace")
    summary.suppressions = find_suppressions(text)
    return summary


def _syntax_error(data: bytes | str, exc: cst.ParserSyntaxError) -> tuple[str, Span]:
    """Python's own message and location where it has one (libcst's are less precise)."""
    try:
        ast.parse(data)
    except SyntaxError as err:
        if err.lineno:
            col = err.offset or 1
            end_line = err.end_lineno or err.lineno
            end_col = err.end_offset if err.end_offset and (end_line, err.end_offset) > (err.lineno, col) else col + 1
            return f"syntax error: {err.msg}", Span(err.lineno, col, end_line, end_col)
    except (ValueError, RecursionError, MemoryError):
        pass
    line, col = exc.raw_line, exc.raw_column + 1
    return f"syntax error: {exc.message}", Span(line, col, line, col + 1)


def _summarize_job(job: tuple) -> FileSummary:  # (data, path, module, is_package[, star_names])
    return summarize(*job)


def lint_paths(paths: list[Path], settings: Settings, jobs: int | None = None, use_cache: bool = True) -> LintResult:
    files, notices = discover(paths, settings)
    notebooks: dict[str, Notebook] = {}
    unreadable: dict[str, str] = {}
    inputs = _read_files(files, settings, notices, notebooks, unreadable)
    cache = SummaryCache(cache_folder(settings)) if use_cache else None
    project = str(settings.base_dir)
    linted_key = run_cache_key(settings.fingerprint(), [(f.display, key) for f, _, key in inputs])
    installed = site_stamp(site_folders(files)) if cache is not None else ""  # a library installed since
    if cache is not None:
        # Nothing changed since the last run with these settings, in the linted files or in
        # the modules they import: reuse its findings whole.
        context_paths = cache.get_context(project, linted_key)
        if context_paths is not None:
            context = _read_files(_context_files(context_paths), settings, [], {}, {})
            cached = cache.get_run(project, _run_key(settings, inputs, context, installed))
            if cached is not None:
                return LintResult(diagnostics=cached, files=len(files), notices=notices)
    summaries = _summaries(inputs, cache, jobs)
    for summary in summaries:
        if summary.path in unreadable:
            summary.syntax_error = (unreadable[summary.path], Span(1, 1, 1, 2))
    context = _read_files(imported_files(files, summaries), settings, [], {}, {})
    context_summaries = _summaries(context, cache, jobs)
    while further := _read_files(imported_files(files, summaries + context_summaries, stars_only=True),
                                 settings, [], {}, {}):
        context += further
        context_summaries += _summaries(further, cache, jobs)
    asked = asked_classes(summaries + context_summaries)  # of the files read so far, not of those read for them
    for _ in range(REEXPORT_STEPS):
        reexported = _read_files(reexported_files(files, asked, summaries + context_summaries), settings, [], {}, {})
        if not reexported:
            break
        context += reexported
        context_summaries += _summaries(reexported, cache, jobs)
    read = inputs + context
    seen = with_star_names(summaries + context_summaries, lambda i: words_of(read[i][1]),
                           lambda todo: _summaries([(read[i][0], read[i][1], star_key(read[i][2], names), names)
                                                    for i, names in todo], cache, jobs))
    summaries, context_summaries = seen[:len(inputs)], seen[len(inputs):]
    context_shown = {s.path for s in context_summaries}
    library, library_summaries = _libraries(files, summaries + context_summaries, settings, cache, jobs)
    context += library
    library_paths = frozenset(s.path for s in library_summaries)
    diagnostics = [d for d in project_diagnostics(summaries + context_summaries + library_summaries, settings,
                                                  library=library_paths)
                   if d.path not in context_shown and d.path not in library_paths]  # e.g. their unused noqa
    if notebooks:
        diagnostics = [notebooks[d.path].to_cells(d) if d.path in notebooks else d for d in diagnostics]
    if cache is not None:
        cache.put_context(project, linted_key, [str(f.path) for f, _, _ in context])
        cache.put_run(project, _run_key(settings, inputs, context, installed), diagnostics)
        if cache.problem:
            notices.append(cache.problem)
    return LintResult(diagnostics=diagnostics, files=len(files), notices=notices)


def _libraries(files, summaries, settings: Settings, cache, jobs):
    """The installed libraries' modules the compiled code leads to, read and summarized round
    by round (what each round's modules are asked for gives the next). The compiled region is
    worked out again with what was read, until it asks for nothing new: a function the user
    passes into a library (an ODE's right-hand side) is compiled code too, and so is what it
    calls (the language server gets the same region from its project phase)."""
    reader = LibraryReader(files)
    if not reader.calls_libraries(summaries):
        return [], []
    inputs, out = [], []
    while True:
        index = regions.ProjectIndex(summaries + out)
        library = {s.path for s in out}
        roots = [r for r in regions.find_roots(index, settings.assume_forward_compiled, list(settings.roots))
                 if index.functions[r.function][0].path not in library]
        new = reader.next_round(summaries, reached=set(regions.reach(index, roots)))
        if not new:
            return inputs, out
        while new:
            read = _read_files(new, settings, [], {}, {})
            inputs += read
            found = _summaries(read, cache, jobs)
            out += found
            new = reader.next_round(found)


def _run_key(settings: Settings, inputs, context, installed: str) -> str:
    return run_cache_key(f"{settings.fingerprint()}\0{installed}", [(f.display, key) for f, _, key in (*inputs, *context)])


def _context_files(paths: list[str]) -> list[SourceFile]:
    """The imported modules a cached run read, as files again (gone ones are left out: the
    run key then differs)."""
    return [source_file(Path(text)) for text in paths if Path(text).is_file()]


def _read_files(files: list[SourceFile], settings: Settings, notices: list[str], notebooks: dict[str, Notebook],
                unreadable: dict[str, str]):
    """[(file, bytes, content key)] for the files small enough and readable; a notebook's
    bytes are its code cells as Python, and the notebook goes into `notebooks`. A file that
    is not a notebook has no code, and why goes into `unreadable` (a TC001 of its own)."""
    out = []
    for f in files:
        try:
            data = read_source(f.path, settings.max_file_size)
        except NotASourceFile as exc:
            notices.append(f"{f.display}: {exc}")
            continue
        except OSError as exc:
            notices.append(f"{f.display}: cannot read: {exc.strerror or exc}")
            continue
        if f.path.suffix == NOTEBOOK_SUFFIX:
            try:
                notebook = read_notebook(data)
            except ValueError as exc:
                unreadable[f.display] = str(exc)
                data, variant = b"", f"unreadable {exc}"
            else:
                notebooks[f.display] = notebook
                data = notebook.python.encode("utf-8")
                # The same code split into other cells gives other positions: part of the key.
                variant = f"cells {notebook.cell_starts}"
        else:
            variant = ""
        out.append((f, data, summary_key(data, f.display, f.module, f.is_package, variant)))
    return out


def _summaries(inputs, cache: SummaryCache | None, jobs: int | None) -> list[FileSummary]:
    summaries: list[FileSummary | None] = [None] * len(inputs)
    todo = []
    for i, (f, data, key, *star_names) in enumerate(inputs):  # star_names: star_context.py
        cached = cache.get(key) if cache is not None else None
        if cached is not None:
            summaries[i] = cached
        else:
            todo.append((i, key, (data, f.display, f.module, f.is_package, *star_names)))
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers > 1 and len(todo) > 8:
        with in_neutral_directory(), ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent,
                                                          initargs=(os.getpid(),)) as pool:
            fresh = pool.map(_summarize_job, [job for _, _, job in todo],
                             chunksize=max(1, len(todo) // (workers * 8)))
            _store(todo, fresh, summaries, cache)
    else:
        _store(todo, (_summarize_job(job) for _, _, job in todo), summaries, cache)
    return summaries


def _store(todo, fresh, summaries: list, cache: SummaryCache | None) -> None:
    """Each summary as it completes, so that a run stopped halfway keeps what it did."""
    for (i, key, _), summary in zip(todo, fresh):
        summaries[i] = summary
        if cache is not None:
            cache.put(key, summary)


def project_diagnostics(summaries: list[FileSummary], settings: Settings,
                        resolutions: Resolutions | None = None, library: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """`resolutions`: what earlier runs over these files resolved (the language server keeps it).
    `library`: the paths of installed libraries' modules, read as context (library_context)."""
    rules = all_rules()
    index = resolutions.index(summaries) if resolutions is not None else regions.ProjectIndex(summaries)
    roots = regions.find_roots(index, settings.assume_forward_compiled, list(settings.roots))
    if library:  # a library's own modules and entry points are not the project's compiled code
        roots = [r for r in roots if index.functions[r.function][0].path not in library]
    found_config, patches = _dynamo_config(summaries, {r.function for r in roots},
                                           resolutions.patched if resolutions is not None else None)
    dynamo = settings.dynamo.merged(found_config)
    enabled = _enabled_codes(rules, dynamo, settings.target_python)
    reached = resolutions.region.reach(index, roots) if resolutions is not None else regions.reach(index, roots)
    index.reached = set(reached)
    index.root_keys = {r.function for r in roots}
    if resolutions is not None:
        resolutions.region_found(index)  # drops kept answers that read callers or roots since changed
    enabled_in = _enabled_per_function(index, rules, roots, patches, dynamo, settings.target_python, enabled)

    raw: list[Diagnostic] = []
    for fs in summaries:
        if fs.syntax_error:
            message, span = fs.syntax_error
            raw.append(_make(rules["TC001"], fs.path, span, message, ()))
        if fs.internal_error:
            raw.append(_make(rules["TC004"], fs.path, Span(1, 1, 1, 1), fs.internal_error, ()))
        for cand in fs.module_candidates:
            if cand.code in enabled:
                raw.append(_from_candidate(rules[cand.code], fs.path, cand, ()))
    found: dict[str, FunctionFindings] = {}
    kept = resolutions.findings if resolutions is not None else None
    for key, how in reached.items():
        fs, fn = index.functions[key]
        if fn.disabled:
            continue
        codes = enabled_in.get(key, enabled)
        if kept is not None:  # the last run's, where nothing they were made from changed
            inputs = kept.inputs(index, key, fs.path, fn, codes)
            ff = kept.get(index, reached, key, inputs)
            if ff is not None:
                found[key] = ff
                continue
        ff = found[key] = FunctionFindings(
            forks=[(a.lines(), b.lines()) for a, b in fn.forks])
        chain = None
        for cand in fn.candidates:
            if cand.code not in codes or cand.unless and index.compiling_predicate(cand.unless):
                continue
            because = None
            if cand.condition is not None:
                source = index.tensor_source(cand.condition)
                if source is None:
                    continue
                who, what = source
                because = f"`{index.short_name(who) if who in index.functions else who}` {what}"
            chain = chain if chain is not None else _chain(index, reached, key)
            diag = _from_candidate(rules[cand.code], fs.path, cand, chain)
            ff.own.append((diag.with_changes(because=because) if because else diag, cand.in_loop))
        for site, resolved in zip(fn.calls, index.site_callees(key, fn)):
            if site.unless and index.compiling_predicate(site.unless):
                continue
            callees = list(resolved)
            ff.calls.append(callees)
            if site.in_loop:
                ff.loop_calls.append(((site.span.line, site.span.column), callees))
            for callee in callees:
                callee_fn = index.functions[callee][1]
                if callee_fn.disabled:
                    chain = chain if chain is not None else _chain(index, reached, key)
                    rule = rules[DISABLED_CALL]
                    is_method = not isinstance(site.ref, Named)
                    gb = rule.method_break if is_method else rule.graph_break
                    msg = f"`{callee_fn.name}` is wrapped in torch.compiler.disable: calling it ends the graph"
                    ff.own.append((_make(rule, fs.path, site.span, msg, chain, gb=gb), site.in_loop))
                    break
        if kept is not None:
            kept.put(index, reached, key, inputs, ff)
    if kept is not None:
        kept.keep_only(found)
    made: set[str] = set()  # the functions the passes below add findings to

    def make(code, key, site, message):
        made.add(key)
        return _make(rules[code], index.functions[key][0].path, site.span, message, _chain(index, reached, key))

    def make_at(code, key, span, message):
        made.add(key)
        return _make(rules[code], index.functions[key][0].path, span, message, _chain(index, reached, key))

    # each pass below adds breaks; the next one reads them
    breaks = Breaking(found, kept.call_sites(found) if kept is not None else None)
    subjects = kept.subjects(index, found) if kept is not None else pass_subjects(index, found)
    add_resume_breaks(index, found, lambda code, key: code in enabled_in.get(key, enabled), make, breaks)
    breaks.update(made)
    add_held_method_breaks(index, found, lambda code, key: code in enabled_in.get(key, enabled), make_at, breaks,
                           subjects["held_methods"])
    breaks.update(made)
    add_returned_defaults(index, found, reached, lambda code, key: code in enabled_in.get(key, enabled), make_at,
                          subjects["returned_calls"])
    add_block_breaks(index, found, lambda code, key: code in enabled_in.get(key, enabled), subjects["blocks"],
                     make_at, breaks)
    breaks.update(made)
    raw.extend(add_comprehension_breaks(index, found, lambda code, key: code in enabled_in.get(key, enabled), make_at,
                                        breaks.certain, subjects["comprehensions"]))
    raw.extend(keep_reached(found, lambda key: index.functions[key][1].name, breaks.certain))
    if resolutions is not None:
        resolutions.keep(index.name_caches())
    return finalize(at_library_calls(raw, library, summaries), summaries, settings)


def _dynamo_config(summaries: list[FileSummary], root_keys: set[str], kept: PerFile | None = None):
    """Dynamo settings found in the code: project-wide ones, and `config.patch` decorators on
    compiled functions, which hold only for what those functions reach. `kept`: each file's
    patched functions, kept between runs (most files have none, and walking every function
    of a big workspace is most of this)."""
    found: dict[str, object] = {}
    patches: dict[str, dict[str, object]] = {}
    for fs in summaries:
        found.update(fs.dynamo_config)
        for key, patch in kept.of(fs) if kept is not None else fs.patched_functions():
            if key in root_keys:
                patches[key] = patch
            else:  # an eager caller: which compiled calls it makes is not known here
                found.update(patch)
    return found, patches


def _enabled_codes(rules, dynamo, python: tuple[int, int]) -> set[str]:
    return {code for code, rule in rules.items() if rule.enabled(dynamo) and rule.runs_on(python)}


def _enabled_per_function(index, rules, roots, patches, dynamo, python, enabled: set[str]) -> dict[str, set[str]]:
    """Rule codes for the functions reached from patched roots (others use `enabled`): a
    function reached from several roots gets every code one of them enables."""
    if not patches:
        return {}
    out: dict[str, set[str]] = {}
    for root_key, patch in patches.items():
        codes = _enabled_codes(rules, dynamo.merged(patch), python)
        for key in regions.reach(index, [r for r in roots if r.function == root_key]):
            out.setdefault(key, set()).update(codes)
    for key in regions.reach(index, [r for r in roots if r.function not in patches]):
        if key in out:
            out[key] |= enabled
    return out


def _chain(index, reached, key) -> tuple[ChainStep, ...]:
    steps = regions.chain_of(index, reached, key)
    out = []
    root_key, root_reach = steps[0]
    fs, fn = index.functions[root_key]
    out.append(ChainStep(fs.path, fn.span.line, fn.span.column, f"{index.short_name(root_key)}: {root_reach.root.reason}"))
    for callee_key, how in steps[1:]:
        several = f" (one of {how.candidates} candidates)" if how.candidates > 1 else ""
        out.append(ChainStep(how.path, how.line, how.column, f"calls {index.short_name(callee_key)}{several}"))
    return tuple(out)


def _from_candidate(rule, path: str, cand: Candidate, chain) -> Diagnostic:
    return _make(rule, path, cand.span, cand.message, chain, fix=cand.fix, gb=cand.graph_break,
                 severity=cand.severity).with_changes(hint=setting_hint(rule), training_only=cand.training_only,
                                                      building_exception=cand.building_exception)


def _make(rule, path, span, message, chain, fix=None, gb=None, severity=None) -> Diagnostic:
    gb = gb or rule.graph_break
    return Diagnostic(
        path=path,
        span=span,
        code=rule.code,
        name=rule.name,
        severity=severity or rule.severity,
        message=message,
        gb_type=gb.gb_type if gb else rule.compile_reason,
        gb_id=gb.gb_id if gb else None,
        url=gb_url(gb.gb_id) if gb else None,
        chain=tuple(chain),
        fix=fix,
    )


def finalize(raw: list[Diagnostic], summaries: list[FileSummary], settings: Settings) -> list[Diagnostic]:
    """Selection, per-file ignores, severities and suppressions (with their own findings)."""
    rules = all_rules()
    by_path: dict[str, list[Diagnostic]] = {}
    seen = set()
    for d in raw:
        ident = (d.path, d.span.line, d.span.column, d.code)  # e.g. `if a and b` and its `a`
        if ident in seen:
            continue
        seen.add(ident)
        if not is_selected(d.code, settings) or ignored_for_file(d.code, d.path, settings):
            continue
        by_path.setdefault(d.path, []).append(d)
    out: list[Diagnostic] = []
    known = frozenset(rules)
    for fs in summaries:
        diags = by_path.pop(fs.path, [])
        kept, meta = _apply_suppressions(fs, diags, known, settings)
        out.extend(kept)
        out.extend(meta)
    for rest in by_path.values():
        out.extend(rest)
    final = []
    for d in out:
        sev = severity_for(d.code, d.severity, settings)  # configured, else the finding's own
        final.append(d.with_changes(severity=sev) if sev != d.severity else d)
    final.sort(key=Diagnostic.sort_key)
    return final


def _apply_suppressions(fs: FileSummary, diags: list[Diagnostic], known: frozenset, settings: Settings):
    if not fs.suppressions:
        return diags, []
    used: set[tuple[int, str | None]] = set()
    by_line: dict[int, list] = {}
    file_level = []
    for s in fs.suppressions:
        if s.file_level:
            file_level.append(s)
        else:
            by_line.setdefault(s.line, []).append(s)
    kept = []
    for d in diags:
        suppressed = False
        candidates = list(by_line.get(d.line, [])) + [s for s in by_line.get(d.line - 1, []) if s.own_line] + file_level
        for s in candidates:
            if s.codes is None:
                suppressed = True
                used.add((id(s), None))
            elif d.code in s.codes:
                suppressed = True
                used.add((id(s), d.code))
        if not suppressed:
            kept.append(d)
    meta = []
    rules = all_rules()
    for s in fs.suppressions:
        if not s.ours:
            continue
        if s.codes is None:
            if (id(s), None) not in used:
                meta.append(_meta(rules["TC002"], fs.path, s.span, "unused suppression: nothing to ignore here"))
            continue
        for code in s.codes:
            if code not in known:
                meta.append(_meta(rules["TC003"], fs.path, s.span, f"unknown rule code `{code}` in suppression"))
            elif (id(s), code) not in used and is_selected(code, settings):
                meta.append(_meta(rules["TC002"], fs.path, s.span, f"unused suppression for {code}"))
    meta = [m for m in meta if is_selected(m.code, settings)]
    return kept, meta


def _meta(rule, path, span, message) -> Diagnostic:
    return _make(rule, path, span, message, ())

