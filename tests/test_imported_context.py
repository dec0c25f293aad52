"""Linting some files of a package reads the modules they import from it as context: what
those say about names (a subclass's class-body tensor, a base class) counts, but nothing is
reported in them. A pre-commit run that passes one changed file then finds what a run over
the whole package finds in that file."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

FILES = {
    "pkg/__init__.py": "",
    # The base class branches on a table that only a subclass's body makes a tensor.
    "pkg/base.py": '''
        class Base:
            def step(self, x):
                if self.scale > 0:
                    return x * 2
                return x
        ''',
    "pkg/fast.py": '''
        import torch
        from pkg.base import Base

        class Fast(Base):
            scale = torch.tensor(1.0)

            def __init__(self):
                print("made")
        ''',
    "pkg/run.py": '''
        import torch
        from pkg.fast import Fast

        @torch.compile
        def run(x):
            return Fast().step(x)
        ''',
}


def _package(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / "tclint.toml").write_text("")
    return tmp_path


def _findings(root: Path, names: list[str], use_cache: bool = False) -> set[tuple[str, int, str]]:
    result = lint_paths([root / n for n in names], Settings(source=root / "tclint.toml"), jobs=1,
                        use_cache=use_cache)
    return {(Path(d.path).name, d.span.line, d.code) for d in result.diagnostics}


def test_an_imported_module_tells_what_a_name_holds_but_is_not_reported_on(tmp_path):
    root = _package(tmp_path)
    whole = _findings(root, ["pkg"])
    assert ("base.py", 4, "TC101") in whole and ("fast.py", 9, "TC201") in whole
    # fast.py is not linted, but run.py imports it: its class body still makes `self.scale` a tensor
    assert _findings(root, ["pkg/base.py", "pkg/run.py"]) == {f for f in whole if f[0] != "fast.py"}


def test_only_modules_of_the_linted_packages_are_read(tmp_path):
    root = _package(tmp_path)
    # base.py imports nothing, and run.py is not linted: nothing says what `self.scale` holds
    assert _findings(root, ["pkg/base.py"]) == set()


def test_a_cached_run_is_redone_when_an_imported_module_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("TCLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = _package(tmp_path)
    linted = ["pkg/base.py", "pkg/run.py"]
    assert ("base.py", 4, "TC101") in _findings(root, linted, use_cache=True)
    fast = root / "pkg/fast.py"
    fast.write_text(fast.read_text().replace("torch.tensor(1.0)", "1.0"))
    assert ("base.py", 4, "TC101") not in _findings(root, linted, use_cache=True)


ENUMS = '''
    import enum

    class Mode(str, enum.Enum):
        A = "a"
    '''
RUN = '''
    import torch
    from pkg import Mode

    @torch.compile
    def run(x, mode=Mode.A):
        return x + 1 if mode.lower() == "a" else x
    '''


@pytest.mark.parametrize("files", [
    # `from pkg.enums import Mode` sits in `pkg/__init__.py`, two imports away from the linted file
    {"pkg/__init__.py": "from pkg.enums import Mode\n", "pkg/enums.py": ENUMS},
    # `pkg` takes it from `pkg.utils`, a package that takes it from `pkg.utils.enums`: three away
    {"pkg/__init__.py": "from pkg.utils import Mode\n", "pkg/utils/__init__.py": "from .enums import Mode\n",
     "pkg/utils/enums.py": ENUMS},
], ids=["one-package", "two-packages"])
def test_a_name_packages_re_export_is_read_from_the_module_that_defines_it(tmp_path, files):
    """The class is read where it is defined, so its str-Enum base is known (TC245)."""
    for name, text in {**files, "pkg/run.py": RUN}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    (tmp_path / "tclint.toml").write_text("")
    assert _findings(tmp_path, ["pkg/run.py"]) == {("run.py", 7, "TC245")}
