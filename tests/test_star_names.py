"""Names a module binds by `from m import *` are known to its file phase where the run holds
`m`: `nn` from a star import is torch.nn there, so `nn.GRU(...)` stored in `__init__` is a
recurrent module Dynamo does not trace when `forward` calls it. A star import binds what `m`
lists in a literal `__all__`, else its public names, those of its own star imports included,
bound by imports or by plain assignment (`nn = torch.nn`); a later star import or binding
wins. Linting one file reads the modules it star-imports, through theirs, as context.

The modules the breaks are in are named `tclint_case_*` so that the oracle gives their lines."""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

NET = '''from ..layers import *


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 4)
        self.gate = Gate()

    def forward(self, x):
        out, _ = self.gru(x)
        return self.gate(out, x.sum(dim=(1, 2)))
'''
SEQ = '''import torch
import torch.nn as nn


class Gate(nn.Module):
    def forward(self, x, sizes):
        n = int(sizes[0])
        return x[:n]
'''
PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/layers/__init__.py": "from .core import *\nfrom .tclint_case_seq import *\n",
    "pkg/layers/core.py": "import torch\nimport torch.nn as nn\n",
    "pkg/layers/tclint_case_seq.py": SEQ,
    "pkg/models/__init__.py": "",
    "pkg/models/tclint_case_net.py": NET,
}
GRU = ("tclint_case_net.py", 11, "TC218")  # Dynamo: "Attempted to wrap RNN, GRU, or LSTM" there
ITEM = ("tclint_case_seq.py", 7, "TC103")  # Dynamo: "Unsupported Tensor.item() call ..." there
NET_FILE = "pkg/models/tclint_case_net.py"


def _package(root: Path, edits: dict[str, str] | None = None) -> Path:
    """The package, with `edits` (path -> text) applied."""
    files = {**PACKAGE, **(edits or {})}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (root / "tclint.toml").write_text('[tool.tclint]\nroots = ["pkg.models.tclint_case_net:Net.forward"]\n')
    return root


def _findings(root: Path, names: list[str], use_cache: bool = False) -> set[tuple[str, int, str]]:
    result = lint_paths([root / n for n in names], Settings(source=root / "tclint.toml"), jobs=1, use_cache=use_cache)
    return {(Path(d.path).name, d.span.line, d.code) for d in result.diagnostics}


def test_a_name_bound_through_two_star_imports_is_known_to_the_file_phase(tmp_path):
    root = _package(tmp_path)
    assert _findings(root, ["pkg"]) == {GRU, ITEM}


def test_one_file_reads_the_modules_it_star_imports_through_theirs(tmp_path):
    root = _package(tmp_path)
    assert _findings(root, [NET_FILE]) == {GRU}


def test_a_name_bound_by_plain_assignment_is_exported(tmp_path):
    root = _package(tmp_path, {"pkg/layers/core.py": "import torch\n\nnn = torch.nn\n"})
    assert GRU in _findings(root, ["pkg"])


def test_a_literal_all_limits_what_a_star_import_binds(tmp_path):
    root = _package(tmp_path, {"pkg/layers/core.py": 'import torch\nimport torch.nn as nn\n\n__all__ = ["torch"]\n',
                    "pkg/layers/tclint_case_seq.py": SEQ + '\n__all__ = ["Gate"]\n'})
    assert GRU not in _findings(root, ["pkg"])


def test_a_later_star_import_wins(tmp_path):
    # `shims` is the package's own module named nn by the later star import: no torch.nn
    layers = "from .core import *\nfrom .tclint_case_seq import *\nfrom .plain import *\n"
    root = _package(tmp_path, {"pkg/layers/__init__.py": layers, "pkg/layers/plain.py": "from . import shims as nn\n",
                    "pkg/layers/shims.py": "def GRU(*sizes):\n    return None\n"})
    assert GRU not in _findings(root, ["pkg"])


def test_a_later_binding_in_the_file_wins(tmp_path):
    net = NET.replace("from ..layers import *\n", "from ..layers import *\nfrom ..layers import shims as nn\n")
    root = _package(tmp_path, {"pkg/models/tclint_case_net.py": net,
                    "pkg/layers/shims.py": "import torch\n\nModule = torch.nn.Module\n\n\ndef GRU(*sizes):\n    return None\n"})
    assert GRU not in _findings(root, ["pkg"])


def test_a_star_import_under_type_checking_binds_nothing(tmp_path):
    # it never runs (transformers' `__init__` star-imports the whole library so): not read, not bound
    net = NET.replace("from ..layers import *\n", "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                      "    from ..layers import *\n")
    root = _package(tmp_path, {"pkg/models/tclint_case_net.py": net})
    assert _findings(root, [NET_FILE]) == set()
    assert GRU not in _findings(root, ["pkg"])


def test_star_imports_in_a_cycle_settle(tmp_path):
    # core star-imports the package that star-imports it: each binds what the other does
    root = _package(tmp_path, {"pkg/layers/core.py": "import torch\nimport torch.nn as nn\nfrom pkg.layers import *\n"})
    assert _findings(root, ["pkg"]) == {GRU, ITEM}
    assert _findings(root, [NET_FILE]) == {GRU}


def test_a_cached_run_sees_an_edit_of_what_a_module_exports(tmp_path, monkeypatch):
    monkeypatch.setenv("TCLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = _package(tmp_path / "p")
    assert _findings(root, [NET_FILE], use_cache=True) == {GRU}
    core, seq = root / "pkg/layers/core.py", root / "pkg/layers/tclint_case_seq.py"
    core.write_text(core.read_text() + '\n__all__ = ["torch"]\n')
    seq.write_text(SEQ + '\n__all__ = ["Gate"]\n')
    assert _findings(root, [NET_FILE], use_cache=True) == set()
    assert _findings(root, ["pkg"], use_cache=True) == {ITEM}
    seq.write_text(SEQ)  # nn is exported again, by seq
    assert _findings(root, [NET_FILE], use_cache=True) == {GRU}


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_where_tclint_says(tmp_path):
    root = _package(tmp_path)
    source = f"import sys\nsys.path.insert(0, {str(root)!r})\nimport torch\nfrom pkg.models.tclint_case_net import Net\n"
    verdict = ask([{"id": "net", "source": source, "call": "torch.compile(Net().forward)(torch.randn(3, 2, 4))"}])["net"]
    assert verdict["breaks"] == [["Attempted to wrap RNN, GRU, or LSTM", GRU[1]],
                                 ["Unsupported Tensor.item() call with capture_scalar_outputs=False", ITEM[1]]]


# The editor: the server's workspace index gives the names star imports bind as the CLI does,
# also after edits of the module a star import reads and of the module that uses the names.
def _editor(root: Path, pool=None):
    from tclint.server.workspace_index import WorkspaceIndex

    index = WorkspaceIndex(pool)
    index.set_folders([root])
    key = root.resolve()
    index.project(key).settings = Settings(source=root / "tclint.toml")
    index.index_project(key)
    return index, key


def _edited(index, key, root: Path, name: str, text: str) -> None:
    """`name` edited in the editor (and saved, so that a fresh CLI run reads the same text)."""
    (root / name).write_text(text)
    index.set_buffer(str(key / name), text)


def _shown(index, key) -> set[tuple[str, int, str]]:
    return {(Path(d.path).name, d.span.line, d.code) for found in index.diagnostics(key).values() for d in found}


EDITS = [  # (file, its new text, what a fresh run finds then)
    ("pkg/layers/core.py", 'import torch\nimport torch.nn as nn\n\n__all__ = ["torch"]\n', {GRU, ITEM}),  # seq binds nn
    ("pkg/layers/tclint_case_seq.py", SEQ + '\n__all__ = ["Gate"]\n', {ITEM}),
    ("pkg/layers/core.py", "import torch\n\nnn = torch.nn\n", {GRU, ITEM}),
    ("pkg/layers/__init__.py", "from .tclint_case_seq import *\n", {ITEM}),  # its own star import dropped
    ("pkg/layers/__init__.py", "from .tclint_case_seq import *\nfrom .core import *\n", {GRU, ITEM}),
    (NET_FILE, NET.replace("from ..layers import *\n", "from ..layers import *\nfrom ..layers import core as nn\n"),
     {ITEM}),  # a later binding in the file wins
    (NET_FILE, NET + "\n\nx = 1\n", {GRU, ITEM}),
]


def test_the_editor_binds_star_names_as_a_fresh_run_does_after_each_edit(tmp_path):
    root = _package(tmp_path)
    index, key = _editor(root)
    assert _shown(index, key) == _findings(root, ["pkg"]) == {GRU, ITEM}
    for name, text, found in EDITS:
        _edited(index, key, root, name, text)
        assert _shown(index, key) == _findings(root, ["pkg"]) == found, name


def test_a_big_buffer_is_bound_in_the_parse_pool_worker(tmp_path):
    from tclint.server.parse_pool import ParsePool

    root = _package(tmp_path)
    pool = ParsePool(threshold=64)  # every file but the empty ones is a big one
    try:
        index, key = _editor(root, pool)
        assert _shown(index, key) == {GRU, ITEM}
        _edited(index, key, root, NET_FILE, NET + "\n\nx = 1\n")
        assert _shown(index, key) == {GRU, ITEM}
    finally:
        pool.close()


def test_an_edit_elsewhere_keeps_the_summary_with_bound_names(tmp_path):
    root = _package(tmp_path)
    index, key = _editor(root)
    _shown(index, key)
    net = index.project(key).summaries[str(key / NET_FILE)]
    _edited(index, key, root, "pkg/layers/core.py", "import torch\nimport torch.nn as nn\n\nx = 1\n")
    assert _shown(index, key) == {GRU, ITEM}
    assert index.project(key).summaries[str(key / NET_FILE)] is net  # the names it is given are the same
