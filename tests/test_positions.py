"""positions.positions gives every node the range libcst's PositionProvider gives it."""
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from tclint.analyzer.positions import positions
from tests.test_tree_walk import EVERY_KIND

ROOT = Path(__file__).resolve().parent.parent


def _same_ranges(source: str) -> None:
    tree = cst.parse_module(source)
    theirs = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = positions(tree)
    assert len(ours) == len(theirs)
    assert {node: ours[node] for node in theirs} == dict(theirs)


@pytest.mark.parametrize("source", [
    EVERY_KIND,
    "",  # an empty module still ends one line down
    "x = 1",  # no trailing newline
    "if x:\r\n    y = 1\r\n# trailing comment\r\n",  # CRLF, a comment in the footer
    "def f():\n\tif a:\n\t\treturn (1,\n\t\t        2)\n",  # tabs, a bracket across lines
    's = """a\nb\\\nc"""; t = f"""{x}\r\n{y}"""\n',  # newlines inside tokens
], ids=["every-kind", "empty", "no-newline", "crlf", "tabs", "multiline-tokens"])
def test_ranges_are_libcsts(source):
    _same_ranges(source)


@pytest.mark.parametrize("path", [ROOT / "analyzer/file_analysis.py", ROOT / "analyzer/incremental.py"],
                         ids=lambda p: p.name)
def test_ranges_of_real_files_are_libcsts(path):
    _same_ranges(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", [ROOT / "analyzer/file_analysis.py", ROOT / "examples/tinyvit/layers.py"],
                         ids=lambda p: p.name)
def test_the_nodes_asked_for_get_libcsts_ranges(path):
    import random

    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    theirs = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    nodes = list(theirs)
    rng = random.Random(path.name)
    for count in (1, 3, 40):
        wanted = rng.sample(nodes[: len(nodes) // 2], count)  # the generation stops after the last of them
        ours = positions(tree, wanted)
        assert {node: ours[node] for node in wanted} == {node: theirs[node] for node in wanted}
