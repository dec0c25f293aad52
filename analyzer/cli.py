"""The `tclint` command. Imports stay lazy so `tclint --version` starts fast."""
from __future__ import annotations

import argparse
import os
import sys

from tclint.analyzer.render import FORMATS
from tclint.analyzer.version import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
SUBCOMMANDS = ("check", "confirm", "trace", "rule", "rules", "server")


def _check_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tclint",
        description="Find torch.compile graph breaks and recompilations in PyTorch code.",
        epilog="Other commands: `tclint rule CODE`, `tclint rules`, `tclint server`. "
               "Exit status: 0 clean, 1 findings, 2 usage, configuration or internal error.",
    )
    p.add_argument("paths", nargs="*", help="files or folders to lint (default: .); `-` reads stdin")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--select", help="comma-separated codes or prefixes to enable (replaces the configured list)")
    p.add_argument("--extend-select", help="codes or prefixes to enable in addition")
    p.add_argument("--ignore", help="codes or prefixes to disable")
    p.add_argument("--config", metavar="FILE", help="use this pyproject.toml or tclint.toml")
    p.add_argument("--statistics", action="store_true", help="print the number of findings per rule")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    p.add_argument("--jobs", "-j", type=int, default=None, help="parallel workers (default: all cores)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--stdin-filename", help="the path of the file given on stdin (for messages and config)")
    p.add_argument("--output-file", "-o", help="write the report here instead of stdout")
    g = p.add_argument_group("confirmation (runs the project's examples: only on code you trust)")
    g.add_argument("--confirm", action="store_true", help="run the examples under Dynamo and mark findings confirmed")
    g.add_argument("--device", choices=("cpu", "cuda", "auto"), help="where examples run (default: config, else cpu)")
    g.add_argument("--example-timeout", type=float, metavar="SECONDS", help="per example case (default: config, else 60)")
    g.add_argument("--recompiles", choices=("actionable", "all"), default="actionable",
                   help="all: also report the single recompile where Dynamo marks a size dynamic")
    g.add_argument("--example-memory", type=int, metavar="MB",
                   help="address-space cap per example process (default: config, else 3/4 of RAM; 0: none)")
    g.add_argument("--python", help="interpreter that has torch and the project's dependencies (default: this one)")
    g.add_argument("--executor", choices=("local", "slurm", "submitit-local"),
                   help="where examples run: child processes here (default), or jobs through submitit")
    p.add_argument("--version", action="version", version=f"tclint {__version__}")
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
        return _check_command(rest, confirm=command == "confirm")
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN


def _check_command(argv: list[str], confirm: bool = False) -> int:
    args = _check_parser().parse_args(argv)
    args.confirm = args.confirm or confirm
    from pathlib import Path

    from tclint.analyzer.config import ConfigError
    from tclint.analyzer.settings_resolution import resolve_settings

    paths = [Path(p) for p in args.paths] or [Path(".")]
    reading_stdin = args.paths == ["-"] or (not args.paths and args.stdin_filename)
    anchor = Path(args.stdin_filename) if reading_stdin and args.stdin_filename else paths[0]
    try:
        settings = resolve_settings(
            anchor, config=args.config, select=args.select, extend_select=args.extend_select, ignore=args.ignore,
        )
    except ConfigError as exc:
        print(f"tclint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR

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
    for notice in result.notices:
        print(f"tclint: {notice}", file=sys.stderr)
    if args.confirm and not reading_stdin:
        result = _confirm(args, paths, settings, result)

    from tclint.analyzer.render import render

    stats = _stats(result)
    report = render(args.format, result.diagnostics, stats)
    if args.statistics and args.format in ("text", "full"):
        report = _statistics_text(result.diagnostics)
    _emit(report, args.output_file)
    if args.statistics and args.format not in ("text", "full"):
        print(_statistics_text(result.diagnostics), end="", file=sys.stderr)
    if args.format in ("text", "full") and not args.statistics and sys.stdout.isatty():
        n = len(result.diagnostics)
        print(f"Found {n} finding{'s' if n != 1 else ''} in {result.files} file{'s' if result.files != 1 else ''}.")
    if any(not p.exists() for p in paths) and not reading_stdin:
        return EXIT_ERROR
    if any(d.code == "TC004" for d in result.diagnostics):
        return EXIT_ERROR  # an internal error: the report is complete otherwise
    if result.diagnostics and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _confirm(args, paths, settings, result):
    from pathlib import Path

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
        cache_dir=None if args.no_cache else settings.base_dir / ".tclint" / "confirm", executor=executor,
        memory_mb=args.example_memory if args.example_memory is not None else cfg.memory_mb,
        all_recompiles=args.recompiles == "all",
    )
    for case in confirmed.cases:
        print(_case_line(case, python), file=sys.stderr)
    diagnostics = [d for d in confirmed.diagnostics if is_selected(d.code, settings)]
    return LintResult(diagnostics=diagnostics, files=result.files, notices=result.notices)


def _executor(kind: str, cfg, settings, jobs):
    from tclint.analyzer.confirm.driver import LocalExecutor, SubmititExecutor

    if kind == "local":
        return LocalExecutor(jobs or 1)
    folder = settings.base_dir / ".tclint" / "submitit"
    return SubmititExecutor(folder, cluster="local" if kind == "submitit-local" else "slurm", parameters=dict(cfg.slurm))


def _case_line(case, python: str) -> str:
    where = f"{case.module}::{case.name}"
    if case.status == "ok":
        n = len({(b.get('file'), b.get('line'), b.get('gb_type')) for b in case.breaks})
        return f"tclint: confirm {where}: ok in {case.seconds:.2f} s, {n} graph break{'s' if n != 1 else ''}"
    if case.status == "torch-missing":
        return (f"tclint: confirm {case.module}: torch is not installed for {python}; "
                "install it there (pip install 'torch-tclint[confirm]') or pass --python")
    detail = f": {case.error.splitlines()[-1]}" if case.error else ""
    return f"tclint: confirm {where}: {case.status}{detail}"


def _trace_command(argv: list[str]) -> int:
    if "--" not in argv:
        print("usage: tclint trace [--format F] [--root DIR] -- python SCRIPT.py [ARGS...]", file=sys.stderr)
        return EXIT_ERROR
    split = argv.index("--")
    own, command = argv[:split], argv[split + 1:]
    p = argparse.ArgumentParser(prog="tclint trace", description="Run a script with graph-break capture.")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--root", default=".", help="the project whose files count (default: the current folder)")
    p.add_argument("--output-file", "-o")
    p.add_argument("--recompiles", choices=("actionable", "all"), default="actionable")
    args = p.parse_args(own)
    if len(command) < 2:
        print("tclint: error: give the interpreter and the script, e.g. `-- python train.py`", file=sys.stderr)
        return EXIT_ERROR
    from pathlib import Path

    from tclint.analyzer import project
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
        print(_case_line(case, command[0]), file=sys.stderr)
    try:  # where the editor finds the last trace's verdicts
        saved_results.save(settings.base_dir / saved_results.TRACE_FILE, result.diagnostics)
    except OSError:
        pass
    _emit(render(args.format, result.diagnostics, _stats(project.LintResult(result.diagnostics, static.files))),
          args.output_file)
    return EXIT_FINDINGS if result.diagnostics else EXIT_CLEAN


def _lint_stdin(filename: str, settings):
    from tclint.analyzer import project
    from tclint.analyzer.discovery import module_name
    from pathlib import Path

    data = sys.stdin.buffer.read()
    module, is_package = module_name(Path(filename).resolve()) if filename != "<stdin>" else ("", False)
    summary = project.summarize(data, filename, module, is_package)
    return project.LintResult(diagnostics=project.project_diagnostics([summary], settings), files=1)


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


def _emit(text: str, output_file: str | None) -> None:
    if output_file:
        with open(output_file, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
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
