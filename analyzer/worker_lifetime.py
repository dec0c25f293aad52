"""Pool workers die with the process that started them.

A pool worker waits on its task queue, whose write end its siblings hold too: when the
parent dies without closing the pool (SIGKILL, a segfault), the queue never ends and the
worker lives on for good, with multiprocessing's resource tracker, which waits for every
holder of its pipe. On Linux the kernel kills the worker when its parent dies
(PR_SET_PDEATHSIG). Its "parent" is the thread that started it: pools are started from
threads that live as long as the pool (the CLI's main thread, the server's analysis thread).
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int) -> None:
    """Pool initializer: SIGKILL this worker when its parent dies (Linux; elsewhere nothing).
    `parent_pid` is the pool owner's pid, to catch a parent that died before the call."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid and not _alive(parent_pid):  # (a forkserver may stand between)
        os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
