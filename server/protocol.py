"""The wire, hardened: framing, validation and exit, in front of pygls' message handling.

pygls reads frames with a loop that never recovers from a bad `Content-Length` (the stream
stays out of step for good), and drops, with a traceback and no answer, every request it
cannot decode: invalid JSON, a missing method, params that do not fit the method's type. A
client waiting for that answer hangs. Here:

- `FrameReader` reads frames off the raw byte stream. A header it cannot use, or a frame
  whose body runs into the next frame's header, is reported and skipped: reading resumes at
  the next `Content-Length` header. (A JSON body cannot hold that header's bytes, whose
  line ends are raw CR LF, so finding them inside a body proves the length was wrong.)
- `TclintProtocol.receive` answers every request it cannot hand to a handler with a JSON-RPC
  error (ParseError, InvalidRequest, InvalidParams), and logs one line per fault.
- `exit` ends the process at once, with status 0 after `shutdown` and 1 otherwise (the
  LSP's rule), killing the parser workers first; so does the end of input. Waiting for the
  analysis thread to notice would take as long as the file it is on, so `exit` is never
  more than EXIT_GRACE_S behind a busy event loop.
"""
from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import re
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import cattrs
from lsprotocol import types
from pygls.protocol import (JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage,
                            LanguageServerProtocol, lsp_method)

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

MAX_BODY = 128 * 1024 * 1024  # far above any document an editor sends; a bigger length is corrupt
MAX_HEADER_LINE = 4096
EXIT_GRACE_S = 2.0
FINALIZER_WAIT_S = 1.0  # a finalizer takes microseconds; a stuck one must not stop the exit
CHUNK = 1 << 16

_LENGTH_HEADER = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
# A whole Content-Length line (its value good or bad), as only a frame header holds it: in
# JSON, the name is inside a string, which must close (") before any raw CR LF.
_LENGTH_LINE = re.compile(rb'content-length[ \t]*:[^\r\n"]*\r\n', re.IGNORECASE)
_HEADER_LINES = re.compile(rb"(?:[!-9;-~]+[ \t]*:[^\r\n]*\r?\n|[ \t]*\r?\n)*")
_ID = re.compile(rb'"id"[ \t\r\n]*:[ \t\r\n]*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\\r\n]|\\.){0,200}")')


@dataclass
class Frame:
    body: bytes


@dataclass
class BadFrame:
    """Bytes that are not a frame: `why`, and the body read so far, if any (to find an id in)."""
    why: str
    body: bytes = b""


class FrameReader:
    """Frames from `read(n)` (which returns at most n bytes, b"" at the end of input)."""

    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read
        self._buf = bytearray()
        self._eof = False

    def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = self._read(CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._buf += chunk
        return True

    def __iter__(self) -> Iterator[Frame | BadFrame]:
        buf = self._buf
        keep = len(b"content-length:") - 1  # a header cut by a read
        skipping: str | None = None  # why the bytes being skipped are not a frame
        skipped = bytearray()  # their start, to find a request id in
        while True:
            # 1. The next Content-Length header; before it, other headers or bytes to skip.
            match = _LENGTH_HEADER.search(buf)
            while match is None:
                # Skip whole lines (a header line is judged whole), or a line too long to be one.
                cut = buf.rfind(b"\n", 0, max(0, len(buf) - keep)) + 1
                if cut == 0 and len(buf) > MAX_HEADER_LINE:
                    cut = len(buf) - keep
                if cut:
                    skipping = self._skip(cut, skipping, skipped)
                if not self._fill():
                    if skipping is not None:
                        yield BadFrame(f"skipped {skipping}", bytes(skipped))
                    return
                match = _LENGTH_HEADER.search(buf)
            skipping = self._skip(match.start(), skipping, skipped)
            if skipping is not None:
                yield BadFrame(f"skipped {skipping}", bytes(skipped))
                skipping = None
                skipped.clear()
            # 2. The header block, up to its empty line.
            end = self._header_end()
            if end is None and self._eof:
                return
            value = b"" if end is None else bytes(buf[:end]).split(b"\n", 1)[0].split(b":", 1)[1].strip()
            if end is None or not value.isdigit() or len(value) > 12 or int(value) > MAX_BODY:
                # Resume at the next header (which may be in this block), skipping the body.
                skipping = (f"a header line over {MAX_HEADER_LINE} bytes" if end is None
                            else f"a frame with a bad Content-Length ({_short(value)})")
                del buf[:keep + 1]
                continue
            length = int(value)
            del buf[:end]
            # 3. The body; cut short where the next frame's header shows inside it.
            scanned = 0
            while True:
                found = _LENGTH_LINE.search(buf, max(0, scanned - 64))
                if found is not None and found.start() < length:
                    body = bytes(buf[:found.start()])
                    del buf[:found.start()]
                    yield BadFrame(f"skipped a frame shorter than its Content-Length ({length})", body)
                    break
                scanned = len(buf)
                if len(buf) >= length:
                    body = bytes(buf[:length])
                    del buf[:length]
                    yield Frame(body)
                    break
                if not self._fill():
                    return

    def _skip(self, n: int, skipping: str | None, skipped: bytearray) -> str | None:
        """Drop buf[:n]; anything but header lines there is a fault (the new `skipping`)."""
        junk = bytes(self._buf[:n])
        del self._buf[:n]
        if skipping is None and junk and _HEADER_LINES.fullmatch(junk) is None:
            skipping = "bytes that are not a frame"
        if skipping is not None and len(skipped) < CHUNK:
            skipped += junk[:CHUNK - len(skipped)]
        return skipping

    def _header_end(self) -> int | None:
        """Where the body starts, once the header block (from buf[0]) is all read."""
        buf = self._buf
        start = 0
        while True:
            newline = buf.find(b"\n", start)
            while newline < 0:
                if len(buf) - start > MAX_HEADER_LINE or not self._fill():
                    return None
                newline = buf.find(b"\n", start)
            if newline - start > MAX_HEADER_LINE:
                return None
            if start > 0 and not buf[start:newline].strip():
                return newline + 1
            start = newline + 1


def _short(data: bytes | str, limit: int = 60) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _salvage_id(body: bytes) -> int | str | None:
    """The id of a request whose JSON cannot be read, when its text still shows one: a client
    waits for an answer to that id (JSON-RPC allows null, which no client can match)."""
    found = _ID.search(body)
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if isinstance(value, (int, str)) else None


def _why(exc: BaseException) -> str:
    if isinstance(exc, cattrs.ClassValidationError):
        return "; ".join(cattrs.transform_error(exc))[:300]
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]


def _is_exit(body: bytes) -> bool:
    if len(body) > 200 or b'"exit"' not in body:
        return False
    try:
        data = json.loads(body)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("method") == types.EXIT and "id" not in data


class TclintProtocol(LanguageServerProtocol):
    """pygls' protocol, fed by `receive` instead of pygls' own read loop."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_exit: list[Callable[[], None]] = []  # stop child processes; must not block
        self._ending = threading.Lock()  # held by the thread that runs terminate()

    # -- receiving ---------------------------------------------------------------------------
    def receive(self, item: Frame | BadFrame) -> None:
        if isinstance(item, BadFrame):
            msg_id = _salvage_id(item.body)
            self._fault(PARSE_ERROR, item.why, msg_id, answer=msg_id is not None)
            return
        try:
            data = json.loads(item.body)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            self._fault(PARSE_ERROR, f"unreadable JSON ({_why(exc)})", _salvage_id(item.body), answer=True)
            return
        self.receive_object(data)

    def receive_object(self, data: Any) -> None:
        if not isinstance(data, dict):
            self._fault(INVALID_REQUEST, "a message must be a JSON object", None, answer=True)
            return
        has_id = "id" in data
        msg_id = data.get("id")
        # A response (to a request of the server's) is never answered, whatever is wrong with it.
        response = "method" not in data and ("result" in data or "error" in data)
        if has_id and (isinstance(msg_id, bool) or not isinstance(msg_id, (int, str))):
            self._fault(INVALID_REQUEST, f"an id must be a number or a string, not {_short(json.dumps(msg_id))}",
                        None, answer=not response)
            return
        if data.get("jsonrpc") != self.VERSION:
            self._fault(INVALID_REQUEST, 'not a JSON-RPC 2.0 message ("jsonrpc": "2.0")', msg_id,
                        answer=has_id and not response)
            return
        method = data.get("method")
        if "method" in data and not isinstance(method, str):
            self._fault(INVALID_REQUEST, "a method must be a string", msg_id, answer=has_id)
            return
        if method is None:
            if has_id and ("result" in data) != ("error" in data):
                self._dispatch(data, msg_id, request=False)
            else:
                self._fault(INVALID_REQUEST, "a request needs a method", msg_id, answer=has_id and not response)
            return
        if self._shutdown and method != types.EXIT:
            self._fault(INVALID_REQUEST, f"{method}: the server is shut down", msg_id, answer=has_id)
            return
        kind = self.get_message_type(method)
        if has_id and kind is not None and not _has_field(kind, "id"):
            self._fault(INVALID_REQUEST, f"{method} is a notification: it takes no id", msg_id, answer=True)
            return
        if not has_id and kind is not None and _has_field(kind, "id"):
            self._fault(INVALID_REQUEST, f"{method} is a request: it needs an id", None, answer=False)
            return
        if kind is None:
            data = {"params": None, **data}  # pygls' fallback types want params
        self._dispatch(data, msg_id, request=has_id)

    def _dispatch(self, data: dict, msg_id: Any, request: bool) -> None:
        try:
            message = self.structure_message(data)
        except Exception as exc:  # noqa: BLE001 - the params do not fit the method's type
            self._fault(INVALID_PARAMS, f"{data.get('method', 'a response')}: {_why(exc.__cause__ or exc)}",
                        msg_id, answer=request)
            return
        try:
            self.handle_message(message)
        except Exception as exc:  # noqa: BLE001 - the server must go on
            self._fault(INTERNAL_ERROR, f"{data.get('method', 'a response')}: {_why(exc)}", msg_id, answer=request)

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls' decoding, raising instead of logging a traceback (`_dispatch` logs one line)."""
        if "method" in data:
            fallback = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
            kind = self.get_message_type(data["method"]) or fallback
        elif "error" in data:
            kind = types.ResponseErrorMessage
        else:
            kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
        try:
            return self._converter.structure(data, kind)
        except Exception as exc:
            raise ValueError("does not fit its type") from exc

    def _execute_handler(self, msg_id: Any, handler: Any, *args: Any, **kwargs: Any) -> None:
        """pygls' dispatch, minus its leak: it files every notification's future (and those of
        the handlers its own handlers call) under a fresh id in `_request_futures`, and only a
        request's answer ever takes one out, so each didChange kept about 1.5 kB for good."""
        super()._execute_handler(msg_id, handler, *args, **kwargs)
        future = self._request_futures.get(msg_id)
        if future is None:
            return

        def drop() -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None

        def later(_: Any) -> None:
            # On the event loop, never inside a loop over the futures (`shutdown` cancels them
            # all: a thread's future runs its callbacks within cancel()), nor from a thread.
            if loop is None:
                drop()
            elif not loop.is_closed():
                loop.call_soon_threadsafe(drop)

        future.add_done_callback(later)

    def _fault(self, code: int, why: str, msg_id: Any, answer: bool) -> None:
        if answer:
            log.warning("bad message from the client (answered %d): %s", code, why)
            self._send_response(msg_id, error=types.ResponseError(code=code, message=why))
        else:
            log.warning("bad message from the client (ignored): %s", why)

    # -- ending -----------------------------------------------------------------------------
    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Any:
        """pygls' shutdown, cancelling over a copy of the table: a cancelled request's future
        answers it at once, which takes it out of the table (pygls loops over the table itself,
        so a command still running at shutdown made shutdown fail)."""
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current_id = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current_id and not future.done():
                future.cancel()
        self._shutdown = True

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> None:
        self.terminate()

    def terminate(self) -> None:
        """End the process now: 0 after `shutdown`, 1 otherwise (the LSP's rule). Once: a second
        caller (the input thread, EXIT_GRACE_S after `exit`, while the event loop is still
        cleaning up) waits for the first, whose os._exit would otherwise cut its clean-up
        short: a semaphore removed but not yet unregistered made the resource tracker warn
        on stderr (seen as a flaky `exit` test)."""
        code = 0 if self._shutdown else 1
        if not self._ending.acquire(blocking=False):
            time.sleep(EXIT_GRACE_S)
            os._exit(code)
        gc.disable()  # no collection may start finalizing the killed pool's semaphores elsewhere
        for stop in self.on_exit:
            try:
                stop()
            except Exception as exc:  # noqa: BLE001
                log.warning("while exiting: %s", _why(exc))
        try:
            # multiprocessing's own clean-up, which os._exit skips: unlink the pool's semaphores,
            # or its resource tracker warns about "leaked" ones on stderr.
            from multiprocessing import util

            util._run_finalizers(0)
            deadline = time.monotonic() + FINALIZER_WAIT_S
            while _finalizing_elsewhere(util.Finalize.__call__.__code__) and time.monotonic() < deadline:
                time.sleep(0.01)
        except Exception:  # noqa: BLE001
            pass
        logging.shutdown()
        os._exit(code)


def _finalizing_elsewhere(finalizer: Any) -> bool:
    """Whether another thread runs a multiprocessing finalizer (`finalizer` its code): the
    garbage collector runs a semaphore's when the killed pool's queues are collected, and an
    os._exit between its unlink and its unregister left the resource tracker warning on
    stderr (seen as a flaky `exit` test)."""
    me = threading.get_ident()
    for ident, frame in sys._current_frames().items():
        while ident != me and frame is not None:
            if frame.f_code is finalizer:
                return True
            frame = frame.f_back
    return False


def _has_field(kind: type, name: str) -> bool:
    return any(a.name == name for a in getattr(kind, "__attrs_attrs__", ()))


class _Writer:
    """stdout for frames, one whole frame at a time (handlers answer from several threads)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            self._stream.write(data)
            self._stream.flush()

    def close(self) -> None:
        self._stream.close()


def serve_stdio(server: Any) -> None:
    """Run `server` (its protocol a TclintProtocol) on stdin/stdout until `exit` or the end of input."""
    protocol: TclintProtocol = server.protocol
    stdin_fd = sys.stdin.buffer.fileno()
    protocol.set_writer(_Writer(sys.stdout.buffer))
    sys.stdout = sys.stderr  # a stray print() must not land inside the protocol stream
    server._stop_event = threading.Event()

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def pump() -> None:
            try:
                for item in FrameReader(lambda n: os.read(stdin_fd, n)):
                    loop.call_soon_threadsafe(protocol.receive, item)
                    if isinstance(item, Frame) and _is_exit(item.body):
                        # In order, after a `shutdown` sent just before; but never later than
                        # EXIT_GRACE_S behind whatever the event loop is busy with.
                        time.sleep(EXIT_GRACE_S)
                        protocol.terminate()
            except OSError as exc:
                log.warning("cannot read the client's input: %s", _why(exc))
            loop.call_soon_threadsafe(protocol.terminate)  # the client is gone

        threading.Thread(target=pump, name="tclint-stdin", daemon=True).start()
        await loop.create_future()  # terminate() ends the process

    asyncio.run(main())
