"""`tclint server` / `python -m tclint.server`: the language server on stdio (default) or TCP."""
from __future__ import annotations

import argparse
import logging
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tclint server",
        description="Run the tclint language server (LSP). Speaks on stdin/stdout unless --tcp is given.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="use stdin/stdout (the default)")
    mode.add_argument("--tcp", action="store_true", help="listen on a TCP socket instead")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default: 2087)")
    parser.add_argument("--log-file", help="write the server's own log to this file")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging (to stderr or --log-file)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    level = logging.DEBUG if args.verbose else logging.WARNING
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=level,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    else:
        # stdout carries the protocol: logs go to stderr only.
        logging.basicConfig(stream=sys.stderr, level=level, format="%(levelname)s %(name)s: %(message)s")

    from tclint.server.app import create_server

    server = create_server()
    try:
        if args.tcp:
            server.start_tcp(args.host, args.port)
        else:
            server.start_io()
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
