"""`tclint server` / `python -m tclint.server`: the language server on stdin/stdout.

There is no TCP mode: a socket anyone on the machine can connect to would share one set of
settings (including `confirm.enabled`, which runs code) between connections.
"""
from __future__ import annotations

import os
import sys

# `python -m tclint.server` puts the working directory (often the workspace) first on
# sys.path: drop it before anything else is imported, so that a workspace `argparse.py`
# never runs. (A workspace `tclint/` package is found before this file: launch from a
# neutral folder, as the VS Code extension does, or run `tclint server`.)
if __name__ == "__main__" and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

import argparse  # noqa: E402
import logging  # noqa: E402


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tclint server",
        description="Run the tclint language server (LSP) on stdin/stdout.",
    )
    parser.add_argument("--stdio", action="store_true", help="use stdin/stdout (the only mode; accepted for editors that pass it)")
    parser.add_argument("--log-file", help="write the server's own log to this file")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging (to stderr or --log-file)")
    return parser


class OneLineFormatter(logging.Formatter):
    """A record is one line: a fault is logged as what happened, not as a traceback (-v keeps
    those). The text is cut, since pygls puts a request's params in its messages."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage().strip()
        line = text.splitlines()[0] if text else ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            detail = str(exc).strip().splitlines()
            line += f" ({type(exc).__name__}{': ' + detail[0] if detail else ''})"
        line = f"{record.levelname} {record.name}: {line}"
        return line if len(line) <= 500 else line[:497] + "..."


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    level = logging.DEBUG if args.verbose else logging.WARNING
    if args.log_file:
        handler: logging.Handler = logging.FileHandler(os.path.abspath(args.log_file))
        pattern = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    else:
        # stdout carries the protocol: logs go to stderr only.
        handler = logging.StreamHandler(sys.stderr)
        pattern = "%(levelname)s %(name)s: %(message)s"
    handler.setFormatter(logging.Formatter(pattern) if args.verbose else OneLineFormatter())
    logging.basicConfig(level=level, handlers=[handler])

    from tclint.analyzer.neutral_dir import neutral_directory
    from tclint.server.app import create_server
    from tclint.server.protocol import serve_stdio

    # The server needs no working directory (projects are its workspace folders), and its
    # parser workers inherit this one: see neutral_dir.
    os.chdir(neutral_directory())
    server = create_server()
    try:
        serve_stdio(server)  # ends the process on `exit` or at the end of input
    except KeyboardInterrupt:
        return 1
    return 1


if __name__ == "__main__":
    sys.exit(main())
