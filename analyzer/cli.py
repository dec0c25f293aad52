"""The `tclint` command. Imports stay lazy so `tclint --version` starts fast."""
from __future__ import annotations

import argparse
import os
import sys

from tclint.analyzer.render import FORMATS
from tclint.analyzer.version import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
SUBCOMMANDS = ("check", "confirm", "trace", "rule", "rules", "server", "clean")

COMMANDS_EPILOG = """\
commands:
  tclint [check] PATH...     lint files and folders (the default command)
  tclint confirm PATH...     lint, then run the project's examples under Dynamo to confirm
  tclint trace -- CMD...     run a script with graph-break capture (`tclint trace -- python train.py`)
  tclint rule CODE           explain a rule: what it flags, why it breaks, what to write instead
  tclint rules               list every rule
  tclint server              start the language server (stdio)
  tclint clean               remove tclint's caches
Each command has its own --help.

exit status: 0 no findings, 1 findings, 2 usage, configuration or internal error.
"""


def _wrap(text: str) -> str:
    """A paragraph wrapped for --help (the raw formatter keeps the command table's layout)."""
    import textwrap

    return textwrap.fill(text, width=88)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _check_parser(confirm: bool = False) -> argparse.ArgumentParser:
    if confirm:
        p = argparse.ArgumentParser(
            prog="tclint confirm", formatter_class=argparse.RawDescriptionHelpFormatter,
            description=_wrap("Lint PATHs, then run each module's tclint_examples() under torch.compile in a "
                              "child process and mark findings confirmed by Dynamo (adds TC900/TC901 for breaks "
                              "and recompilations no rule predicted). This runs your code: only on code you trust."),
            epilog=COMMANDS_EPILOG)
    else:
        p = argparse.ArgumentParser(
            prog="tclint", formatter_class=argparse.RawDescriptionHelpFormatter,
            usage="tclint [check] [options] [PATH ...]",
            description="Find torch.compile graph breaks and recompilations in PyTorch code, from the source.",
            epilog=COMMANDS_EPILOG)
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to lint (default: .); `-` reads stdin")
    p.add_argument("--format", "--output-format", choices=FORMATS, default="text", metavar="FORMAT",
                   help=f"output format: {', '.join(FORMATS)} (default: text)")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--config", metavar="FILE", help="use this pyproject.toml or tclint.toml (default: the nearest one)")
    rules = p.add_argument_group("rule selection (codes or prefixes such as TC102, TC1, ALL; comma lists; "
                                 "repeated flags add up)")
    rules.add_argument("--select", action="append", metavar="CODES",
                       help="enable only these (replaces the configured `select`)")
    rules.add_argument("--extend-select", action="append", metavar="CODES", help="enable these as well")
    rules.add_argument("--ignore", action="append", metavar="CODES", help="disable these")
    files = p.add_argument_group("file selection")
    files.add_argument("--exclude", action="append", metavar="PATTERNS",
                       help="gitignore-style patterns to skip (replaces the configured `exclude`; "
                            "the built-in ones such as .venv stay)")
    files.add_argument("--extend-exclude", action="append", metavar="PATTERNS", help="patterns to skip as well")
    files.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                       help="skip files that .gitignore files ignore (default: config, else yes)")
    files.add_argument("--stdin-filename", metavar="NAME",
                       help="the path of the file given on stdin (for messages and config)")
    run = p.add_argument_group("running")
    run.add_argument("-j", "--jobs", type=_positive_int, default=None, metavar="N",
                     help="parallel workers (default: all cores)")
    run.add_argument("--cache-dir", metavar="DIR",
                     help="the cache folder (default: $TCLINT_CACHE_DIR, else .tclint_cache at the project root; "
                          "a config file cannot choose it)")
    run.add_argument("-n", "--no-cache", action="store_true", help="neither read nor write the cache")
    out = p.add_argument_group("reporting")
    out.add_argument("--statistics", action="store_true", help="print the number of findings per rule")
    out.add_argument("-e", "--exit-zero", action="store_true", help="exit 0 even when there are findings")
    out.add_argument("--color", choices=("auto", "always", "never"), default="auto", metavar="WHEN",
                     help="colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never")
    out.add_argument("-q", "--quiet", action="store_true",
                     help="no summary line (`Found N findings ...` / `All checks passed!`), warnings or "
                          "progress on stderr: the report, and files that could not be linted")
    out.add_argument("-s", "--silent", action="store_true",
                     help="as --quiet, without the report either: the exit status says whether there were "
                          "findings (--output-file still gets the report)")
    if not confirm:
        adopt = p.add_argument_group("adoption and inspection")
        adopt.add_argument("--add-noqa", action="store_true",
                           help="add `# tclint: ignore[CODE]` to every line with a finding, then exit 0 "
                                "(adopt tclint without fixing everything first; running it again adds nothing)")
        adopt.add_argument("--show-settings", action="store_true",
                           help="print the settings that apply to the first PATH, and where they come from")
        adopt.add_argument("--show-files", action="store_true", help="print the files that would be linted")
    if confirm:  # `tclint confirm` is `tclint --confirm`, without the adoption and inspection flags
        p.set_defaults(confirm=True, add_noqa=False, show_settings=False, show_files=False)
    g = p.add_argument_group("confirmation (runs the project's examples: only on code you trust)")
    if not confirm:
        g.add_argument("--confirm", action="store_true",
                       help="run the examples under Dynamo and mark findings confirmed (as `tclint confirm`)")
    g.add_argument("--device", choices=("cpu", "cuda", "auto"), metavar="DEVICE",
                   help="where examples run: cpu, cuda or auto (default: config, else cpu)")
    g.add_argument("--example-timeout", type=float, metavar="SECONDS", help="per example case (default: config, else 60)")
    g.add_argument("--recompiles", choices=("actionable", "all"), default="actionable", metavar="WHICH",
                   help="actionable (default) or all: also the single recompile where Dynamo marks a size dynamic")
    g.add_argument("--example-memory", type=int, metavar="MB",
                   help="address-space cap per example process (default: config, else 3/4 of RAM; 0: none)")
    g.add_argument("--python", metavar="INTERPRETER",
                   help="interpreter that has torch and the project's dependencies (default: this one)")
    g.add_argument("--executor", choices=("local", "slurm", "submitit-local"), metavar="EXECUTOR",
                   help="where examples run: local child processes (default), slurm or submitit-local jobs "
                        "through submitit")
    p.add_argument("-V", "--version", action="version", version=f"tclint {__version__}")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("--version", "-V"):
        print(f"tclint {__version__}")
        return EXIT_CLEAN
    if argv and argv[0] in SUBCOMMANDS:
        command, rest = argv[0], argv[1:]
    else:
        command, rest = "check", argv
    try:
        if command == "rule":
            return _rule_command(rest)
        if command == "rules":
            return _rules_command(rest)
        if command == "server":
            return _server_command(rest)
        if command == "trace":
            return _trace_command(rest)
        if command == "clean":
            return _clean_command(rest)
        return _check_command(rest, confirm=command == "confirm")
    except _OutputError as exc:
        print(f"tclint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN


def _check_command(argv: list[str], confirm: bool = False) -> int:
    args = _check_parser(confirm).parse_args(argv)
    from pathlib import Path

    from tclint.analyzer.config import ConfigError
    from tclint.analyzer.settings_resolution import Overrides, resolve_settings

    paths = [Path(p) for p in args.paths] or [Path(".")]
    reading_stdin = args.paths == ["-"] or (not args.paths and args.stdin_filename)
    anchor = Path(args.stdin_filename) if reading_stdin and args.stdin_filename else paths[0]
    overrides = Overrides(
        select=args.select, extend_select=args.extend_select, ignore=args.ignore, exclude=args.exclude,
        extend_exclude=args.extend_exclude, respect_gitignore=args.respect_gitignore, cache_dir=args.cache_dir)
    try:
        settings = resolve_settings(anchor, config=args.config, overrides=overrides)
    except ConfigError as exc:
        print(f"tclint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if args.show_settings:
        from tclint.analyzer.settings_resolution import describe_settings

        sys.stdout.write(describe_settings(settings, anchor))
        return EXIT_CLEAN
    if args.show_files:
        from tclint.analyzer.discovery import discover

        found, problems = discover(paths, settings)
        for problem in problems:
            print(f"tclint: {problem}", file=sys.stderr)
        sys.stdout.write("".join(f"{f.display}\n" for f in found))
        return EXIT_ERROR if problems else EXIT_CLEAN

    from tclint.analyzer import project

    try:
        if reading_stdin:
            result = _lint_stdin(args.stdin_filename or "<stdin>", settings)
        else:
            result = project.lint_paths(paths, settings, jobs=args.jobs, use_cache=not args.no_cache)
    except Exception as exc:  # a bug in tclint: say so plainly, exit 2, no traceback
        detail = (str(exc).splitlines() or [""])[0][:300]
        print(f"tclint: internal error: {type(exc).__name__}: {detail} (please report it)", file=sys.stderr)
        return EXIT_ERROR
    quiet = args.quiet or args.silent
    for notice in result.notices:
        if not (quiet and notice.startswith("warning:")):
            print(f"tclint: {notice}", file=sys.stderr)
    missing = any(not p.exists() for p in paths) and not reading_stdin
    if result.files == 0 and not reading_stdin and not missing and not quiet:
        print("tclint: warning: No Python files found under the given paths", file=sys.stderr)
    if args.add_noqa:
        if reading_stdin:
            print("tclint: error: --add-noqa edits files; it cannot read stdin", file=sys.stderr)
            return EXIT_ERROR
        from tclint.analyzer.add_noqa import add_suppressions

        added = add_suppressions(result.diagnostics)
        for notice in added.notices:
            print(f"tclint: {notice}", file=sys.stderr)
        n, k = added.comments, added.files
        if not args.silent:
            print(f"Added {n} suppression{'s' if n != 1 else ''} to {k} file{'s' if k != 1 else ''}.", file=sys.stderr)
        return EXIT_ERROR if missing else EXIT_CLEAN
    if args.confirm and not reading_stdin:
        result = _confirm(args, paths, settings, result)

    from tclint.analyzer.render import render

    color = _use_color(args.color, sys.stdout) and not args.output_file
    stats = _stats(result)
    report = render(args.format, result.diagnostics, stats, color=color)
    if args.statistics and args.format in ("text", "full"):
        report = _statistics_text(result.diagnostics)
    if args.output_file or not args.silent:
        _emit(report, args.output_file)
    if args.statistics and args.format not in ("text", "full") and not args.silent:
        print(_statistics_text(result.diagnostics), end="", file=sys.stderr)
    if not quiet:
        # On stderr, like a progress message: stdout holds the report alone, whatever its format.
        print(_summary(result), file=sys.stderr)
    if missing:
        return EXIT_ERROR
    if any(d.code == "TC004" for d in result.diagnostics):
        return EXIT_ERROR  # an internal error: the report is complete otherwise
    if result.diagnostics and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _summary(result) -> str:
    n = len(result.diagnostics)
    if n == 0:
        return "All checks passed!"
    k = len({d.path for d in result.diagnostics})
    return (f"Found {n} finding{'s' if n != 1 else ''} in {k} file{'s' if k != 1 else ''} "
            f"({result.files} checked).")


def _use_color(when: str, stream) -> bool:
    """--color, then NO_COLOR (any non-empty value turns colour off), FORCE_COLOR, then the terminal."""
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _confirm(args, paths, settings, result):
    from pathlib import Path

    from tclint.analyzer.cache_folders import cache_folder
    from tclint.analyzer.confirm.driver import confirm, default_python
    from tclint.analyzer.discovery import discover
    from tclint.analyzer.project import LintResult
    from tclint.analyzer.selection import is_selected

    cfg = settings.confirm
    extra = [settings.base_dir / e for e in cfg.examples]
    files, _ = discover(paths + [e for e in extra if e.exists()], settings)
    resolved = [p.resolve() for p in paths]
    root = Path(os.path.commonpath([p if p.is_dir() else p.parent for p in resolved]))
    python = args.python or cfg.python or default_python()
    executor = _executor(args.executor or cfg.executor, cfg, settings, args.jobs)
    confirmed = confirm(
        files, root, result.diagnostics, python=python, device=args.device or cfg.device,
        timeout=args.example_timeout or cfg.timeout, jobs=args.jobs or 1,
        cache_dir=None if args.no_cache else cache_folder(settings), executor=executor,
        memory_mb=args.example_memory if args.example_memory is not None else cfg.memory_mb,
        all_recompiles=args.recompiles == "all",
    )
    for case in [] if args.quiet or args.silent else confirmed.cases:
        print(_case_line(case, python), file=sys.stderr)
    diagnostics = [d for d in confirmed.diagnostics if is_selected(d.code, settings)]
    return LintResult(diagnostics=diagnostics, files=result.files, notices=result.notices)


def _executor(kind: str, cfg, settings, jobs):
    from tclint.analyzer.cache_folders import cache_folder, mark_cache_folder
    from tclint.analyzer.confirm.driver import LocalExecutor, SubmititExecutor

    if kind == "local":
        return LocalExecutor(jobs or 1)
    try:
        mark_cache_folder(cache_folder(settings))
    except OSError:
        pass  # submitit says so, naming the folder, when it cannot write its jobs there
    folder = cache_folder(settings) / "submitit"
    return SubmititExecutor(folder, cluster="local" if kind == "submitit-local" else "slurm", parameters=dict(cfg.slurm))


def _case_line(case, python: str, verb: str = "confirm") -> str:
    where = f"{case.module}::{case.name}"
    if case.status == "ok":
        n = len({(b.get('file'), b.get('line'), b.get('gb_type')) for b in case.breaks})
        return f"tclint: {verb} {where}: ok in {case.seconds:.2f} s, {n} graph break{'s' if n != 1 else ''}"
    if case.status == "torch-missing":
        fix = "pass --python" if verb == "confirm" else "run it with one that has torch"
        return (f"tclint: {verb} {case.module}: torch is not installed for {python}; "
                f"install it there (pip install 'torch-tclint[confirm]') or {fix}")
    detail = f": {case.error.splitlines()[-1]}" if case.error else ""
    return f"tclint: {verb} {where}: {case.status}{detail}"


def _trace_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tclint trace", usage="tclint trace [options] -- PYTHON SCRIPT.py [ARG ...]  (or -- PYTHON -m MODULE ...)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_wrap("Run a script unchanged under graph-break capture, merge what Dynamo did with the "
                          "static findings, and save the result in the project's .tclint_cache for the language server. "
                          "It confirms findings, refutes those on lines Dynamo traced without a break, "
                          "and adds the breaks no rule predicted (TC900/TC901)."),
        epilog=_wrap("exit status: the traced script's own status; 2 when tclint cannot run it (no such "
                     "script, no torch in that interpreter, the capture failed)."))
    p.add_argument("--format", choices=FORMATS, default="text", metavar="FORMAT",
                   help=f"output format: {', '.join(FORMATS)} (default: text)")
    p.add_argument("--root", default=".", metavar="DIR",
                   help="the project whose files count (default: the current folder)")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--recompiles", choices=("actionable", "all"), default="actionable", metavar="WHICH",
                   help="actionable (default) or all: also the single recompile where Dynamo marks a size dynamic")
    return p


def _trace_command(argv: list[str]) -> int:
    p = _trace_parser()
    split = argv.index("--") if "--" in argv else len(argv)
    own, command = argv[:split], argv[split + 1:]
    args = p.parse_args(own)  # --help exits here
    if split == len(argv) or len(command) < 2:
        p.print_usage(sys.stderr)
        print("tclint trace: error: give the interpreter and the script after `--`, e.g. "
              "`tclint trace -- python train.py`", file=sys.stderr)
        return EXIT_ERROR
    import shutil
    from pathlib import Path

    if shutil.which(command[0]) is None:
        print(f"tclint trace: error: no interpreter {command[0]!r}", file=sys.stderr)
        return EXIT_ERROR
    if command[1] == "-m" and len(command) < 3:
        print("tclint trace: error: give the module after -m, e.g. `-- python -m mypkg.train`", file=sys.stderr)
        return EXIT_ERROR
    if command[1] != "-m" and not Path(command[1]).is_file():
        print(f"tclint trace: error: no such script: {command[1]}", file=sys.stderr)
        return EXIT_ERROR

    from tclint.analyzer import project
    from tclint.analyzer.cache_folders import cache_folder, mark_cache_folder, trace_file
    from tclint.analyzer.config import ConfigError
    from tclint.analyzer.confirm import saved_results
    from tclint.analyzer.confirm.driver import trace
    from tclint.analyzer.discovery import discover
    from tclint.analyzer.render import render
    from tclint.analyzer.settings_resolution import resolve_settings

    root = Path(args.root).resolve()
    try:
        settings = resolve_settings(root)
    except ConfigError as exc:
        print(f"tclint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    static = project.lint_paths([root], settings)
    files, _ = discover([root], settings)
    result = trace(command, files, root, static.diagnostics, all_recompiles=args.recompiles == "all")
    for case in result.cases:
        print(_case_line(case, command[0], "trace"), file=sys.stderr)
    status = _traced_status(result.cases)
    if status == EXIT_ERROR and not any(c.status == "raised" for c in result.cases):
        return EXIT_ERROR  # nothing ran: no findings to save or show
    saved = trace_file(settings, root)  # where the editor finds the last trace's verdicts
    try:
        mark_cache_folder(cache_folder(settings, root))
        saved_results.save(saved, result.diagnostics)
    except OSError as exc:
        print(f"tclint: warning: cannot save the trace to {saved}: {exc.strerror or exc}", file=sys.stderr)
    _emit(render(args.format, result.diagnostics, _stats(project.LintResult(result.diagnostics, static.files))),
          args.output_file)
    return status


def _traced_status(cases) -> int:
    """The traced script's exit status, as Python would have set it: 0, SystemExit's code, or 1
    for an uncaught exception. 2 when the capture itself failed (no torch, a crash)."""
    if not cases or any(c.name == "*" for c in cases):
        return EXIT_ERROR
    for case in cases:
        if case.status == "ok":
            continue
        if case.status != "raised":
            return EXIT_ERROR
        error = case.error or ""
        if error.startswith("SystemExit: "):
            code = error.removeprefix("SystemExit: ").strip()
            return int(code) if code.lstrip("-").isdigit() else 1
        return 1
    return EXIT_CLEAN


def _clean_command(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="tclint clean",
        description=_wrap("Remove the cache folder of the project that holds PATH (lint summaries, confirmation "
                          "results, the last trace) and any .tclint_cache under PATH. The per-user folder "
                          "keeps only the key that signs entries: it stays."))
    p.add_argument("path", nargs="?", default=".", metavar="PATH", help="where to start (default: .)")
    p.add_argument("--config", metavar="FILE", help="use this pyproject.toml or tclint.toml")
    p.add_argument("--cache-dir", metavar="DIR", help="the cache folder, as given to `tclint --cache-dir`")
    args = p.parse_args(argv)
    from pathlib import Path

    from tclint.analyzer.cache_folders import cache_folders, remove_folder
    from tclint.analyzer.config import ConfigError
    from tclint.analyzer.settings_resolution import Overrides, resolve_settings

    start = Path(args.path)
    if not start.is_dir():
        print(f"tclint clean: error: {args.path}: no such folder", file=sys.stderr)
        return EXIT_ERROR
    try:
        settings = resolve_settings(start, config=args.config, overrides=Overrides(cache_dir=args.cache_dir))
    except ConfigError as exc:
        print(f"tclint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    status = EXIT_CLEAN
    for folder in cache_folders(settings, start):
        problem = remove_folder(folder)
        if problem:
            print(f"tclint clean: cannot remove {folder}: {problem}", file=sys.stderr)
            status = EXIT_ERROR
        else:
            print(f"Removed {folder}" if not folder.exists() else f"Removed tclint's entries from {folder}",
                  file=sys.stderr)
    return status


def _lint_stdin(filename: str, settings):
    from tclint.analyzer import project
    from tclint.analyzer.discovery import module_name
    from pathlib import Path

    from tclint.analyzer.notebook import SUFFIX as NOTEBOOK_SUFFIX
    from tclint.analyzer.notebook import read_notebook

    data = sys.stdin.buffer.read(settings.max_file_size + 1)
    if len(data) > settings.max_file_size:
        return project.LintResult(diagnostics=[], files=0, notices=[
            f"{filename}: skipped, stdin is over max-file-size ({settings.max_file_size})"])
    module, is_package = module_name(Path(filename).resolve()) if filename != "<stdin>" else ("", False)
    notebook = None
    if filename.endswith(NOTEBOOK_SUFFIX):  # the notebook's JSON: lint its code cells
        try:
            notebook = read_notebook(data)
        except ValueError as exc:  # a TC001 of its own, as in a tree
            summary = project.FileSummary(path=filename, module=module)
            summary.syntax_error = (str(exc), project.Span(1, 1, 1, 2))
            return project.LintResult(diagnostics=project.project_diagnostics([summary], settings), files=1)
        data = notebook.python.encode("utf-8")
    summary = project.summarize(data, filename, module, is_package)
    diagnostics = project.project_diagnostics([summary], settings)
    if notebook is not None:
        diagnostics = [notebook.to_cells(d) for d in diagnostics]
    return project.LintResult(diagnostics=diagnostics, files=1)


def _stats(result) -> dict:
    by_code: dict[str, int] = {}
    for d in result.diagnostics:
        by_code[d.code] = by_code.get(d.code, 0) + 1
    return {"files": result.files, "diagnostics": len(result.diagnostics), "by_code": dict(sorted(by_code.items()))}


def _statistics_text(diagnostics) -> str:
    counts: dict[tuple[str, str], int] = {}
    for d in diagnostics:
        # Breaks only Dynamo saw are counted by their type: they are what rules should learn.
        name = f"{d.name} ({d.gb_type})" if d.code == "TC900" and d.gb_type else d.name
        counts[(d.code, name)] = counts.get((d.code, name), 0) + 1
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    width = max((len(str(n)) for _, n in rows), default=1)
    return "".join(f"{n:>{width}}\t{code}\t{name}\n" for (code, name), n in rows)


class _OutputError(Exception):
    """The report could not be written where --output-file says."""


def _emit(text: str, output_file: str | None) -> None:
    # A file name need not be valid UTF-8 (b"\xff.py" comes back as "\udcff.py"): such
    # characters are written as escapes rather than failing the whole report.
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8", errors="backslashreplace") as fh:
                fh.write(text)
        except OSError as exc:
            raise _OutputError(f"cannot write {output_file}: {exc.strerror or exc}") from None
    else:
        try:
            sys.stdout.write(text)
        except UnicodeEncodeError:
            sys.stdout.buffer.write(text.encode(sys.stdout.encoding or "utf-8", errors="backslashreplace"))
        sys.stdout.flush()


def _rule_command(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="tclint rule", description="Explain a rule.")
    p.add_argument("code")
    p.add_argument("--format", choices=("text", "json"), default="text")
    args = p.parse_args(argv)
    from tclint.analyzer.rule_docs import rule_doc_json, rule_doc_text
    from tclint.analyzer.rules import all_rules

    rule = all_rules().get(args.code.upper())
    if rule is None:
        print(f"tclint: error: no rule {args.code!r} (see `tclint rules`)", file=sys.stderr)
        return EXIT_ERROR
    if args.format == "json":
        import json
        print(json.dumps(rule_doc_json(rule), indent=2))
    else:
        print(rule_doc_text(rule))
    return EXIT_CLEAN


def _rules_command(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="tclint rules", description="List every rule.")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    args = p.parse_args(argv)
    from tclint.analyzer.rule_docs import rule_doc_json, rules_markdown
    from tclint.analyzer.rules import all_rules

    rules = all_rules()
    if args.format == "markdown":
        sys.stdout.write(rules_markdown(list(rules.values())))
        return EXIT_CLEAN
    if args.format == "json":
        import json
        print(json.dumps([rule_doc_json(r) for r in rules.values()], indent=2))
        return EXIT_CLEAN
    for code, rule in rules.items():
        gb = f" [{rule.graph_break.gb_id}]" if rule.graph_break else ""
        print(f"{code}  {rule.name:34s}{gb} {rule.message}")
    return EXIT_CLEAN


def _server_command(argv: list[str]) -> int:
    from tclint.server.__main__ import main as server_main

    return server_main(argv)


if __name__ == "__main__":
    sys.exit(main())
