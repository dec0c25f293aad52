"""Debounced analysis off the event loop.

Each key (a project) has a generation that every `schedule` bumps. A run takes a snapshot
on the event loop, does its work on the single analysis thread and hands its result back
to the event loop. The work function receives `superseded()`, true once a newer run was
asked for: it may stop early and return None, and a None result is dropped. Typing only
ever bumps a counter and re-arms a timer, so analysis never blocks the editor.
"""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Callable, Hashable

log = logging.getLogger(__name__)

Snapshot = Any
Result = Any


class Scheduler:
    def __init__(
        self,
        start: Callable[[Hashable], Snapshot | None],
        work: Callable[[Snapshot, Callable[[], bool]], Result | None],
        finish: Callable[[Result], None],
        on_error: Callable[[Hashable, BaseException], None],
        executor: Executor | None = None,
    ) -> None:
        self._start = start
        self._work = work
        self._finish = finish
        self._on_error = on_error
        self.executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="tclint-analysis")
        self._timers: dict[Hashable, asyncio.Handle] = {}
        self._generation: dict[Hashable, int] = {}
        self._running: dict[Hashable, int] = {}
        self._queued: set[object] = set()  # runs handed to the analysis thread, not begun there
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def generation(self, key: Hashable) -> int:
        return self._generation.get(key, 0)

    def schedule(self, key: Hashable, delay: float = 0.0) -> None:
        """Ask for a run of `key` after `delay` seconds of quiet; earlier requests merge into it."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        self._generation[key] = self._generation.get(key, 0) + 1
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        if delay <= 0:
            self._timers[key] = loop.call_soon(self._dispatch, key)
        else:
            self._timers[key] = loop.call_later(delay, self._dispatch, key)

    def expedite(self, key: Hashable) -> None:
        """Start a waiting (debounced) run now; a run already going on is left alone."""
        if key in self._timers:
            self.schedule(key, 0.0)

    def pending(self, key: Hashable) -> bool:
        return key in self._timers or self._running.get(key, 0) > 0

    def runs_waiting(self) -> bool:
        """Whether a run waits for the analysis thread (behind the work that asks: indexing)."""
        return bool(self._queued)

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future:
        """Run `fn` on the analysis thread, in order with the lint runs."""
        return asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def _dispatch(self, key: Hashable) -> None:
        self._timers.pop(key, None)
        if self._closed:
            return
        generation = self._generation.get(key, 0)
        try:
            snapshot = self._start(key)
        except Exception as exc:  # noqa: BLE001 - the server must carry on
            self._on_error(key, exc)
            return
        if snapshot is None:
            return

        def superseded() -> bool:
            return self._closed or self._generation.get(key, 0) != generation

        loop = asyncio.get_running_loop()
        self._running[key] = self._running.get(key, 0) + 1
        token = object()
        self._queued.add(token)

        def work() -> Result | None:
            self._queued.discard(token)  # a set's add and discard are atomic across threads
            return self._work(snapshot, superseded)

        future = loop.run_in_executor(self.executor, work)
        future.add_done_callback(lambda f: self._done(key, f))

    def _done(self, key: Hashable, future: asyncio.Future) -> None:
        self._running[key] -= 1
        if future.cancelled():
            return
        exc = future.exception()
        if exc is not None:
            self._on_error(key, exc)
            return
        result = future.result()
        if result is None:
            return
        try:
            self._finish(result)
        except Exception as exc:  # noqa: BLE001
            self._on_error(key, exc)

    def close(self) -> None:
        self._closed = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
