"""The language server's `tclint.confirmFile` / `tclint.confirmWorkspace` commands, end to end
with pytest-lsp: the examples run under Dynamo, progress is reported, and the republished
diagnostics carry Dynamo's verdict. Skipped when torch is not installed."""
from __future__ import annotations

import asyncio
import importlib.util
import sys
import textwrap

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from test_server_e2e import Editor, codes

pytestmark = pytest.mark.dynamo

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed", allow_module_level=True)

CONFIRM_TIMEOUT = 600.0

MODELS = textwrap.dedent("""\
    import torch

    @torch.compile
    def to_python(x):
        return x.sum().item()

    @torch.compile
    def stringify(x, to_text=str):
        return to_text(x) + "!"  # str() under another name: no rule sees it

    def tclint_examples():
        x = torch.randn(3)
        return [
            ("predicted", to_python._torchdynamo_orig_callable, (x,), {}),
            ("unpredicted", stringify._torchdynamo_orig_callable, (x,), {}),
        ]
""")


def _session(confirm: dict, spec: str = "visual-studio-code"):
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tclint.server"]))
    async def fixture(lsp_client: LanguageClient, tmp_path_factory):
        root = tmp_path_factory.mktemp("confirm-ws")
        params = types.InitializeParams(
            capabilities=client_capabilities(spec),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            initialization_options={"debounceMs": 30, "confirm": {"timeout": 120, **confirm}},
        )
        lsp_client.init_result = await lsp_client.initialize_session(params)
        lsp_client.ws_root = root
        lsp_client.spec = spec
        yield
        await lsp_client.shutdown_session()

    return fixture


trusted = _session({"enabled": True})
untrusted = _session({"enabled": False})
on_save = _session({"enabled": True, "onSave": True})
pulling = _session({"enabled": True}, spec="neovim")


async def _execute(client: LanguageClient, command: str, *arguments):
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments)))


async def test_confirm_file_marks_findings(trusted: LanguageClient):
    client = trusted
    editor = Editor(client, client.ws_root, client.spec, client.init_result)
    commands = client.init_result.capabilities.execute_command_provider.commands
    assert "tclint.confirmFile" in commands and "tclint.confirmWorkspace" in commands

    uri = editor.open("models.py", MODELS)
    before = await editor.diagnostics(uri, lambda d: "TC102" in codes(d))
    assert "TC900" not in codes(before)

    result = await asyncio.wait_for(_execute(client, "tclint.confirmFile", uri), CONFIRM_TIMEOUT)
    assert result["ran"] is True, result
    assert {c["name"]: c["status"] for c in result["cases"]} == {"predicted": "ok", "unpredicted": "ok"}

    # Progress: begin, a report per finished module, end.
    reports = [r for token, rs in client.progress_reports.items() if "confirm" in str(token) for r in rs]
    kinds = [r.kind for r in reports]
    assert kinds[0] == "begin" and kinds[-1] == "end" and "report" in kinds, kinds
    assert reports[0].cancellable is True

    diags = await editor.diagnostics(uri, lambda d: "TC900" in codes(d))
    tc102 = next(d for d in diags if d.code == "TC102")
    assert tc102.severity == types.DiagnosticSeverity.Error
    assert "confirmed by Dynamo" in tc102.message
    assert tc102.range.start.line == 4
    assert tc102.data["confirmed"] is True
    tc900 = next(d for d in diags if d.code == "TC900")
    assert tc900.range.start.line == 8
    assert "unpredicted" in tc900.message and "GB0059" in tc900.message

    # The results stay until the file changes: an edit drops them for this file.
    editor.change(uri, MODELS.replace('"!"', '"?"'))
    after = await editor.diagnostics(uri, lambda d: "TC900" not in codes(d))
    assert next(d for d in after if d.code == "TC102").severity == types.DiagnosticSeverity.Warning
    # ... and undoing the edit does not bring them back.
    editor.change(uri, MODELS)
    again = await editor.next_diagnostics(uri)
    assert "TC900" not in codes(again)

    # Saved with the lines shifted, and confirmed again: the verdicts follow the new lines.
    shifted = "\n\n" + MODELS
    editor.change(uri, shifted)
    editor.write("models.py", shifted)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    result = await asyncio.wait_for(_execute(client, "tclint.confirmFile", uri), CONFIRM_TIMEOUT)
    assert result["ran"] is True
    diags = await editor.diagnostics(uri, lambda d: "TC900" in codes(d))
    assert [(d.code, d.range.start.line, d.severity) for d in diags] == [
        ("TC102", 6, types.DiagnosticSeverity.Error), ("TC900", 10, types.DiagnosticSeverity.Error)]


async def test_confirm_disabled_runs_nothing(untrusted: LanguageClient):
    client = untrusted
    from tclint.analyzer.cache_folders import cache_folder
    from tclint.analyzer.config import Settings

    results = cache_folder(Settings(), client.ws_root) / "confirm"
    before = sorted(results.iterdir()) if results.is_dir() else []
    editor = Editor(client, client.ws_root, client.spec, client.init_result)
    uri = editor.open("models.py", MODELS)
    await editor.diagnostics(uri, lambda d: "TC102" in codes(d))
    result = await _execute(client, "tclint.confirmFile", uri)
    assert result == {"ran": False, "reason": "disabled"}
    result = await _execute(client, "tclint.confirmWorkspace")
    assert result == {"ran": False, "reason": "disabled"}
    shown = [m for m in client.messages if "disabled" in m.message]
    assert len(shown) == 2 and all(m.type == types.MessageType.Error for m in shown)
    assert not [t for t in client.progress_reports if "confirm" in str(t)]
    assert (sorted(results.iterdir()) if results.is_dir() else []) == before


# Dynamo configured where static analysis cannot see it: `.item()` no longer breaks.
REFUTED = textwrap.dedent("""\
    import torch

    @torch.compile
    def f(x):
        return x.sum().item() + 1

    def tclint_examples():
        setattr(torch._dynamo.config, "capture_scalar_outputs", True)  # out of static sight
        return [("scalar_capture", f._torchdynamo_orig_callable, (torch.randn(3),), {})]
""")


async def test_confirm_on_save_and_refuted_findings(on_save: LanguageClient):
    client = on_save
    editor = Editor(client, client.ws_root, client.spec, client.init_result)
    uri = editor.open("refuted.py", REFUTED)
    await editor.diagnostics(uri, lambda d: "TC102" in codes(d))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))

    def refuted(diags):
        return any(d.code == "TC102" and d.severity == types.DiagnosticSeverity.Hint for d in diags)

    diags = await asyncio.wait_for(_wait(editor, uri, refuted), CONFIRM_TIMEOUT)
    tc102 = next(d for d in diags if d.code == "TC102")
    assert "not confirmed" in tc102.message and tc102.data["confirmed"] is False

    # confirm.showRefuted = false hides it (until the file changes).
    client.set_configuration({"confirm": {"enabled": True, "onSave": True, "showRefuted": False}}, section="tclint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert codes(await editor.diagnostics(uri, lambda d: "TC102" not in codes(d))) == []


async def _wait(editor: Editor, uri: str, until):
    while True:
        try:
            return await editor.diagnostics(uri, until)
        except asyncio.TimeoutError:
            continue


SLOW = textwrap.dedent("""\
    import time

    import torch

    def tclint_examples():
        time.sleep(3)
        return [("slow", torch.compile(lambda x: x + 1), (torch.randn(3),), {})]
""")


async def test_cancel_drops_the_result(trusted: LanguageClient):
    client = trusted
    editor = Editor(client, client.ws_root, client.spec, client.init_result)
    editor.write("a_slow.py", SLOW)
    uri = editor.open("models.py", MODELS)
    await editor.diagnostics(uri, lambda d: "TC102" in codes(d))
    run = asyncio.ensure_future(_execute(client, "tclint.confirmWorkspace"))

    async def begun():
        while True:
            tokens = [t for t in client.progress_reports if "confirm" in str(t) and client.progress_reports[t]]
            if tokens:
                return tokens[0]
            await asyncio.sleep(0.05)

    token = await asyncio.wait_for(begun(), 60)
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    result = await asyncio.wait_for(run, CONFIRM_TIMEOUT)
    assert result == {"ran": False, "reason": "cancelled"}
    reports = client.progress_reports[token]
    assert reports[-1].kind == "end" and reports[-1].message == "cancelled"
    # At most the module that was running when the cancel came ran; nothing was published.
    assert sum(1 for r in reports if r.kind == "report") <= 1
    assert "TC900" not in codes(await editor.diagnostics(uri))


async def test_confirm_pull_client_gets_refreshed(pulling: LanguageClient):
    client = pulling
    editor = Editor(client, client.ws_root, client.spec, client.init_result)
    uri = editor.open("models.py", MODELS)
    await editor.diagnostics(uri, lambda d: "TC102" in codes(d))
    result = await asyncio.wait_for(_execute(client, "tclint.confirmWorkspace", client.ws_root.as_uri()),
                                    CONFIRM_TIMEOUT)
    assert result["ran"] is True and result["modules"]
    diags = await editor.diagnostics(uri, lambda d: "TC900" in codes(d))
    assert next(d for d in diags if d.code == "TC102").severity == types.DiagnosticSeverity.Error


async def test_trace_results_are_shown_without_running_anything(untrusted: LanguageClient):
    """`tclint trace` saved Dynamo's verdicts; the server (even untrusted) only reads them."""
    import subprocess

    client = untrusted
    root = client.ws_root
    editor = Editor(client, root, client.spec, client.init_result)
    editor.write("models.py", MODELS)
    editor.write("run.py", "import torch\nfrom models import to_python, stringify\n"
                           "to_python(torch.randn(3))\nstringify(torch.randn(3))\n")
    proc = subprocess.run([sys.executable, "-m", "tclint.analyzer", "trace", "--", sys.executable, "run.py"],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr  # trace exits with the script's own status
    uri = editor.open("models.py", MODELS)
    diags = await editor.diagnostics(uri, lambda d: "TC900" in codes(d))
    tc102 = next(d for d in diags if d.code == "TC102")
    assert tc102.severity == types.DiagnosticSeverity.Error and "confirmed by Dynamo" in tc102.message
    # Stale once the file changes.
    editor.change(uri, MODELS.replace('"!"', '"?"'))
    await editor.diagnostics(uri, lambda d: "TC900" not in codes(d))
