"""Confirmation stops when it should, from the parent: an example that never returns, exits,
segfaults, eats memory, leaves a grandchild behind or floods its output gets a status of its
own, the module's other cases still run, and a cancel kills the running example at once."""
from __future__ import annotations

import importlib.util
import os
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tclint.analyzer.config import Settings
from tclint.analyzer.confirm.driver import confirm
from tclint.analyzer.discovery import discover

pytestmark = pytest.mark.dynamo

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed", allow_module_level=True)

LIMIT = 5.0

MISBEHAVING = textwrap.dedent("""
    import ctypes
    import os
    import subprocess
    import sys

    import torch

    def fine(x):
        return x.sum().item()

    def forever(x):
        while True:
            pass

    def leave(x):
        os._exit(3)

    def segfault(x):
        ctypes.string_at(0)

    def hog(x):
        return torch.empty(6 * 1024 ** 3, dtype=torch.uint8).fill_(1)

    def spawn(x):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        with open(os.environ["TCLINT_TEST_PIDFILE"], "w") as fh:
            fh.write(str(child.pid))
        while True:
            pass

    def chatter(x):
        print("y" * (100 * 1024 * 1024))
        return x + 1

    def tclint_examples():
        x = torch.randn(3)
        cases = [fine, forever, leave, segfault, hog, spawn, chatter]
        return [(fn.__name__, fn, (x,), {}) for fn in cases] + [("fine_again", fine, (x,), {})]
""")


def _confirm(root: Path, **kwargs):
    return _confirm_with(root, timeout=LIMIT, **kwargs)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie waiting for its parent (gone) counts as dead.
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


@pytest.mark.skipif(os.name != "posix", reason="segfaults, memory caps and process groups as POSIX has them")
def test_each_misbehaving_case_gets_its_own_status(tmp_path, monkeypatch):
    (tmp_path / "misbehaving.py").write_text(MISBEHAVING)
    pidfile = tmp_path / "grandchild.pid"
    monkeypatch.setenv("TCLINT_TEST_PIDFILE", str(pidfile))
    result = _confirm(tmp_path, memory_mb=3000)
    got = {c.name: (c.status, c.error or "") for c in result.cases}
    assert list(got) == ["fine", "forever", "leave", "segfault", "hog", "spawn", "chatter", "fine_again"]
    assert got["fine"][0] == got["fine_again"][0] == got["chatter"][0] == "ok"
    assert got["forever"][0] == "timeout" and "ran over 5 s" in got["forever"][1]
    assert got["leave"] == ("crashed", "exit status 3")
    assert got["segfault"][0] == "crashed" and "SIGSEGV" in got["segfault"][1]
    assert got["hog"][0] == "memory" and "memory cap" in got["hog"][1]
    assert got["spawn"][0] == "timeout"
    assert not _alive(int(pidfile.read_text())), "the example's own child outlived the run"
    fine = next(c for c in result.cases if c.name == "fine_again")
    assert [b["gb_type"] for b in fine.breaks] == ["Unsupported Tensor.item() call with capture_scalar_outputs=False"]


def test_a_loop_at_import_time_is_stopped(tmp_path):
    (tmp_path / "stuck.py").write_text("import torch\n\nwhile True:\n    pass\n\ndef tclint_examples():\n    return []\n")
    (tmp_path / "other.py").write_text(textwrap.dedent("""
        import torch

        def tclint_examples():
            return [("other", lambda x: x + 1, (torch.randn(2),), {})]
    """))
    result = _confirm(tmp_path)
    by_module = {Path(c.module).name: c for c in result.cases}
    assert by_module["stuck.py"].status == "timeout" and "importing the module" in by_module["stuck.py"].error
    assert by_module["other.py"].status == "ok"


def test_cancel_kills_the_running_example(tmp_path, monkeypatch):
    (tmp_path / "slow.py").write_text(textwrap.dedent("""
        import os

        import torch

        def forever(x):
            with open(os.environ["TCLINT_TEST_PIDFILE"], "w") as fh:
                fh.write(str(os.getpid()))
            while True:
                pass

        def tclint_examples():
            return [("first", lambda x: x + 1, (torch.randn(2),), {}), ("forever", forever, (torch.randn(2),), {})]
    """))
    pidfile = tmp_path / "running.pid"
    monkeypatch.setenv("TCLINT_TEST_PIDFILE", str(pidfile))
    cancel = threading.Event()
    done: list = []
    worker = threading.Thread(target=lambda: done.append(_confirm_with(tmp_path, timeout=600, cancelled=cancel.is_set)))
    worker.start()
    deadline = time.monotonic() + 300
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    cancel.set()
    cancelled_at = time.monotonic()
    worker.join(30)
    assert done and time.monotonic() - cancelled_at < 1.0, "the cancel did not stop the run within 1 s"
    assert not _alive(int(pidfile.read_text()))
    assert [(c.name, c.status) for c in done[0].cases] == [("first", "ok")]


def _confirm_with(root: Path, **kwargs):
    files, _ = discover([root], Settings())
    return confirm(files, root.resolve(), [], python=sys.executable, **kwargs)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT as a terminal sends it")
def test_ctrl_c_kills_the_running_example(tmp_path):
    import signal
    import subprocess

    (tmp_path / "stuck.py").write_text(textwrap.dedent("""
        import os

        import torch

        def forever(x):
            with open(os.environ["TCLINT_TEST_PIDFILE"], "w") as fh:
                fh.write(str(os.getpid()))
            while True:
                pass

        def tclint_examples():
            return [("forever", forever, (torch.randn(2),), {})]
    """))
    pidfile = tmp_path / "running.pid"
    # SIGINT as a terminal delivers it (a test run in the background may have it ignored).
    proc = subprocess.Popen([sys.executable, "-m", "tclint.analyzer", "confirm", "--no-cache", "."], cwd=tmp_path,
                            env={**os.environ, "TCLINT_TEST_PIDFILE": str(pidfile)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait(30)  # tclint kills the example's group before it exits
    assert not _alive(int(pidfile.read_text()))


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL as POSIX has it")
def test_the_example_dies_with_a_killed_tclint(tmp_path):
    import signal
    import subprocess

    (tmp_path / "stuck.py").write_text(textwrap.dedent("""
        import os
        import subprocess
        import sys

        import torch

        def forever(x):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
            with open(os.environ["TCLINT_TEST_PIDFILE"], "w") as fh:
                fh.write(f"{os.getpid()} {child.pid}")
            while True:
                pass

        def tclint_examples():
            return [("forever", forever, (torch.randn(2),), {})]
    """))
    pidfile = tmp_path / "running.pid"
    proc = subprocess.Popen([sys.executable, "-m", "tclint.analyzer", "confirm", "--no-cache", "."], cwd=tmp_path,
                            env={**os.environ, "TCLINT_TEST_PIDFILE": str(pidfile)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids), "the example outlived tclint"
