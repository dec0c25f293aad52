"""Suppression comments: where they apply, and the findings about stale or wrong ones."""
from __future__ import annotations

from conftest import codes

HEAD = """
import torch

@torch.compile
def f(x):
"""


def test_inline_suppression(lint):
    assert codes(lint(HEAD + "    return x.sum().item()  # tclint: ignore[TC102]\n")) == []


def test_noqa_spelling(lint):
    assert codes(lint(HEAD + "    return x.sum().item()  # noqa: TC102\n")) == []


def test_comment_on_line_above(lint):
    assert codes(lint(HEAD + "    # tclint: ignore[TC102]\n    return x.sum().item()\n")) == []


def test_line_above_only_when_alone_on_its_line(lint):
    src = HEAD + "    y = x + 1  # tclint: ignore[TC102]\n    return y.item()\n"
    assert codes(lint(src)) == ["TC002", "TC102"]


def test_other_code_does_not_suppress(lint):
    assert sorted(codes(lint(HEAD + "    return x.sum().item()  # tclint: ignore[TC101]\n"))) == ["TC002", "TC102"]


def test_file_level_suppression(lint):
    src = "# tclint: file-ignore[TC102]\n" + HEAD + "    return x.sum().item()\n"
    assert codes(lint(src)) == []


def test_unused_suppression_is_reported(lint):
    diags = lint(HEAD + "    return x * 2  # tclint: ignore[TC102]\n")
    assert codes(diags) == ["TC002"]
    assert diags[0].message == "unused suppression for TC102"


def test_unknown_code_is_reported(lint):
    diags = lint(HEAD + "    return x.sum().item()  # tclint: ignore[TC102, TC999]\n")
    assert codes(diags) == ["TC003"]
    assert "TC999" in diags[0].message


def test_noqa_for_other_tools_is_left_alone(lint):
    assert codes(lint(HEAD + "    return x * 2  # noqa: E501\n")) == []
    assert codes(lint(HEAD + "    return x * 2  # noqa\n")) == []


def test_blanket_noqa_suppresses(lint):
    assert codes(lint(HEAD + "    return x.sum().item()  # noqa\n")) == []


def test_marker_inside_string_is_not_a_suppression(lint):
    src = HEAD + '    s = "# tclint: ignore[TC102]"\n    return x.sum().item()\n'
    assert codes(lint(src)) == ["TC102"]


def test_suppression_edit_adds_or_extends_the_comment(lint):
    from tclint.analyzer.api import suppression_edit

    diag = lint(HEAD + "    return x.sum().item()\n")[0]
    edit = suppression_edit(diag, "    return x.sum().item()\n")
    assert (edit.span.column, edit.new_text) == (26, "  # tclint: ignore[TC102]")
    edit = suppression_edit(diag, "    return x.sum().item()  # tclint: ignore[TC101]\n")
    assert edit.new_text == "TC101, TC102"
    line = "    return x.sum().item()  # tclint: ignore[TC101]"
    assert line[edit.span.column - 1:edit.span.end_column - 1] == "TC101"


def test_unknown_code_is_reported_as_written(lint):
    diags = lint(HEAD + "    return x.sum().item()  # tclint: ignore[TC1O2]\n")
    assert [(d.code, d.message) for d in diags if d.code == "TC003"] == [
        ("TC003", "unknown rule code `TC1O2` in suppression")]
    noqa = lint(HEAD + "    return x.sum().item()  # noqa: TC1O2\n")
    assert [d.message for d in noqa if d.code == "TC003"] == ["unknown rule code `TC1O2` in suppression"]


def test_codes_may_be_separated_by_spaces(lint):
    assert codes(lint(HEAD + "    if x.sum() > 0:  # tclint: ignore[TC101 TC102]\n        return x.item()\n"
                      "    return x\n")) == ["TC002", "TC102"]
