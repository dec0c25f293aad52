"""An edited member of a class parsed alone and put in place (class_members.spliced) gives
the tree, and the cut into members, that a parse of the whole class gives; or nothing."""
from __future__ import annotations

import ast
import importlib.util
import operator
import random
from pathlib import Path

import libcst as cst
import pytest

from tclint.analyzer.class_members import class_of, members, spliced

ROOT = Path(__file__).resolve().parents[1]

CLASS = '''\
class Net(nn.Module):
    """A net."""

    scale = 2

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        # the end of __init__

    # the forward pass
    @torch.no_grad()
    def forward(self, x):
        return self.fc(x) * self.scale

    def last(self, x):
        return x.item()
'''


def _parsed(source: str):
    tree = cst.parse_module(source)
    return tree, members(source, class_of(tree))


def _same_as_whole(old: str, new: str) -> bool:
    """Whether the splice of `new` was made (False: not made), asserting it equals the whole parse."""
    tree, cut = _parsed(old)
    found = spliced(old, tree, cut, new)
    if found is None:
        return False
    got, got_cut = found
    want, want_cut = _parsed(new)
    assert got.code == new and got.deep_equals(want)
    assert [(first, text) for _, first, text in got_cut] == [(first, text) for _, first, text in want_cut]
    assert all(a.deep_equals(b) for (x, _, _), (y, _, _) in zip(got_cut, want_cut) for a, b in zip(x, y, strict=True))
    cut_nodes = [node for nodes, _, _ in got_cut for node in nodes]  # the spliced tree's own statements
    assert len(cut_nodes) == len(got.body[0].body.body) and all(map(operator.is_, cut_nodes, got.body[0].body.body))
    return True


def test_an_edit_inside_one_method_parses_that_method_alone():
    assert _same_as_whole(CLASS, CLASS.replace("return self.fc(x) * self.scale", "return self.fc(x).item()"))
    assert _same_as_whole(CLASS, CLASS.replace("        self.fc = nn.Linear(2, 2)\n",
                                               "        self.fc = nn.Linear(2, 2)\n        self.n = 3\n"))
    assert _same_as_whole(CLASS, CLASS.replace("return x.item()", "return x.tolist()"))  # the last member
    assert _same_as_whole(CLASS, CLASS.replace("scale = 2", "scale = torch.ones(1)"))  # a run of statements
    assert _same_as_whole(CLASS, CLASS.replace("@torch.no_grad()", "@torch.compile"))
    tree, cut = _parsed(CLASS)
    new = CLASS.replace("return x.item()", "return x.tolist()")
    spliced_tree, _ = spliced(CLASS, tree, cut, new)
    kept = spliced_tree.body[0].body.body
    assert all(a is b for a, b in zip(kept[:-1], tree.body[0].body.body[:-1]))  # the others are the same nodes


def test_windows_line_ends_and_tab_indents_are_spliced_as_parsed():
    for old in (CLASS.replace("\n", "\r\n"), CLASS.replace("    ", "\t")):
        assert _same_as_whole(old, old.replace("return x.item()", "return x.tolist()"))
        assert _same_as_whole(old, old.replace("self.fc(x) * self.scale", "self.fc(x)"))


def test_lines_another_member_would_own_in_the_whole_parse_make_it_parse_the_class():
    # deeper than the class body, above a method: the footer of the method above
    assert not _same_as_whole(CLASS, CLASS.replace("    # the forward pass\n", "        # the forward pass\n"))
    assert not _same_as_whole(CLASS, CLASS.replace("    # the forward pass\n", "    # the forward pass\n        \n"))
    # a method's footer that is no longer deeper: the next member's leading lines
    assert not _same_as_whole(CLASS, CLASS.replace("        # the end of __init__\n", "    # the end of __init__\n"))
    # the head of the class, two members at once, a method that becomes a statement
    assert not _same_as_whole(CLASS, CLASS.replace("class Net(nn.Module)", "class Net(Base)"))
    assert not _same_as_whole(CLASS, CLASS.replace("self.scale", "self.size").replace("x.item()", "x.tolist()"))
    assert not _same_as_whole(CLASS, CLASS.replace("    def last(self, x):\n        return x.item()\n", "    last = 1\n"))


def test_a_method_edited_into_a_syntax_error_is_not_spliced():
    assert not _same_as_whole(CLASS, CLASS.replace("return x.item()", "return x.item("))


# -- random edits of the members of real classes: every splice made equals the whole parse --
def _real_classes() -> list[str]:
    spec = importlib.util.find_spec("torch")
    files = sorted((ROOT / "examples").rglob("*.py"))
    if spec and spec.submodule_search_locations:
        nn = Path(spec.submodule_search_locations[0]) / "nn"
        files += [nn / "modules" / "linear.py", nn / "modules" / "rnn.py", nn / "modules" / "conv.py"]
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = text.splitlines(keepends=True)
        for stmt in tree.body:
            if isinstance(stmt, ast.ClassDef) and sum(isinstance(s, ast.FunctionDef) for s in stmt.body) > 1:
                first = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
                out.append("".join(lines[first - 1:stmt.end_lineno]))
    return out


LINES = ["# a comment", "x = 1", "y = x.item()", "", "   ", "        ", "pass", "return x",
         "def extra(self, x):", "@torch.compile", "if x.sum() > 0:"]


def _random_edit(source: str, rng: random.Random) -> str:
    lines = source.splitlines(keepends=True)
    at = rng.randrange(1, len(lines) + 1)
    kind = rng.random()
    if kind < 0.25 and at < len(lines):
        return "".join(lines[:at] + lines[at + 1:])  # a line removed
    indent = " " * rng.choice([0, 2, 4, 8, 12])
    line = rng.choice(LINES)
    new = (indent + line).rstrip(" ") + "\n" if line.strip() else indent + "\n"
    if kind < 0.35:
        new = "\t" + new if rng.random() < 0.5 else new.replace("    ", "\t")
    return "".join(lines[:at] + [new] + lines[at:])


@pytest.mark.parametrize("seed", range(2))
def test_random_edits_of_real_classes_spliced_equal_the_whole_parse(seed):
    rng = random.Random(seed)
    classes = _real_classes()
    made = tried = 0
    for _ in range(100):
        old = rng.choice(classes)
        new = _random_edit(old, rng)
        try:
            ast.parse(new)
            cst.parse_module(new)
        except (SyntaxError, cst.ParserSyntaxError):
            continue
        tried += 1
        made += _same_as_whole(old, new)
    assert tried > 40 and made > tried // 2  # most edits are inside one method, and spliced
