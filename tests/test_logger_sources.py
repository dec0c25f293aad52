"""A logger is known from what the function that made it returns (TC206), never from the
spelling of that function: transformers' and diffusers' `logging.get_logger(name)` return
`logging.getLogger(name)`, read from the installed library; a library's `get_logger` that
returns an object of its own gives no logger, whatever name holds it. Each program lists the
lines Dynamo (torch 2.13, eager backend) reports; tclint must flag exactly those."""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

LIBRARIES = {
    # as transformers.utils.logging
    "hflib/__init__.py": "",
    "hflib/utils/__init__.py": "",
    "hflib/utils/logging.py": '''
        import logging


        def _configure():
            logging.basicConfig()


        def get_logger(name=None):
            _configure()
            return logging.getLogger(name)
        ''',
    # as diffusers.utils.logging: a local returned, the function annotated with what it returns
    "dflib/__init__.py": "",
    "dflib/utils/__init__.py": "",
    "dflib/utils/logging.py": '''
        import logging


        def get_logger(name=None) -> logging.Logger:
            logger = logging.getLogger(name)
            logger.propagate = False
            return logger
        ''',
    # the same path and name, returning a recorder of its own
    "fakelib/__init__.py": "",
    "fakelib/utils/__init__.py": "",
    "fakelib/utils/logging.py": '''
        class Recorder:
            def __init__(self):
                self.seen = []

            def warning(self, message):
                self.seen.append(message)


        def get_logger(name=None):
            return Recorder()
        ''',
}
USER = '''
    import torch
    from hflib.utils import logging as hf_logging
    from dflib.utils import logging as df_logging
    from fakelib.utils import logging as fake_logging

    events = hf_logging.get_logger(__name__)
    notes = df_logging.get_logger(__name__)
    logger = fake_logging.get_logger(__name__)


    @torch.compile
    def f(x):
        events.warning("from hflib")
        notes.info("from dflib")
        logger.warning("from fakelib")
        return x * 2
    '''
LOGGER_LINES = [13, 14]  # events.warning(...) and notes.info(...): those get_logger return a logging.Logger


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


def test_a_library_get_logger_is_known_by_what_it_returns(tmp_path: Path):
    _write(tmp_path, {**LIBRARIES, "userpkg/__init__.py": "", "userpkg/model.py": USER})
    (tmp_path / "tclint.toml").write_text("")
    found = lint_paths([tmp_path / "userpkg"], Settings(source=tmp_path / "tclint.toml"), jobs=1,
                       use_cache=False).diagnostics
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", line, "TC206") for line in LOGGER_LINES]
    assert "`get_logger` returns a logging.Logger" in found[0].text()


def test_the_same_modules_in_the_linted_package(tmp_path: Path):
    files = {f"userpkg/{name}": text for name, text in LIBRARIES.items()}
    user = textwrap.dedent(USER)
    for lib in ("hflib", "dflib", "fakelib"):
        user = user.replace(f"from {lib}", f"from userpkg.{lib}")
    _write(tmp_path, {**files, "userpkg/__init__.py": "", "userpkg/model.py": user})
    found = lint_paths([tmp_path / "userpkg"], Settings(), jobs=1, use_cache=False).diagnostics
    assert [(Path(d.path).name, d.span.line, d.code) for d in found] == [("model.py", line, "TC206") for line in LOGGER_LINES]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_at_the_logger_only(tmp_path: Path):
    libraries = [textwrap.dedent(LIBRARIES[f"{lib}/utils/logging.py"]).replace("get_logger", f"{lib}_get_logger")
                 for lib in ("hflib", "dflib", "fakelib")]
    user = textwrap.dedent(USER).lstrip("\n")
    for short, lib in (("hf", "hflib"), ("df", "dflib"), ("fake", "fakelib")):
        user = user.replace(f"{short}_logging.get_logger", f"{lib}_get_logger")
    user = "\n".join(line for line in user.splitlines() if " import logging as " not in line)
    source = "".join(libraries) + user
    offset = len("".join(libraries).splitlines()) - 3  # the user's three library imports are gone
    verdict = ask([{"id": "loggers", "source": source, "call": "f(torch.ones(3))"}])["loggers"]
    assert verdict["error"] is None
    assert sorted(line - offset for _, line in verdict["breaks"] if line is not None) == LOGGER_LINES
