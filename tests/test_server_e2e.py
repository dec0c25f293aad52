"""End-to-end tests of `python -m tclint.server` with pytest-lsp, as VS Code and as Neovim.

The VS Code profile (1.65) gets pushed diagnostics and UTF-16 positions; the Neovim
profile (0.11) pulls diagnostics (textDocument/diagnostic) and negotiates UTF-8. The
`Editor` helper hides that difference: `diagnostics()` waits on publishDiagnostics
notifications, or makes the pull request (which the server answers once the run that
covers the current text is done). Nothing sleeps on a fixed delay.
"""
from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

TIMEOUT = 20.0
CLIENTS = ["visual-studio-code", "neovim"]

SAMPLE = textwrap.dedent("""\
    import torch
    @torch.compile
    def f(x):
        if x.sum() > 0:
            return x
        return x.sum().item()
""")

HELPER_B = "def bad(x):\n    return x.sum().item()\n"
CALLER_A = textwrap.dedent("""\
    import torch
    from b import bad

    @torch.compile
    def f(x):
        return bad(x)
""")
CALLER_A_FIXED = textwrap.dedent("""\
    import torch
    from b import bad

    @torch.compile
    def f(x):
        return x * 2
""")


class Editor:
    """A scripted editor session over one pytest-lsp client."""

    def __init__(self, client: LanguageClient, root: Path, spec: str, init: types.InitializeResult):
        self.client = client
        self.root = root
        self.spec = spec
        self.init = init
        self.pull = client.capabilities.text_document.diagnostic is not None
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}

    def write(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def open(self, name: str, text: str | None = None, write: bool = True) -> str:
        path = self.root / name
        if text is None:
            text = path.read_text(encoding="utf-8")
        elif write:
            self.write(name, text)
        uri = path.as_uri()
        self.versions[uri] = 1
        self.texts[uri] = text
        self.client.diagnostics.pop(uri, None)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def insert(self, uri: str, line: int, character: int, text: str) -> None:
        """An incremental change, as editors send while typing."""
        self.versions[uri] += 1
        pos = types.Position(line=line, character=character)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=pos, end=pos), text=text)]))

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))

    async def diagnostics(self, uri: str, until: Callable[[list], bool] | None = None) -> list[types.Diagnostic]:
        """The document's diagnostics, once `until(diagnostics)` holds (default: any result)."""
        until = until or (lambda diags: True)

        async def pushed():
            while True:
                diags = self.client.diagnostics.get(uri)
                if diags is not None and until(list(diags)):
                    return list(diags)
                await self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

        async def pulled():
            while True:
                report = await self.client.text_document_diagnostic_async(
                    types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
                diags = list(report.items)
                if until(diags):
                    return diags
                # The pull answers for the current text; a different answer only comes
                # after another change, so this loop is for settings applied meanwhile.
                await asyncio.sleep(0.02)

        return await asyncio.wait_for(pulled() if self.pull else pushed(), TIMEOUT)

    async def next_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of the next analysis of `uri` after the last change."""
        if self.pull:
            return await self.diagnostics(uri)

        async def wait():
            while True:
                await self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
                if uri in self.client.diagnostics:
                    return list(self.client.diagnostics[uri])

        return await asyncio.wait_for(wait(), TIMEOUT)


def codes(diags) -> list[str]:
    return sorted(str(d.code) for d in diags)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "tclint.server"]),
    params=CLIENTS,
)
async def client(lsp_client: LanguageClient, request, tmp_path_factory):
    root = tmp_path_factory.mktemp("ws")
    spec = request.param
    registrations: list[types.Registration] = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        registrations.extend(params.registrations)

    params = types.InitializeParams(
        capabilities=client_capabilities(spec),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
        initialization_options={"debounceMs": 30, "watchFiles": True},
    )
    lsp_client.init_result = await lsp_client.initialize_session(params)
    lsp_client.ws_root = root
    lsp_client.spec = spec
    lsp_client.registrations = registrations
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def editor(client: LanguageClient) -> Editor:
    return Editor(client, client.ws_root, client.spec, client.init_result)


async def test_initialize_capabilities(editor: Editor):
    caps = editor.init.capabilities
    assert caps.hover_provider
    assert caps.code_action_provider
    assert caps.diagnostic_provider is not None
    expected = "utf-8" if editor.spec == "neovim" else "utf-16"
    assert caps.position_encoding == expected
    assert editor.init.server_info.name == "tclint"


async def test_diagnostics_on_open_change_close(editor: Editor):
    uri = editor.open("sample.py", SAMPLE)
    diags = await editor.diagnostics(uri, lambda d: len(d) == 2)
    by_code = {d.code: d for d in diags}
    assert set(by_code) == {"TC101", "TC102"}
    tc101, tc102 = by_code["TC101"], by_code["TC102"]
    assert tc101.range.start == types.Position(line=3, character=7)
    assert tc101.range.end == types.Position(line=3, character=18)
    assert tc102.range.start.line == 5
    assert tc101.source == "tclint"
    assert tc101.severity == types.DiagnosticSeverity.Warning
    assert "GB0170" in tc101.message
    assert tc101.code_description.href.endswith("gb0170.html")
    assert tc101.related_information and tc101.related_information[0].location.uri == uri
    assert tc101.data["suppression"]["newText"] == "  # tclint: ignore[TC101]"

    # Fix the branch: only TC102 is left.
    editor.change(uri, SAMPLE.replace("    if x.sum() > 0:\n        return x\n", ""))
    diags = await editor.diagnostics(uri, lambda d: codes(d) == ["TC102"])
    assert diags[0].range.start.line == 3

    editor.close(uri)
    assert await editor.diagnostics(uri, lambda d: d == []) == []


async def test_hover_shows_graph_break_and_rule_doc(editor: Editor):
    uri = editor.open("sample.py", SAMPLE)
    await editor.diagnostics(uri, lambda d: len(d) == 2)
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=3, character=10)))
    assert hover is not None
    text = hover.contents.value
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "GB0170" in text and "TC101" in text
    assert "What it does" in text
    assert "gb0170.html" in text
    nothing = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=2)))
    assert nothing is None


async def test_hover_on_a_code_in_a_suppression_comment(editor: Editor):
    text = "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()  # tclint: ignore[TC102]\n"
    uri = editor.open("suppressed.py", text)
    await editor.diagnostics(uri, lambda d: d == [])
    column = text.splitlines()[4].index("TC102") + 2
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=column)))
    assert hover is not None
    assert "tensor-item" in hover.contents.value and "GB0124" in hover.contents.value


async def test_code_action_suppress_and_open_docs(editor: Editor):
    uri = editor.open("sample.py", SAMPLE)
    diags = await editor.diagnostics(uri, lambda d: len(d) == 2)
    tc101 = next(d for d in diags if d.code == "TC101")
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=tc101.range,
        context=types.CodeActionContext(diagnostics=[tc101]),
    ))
    titles = [a.title for a in result]
    assert "Suppress TC101 on this line" in titles
    assert "Open GB0170 documentation" in titles
    assert not any("TC102" in t for t in titles)
    suppress = next(a for a in result if a.title == "Suppress TC101 on this line")
    assert suppress.kind == types.CodeActionKind.QuickFix
    line = "    if x.sum() > 0:"
    end = types.Position(line=3, character=len(line))
    assert {k: list(v) for k, v in suppress.edit.changes.items()} == {
        uri: [types.TextEdit(range=types.Range(start=end, end=end), new_text="  # tclint: ignore[TC101]")]
    }

    # Applying the edit silences the finding.
    lines = SAMPLE.splitlines(keepends=True)
    lines[3] = line + "  # tclint: ignore[TC101]\n"
    editor.change(uri, "".join(lines))
    assert codes(await editor.diagnostics(uri, lambda d: codes(d) == ["TC102"])) == ["TC102"]

    # The documentation action runs a server command that asks the editor to open the page.
    # (lsprotocol 2025.0.0 structures any CodeAction that has a `command` as a Command, with
    # the nested command stringified; real editors tell them apart, so only look at the text.)
    docs = next(a for a in result if a.title == "Open GB0170 documentation")
    assert "tclint.openDocumentation" in str(docs.command) and "gb0170.html" in str(docs.command)
    await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tclint.openDocumentation", arguments=[tc101.code_description.href]))
    assert editor.client.shown_documents[-1].uri.endswith("gb0170.html")
    assert editor.client.shown_documents[-1].external

    # Only asked for source.fixAll: nothing to fix automatically here.
    fix_all = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=tc101.range,
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
    ))
    assert not fix_all


async def test_configuration_change_ignores_rule(editor: Editor):
    uri = editor.open("sample.py", SAMPLE)
    await editor.diagnostics(uri, lambda d: len(d) == 2)
    editor.client.set_configuration({"ignore": ["TC101"], "severity": {"TC102": "error"}}, section="tclint")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    diags = await editor.diagnostics(uri, lambda d: codes(d) == ["TC102"])
    assert diags[0].severity == types.DiagnosticSeverity.Error


async def test_pyproject_settings_and_bad_config(editor: Editor):
    editor.write("pyproject.toml", "[tool.tclint]\nignore = ['TC102']\n")
    # Settings were resolved at start-up (no file then): a config change re-reads them.
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    uri = editor.open("sample.py", SAMPLE)
    assert codes(await editor.diagnostics(uri, lambda d: codes(d) == ["TC101"])) == ["TC101"]

    # Client settings win over the file.
    editor.client.set_configuration({"select": ["TC102"]}, section="tclint")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert codes(await editor.diagnostics(uri, lambda d: codes(d) == ["TC102"])) == ["TC102"]

    # A broken file: shown to the user, and the server goes on with defaults + client settings.
    editor.write("pyproject.toml", "[tool.tclint]\nselct = ['TC1']\n")
    editor.client.set_configuration({}, section="tclint")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert codes(await editor.diagnostics(uri, lambda d: len(d) == 2)) == ["TC101", "TC102"]
    assert any("selct" in m.message and m.type == types.MessageType.Error for m in editor.client.messages)

    # A bad editor setting too: reported, and the rest of the settings still apply.
    editor.write("pyproject.toml", "[tool.tclint]\n")
    editor.client.set_configuration({"ignore": ["XX9"], "select": ["TC101"]}, section="tclint")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert codes(await editor.diagnostics(uri, lambda d: codes(d) == ["TC101"])) == ["TC101"]
    assert any("XX9" in m.message for m in editor.client.messages)


async def test_cross_file_relint(editor: Editor):
    editor.write("b.py", HELPER_B)
    uri_a = editor.open("a.py", CALLER_A)
    uri_b = editor.open("b.py")
    diags_b = await editor.diagnostics(uri_b, lambda d: codes(d) == ["TC102"])
    assert diags_b[0].range.start.line == 1
    chain = diags_b[0].related_information
    assert any(info.location.uri == uri_a for info in chain)
    assert codes(await editor.diagnostics(uri_a)) == []

    editor.change(uri_a, CALLER_A_FIXED)
    assert await editor.diagnostics(uri_b, lambda d: d == []) == []

    editor.change(uri_a, CALLER_A)
    assert codes(await editor.diagnostics(uri_b, lambda d: codes(d) == ["TC102"])) == ["TC102"]


async def test_cross_file_from_disk_index(editor: Editor):
    """b.py is never opened: a.py's compiled function reaching it is known from the index."""
    editor.write("b.py", "def bad(x):\n    if x.sum() > 0:\n        return x\n    return -x\n")
    editor.write("a.py", CALLER_A)
    uri_b = editor.open("b.py")
    assert codes(await editor.diagnostics(uri_b, lambda d: codes(d) == ["TC101"])) == ["TC101"]


async def test_syntax_errors_while_typing(editor: Editor):
    """Type the sample one character at a time: almost every state is a syntax error."""
    uri = editor.open("typing.py", "")
    await editor.diagnostics(uri)
    line = col = 0
    seen_syntax_error = False
    for i, ch in enumerate(SAMPLE):
        editor.insert(uri, line, col, ch)
        line, col = (line + 1, 0) if ch == "\n" else (line, col + 1)
        if i % 7 == 0:  # let the server analyze this state before typing on
            diags = await editor.next_diagnostics(uri)
            seen_syntax_error |= "TC001" in codes(diags)
    assert seen_syntax_error
    diags = await editor.diagnostics(uri, lambda d: codes(d) == ["TC101", "TC102"])
    assert sorted(d.range.start.line for d in diags) == [3, 5]


async def test_syntax_error_is_reported(editor: Editor):
    uri = editor.open("broken.py", "def f(x)\n    return x\n")
    diags = await editor.diagnostics(uri, lambda d: len(d) == 1)
    assert diags[0].code == "TC001"
    assert diags[0].severity == types.DiagnosticSeverity.Error


async def test_five_megabyte_document(editor: Editor):
    big = "x = 1\n" * (5 * 1024 * 1024 // 6 + 1)
    uri = editor.open("big.py", big, write=False)
    assert await editor.diagnostics(uri, lambda d: d == []) == []
    assert any("max-file-size" in m.message for m in editor.client.log_messages)
    # The server is still there and still lints.
    other = editor.open("sample.py", SAMPLE)
    assert len(await editor.diagnostics(other, lambda d: len(d) == 2)) == 2
    editor.insert(uri, 0, 0, "import torch\n")
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    assert hover is None


async def test_positions_follow_negotiated_encoding(editor: Editor):
    text = SAMPLE.replace("    return x.sum().item()", "    y = '😀é'; return x.sum().item()")
    uri = editor.open("enc.py", text)
    diags = await editor.diagnostics(uri, lambda d: len(d) == 2)
    tc102 = next(d for d in diags if d.code == "TC102")
    prefix = "    y = '😀é'; return "
    if editor.spec == "neovim":  # utf-8
        expected = len(prefix.encode("utf-8"))
    else:  # utf-16
        expected = len(prefix.encode("utf-16-le")) // 2
    assert tc102.range.start == types.Position(line=5, character=expected)


async def test_progress_and_logs_for_indexing(editor: Editor):
    uri = editor.open("sample.py", SAMPLE)
    await editor.diagnostics(uri, lambda d: len(d) == 2)

    async def indexed():
        while not any("indexed" in m.message for m in editor.client.log_messages):
            await editor.client.wait_for_notification(types.WINDOW_LOG_MESSAGE)

    await asyncio.wait_for(indexed(), TIMEOUT)
    reports = [r for token, rs in editor.client.progress_reports.items() if "index" in str(token) for r in rs]
    assert reports and isinstance(reports[0], types.WorkDoneProgressBegin)
    assert isinstance(reports[-1], types.WorkDoneProgressEnd)


async def test_watched_files_on_disk(editor: Editor):
    """a.py (open) branches on what b.py (closed) returns; b.py and the config change on disk."""
    editor.write("b.py", "def helper(x):\n    return x.sum() > 0\n")
    uri_a = editor.open("a.py", textwrap.dedent("""\
        import torch
        from b import helper

        @torch.compile
        def f(x):
            if helper(x):
                return x
            return -x
    """))
    diags = await editor.diagnostics(uri_a, lambda d: codes(d) == ["TC101"])
    assert diags[0].range.start.line == 5
    if editor.spec == "visual-studio-code":  # dynamic registration of the file watchers
        methods = [r.method for r in editor.client.registrations]
        assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods

    def changed(*names: str) -> None:
        editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=(editor.root / n).as_uri(), type=types.FileChangeType.Changed) for n in names]))

    editor.write("b.py", "def helper(x):\n    return True\n")
    changed("b.py")
    assert await editor.diagnostics(uri_a, lambda d: d == []) == []

    editor.write("b.py", "def helper(x):\n    return x.sum() > 0\n")
    changed("b.py")
    await editor.diagnostics(uri_a, lambda d: codes(d) == ["TC101"])
    editor.write("pyproject.toml", "[tool.tclint]\nignore = ['TC1']\n")
    changed("pyproject.toml")
    assert await editor.diagnostics(uri_a, lambda d: d == []) == []


async def test_lint_on_change_off_lints_on_save(editor: Editor):
    editor.client.set_configuration({"lintOnChange": False}, section="tclint")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    uri = editor.open("sample.py", SAMPLE)
    await editor.diagnostics(uri, lambda d: len(d) == 2)
    editor.change(uri, SAMPLE.replace("    if x.sum() > 0:\n        return x\n", ""))
    editor.client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert codes(await editor.diagnostics(uri, lambda d: codes(d) == ["TC102"])) == ["TC102"]


async def test_requests_are_answered_while_a_big_file_is_analyzed(editor: Editor):
    """Over 48 KiB, phase 1 runs in a child process: the server keeps answering meanwhile,
    and the findings are the same as for a small file."""
    small = editor.open("sample.py", SAMPLE)
    await editor.diagnostics(small, lambda d: len(d) == 2)
    filler = "".join(f"def g{i}(x):\n    return x + {i}\n" for i in range(2500))
    big = editor.open("big_slow.py", filler + SAMPLE)
    hover = await asyncio.wait_for(editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=small), position=types.Position(line=3, character=10))),
        TIMEOUT)
    assert hover is not None and "TC101" in hover.contents.value
    if not editor.pull:
        assert big not in editor.client.diagnostics  # the hover did not wait for the analysis
    diags = await editor.diagnostics(big, lambda d: len(d) == 2)
    offset = filler.count("\n")
    assert sorted((d.range.start.line, d.code) for d in diags) == [(offset + 3, "TC101"), (offset + 5, "TC102")]
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=big), position=types.Position(line=offset + 3, character=10)))
    assert hover is not None and "GB0170" in hover.contents.value


async def test_unsaved_buffer_is_linted(editor: Editor):
    uri = "untitled:Untitled-1"
    editor.versions[uri] = 1
    editor.client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SAMPLE)))
    diags = await editor.diagnostics(uri, lambda d: len(d) == 2)
    assert codes(diags) == ["TC101", "TC102"]
    assert diags[0].related_information[0].location.uri == uri
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=14)))
    assert hover is not None and "GB0124" in hover.contents.value
    editor.close(uri)
    assert await editor.diagnostics(uri, lambda d: d == []) == []


async def test_folder_scoped_settings_and_added_folder(editor: Editor):
    """A second (nested) workspace folder arrives later, with its own `tclint` settings."""
    inner = editor.root / "inner"
    inner.mkdir()
    editor.client.set_configuration({"ignore": ["TC101"]}, section="tclint", scope_uri=inner.as_uri())
    editor.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[types.WorkspaceFolder(uri=inner.as_uri(), name="inner")], removed=[])))
    outer_uri = editor.open("s.py", SAMPLE)
    inner_uri = editor.open("inner/s.py", SAMPLE)
    assert codes(await editor.diagnostics(inner_uri, lambda d: codes(d) == ["TC102"])) == ["TC102"]
    assert codes(await editor.diagnostics(outer_uri, lambda d: len(d) == 2)) == ["TC101", "TC102"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tclint.server"]))
async def extension_client(lsp_client: LanguageClient, tmp_path):
    """Started the way vscode-extension starts the server: settings in initializationOptions."""
    def payload(workspace: str, **extra):
        base = {"workspace": workspace, "cwd": str(tmp_path), "interpreter": [sys.executable], "path": [],
                "args": [], "importStrategy": "fromEnvironment", "severity": {}, "lintOnChange": True,
                "showNotifications": "onError", "ignore": [], "workspaceTrusted": True}
        return {**base, **extra}

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
        initialization_options={
            "settings": payload(tmp_path.as_uri(), severity={"TC102": "error"}, ignore=["TC101"]),
            "workspaceSettings": [payload(tmp_path.as_uri(), severity={"TC102": "error"}, ignore=["TC101"])],
            "globalSettings": payload(""),
        },
    ))
    lsp_client.root = tmp_path
    yield
    await lsp_client.shutdown_session()


async def test_vscode_extension_initialization_options(extension_client: LanguageClient):
    editor = Editor(extension_client, extension_client.root, "visual-studio-code", None)
    uri = editor.open("s.py", SAMPLE)
    diags = await editor.diagnostics(uri, lambda d: codes(d) == ["TC102"])
    assert diags[0].severity == types.DiagnosticSeverity.Error


async def test_fix_all_guards_print_calls(editor: Editor):
    text = "import torch\n\n@torch.compile\ndef f(x):\n    print(x.shape)\n    return x * 2\n"
    uri = editor.open("printing.py", text)
    diags = await editor.diagnostics(uri, lambda d: codes(d) == ["TC201"])
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=5, character=0)),
        context=types.CodeActionContext(diagnostics=diags, only=["source.fixAll.tclint"]),
    ))
    (action,) = result
    (edit,) = action.edit.changes[uri]
    assert edit.range.start == types.Position(line=4, character=4)
    assert edit.new_text == "if not torch.compiler.is_compiling():\n        print(x.shape)"
