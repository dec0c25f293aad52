from __future__ import annotations

import os
import tempfile
import textwrap

import pytest

# The tests (and the tclint processes they start) keep their cache away from the user's.
os.environ["TCLINT_CACHE_DIR"] = tempfile.mkdtemp(prefix="tclint-test-cache-")

from tclint.analyzer import api


@pytest.fixture
def lint():
    """Lint a dedented snippet as one file and return its diagnostics."""

    def _lint(code: str, path: str = "snippet.py", settings=None):
        return api.lint_source(textwrap.dedent(code), path=path, settings=settings)

    return _lint


def codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]
