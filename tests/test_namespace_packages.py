"""PEP 420 namespace packages (folders without `__init__.py`) resolve across files."""
from __future__ import annotations

import textwrap
from pathlib import Path

from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

HELPER = "def scale(x):\n    return x.sum().item()\n"


def model(import_line: str) -> str:
    return textwrap.dedent(f"""\
        import torch
        {import_line}


        class Net(torch.nn.Module):
            def forward(self, x):
                return x * scale(x)
        """)


def found(root: Path) -> list[tuple[str, str]]:
    result = lint_paths([root], Settings(source=root / "pyproject.toml"), use_cache=False)
    return [(Path(d.path).name, d.code) for d in result.diagnostics]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_absolute_import_through_a_namespace_folder(tmp_path):
    root = write(tmp_path, {"pkg/helpers.py": HELPER, "pkg/model.py": model("from pkg.helpers import scale")})
    assert found(root) == [("helpers.py", "TC102")]


def test_regular_package_inside_a_namespace_folder(tmp_path):
    root = write(tmp_path, {"ns/sub/__init__.py": "", "ns/sub/helpers.py": HELPER,
                            "ns/model.py": model("from ns.sub.helpers import scale")})
    assert found(root) == [("helpers.py", "TC102")]


def test_module_import_and_attribute_call(tmp_path):
    root = write(tmp_path, {"pkg/helpers.py": HELPER,
                            "pkg/model.py": model("import pkg.helpers as h").replace("scale(x)", "h.scale(x)")})
    assert found(root) == [("helpers.py", "TC102")]


def test_sibling_script_import_still_resolves(tmp_path):
    root = write(tmp_path, {"scripts/helpers.py": HELPER, "scripts/model.py": model("from helpers import scale")})
    assert found(root) == [("helpers.py", "TC102")]


def test_a_name_that_is_not_the_folder_path_does_not_resolve(tmp_path):
    root = write(tmp_path, {"pkg/helpers.py": HELPER, "pkg/model.py": model("from other.helpers import scale")})
    assert found(root) == []
