"""Unit tests of the server's pieces that need no client: conversions, settings, the
scheduler, the workspace index, code actions, start-up laziness and the command line."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from lsprotocol import types

from tclint.analyzer import api
from tclint.analyzer.diagnostic import Diagnostic, Fix, Severity, Span, TextEdit
from tclint.server import conversions
from tclint.server.code_actions import FIX_ALL_KIND, code_actions
from tclint.server.scheduler import Scheduler
from tclint.server.settings import ClientSettings, parse_client_settings, resolve
from tclint.server.workspace_index import WorkspaceIndex

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"

SAMPLE = textwrap.dedent("""\
    import torch
    @torch.compile
    def f(x):
        if x.sum() > 0:
            return x
        return x.sum().item()
""")


# -- conversions ------------------------------------------------------------------------
@pytest.mark.parametrize("encoding, expected", [(UTF8, 7), (UTF16, 4), (UTF32, 3)])
def test_code_units_per_encoding(encoding, expected):
    # 'a': 1 byte / 1 unit; '😀': 4 bytes / 2 UTF-16 units; 'é': 2 bytes / 1 unit
    assert conversions.code_units("a😀é", encoding) == expected


@pytest.mark.parametrize("encoding", [UTF8, UTF16, UTF32])
def test_position_round_trip(encoding):
    line = "s = '😀é' + t"
    lines = [line]
    for col in range(1, len(line) + 2):
        pos = conversions.to_position(lines, 1, col, encoding)
        assert pos.line == 0
        assert conversions.code_points(line, pos.character, encoding) == min(col - 1, len(line))


def test_position_clamping_and_line_breaks():
    lines = conversions.split_lines("a\r\nbb\rccc\n")
    assert lines == ["a", "bb", "ccc", ""]
    assert conversions.to_position(lines, 99, 5, UTF16) == types.Position(line=3, character=0)
    assert conversions.to_position(lines, 3, 99, UTF16) == types.Position(line=2, character=3 + 95)
    assert conversions.to_position([], 1, 1, UTF16) == types.Position(line=0, character=0)


def test_to_lsp_fields():
    diags = api.lint_source(SAMPLE, "/ws/sample.py")
    lines = conversions.split_lines(SAMPLE)
    tc101 = conversions.to_lsp(diags[0], lines, UTF16)
    assert tc101.code == "TC101"
    assert tc101.source == "tclint"
    assert tc101.severity == types.DiagnosticSeverity.Warning
    assert tc101.range == types.Range(start=types.Position(line=3, character=7),
                                      end=types.Position(line=3, character=18))
    assert tc101.code_description.href == diags[0].url
    assert tc101.related_information[0].location.uri == "file:///ws/sample.py"
    assert tc101.related_information[0].message.startswith("f:")
    assert tc101.data["code"] == "TC101" and tc101.data["gb_id"] == "GB0170"
    assert tc101.data["suppression"]["newText"] == "  # tclint: ignore[TC101]"
    assert tc101.data["suppression"]["range"]["start"] == {"line": 3, "character": len("    if x.sum() > 0:")}
    # No GB id: the rule reference is the documentation link.
    d = diags[0].with_changes(url=None, gb_id=None, severity=Severity.HINT)
    lsp = conversions.to_lsp(d, lines, UTF16)
    assert lsp.code_description.href.endswith("rules.md#tc101")
    assert lsp.severity == types.DiagnosticSeverity.Hint


def test_fix_goes_into_data():
    span = Span(6, 12, 6, 26)
    fix = Fix(title="use a tensor", edits=(TextEdit("/ws/s.py", span, "x.sum()"),))
    d = Diagnostic(path="/ws/s.py", span=span, code="TC102", name="tensor-item",
                   severity=Severity.WARNING, message="m", fix=fix)
    data = conversions.to_lsp(d, conversions.split_lines(SAMPLE), UTF16).data
    assert data["fix"]["title"] == "use a tensor"
    assert data["fix"]["edits"][0]["newText"] == "x.sum()"
    assert data["fix"]["edits"][0]["range"]["start"] == {"line": 5, "character": 11}


def test_uri_path_round_trip(tmp_path):
    p = tmp_path / "a b" / "ü.py"
    p.parent.mkdir()
    p.write_text("")
    uri = conversions.path_to_uri(str(p))
    assert conversions.uri_to_path(uri) == str(p.resolve())
    assert conversions.uri_to_path("untitled:Untitled-1") is None


# -- code actions -----------------------------------------------------------------------
def test_code_actions_suppress_docs_fix_and_fix_all():
    diags = api.lint_source(SAMPLE, "/ws/s.py")
    lines = conversions.split_lines(SAMPLE)
    span = diags[1].span
    fix = Fix(title="keep it a tensor", edits=(TextEdit("/ws/s.py", span, "x.sum()"),))
    diags[1] = diags[1].with_changes(fix=fix)
    pairs = [(d, conversions.to_lsp(d, lines, UTF16)) for d in diags]
    uri = "file:///ws/s.py"
    acts = code_actions(uri, pairs[1:], pairs, None, lines, UTF16, True)
    titles = [a.title for a in acts]
    assert titles == ["keep it a tensor", "Suppress TC102 on this line", "Open GB0124 documentation", "tclint: fix all"]
    assert acts[0].is_preferred
    assert acts[2].command.command == "tclint.openDocumentation"
    assert acts[2].command.arguments == [diags[1].url]
    fix_all = acts[3]
    assert fix_all.kind == FIX_ALL_KIND
    assert [e.new_text for e in fix_all.edit.changes[uri]] == ["x.sum()"]
    # `only` filters by kind prefix.
    only_fix_all = code_actions(uri, pairs, pairs, ["source.fixAll"], lines, UTF16, True)
    assert [a.title for a in only_fix_all] == ["tclint: fix all"]
    assert code_actions(uri, pairs, pairs, ["refactor"], lines, UTF16, True) == []
    # Without CodeAction literals only commands can be returned.
    commands = code_actions(uri, pairs, pairs, None, lines, UTF16, False)
    assert all(isinstance(c, types.Command) for c in commands) and commands


# -- settings ---------------------------------------------------------------------------
def test_parse_client_settings_is_lenient():
    s = parse_client_settings({"tclint": {"select": "tc1, TC2", "ignore": ["TC101"], "lintOnChange": False,
                                          "severity": {"TC102": "error"}, "debounceMs": 5, "bogus": 1}})
    assert s.select == ("TC1", "TC2") and s.ignore == ("TC101",)
    assert s.lint_on_change is False and s.debounce_ms == 5
    assert s.severity == (("TC102", "error"),)
    bad = parse_client_settings({"select": 3, "lintOnChange": "yes", "debounceMs": -1})
    assert bad.select is None and bad.lint_on_change is True and len(bad.problems) == 3
    assert parse_client_settings(None) == ClientSettings()


def test_parse_confirm_settings():
    assert ClientSettings().confirm_enabled is False  # nothing runs unless the client says so
    s = parse_client_settings({"tclint": {"confirm": {"enabled": True, "python": "/venv/bin/python", "device": "cuda",
                                                      "timeout": 30, "onSave": True, "showRefuted": False}}})
    assert (s.confirm_enabled, s.confirm_python, s.confirm_device, s.confirm_timeout) == (True, "/venv/bin/python", "cuda", 30.0)
    assert s.confirm_on_save is True and s.confirm_show_refuted is False and s.problems == ()
    dotted = parse_client_settings({"confirm.enabled": True, "confirm.device": "auto"})
    assert dotted.confirm_enabled is True and dotted.confirm_device == "auto"
    bad = parse_client_settings({"confirm": {"enabled": "yes", "device": "tpu", "timeout": -2, "python": 3}})
    assert bad.confirm_enabled is False and bad.confirm_device is None and bad.confirm_timeout is None
    assert bad.confirm_python is None and len(bad.problems) == 4
    # The VS Code extension sends an empty python and leaves device / timeout out when unset.
    vscode = parse_client_settings({"settings": {"confirm": {"enabled": False, "python": "", "onSave": False,
                                                             "showRefuted": True}}})
    assert vscode.confirm_python is None and vscode.problems == ()


def test_confirm_store_overlay(tmp_path):
    from tclint.server.confirm import ConfirmStore, digest

    path = str(tmp_path / "m.py")
    text = "x = 1\ny = 2\n"
    (tmp_path / "m.py").write_text(text)

    def diag(code, line, **kw):
        return Diagnostic(path=path, span=Span(line, 1, line, 5), code=code, name=code.lower(),
                          severity=kw.pop("severity", Severity.WARNING), message=kw.pop("message", code), **kw)

    static = [diag("TC101", 1), diag("TC102", 2)]
    merged = [diag("TC101", 1, severity=Severity.ERROR, confirmed=True),
              diag("TC102", 2, confirmed=False),
              diag("TC900", 2, severity=Severity.ERROR, confirmed=True)]
    store = ConfirmStore()
    key = tmp_path
    assert store.put(key, {path: digest(text.encode())}, {}, merged) == {path}
    out = store.overlay(key, path, static, text)
    assert [(d.code, d.severity, d.confirmed) for d in out] == [
        ("TC101", Severity.ERROR, True), ("TC102", Severity.HINT, False), ("TC900", Severity.ERROR, True)]
    assert out[0].text() == "TC101 [confirmed by Dynamo]"
    hidden = store.overlay(key, path, static, text, show_refuted=False, selected=lambda code: code != "TC900")
    assert [d.code for d in hidden] == ["TC101"]
    # Read from disk when the document is not open.
    assert len(store.overlay(key, path, static, None)) == 3
    # A finding the run did not see (new since) is left as it is.
    extra = diag("TC103", 2)
    assert extra in store.overlay(key, path, static + [extra], text)
    # The file changed: its results are dropped for good, even if the edit is undone.
    assert store.overlay(key, path, static, text + "z = 3\n") == static
    assert store.overlay(key, path, static, text) == static
    assert store.get(key, path) is None


def test_resolve_client_wins_over_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.tclint]\nignore = ['TC102']\nseverity = { TC101 = 'error' }\n")
    settings, errors = resolve(tmp_path, ClientSettings())
    assert errors == [] and settings.ignore == ("TC102",)
    settings, errors = resolve(tmp_path, ClientSettings(ignore=("TC101",), severity=(("TC101", "hint"),)))
    diags = api.lint_source(SAMPLE, str(tmp_path / "s.py"), settings)
    assert diags == []
    settings, _ = resolve(tmp_path, ClientSettings(select=("TC1",), severity=(("TC101", "hint"),)))
    diags = api.lint_source(SAMPLE, str(tmp_path / "s.py"), settings)
    assert [(d.code, d.severity) for d in diags] == [("TC101", Severity.HINT), ("TC102", Severity.WARNING)]


def test_resolve_reports_bad_config_and_uses_defaults(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tclint]\nselect = 'TC1'\n")
    settings, errors = resolve(tmp_path, ClientSettings(ignore=("TC102",)))
    assert len(errors) == 1 and "select" in errors[0]
    assert settings.select == ("ALL",) and settings.ignore == ("TC102",)
    settings, errors = resolve(tmp_path, ClientSettings(ignore=("XX9",)))
    assert any("XX9" in e for e in errors)


# -- scheduler --------------------------------------------------------------------------
async def test_scheduler_debounces_and_drops_superseded_runs():
    started = threading.Event()
    release = threading.Event()
    snapshots: list[int] = []
    finished: list[int] = []
    errors: list[BaseException] = []
    counter = {"n": 0}

    def start(key):
        counter["n"] += 1
        snapshots.append(counter["n"])
        return counter["n"]

    def work(snap, superseded):
        if snap == 1:
            started.set()
            release.wait(5)
        if superseded():
            return None
        if snap == 3:
            raise RuntimeError("boom")
        return snap

    done = asyncio.Event()

    def finish(result):
        finished.append(result)
        done.set()

    sched = Scheduler(start, work, finish, lambda key, exc: (errors.append(exc), done.set()))
    try:
        for _ in range(5):  # five quick requests: one run
            sched.schedule("p", 0.01)
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        assert snapshots == [1]
        sched.schedule("p", 0.0)  # supersedes run 1 while it works
        await asyncio.sleep(0)
        release.set()
        await asyncio.wait_for(done.wait(), 5)
        assert finished == [2]  # run 1's result was dropped
        done.clear()
        sched.schedule("p", 0.0)
        await asyncio.wait_for(done.wait(), 5)
        assert isinstance(errors[0], RuntimeError)  # reported, and the scheduler carries on
        done.clear()
        sched.schedule("p", 0.0)
        await asyncio.wait_for(done.wait(), 5)
        assert finished == [2, 4]
        assert not sched.pending("p")
    finally:
        release.set()
        sched.close()


async def test_work_on_the_analysis_thread_sees_a_run_waiting_behind_it():
    release = threading.Event()
    seen: list[bool] = []
    ran = asyncio.Event()

    def work(snap, superseded):
        seen.append(sched.runs_waiting())  # begun: no longer waiting
        return snap

    sched = Scheduler(lambda key: 1, work, lambda result: ran.set(), lambda key, exc: None)
    try:
        blocker = sched.submit(lambda: (release.wait(5), sched.runs_waiting())[1])
        assert not sched.runs_waiting()
        sched.schedule("p", 0.0)
        await asyncio.sleep(0.05)
        assert sched.runs_waiting()  # queued behind the blocker
        release.set()
        assert await blocker is True  # what the blocker saw as it finished
        await asyncio.wait_for(ran.wait(), 5)
        assert seen == [False] and not sched.runs_waiting()
    finally:
        release.set()
        sched.close()


def test_indexing_goes_on_in_steps(tmp_path):
    from tclint.analyzer.config import Settings

    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.py").write_text(f"def {name}(x):\n    return x.sum().item()\n")
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    done: set[str] = set()
    calls = {"n": 0}

    def after_one_file():
        calls["n"] += 1
        return calls["n"] > 1

    index.index_project(key, cancelled=after_one_file, done=done)
    assert len(done) == 1 and len(index.project(key).summaries) == 1
    first = set(done)
    read = []
    real = index.refresh_from_disk
    index.refresh_from_disk = lambda path: read.append(path) or real(path)
    index.index_project(key, done=done)
    assert len(read) == 2 and not first & set(read)  # the other two, once each
    assert len(index.project(key).summaries) == 3


# -- workspace index --------------------------------------------------------------------
def test_index_cross_file_and_revert(tmp_path):
    from tclint.analyzer.config import Settings

    (tmp_path / "b.py").write_text("def bad(x):\n    return x.sum().item()\n")
    (tmp_path / "a.py").write_text("import torch\nfrom b import bad\n@torch.compile\ndef f(x):\n    return bad(x)\n")
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = index.project_key(str(tmp_path / "a.py"))
    assert key == tmp_path.resolve()
    index.project(key).settings = Settings()
    assert index.index_project(key) == []
    b = str((tmp_path / "b.py").resolve())
    a = str((tmp_path / "a.py").resolve())
    assert [d.code for d in index.diagnostics(key).get(b, [])] == ["TC102"]
    # The editor's unsaved text of a.py stops calling bad(): b.py is clean.
    index.set_buffer(a, "import torch\n@torch.compile\ndef f(x):\n    return x\n")
    assert index.diagnostics(key).get(b, []) == []
    # Closing a.py without saving: back to the disk contents.
    index.revert_to_disk(a)
    assert [d.code for d in index.diagnostics(key).get(b, [])] == ["TC102"]
    # Over max-file-size: skipped with a notice.
    index.project(key).settings = Settings(max_file_size=10)
    assert "max-file-size" in index.set_buffer(a, "x = 1\n" * 10)
    assert a not in index.project(key).summaries


def test_an_edit_that_leaves_every_summary_equal_skips_the_project_phase(tmp_path, monkeypatch):
    from tclint.analyzer import api as analyzer_api
    from tclint.analyzer.config import Settings

    (tmp_path / "b.py").write_text("def bad(x):\n    return x.sum().item()\n")
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    index.index_project(key)
    a = str((tmp_path / "a.py").resolve())
    b = str((tmp_path / "b.py").resolve())
    runs = []
    real = analyzer_api.project_diagnostics
    monkeypatch.setattr(analyzer_api, "project_diagnostics", lambda *args: runs.append(1) or real(*args))
    index.set_buffer(a, "import torch\nfrom b import bad\n@torch.compile\ndef f(x):\n    y = x\n    return bad(x)\n")
    first = index.diagnostics(key)
    assert [d.code for d in first[b]] == ["TC102"] and len(runs) == 1
    # The body changes, what the summary holds does not: the last findings stand.
    index.set_buffer(a, "import torch\nfrom b import bad\n@torch.compile\ndef f(x):\n    y = x + 0\n    return bad(x)\n")
    assert index.diagnostics(key) is first and len(runs) == 1
    # Another call changes the summary, other settings change the findings: both run it again.
    index.set_buffer(a, "import torch\nfrom b import bad\n@torch.compile\ndef f(x):\n    y = x\n    return x\n")
    assert index.diagnostics(key).get(b, []) == [] and len(runs) == 2
    index.project(key).settings = Settings(ignore=["TC102"])
    index.diagnostics(key)
    assert len(runs) == 3


def test_loose_file_outside_folders(tmp_path):
    index = WorkspaceIndex()
    index.set_folders([tmp_path / "ws"])
    loose = str(tmp_path / "other" / "x.py")
    assert index.project_key(loose) == tmp_path / "other"


# -- the server object without a client: one bad document does not stop the others ----------
def test_internal_error_in_one_document_is_contained(monkeypatch, tmp_path):
    from tclint.server.app import TclintLanguageServer
    from tclint.server.lint_run import Snapshot

    ls = TclintLanguageServer()
    ls.set_folders([tmp_path])
    good, bad = str(tmp_path / "good.py"), str(tmp_path / "bad.py")
    real = ls.index.set_buffer

    def set_buffer(path, text):
        if path == bad:
            raise ValueError("analyzer bug")
        return real(path, text)

    monkeypatch.setattr(ls.index, "set_buffer", set_buffer)
    key = Path(tmp_path).resolve()
    snap = Snapshot(key=key, encoding=UTF16, changed={good: SAMPLE, bad: "x = 1\n"}, reverted=[], disk=[],
                    open_docs={"file:///good": (good, 1, SAMPLE), "file:///bad": (bad, 1, "x = 1\n")})
    out = ls._analyze(snap, lambda: False)
    assert any("internal error" in e and "analyzer bug" in e for e in out.errors)
    assert [d.code for d in out.results["file:///good"].lsp] == ["TC101", "TC102"]
    assert out.results["file:///bad"].lsp == []


def test_a_run_converts_only_documents_whose_findings_or_lines_may_have_changed(tmp_path):
    from tclint.analyzer.config import Settings
    from tclint.server.lint_run import Snapshot, analyze

    helper = "def bad(x):\n    return x.sum().item()\n"
    caller = "import torch\nfrom b import bad\n@torch.compile\ndef f(x):\n    return bad(x)\n"
    other = "import torch\n@torch.compile\ndef g(x):\n    return x.sum().item()\n"
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    a, b, c = (str(key / name) for name in ("a.py", "b.py", "c.py"))
    docs = {"file:///a": (a, 1, caller), "file:///b": (b, 1, helper), "file:///c": (c, 1, other)}

    def run(changed, docs, previous):
        snap = Snapshot(key=key, encoding=UTF16, changed=changed, reverted=[], disk=[], open_docs=docs,
                        previous=previous)
        return analyze(index, snap, lambda: False, lambda key, errors: None).results

    first = run({a: caller, b: helper, c: other}, docs, {})
    # a.py gains a line: b.py's finding (reached from a.py) points into a.py, whose lines
    # moved, so it is converted again; c.py's is the one of the run before, as it was.
    edited = "\n" + caller
    second = run({a: edited}, {**docs, "file:///a": (a, 2, edited)}, first)
    assert second["file:///c"] is first["file:///c"]
    assert second["file:///b"] is not first["file:///b"]
    steps = [(r.message, r.location.range.start.line) for r in second["file:///b"].lsp[0].related_information]
    assert steps == [("f: compiled at a.py:5", 4), ("calls bad", 5)]  # a line down
    assert [d.code for d in second["file:///c"].lsp] == ["TC102"]


# -- start-up and command line -------------------------------------------------------------
def test_start_up_is_lazy():
    code = (
        "import sys\n"
        "from tclint.server.app import create_server\n"
        "create_server()\n"
        "bad = [m for m in sys.modules if m == 'torch' or m.startswith(('tclint.analyzer', 'libcst'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_server_help_through_cli():
    from tclint.server.__main__ import build_parser

    assert build_parser().parse_args(["--stdio"]).stdio
    out = subprocess.run([sys.executable, "-m", "tclint.analyzer", "server", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "stdin/stdout" in out.stdout


def test_there_is_no_tcp_mode():
    # A local socket has no owner: a second connection could enable confirmation and run code.
    out = subprocess.run([sys.executable, "-m", "tclint.server", "--tcp", "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unrecognized arguments: --tcp" in out.stderr


# -- the parse process ----------------------------------------------------------------------
def test_parse_pool_in_a_process_and_recovery():
    from tclint.analyzer.project import summarize
    from tclint.server.parse_pool import ParsePool, SummaryFailed

    data = SAMPLE.encode()
    pool = ParsePool(threshold=0, timeout=60)
    try:
        remote = pool.summarize(data, "/ws/s.py", "s", False)
        local = summarize(data, "/ws/s.py", "s", False)
        assert sorted(remote.functions) == sorted(local.functions) == ["s.f"]
        assert [c.code for c in remote.functions["s.f"].candidates] == ["TC101", "TC102"]
        pool.timeout = 0.0001
        with pytest.raises(SummaryFailed, match="took over"):
            pool.summarize(data * 2000, "/ws/big.py", "big", False)
        pool.timeout = 60
        assert pool.summarize(data, "/ws/s.py", "s", False).functions.keys() == local.functions.keys()
    finally:
        pool.close()
    # Below the threshold: on the calling thread. Once closed (the server is ending): never.
    assert ParsePool(threshold=10**9).summarize(data, "/ws/s.py", "s", False).functions.keys() == {"s.f"}
    with pytest.raises(SummaryFailed, match="shutting down"):
        pool.summarize(data, "/ws/s.py", "s", False)


def test_closing_the_pool_waits_for_its_teardown():
    """close() returns once the pool's manager thread has torn the killed pool down: the
    server exits right after, and its clean-up closing a pipe under that thread made it fail
    with a traceback on stderr."""
    import threading
    import time

    from tclint.server.parse_pool import ParsePool

    pool = ParsePool(threshold=0)
    pool.post(time.sleep, 30)  # busy: the worker is killed mid-job
    assert pool.running
    pool.close()
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


def test_index_uses_the_summary_cache(tmp_path, monkeypatch):
    from tclint.analyzer.config import Settings

    monkeypatch.delenv("TCLINT_CACHE_DIR")  # where it goes for a user: the workspace's own folder
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    (tmp_path / "m.py").write_text(SAMPLE)
    index = WorkspaceIndex()
    index.set_folders([tmp_path])
    key = tmp_path.resolve()
    index.project(key).settings = Settings()
    index.index_project(key)
    assert list((tmp_path / ".tclint_cache").glob("*/*/*"))  # as the CLI's: .tclint_cache at the root
    # A second server start reads the summaries back instead of parsing.
    again = WorkspaceIndex()
    again.set_folders([tmp_path])
    again.project(key).settings = Settings()
    monkeypatch.setattr(again.pool, "summarize", lambda *a: pytest.fail("parsed again"))
    again.index_project(key)
    path = str((tmp_path / "m.py").resolve())
    assert [d.code for d in again.diagnostics(key)[path]] == ["TC101", "TC102"]
