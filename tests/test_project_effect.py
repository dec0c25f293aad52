"""A re-summarized file whose only change is a module-level `x = f(...)` of a call that runs
nothing in the project (`logger = logging.get_logger(__name__)` and `... or None`) leaves the
project phase's findings as they were: the server answers without running it again. A value
that does run project code (`STORE = Store()`, `_p = wrap(f)`) is not such a change."""
import pytest

from tclint.analyzer import api
from tclint.analyzer.api import summarize_source
from tclint.analyzer.config import Settings
from tclint.analyzer.project import project_diagnostics
from tclint.analyzer.project_effect import same_in_effect
from tclint.analyzer.project_tables import key_tables
from tclint.analyzer.resolutions import Resolutions
from tclint.server.workspace_index import WorkspaceIndex

MODEL = '''import logging
import torch
from store import Store, wrap

{line}


class Net(torch.nn.Module):
    def forward(self, x):
        return x.sum().item()
'''
STORE = '''class Store:
    def get(self, x):
        return x.sum().item()


def wrap(f):
    def inner(x):
        return f(x)
    return inner


def step(x):
    return x
'''


def _files(line: str):
    return [summarize_source(STORE, "/p/store.py", "store"),
            summarize_source(MODEL.format(line=line), "/p/model.py", "model")]


@pytest.mark.parametrize("before, after, same", [
    ("logger = logging.getLogger(__name__)", "logger = logging.getLogger(__name__) or None", True),
    ("logger = logging.getLogger(__name__)", "logger = logging.getLogger('other')", True),
    ("logger = logging.getLogger(__name__)", "", True),
    ("STORE = Store()", "STORE = Store() or None", False),  # STORE.get() runs Store.get
    ("_p = wrap(step)", "_p = wrap(step) or None", False),  # _p() runs wrap's inner
    ("logger = logging.getLogger(__name__)", "logger = logging.getLogger(__name__)\nimport os", False),
])
def test_an_entry_of_a_call_that_runs_nothing_in_the_project_is_no_change(before, after, same):
    files = _files(before)
    edited = _files(after)[1]
    assert same_in_effect(files[1], edited, files, key_tables(files)) is same
    if same:
        assert project_diagnostics(files, Settings()) == project_diagnostics([files[0], edited], Settings())


def test_the_server_answers_such_an_edit_from_the_last_run_in_both_directions(tmp_path, monkeypatch):
    (tmp_path / "store.py").write_text(STORE)
    (tmp_path / "model.py").write_text(MODEL.format(line="logger = logging.getLogger(__name__)"))
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    index.index_project(key)
    first = index.diagnostics(key)
    runs = []  # project phases run from here on (diagnostics imports it from the api module)
    monkeypatch.setattr(api, "project_diagnostics", lambda *a, **k: runs.append(1) or [])
    model = str(key / "model.py")
    for line in ("logger = logging.getLogger(__name__) or None", "logger = logging.getLogger(__name__)"):
        index.set_buffer(model, MODEL.format(line=line))
        assert index.diagnostics(key) == first
    assert runs == []
    index.set_buffer(model, MODEL.format(line="STORE = Store()"))
    index.diagnostics(key)
    assert runs == [1]


HELPER = '''import torch


def scale(x, w=None):
    {use}
    return x


def other(x, w=None):
    return x


def mid(x, w=None):
    return {callee}(x, w)


def spread(x, **kwargs):
    return {callee}(x * 1, **kwargs)


@torch.compile
def run(x, w=None):
    if w is None and not torch.compiler.is_compiling():
        w = x
    return {call}
'''


@pytest.mark.parametrize("call, callee, same", [
    ("x", "scale", True),  # no call passes a None under torch.compile: TC239 waits for nothing
    ("scale(x, w)", "scale", False),  # `w` is None while compiling and reaches scale
    ("mid(x, w)", "scale", False),  # through mid, which passes its `w` on
    ("mid(x, w)", "other", True),  # mid passes it to another function
    ("other(x, w)", "scale", True),
    ("spread(x, w=w)", "scale", False),  # in spread's **kwargs, passed on
    ("spread(x, w=w)", "other", True),
])
def test_a_first_use_of_a_parameter_edited_is_no_change_while_no_call_passes_it_none_under_compile(
        call, callee, same):
    # `y = w` -> `y = w + 0`: the first use of `w` now fails on None (a TC239 finding that waits
    # for a caller passing None while compiling; and a TC246 one waiting for a str Enum member);
    # it matters only if some compiled call passes one.
    source = HELPER.format(call=call, callee=callee, use="{use}")
    files = [summarize_source(source.format(use="y = w"), "/p/helper.py", "helper")]
    edited = summarize_source(source.format(use="y = w + 0"), "/p/helper.py", "helper")
    assert files[0] != edited
    resolutions = Resolutions()
    before = project_diagnostics(files, Settings(), resolutions)
    assert same_in_effect(files[0], edited, files, key_tables(files), receivers=resolutions.arg_receivers.last) is same
    assert (before == project_diagnostics([edited], Settings())) is same


ENUM_HELPER = '''import enum
import torch


class Mode(str, enum.Enum):
    A = "a"


def scale(x, w):
    {use}
    return x


@torch.compile
def run(x):
    return scale(x, {arg})
'''


@pytest.mark.parametrize("arg, same", [
    ('"a"', True),  # a plain str: `w + "_v2"` traces
    ("Mode.A", False),  # a member of a str Enum: `+` on it breaks (TC246)
])
def test_an_operator_on_a_parameter_edited_is_no_change_while_no_compiled_call_passes_it_a_str_enum_member(
        arg, same):
    source = ENUM_HELPER.format(arg=arg, use="{use}")
    files = [summarize_source(source.format(use="y = w"), "/p/helper.py", "helper")]
    edited = summarize_source(source.format(use='y = w + "_v2"'), "/p/helper.py", "helper")
    resolutions = Resolutions()
    before = project_diagnostics(files, Settings(), resolutions)
    assert same_in_effect(files[0], edited, files, key_tables(files), receivers=resolutions.arg_receivers.last) is same
    assert (before == project_diagnostics([edited], Settings())) is same


PASSER = '''def scale(x, w=None):
    y = w + 0
    return x


def mid(x, w=None):
    return scale({args})
'''
RUNNER = '''import torch
from passer import mid


@torch.compile
def run(x, w=None):
    if w is None and not torch.compiler.is_compiling():
        w = x
    return mid(x, w)
'''


def test_the_functions_that_receive_a_none_under_compile_follow_an_edit_of_the_file_passing_it_on():
    # The calls passing a None on are kept per file between runs: the edited file's are made
    # again, so `scale` stops receiving one when `mid` no longer passes its `w` on.
    runner = summarize_source(RUNNER, "/p/runner.py", "runner")
    resolutions = Resolutions()
    last = {}
    for args in ("x, w", "2, 3", "x, w"):
        files = [summarize_source(PASSER.format(args=args), "/p/passer.py", "passer"), runner]
        project_diagnostics(files, Settings(), resolutions)
        fresh = Resolutions()
        project_diagnostics(files, Settings(), fresh)
        assert resolutions.arg_receivers.last == fresh.arg_receivers.last
        last[args] = resolutions.arg_receivers.last
    assert "passer.scale" in last["x, w"].none and "passer.scale" not in last["2, 3"].none


STEPS = "def step(x):\n    return x\n\n\ndef bad(x):\n    return x.sum().item()\n"
USER = "import torch\nfrom mid import step\n\n\n@torch.compile\ndef run(x):\n    return step(x)\n"


def _reexported(mid: str):
    return [summarize_source(STEPS, "/p/steps.py", "steps"), summarize_source(mid, "/p/mid.py", "mid"),
            summarize_source(USER, "/p/user.py", "user")]


@pytest.mark.parametrize("after, same", [
    ("from steps import step\nimport os\n", True),  # nothing looks up `os` in mid
    ("from steps import step, bad\n", True),
    ("from steps import bad as step\n", False),  # user's `step` is mid's: now the breaking one
    ("from steps import step, bad\nother = bad\n", True),  # an alias nothing reads
])
def test_an_import_of_a_name_the_last_run_never_looked_up_is_no_change(after, same):
    files = _reexported("from steps import step\n")
    edited = _reexported(after)
    resolutions = Resolutions()
    before = project_diagnostics(files, Settings(), resolutions)
    assert same_in_effect(files[1], edited[1], files, key_tables(files), read=resolutions.read) is same
    assert (before == project_diagnostics(edited, Settings())) is same


def test_the_server_answers_an_import_nothing_reads_from_the_last_run(tmp_path, monkeypatch):
    for name, text in (("steps", STEPS), ("mid", "from steps import step\n"), ("user", USER)):
        (tmp_path / f"{name}.py").write_text(text)
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    index.index_project(key)
    first = index.diagnostics(key)
    runs = []
    monkeypatch.setattr(api, "project_diagnostics", lambda *a, **k: runs.append(1) or [])
    mid = str(key / "mid.py")
    index.set_buffer(mid, "import os\nfrom steps import step\n")
    assert index.diagnostics(key) == first and runs == []
    index.set_buffer(mid, "import os\nfrom steps import bad as step\n")
    index.diagnostics(key)
    assert runs == [1]


CALLER = "import torch\nfrom defs import helper\n\n\n@torch.compile\ndef run(x):\n    return helper(x)\n"
BREAKS = "\n\ndef {name}(x):\n    return x.sum().item()\n"


@pytest.mark.parametrize("name, same", [
    ("unused", True),  # nothing looks up `unused`: nothing can reach it
    ("helper", False),  # caller's `helper` was looked up (and not found): now it runs, and breaks
])
def test_a_def_added_whose_name_the_last_run_never_looked_up_is_no_change(name, same):
    defs = "def other(x):\n    return x\n"
    files = [summarize_source(defs, "/p/defs.py", "defs"), summarize_source(CALLER, "/p/caller.py", "caller")]
    edited = summarize_source(defs + BREAKS.format(name=name), "/p/defs.py", "defs")
    resolutions = Resolutions()
    before = project_diagnostics(files, Settings(), resolutions)
    assert same_in_effect(files[0], edited, files, key_tables(files), read=resolutions.read) is same
    assert (before == project_diagnostics([edited, files[1]], Settings())) is same
    assert same_in_effect(edited, files[0], [edited, files[1]], key_tables([edited, files[1]])) is False  # reads unknown


HUB_LIB = "def scale(x, w):\n    return x\n\n\ndef other(x, w):\n    return x\n"
HUB = "from lib import {name}\n"
HUB_USER = '''import enum
import torch
from hub import scale


class Mode(str, enum.Enum):
    A = "a"


{decorator}def run(x):
    return scale(x, Mode.A)
'''


def test_the_functions_passed_a_str_enum_member_follow_a_root_added_and_a_re_export_rebound_elsewhere():
    # What each reached call passing a member resolves to is counted and patched between runs
    # (analyzer/project_members.py): `run` compiled joins the region and passes Mode.A to
    # lib.scale; hub's re-export rebound to lib.other, in a file the caller's is not, changes
    # what the kept call runs; `run` no longer compiled passes nothing.
    lib = summarize_source(HUB_LIB, "/p/lib.py", "lib")
    hubs = {name: summarize_source(HUB.format(name=name), "/p/hub.py", "hub") for name in ("scale", "other as scale")}
    users = {compiled: summarize_source(HUB_USER.format(decorator="@torch.compile\n" * compiled), "/p/user.py", "user")
             for compiled in (False, True)}  # the same summary while the file stands, as the server keeps it
    resolutions = Resolutions()
    members = []
    for compiled, name in ((False, "scale"), (True, "scale"), (True, "other as scale"), (False, "other as scale")):
        files = [lib, hubs[name], users[compiled]]
        project_diagnostics(files, Settings(), resolutions)
        fresh = Resolutions()
        project_diagnostics(files, Settings(), fresh)
        assert resolutions.arg_receivers.last == fresh.arg_receivers.last
        members.append(resolutions.arg_receivers.last.members)
    assert members == [frozenset(), {"lib.scale"}, {"lib.other"}, frozenset()]
