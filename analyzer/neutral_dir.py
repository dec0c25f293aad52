"""A working directory for the Python processes tclint starts on the static path.

`python -c ...` (multiprocessing's spawn and forkserver workers, its resource tracker) and
`python -m ...` put the working directory first on `sys.path`, so when that is the
repository being linted, its `multiprocessing/__init__.py` or `argparse.py` runs. These
processes start in the folder of the standard library instead: it is already on
`sys.path`, so it adds no module, and only whoever installed Python can write there.
"""
from __future__ import annotations

import contextlib
import os
from typing import Iterator


def neutral_directory() -> str:
    return os.path.dirname(os.path.abspath(os.__file__))


@contextlib.contextmanager
def in_neutral_directory() -> Iterator[None]:
    """Child processes started inside this block start in the neutral folder. Changes the
    whole process's working directory: for single-threaded callers (the CLI) only."""
    before = os.getcwd()
    os.chdir(neutral_directory())
    try:
        yield
    finally:
        os.chdir(before)
