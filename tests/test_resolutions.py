"""Name resolution kept between project phases (analyzer/resolutions.py): reused while the
files say the same about names, dropped where they do not, and never changing a finding."""
from tclint.analyzer.api import summarize_source
from tclint.analyzer.config import Settings
from tclint.analyzer.project import project_diagnostics
from tclint.analyzer.resolutions import Resolutions

HELPERS = "def bad(x):\n    return x.sum().item()\n\n\ndef good(x):\n    return x * 2\n"
MODEL = ("import torch\nfrom helpers import bad as step\n\n\nclass Net(torch.nn.Module):\n"
         "    def forward(self, x):\n        y = x + 1\n        return step(y)\n")


def _lint(texts: dict[str, str], resolutions: Resolutions | None = None):
    summaries = [summarize_source(text, f"/p/{name}.py", name) for name, text in texts.items()]
    return project_diagnostics(summaries, Settings(), resolutions)


def test_an_edit_inside_a_function_keeps_the_names_and_the_findings():
    kept = Resolutions()
    first = _lint({"helpers": HELPERS, "model": MODEL}, kept)
    assert [d.code for d in first] == ["TC102"] and kept.names["resolved"]
    names = kept.names
    edited = MODEL.replace("        y = x + 1\n", "        y = x + 1\n        y = y * 3\n")
    again = _lint({"helpers": HELPERS, "model": edited}, kept)
    assert kept.names["resolved"] is names["resolved"]  # the same caches, filled in further
    assert again == _lint({"helpers": HELPERS, "model": edited})


def test_a_change_in_what_a_name_means_drops_what_read_it():
    kept = Resolutions()
    _lint({"helpers": HELPERS, "model": MODEL}, kept)
    names = kept.names
    rebound = MODEL.replace("import bad as step", "import good as step")
    after = _lint({"helpers": HELPERS, "model": rebound}, kept)
    assert kept.names["resolved"] is names["resolved"] and kept.last[0] == 1  # dropped from, not replaced
    assert after == _lint({"helpers": HELPERS, "model": rebound}) == []


def test_a_new_file_starts_afresh():
    """A file that claims a name first changes the file order's verdicts."""
    kept = Resolutions()
    _lint({"helpers": HELPERS, "model": MODEL}, kept)
    names = kept.names
    added = {"helpers": HELPERS, "model": MODEL, "more": "def bad(x):\n    return x\n"}
    assert _lint(added, kept) == _lint(added)
    assert kept.names["resolved"] is not names["resolved"]
