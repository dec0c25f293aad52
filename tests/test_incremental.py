"""The editor's incremental summaries are the whole-file summaries, and an edit re-analyzes
only the top-level statements it can change."""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from tclint.analyzer.class_members import class_of
from tclint.analyzer.config import Settings
from tclint.analyzer.incremental import IncrementalSummarizer
from tclint.analyzer.file_analysis import _positions as _real_positions
from tclint.analyzer.project import project_diagnostics, summarize

ROOT = Path(__file__).resolve().parents[1]


def _real_files() -> list[Path]:
    files = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "analyzer" / "rules").glob("t*.py"))
    spec = importlib.util.find_spec("torch")
    if spec and spec.submodule_search_locations:
        nn = Path(spec.submodule_search_locations[0]) / "nn"
        files += sorted(nn.rglob("*.py"))[:40]
    return files


def _findings(summary):
    return [(*d.span, d.code, d.message) for d in project_diagnostics([summary], Settings())]


def _codes(summary):
    return sorted((d.line, d.code) for d in project_diagnostics([summary], Settings()))


@pytest.mark.parametrize("path", _real_files(), ids=lambda p: p.name)
def test_same_summary_as_whole_file(path):
    text = path.read_text(encoding="utf-8")
    inc = IncrementalSummarizer()
    parts = inc.summarize(text, "f.py", "pkg.f", False)
    assert not inc.whole  # analyzed statement by statement
    assert parts == summarize(text, "f.py", "pkg.f", False)


def test_a_local_decorator_named_like_compile_is_not_torch_compile():
    text = textwrap.dedent("""\
        import torch
        def precompile(f):
            return f
        @precompile
        def step(x, n):
            return x * n
        def loop(x):
            for i in range(3):
                step(x, i)
    """)
    inc = IncrementalSummarizer().summarize(text, "f.py", "f", False)
    assert inc == summarize(text, "f.py", "f", False)
    assert "TC401" not in {code for _, code in _codes(inc)}


def test_torch_compile_under_another_name_is_torch_compile():
    text = textwrap.dedent("""\
        from torch import compile as jit
        @jit
        def step(x, n):
            return x * n
        def loop(x):
            for i in range(3):
                step(x, i)
    """)
    inc = IncrementalSummarizer().summarize(text, "f.py", "f", False)
    assert inc == summarize(text, "f.py", "f", False)
    assert (7, "TC401") in _codes(inc)


MODULE = textwrap.dedent("""\
    import torch
    SCALE = 2
    def uses_scale(x):
        if SCALE > 1:
            return x * SCALE
        return x
    def other(x):
        return x.item()
    class Net(torch.nn.Module):
        def forward(self, x):
            return other(x)
""")


def test_a_module_level_edit_reanalyzes_only_its_readers():
    inc = IncrementalSummarizer()
    inc.summarize(MODULE, "f.py", "f", False)
    assert inc.analyzed == 5  # every top-level statement, once
    edited = MODULE.replace("SCALE = 2", "SCALE = torch.ones(1)")
    after = inc.summarize(edited, "f.py", "f", False)
    assert inc.analyzed == 2  # the assignment and `uses_scale`, which reads SCALE
    assert after == summarize(edited, "f.py", "f", False)


def test_a_statement_reanalyzed_for_what_it_read_reuses_its_node_positions(monkeypatch):
    from tclint.analyzer import incremental

    inc = IncrementalSummarizer()
    inc.summarize(MODULE, "f.py", "f", False)
    placed = []
    monkeypatch.setattr(incremental, "_positions", lambda tree, wanted=None: placed.append(tree) or _real_positions(tree, wanted))
    edited = MODULE.replace("SCALE = 2", "SCALE = torch.ones(1)")
    after = inc.summarize(edited, "f.py", "f", False)
    assert inc.analyzed == 2
    # `uses_scale` (same text) now reports a node it never reported: its positions are computed.
    assert [tree.code for tree in placed] == [MODULE.split("def other")[0].split("SCALE = 2\n")[1]]
    assert after == summarize(edited, "f.py", "f", False)
    placed.clear()
    inc.summarize(MODULE, "f.py", "f", False)  # back and forth: `uses_scale` is placed from what it kept
    again = inc.summarize(edited, "f.py", "f", False)
    assert inc.analyzed == 2 and placed == []
    assert again == summarize(edited, "f.py", "f", False)


def test_an_edit_inside_a_def_reanalyzes_that_def_and_keeps_positions():
    text = (ROOT / "examples" / "tinyvit" / "layers.py").read_text(encoding="utf-8")
    inc = IncrementalSummarizer()
    inc.summarize(text, "layers.py", "tinyvit.layers", False)
    edited = "# a new comment line\n" + text.replace("h = F.gelu(self.fc1(x))", "h = F.gelu(self.fc1(x)) + 0")
    after = inc.summarize(edited, "layers.py", "tinyvit.layers", False)
    assert inc.analyzed == 2  # the first statement (under the new comment) and the edited class
    assert after == summarize(edited, "layers.py", "tinyvit.layers", False)


def test_an_import_edit_reanalyzes_the_statements_that_read_that_name():
    inc = IncrementalSummarizer()
    inc.summarize(MODULE, "f.py", "f", False)
    edited = "import numpy as np\n" + MODULE
    assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)
    assert inc.analyzed == 1  # nothing reads `np`


def test_a_name_imported_inside_a_function_reaches_later_functions_as_in_the_whole_file():
    text = textwrap.dedent("""\
        def a(x):
            import torch as T
            return x
        def b(x):
            return T.randn(3).item()
        @T.compile
        def c(x):
            return b(x)
    """)
    inc = IncrementalSummarizer()
    assert inc.summarize(text, "f.py", "f", False) == summarize(text, "f.py", "f", False)
    edited = text.replace("import torch as T", "import numpy as T")
    assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)


def test_deleting_a_statement_re_splits_only_its_neighbours(monkeypatch):
    from tclint.analyzer import incremental

    inc = IncrementalSummarizer()
    inc.summarize(MODULE, "f.py", "f", False)
    split = []
    real = incremental._split
    monkeypatch.setattr(incremental, "_split", lambda tree, text: split.append(text) or real(tree, text))
    added = MODULE + "\n\ndef last(x):\n    return x\n"
    assert inc.summarize(added, "f.py", "f", False) == summarize(added, "f.py", "f", False)
    middle = MODULE.replace("def other(x):\n    return x.item()\n", "")
    for edited in (MODULE, middle):  # the last statement deleted (its blank lines go with the one above), then one before it
        assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)
    assert split and not any(text.startswith("import torch") for text in split), split  # never from the top


def test_statements_on_one_line_and_windows_newlines():
    text = "import torch; x = 1\r\n@torch.compile\r\ndef f(t):\r\n    return t.item()\r\n"
    inc = IncrementalSummarizer()
    assert inc.summarize(text, "f.py", "f", False) == summarize(text, "f.py", "f", False)
    assert not inc.whole


def test_syntax_error_and_its_repair():
    inc = IncrementalSummarizer()
    broken = MODULE.replace("def other(x):", "def other(x:")
    summary = inc.summarize(broken, "f.py", "f", False)
    assert summary == summarize(broken, "f.py", "f", False)
    assert summary.syntax_error is not None
    assert inc.summarize(MODULE, "f.py", "f", False) == summarize(MODULE, "f.py", "f", False)


def test_only_the_latest_version_of_a_document_is_kept():
    inc = IncrementalSummarizer()
    for i in range(30):
        inc.summarize(MODULE.replace(".item()", f".item() + {i}"), "f.py", "f", False)
    (document,) = inc._documents.values()
    assert len(document.pieces) == 5  # one per top-level statement, none of the edited versions


# -- a class is analyzed as its head and its members ---------------------------------------
CLASS = textwrap.dedent("""\
    import logging
    import torch
    audit = logging.getLogger(__name__)
    LIMIT = 3
    class Net(torch.nn.Module):
        scale = 2
        def __init__(self):
            super().__init__()
            self.proj = torch.nn.Linear(2, 2)
        def warn(self, x):
            audit.warning("big")
            return x
        def forward(self, x):
            if x.sum() > LIMIT:
                x = self.proj(x)
            return x * self.scale
        def helper(self, x):
            if self.state:
                x = x + 1
            return x.tolist()
    @torch.compile
    def run(x):
        return Net()(x)
""")


def test_a_module_level_lambda_reaches_the_functions_that_call_it_as_in_the_whole_file():
    text = textwrap.dedent("""\
        import torch
        dot = lambda u, v: torch.dot(u, v)
        @torch.compile
        def f(x):
            if dot(x, x) > 1:
                return x / 2
            return x
    """)
    inc = IncrementalSummarizer()
    before = inc.summarize(text, "f.py", "f", False)
    assert before == summarize(text, "f.py", "f", False)
    assert (5, "TC101") in _codes(before)
    edited = text.replace("torch.dot(u, v)", "u.shape[0] * v.shape[0]")
    after = inc.summarize(edited, "f.py", "f", False)
    assert inc.analyzed == 2  # the lambda's binding and `f`, which called it
    assert after == summarize(edited, "f.py", "f", False)
    assert "TC101" not in {code for _, code in _codes(after)}


def _members_after(edited: str) -> tuple[int, int]:
    inc = IncrementalSummarizer()
    inc.summarize(CLASS, "f.py", "f", False)
    assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)
    return inc.analyzed, inc.members_analyzed


def test_a_module_level_edit_reanalyzes_only_the_methods_that_read_the_name():
    # `audit` is read by `warn` only; `LIMIT` by `forward` only
    assert _members_after(CLASS.replace("audit = logging.getLogger(__name__)", "audit = None")) == (2, 1)
    assert _members_after(CLASS.replace("LIMIT = 3", "LIMIT = torch.ones(1)")) == (2, 1)


def test_a_logger_named_as_loggers_are_is_one_whatever_the_file_binds_to_it():
    # TC206 takes `logger.warning(...)` for a logging call by the name alone: `warn` did not read the binding
    text = CLASS.replace("audit", "logger")
    inc = IncrementalSummarizer()
    inc.summarize(text, "f.py", "f", False)
    edited = text.replace("logger = logging.getLogger(__name__)", "logger = logging.getLogger(__name__) or None")
    assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)
    assert (inc.analyzed, inc.members_analyzed) == (1, 0)


def test_an_edit_inside_a_method_reanalyzes_that_method_only():
    assert _members_after(CLASS.replace("return x.tolist()", "return x.item()")) == (1, 1)


def test_a_class_attribute_a_method_reads_reanalyzes_that_method():
    # the class's head notes the kind of `scale`, which `forward` reads as `self.scale`: the edited
    # class-level statement and `forward` are analyzed again, the other methods are not
    assert _members_after(CLASS.replace("scale = 2", "scale = torch.ones(1)")) == (1, 2)
    assert _members_after(CLASS.replace("scale = 2", "scale = 3")) == (1, 1)  # static either way


def test_what_one_method_assigns_to_self_reaches_the_methods_after_it():
    # `helper` reads `self.state`, which `warn` now assigns a tensor: both are analyzed again, `forward` is not
    edited = CLASS.replace('        audit.warning("big")\n', "        self.state = torch.ones(1)\n")
    assert _members_after(edited) == (1, 2)
    # what __init__ assigns is known when the class is entered: the methods reading it follow it
    assert _members_after(CLASS.replace("super().__init__()", "super().__init__(); self.state = x")) == (1, 2)


def test_methods_added_removed_and_decorated():
    added = CLASS.replace("    def helper(self, x):", "    def more(self, x):\n        return x.item()\n    def helper(self, x):")
    assert _members_after(added) == (1, 1)
    removed = CLASS.replace("    def warn(self, x):\n        audit.warning(\"big\")\n        return x\n", "")
    assert _members_after(removed) == (1, 0)
    decorated = CLASS.replace("    def helper(self, x):", "    @torch.compile\n    def helper(self, x):")
    assert _members_after(decorated) == (1, 1)


def test_a_member_that_writes_what_no_table_of_the_class_carries_has_its_class_analyzed_whole(monkeypatch):
    from tclint.analyzer import incremental

    # as if `attr_kinds` (what `self.state = torch.ones(1)` stores) had no table of its own
    monkeypatch.setattr(incremental, "_CLASS_SUMMARY_TABLES", frozenset({"methods"}))
    edited = CLASS.replace('        audit.warning("big")\n', "        self.state = torch.ones(1)\n")
    inc = IncrementalSummarizer()
    inc.summarize(CLASS, "f.py", "f", False)
    assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)
    document = next(iter(inc._documents.values()))
    assert [p.members is None for p in document.pieces.values() if class_of(p.tree)] == [True]


def test_functions_handed_to_allow_in_graph_are_carried_like_the_whole_file_does():
    text = textwrap.dedent("""\
        import torch

        @torch.compiler.allow_in_graph
        def fused(x):
            return x.item()

        def other(x):
            return x

        torch._dynamo.allow_in_graph(other)
        """)
    inc = IncrementalSummarizer()
    for version in (text, text.replace("return x\n", "return x + 1\n"), "import os\n" + text):
        got = inc.summarize(version, "f.py", "f", False)
        assert got.in_graph and got == summarize(version, "f.py", "f", False)


def test_a_property_read_follows_an_edit_of_the_base_class_that_defines_it():
    # `self.beta` runs a getter only while `Base.beta` is a property: the base's edit reaches
    # the subclass's method, as in the whole file
    text = textwrap.dedent("""\
        import torch
        class Base(torch.nn.Module):
            @property
            def beta(self):
                return self.step.item()
        class EMA(Base):
            def forward(self, x):
                return x * self.beta
    """)
    inc = IncrementalSummarizer()
    assert inc.summarize(text, "f.py", "f", False) == summarize(text, "f.py", "f", False)
    edited = text.replace("    @property\n", "")
    assert inc.summarize(edited, "f.py", "f", False) == summarize(edited, "f.py", "f", False)
    assert inc.summarize(text, "f.py", "f", False) == summarize(text, "f.py", "f", False)


TAGGED = textwrap.dedent("""\
    import torch

    class Tagged(torch.Tensor):
        def above_zero(self):
            return self.sum() > 0

    @torch.compile
    def f(x):
        y = x.as_subclass(Tagged)
        if isinstance(y, Tagged):
            if y.above_zero():
                return y * 2
        return y
""")


def test_a_tensor_subclass_overriding_a_tensor_method_rereads_its_other_methods():
    # `self.sum()` is a tensor's sum until the class defines its own (a plain number here)
    inc = IncrementalSummarizer()
    assert (11, "TC101") in _codes(inc.summarize(TAGGED, "f.py", "f", False))
    edited = TAGGED.replace("    def above_zero(self):",
                            "    def sum(self):\n        return 1\n    def above_zero(self):")
    after = inc.summarize(edited, "f.py", "f", False)
    assert after == summarize(edited, "f.py", "f", False)
    assert "TC101" not in {code for _, code in _codes(after)}
