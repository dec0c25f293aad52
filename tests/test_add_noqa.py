"""`--add-noqa` edits: where the comment goes, and that a second pass changes nothing."""
from __future__ import annotations

from tclint.analyzer.add_noqa import suppress_lines


def test_comment_goes_at_the_end_of_the_line():
    text, count, skipped = suppress_lines("a = 1\ny = x.item()\n", {2: ["TC102"]})
    assert text == "a = 1\ny = x.item()  # tclint: ignore[TC102]\n" and count == 1 and skipped == []


def test_codes_join_an_existing_tclint_comment_and_other_tools_comments_stay():
    text, _, _ = suppress_lines("y = x.item()  # noqa: E501  # tclint: ignore[TC101]\n", {1: ["TC102"]})
    assert text == "y = x.item()  # noqa: E501  # tclint: ignore[TC101, TC102]\n"


def test_several_codes_on_one_line_are_one_comment():
    text, count, _ = suppress_lines("if x.sum() > 0 and x.item():\n", {1: ["TC102", "TC101"]})
    assert text == "if x.sum() > 0 and x.item():  # tclint: ignore[TC101, TC102]\n" and count == 1


def test_second_pass_changes_nothing():
    once, _, _ = suppress_lines("y = x.item()\n", {1: ["TC102"]})
    twice, count, _ = suppress_lines(once, {1: ["TC102"]})
    assert twice == once and count == 0


def test_line_ending_inside_a_string_gets_the_comment_above():
    src = '    s = f"""{x.item()}\n    """\n'
    text, count, _ = suppress_lines(src, {1: ["TC102"]})
    assert text == '    # tclint: ignore[TC102]\n    s = f"""{x.item()}\n    """\n' and count == 1
    compile(text.replace("    ", ""), "<test>", "exec")


def test_backslash_continuation_gets_the_comment_above():
    text, _, _ = suppress_lines("y = x.item() + \\\n    1\n", {1: ["TC102"]})
    assert text == "# tclint: ignore[TC102]\ny = x.item() + \\\n    1\n"


def test_no_place_for_a_comment_is_reported_not_guessed():
    src = "y = 1 + \\\n    x.item() + \\\n    2\n"
    text, count, skipped = suppress_lines(src, {2: ["TC102"]})
    assert (text, count, skipped) == (src, 0, [2])


def test_line_endings_are_kept():
    text, _, _ = suppress_lines("a = 1\r\ny = x.item()\r\n", {2: ["TC102"]})
    assert text == "a = 1\r\ny = x.item()  # tclint: ignore[TC102]\r\n"
