"""Phase 1 (parse + per-file summary) of big files in a child process.

libcst's native parser holds the GIL while it parses: on the analysis thread, a few
hundred kilobytes would stall the event loop (hover, code actions, didChange handling)
for a second or more. Files from `threshold` bytes up are summarized in one spawned
worker process instead; small ones stay on the thread, where they take milliseconds.
A crash or a hang of the worker costs that one file (reported), never the server.
The worker starts in the server's working directory, which `tclint server` makes a
neutral one (see analyzer/neutral_dir.py): spawn's `python -c` would import the
workspace's `multiprocessing/` otherwise.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
from contextlib import ExitStack, contextmanager
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_THRESHOLD = 48 * 1024
DEFAULT_TIMEOUT_S = 300.0


class SummaryFailed(Exception):
    """The file could not be summarized (the worker crashed or timed out)."""


class ParsePool:
    """Calls come from the analysis thread; `close` comes from `exit`, on another thread. A
    lock keeps a worker from being started while or after the pool closes: a worker that
    close() missed would start up after the server's clean-up removed the semaphores it
    needs, and print a traceback (seen as a flaky `exit` test)."""

    CLOSE_WAIT_S = 2.0  # a submit holds the lock for milliseconds (it may start the worker)
    MANAGER_WAIT_S = 1.0

    def __init__(self, threshold: int = DEFAULT_THRESHOLD, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.threshold = threshold
        self.timeout = timeout
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self._lock = threading.Lock()
        self._lanes: dict[str, ParsePool] = {}

    def lane(self, name: str) -> ParsePool:
        """A pool of its own worker, closed with this one: work that keeps state in its
        worker (the editor's buffers) queues there, not behind (or in front of) this pool's."""
        with self._lock:
            lane = self._lanes.get(name)
            if lane is None:
                lane = self._lanes[name] = ParsePool(self.threshold, self.timeout)
                lane._closed = self._closed
            return lane

    def _get(self) -> ProcessPoolExecutor:
        if self._pool is None:
            from tclint.analyzer.worker_lifetime import die_with_parent

            # spawn: never fork a process that runs threads and an event loop. The worker dies
            # with the server, however the server ends.
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=die_with_parent, initargs=(os.getpid(),))
        return self._pool

    @property
    def running(self) -> bool:
        """Whether a worker was started (and not discarded since)."""
        return self._pool is not None and not self._closed

    def _discard(self) -> threading.Thread | None:
        """Kill the worker; returns the pool's manager thread, which tears the rest down."""
        pool, self._pool = self._pool, None
        if pool is None:
            return None
        for proc in list(getattr(pool, "_processes", {}).values()):
            try:
                proc.kill()
            except Exception:  # noqa: BLE001
                pass
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        return manager

    def _submit(self, fn, job) -> Future | None:
        """`fn(job)` queued for the worker (started if need be); None once the pool is closed."""
        with self._lock:
            if self._closed:
                return None
            try:
                return self._get().submit(fn, job)
            except BrokenProcessPool:  # the worker died while idle (killed): not this job's fault
                self._discard()
                return self._get().submit(fn, job)

    def summarize(self, data: bytes | str, path: str, module: str, is_package: bool,
                  star_names: dict | None = None) -> Any:
        """`star_names`: what its star imports bind (analyzer/star_context.py)."""
        job = (data, path, module, is_package, star_names)
        if len(data) < self.threshold:
            return _summarize(job)
        return self.call(_summarize_in_worker, job, path)

    def call(self, fn, job, path: str) -> Any:
        """`fn(job)` in the worker (`fn` a module-level function), for the file at `path`.
        Once the pool is closed (the server is ending), SummaryFailed: parsing a big file on
        the calling thread would hold the GIL, and so hold up the exit, for seconds.
        The lanes' workers are stopped meanwhile (see `paused`): what they do unasked (cutting
        a document for its next edit) waits for a file the caller waits for (a first open, or
        the indexing of a file that the editor is opening), instead of taking half of two busy
        cores from it. The calling thread is the one that calls the lanes too, so none of its
        calls can wait on a stopped lane."""
        try:
            with ExitStack() as paused:
                for lane in list(self._lanes.values()):
                    paused.enter_context(lane.paused())
                future = self._submit(fn, job)
                if future is None:
                    raise SummaryFailed(f"{path}: not analyzed, the server is shutting down")
                return future.result(timeout=self.timeout)
        except FutureTimeout:
            with self._lock:
                self._discard()
            raise SummaryFailed(f"{path}: not analyzed, parsing took over {self.timeout:.0f}s") from None
        except (BrokenProcessPool, CancelledError):  # crashed, or killed by close()
            with self._lock:
                self._discard()
            raise SummaryFailed(f"{path}: not analyzed, the parser process crashed") from None

    def post(self, fn, job) -> None:
        """`fn(job)` in the worker, not waited for: calls made later queue behind it."""
        try:
            self._submit(fn, job)
        except BrokenProcessPool:
            with self._lock:
                self._discard()

    @contextmanager
    def paused(self):
        """The worker stopped (SIGSTOP) for the block, its work resuming where it was after.
        Nothing is queued or lost; where signals cannot stop a process, nothing happens."""
        stop, cont = getattr(signal, "SIGSTOP", None), getattr(signal, "SIGCONT", None)
        with self._lock:
            pids = [p.pid for p in getattr(self._pool, "_processes", {}).values()] if stop and cont else []
            for pid in pids:
                _signal(pid, stop)
        try:
            yield
        finally:
            for pid in pids:
                _signal(pid, cont)

    def release(self) -> None:
        """Stop the worker until the next call, which starts a fresh one."""
        with self._lock:
            self._discard()

    def close(self) -> None:
        """Kill the worker, for good, and wait for the pool's manager thread to finish tearing
        the pool down. The server exits right after, running multiprocessing's finalizers: one
        of them makes the call queue's feeder thread close the pipe that the manager closes
        too, and two threads closing one pipe at once failed in the manager (EBADF, a
        traceback on stderr; seen as a flaky `exit` test). Never waits long (CLOSE_WAIT_S
        for the lock, MANAGER_WAIT_S for the manager, which needs milliseconds)."""
        locked = self._lock.acquire(timeout=self.CLOSE_WAIT_S)
        try:
            self._closed = True
            manager = self._discard()
            lanes = list(self._lanes.values())
        finally:
            if locked:
                self._lock.release()
        for lane in lanes:
            lane.close()
        if manager is not None:
            manager.join(self.MANAGER_WAIT_S)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass  # gone (a crashed worker is replaced on the next call)


def trim_heap() -> None:
    """Hand freed memory back to the system: after a big document's syntax trees are dropped,
    glibc keeps the pages for reuse, and the process's RSS stays at its peak."""
    import gc

    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not glibc


def _summarize(job: tuple) -> Any:  # (data, path, module, is_package, star_names)
    """Phase 1 of one file; module-level so the worker process can unpickle it."""
    from tclint.analyzer.project import summarize

    return summarize(*job)


def _summarize_in_worker(job: tuple) -> Any:
    from tclint.server.heap import collector_off

    with collector_off():
        return _summarize(job)
