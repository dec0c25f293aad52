"""Notebook cells in the language server (LSP 3.17 notebook document sync), with pytest-lsp.

The client is VS Code's profile with notebook synchronization, once pushing diagnostics and
once able to pull them (as VS Code does today): either way, cells get their diagnostics
pushed, on the cell's URI and in cell coordinates. Nothing sleeps on a fixed delay.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Callable

import attrs
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tclint.analyzer.notebook import notebook_from_cells

TIMEOUT = 20.0
CODE, MARKUP = types.NotebookCellKind.Code, types.NotebookCellKind.Markup

IMPORTS = "import torch\n"
COMPILED = "@torch.compile\ndef f(x):\n    return x.sum().item()\n"
FIXED = "@torch.compile\ndef f(x):\n    return x.sum()\n"
MAGIC = "%timeit f(torch.ones(3))\n!nvidia-smi\n"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "tclint.server"]),
    params=["push", "pull"],
)
async def client(lsp_client: LanguageClient, request, tmp_path):
    caps = client_capabilities("visual-studio-code")
    caps = attrs.evolve(caps, notebook_document=types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()))
    if request.param == "pull":
        caps = attrs.evolve(caps, text_document=attrs.evolve(
            caps.text_document, diagnostic=types.DiagnosticClientCapabilities()))
    lsp_client.init_result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps,
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
        initialization_options={"debounceMs": 30},
    ))
    lsp_client.root = tmp_path
    yield
    await lsp_client.shutdown_session()


class Notebook:
    """A notebook as VS Code syncs it: its cells are `vscode-notebook-cell:` documents."""

    def __init__(self, client: LanguageClient, path: Path, cells: list[str | tuple[types.NotebookCellKind, str]]):
        self.client = client
        self.uri = path.as_uri()
        self.path = path
        self.version = 1
        self.cells: list[tuple[types.NotebookCellKind, str]] = []
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self._made = 0
        items = [self._new_cell(c) for c in cells]
        client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=self.uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=kind, document=uri) for kind, uri in self.cells]),
            cell_text_documents=items))

    def _new_cell(self, cell: str | tuple[types.NotebookCellKind, str]) -> types.TextDocumentItem:
        kind, text = cell if isinstance(cell, tuple) else (CODE, cell)
        uri = f"vscode-notebook-cell:{self.path}#W{self._made}sZmlsZQ%3D%3D"
        self._made += 1
        self.cells.append((kind, uri))
        self.texts[uri], self.versions[uri] = text, 1
        return types.TextDocumentItem(uri=uri, language_id="python" if kind == CODE else "markdown",
                                      version=1, text=text)

    def cell(self, index: int) -> str:
        return self.cells[index][1]

    def _change(self, cells: types.NotebookDocumentCellChanges) -> None:
        self.version += 1
        self.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=self.uri, version=self.version),
            change=types.NotebookDocumentChangeEvent(cells=cells)))

    def edit(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.texts[uri] = text
        self._change(types.NotebookDocumentCellChanges(text_content=[types.NotebookDocumentCellContentChanges(
            document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            changes=[types.TextDocumentContentChangeWholeDocument(text=text)])]))

    def insert_cell(self, index: int, text: str) -> str:
        item = self._new_cell(text)
        self.cells.insert(index, self.cells.pop())
        self._change(types.NotebookDocumentCellChanges(structure=types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=index, delete_count=0,
                                                cells=[types.NotebookCell(kind=CODE, document=item.uri)]),
            did_open=[item])))
        return item.uri

    def delete_cell(self, index: int) -> None:
        _, uri = self.cells.pop(index)
        self._change(types.NotebookDocumentCellChanges(structure=types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=index, delete_count=1),
            did_close=[types.TextDocumentIdentifier(uri=uri)])))

    def close(self) -> None:
        self.client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=self.uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=uri) for _, uri in self.cells]))

    async def diagnostics(self, uri: str, until: Callable[[list], bool]) -> list[types.Diagnostic]:
        """The cell's published diagnostics, once `until(diagnostics)` holds."""
        async def wait():
            while True:
                diags = self.client.diagnostics.get(uri)
                if diags is not None and until(list(diags)):
                    return list(diags)
                await self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

        return await asyncio.wait_for(wait(), TIMEOUT)


def codes(diags) -> list[str]:
    return sorted(str(d.code) for d in diags)


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def server_errors(client: LanguageClient) -> list[str]:
    return [m.message for m in client.log_messages if m.type == types.MessageType.Error]


def test_cells_join_like_a_notebook_file():
    book = notebook_from_cells([IMPORTS, COMPILED, MAGIC, "%%bash\necho hi\n"])
    assert book.cell_starts == (1, 2, 5, 7)
    assert book.python == IMPORTS + COMPILED + "\n\n\n\n"
    assert book.cell_position(4) == (2, 3)


async def test_notebook_sync_is_advertised(client: LanguageClient):
    sync = client.init_result.capabilities.notebook_document_sync
    assert sync is not None
    (selector,) = sync.notebook_selector
    assert selector.notebook == "jupyter-notebook"
    assert [c.language for c in selector.cells] == ["python"]


async def test_findings_on_the_cell_edit_and_close(client: LanguageClient):
    nb = Notebook(client, client.root / "train.ipynb", [IMPORTS, COMPILED, MAGIC])
    imports, compiled, magic = nb.cell(0), nb.cell(1), nb.cell(2)
    (tc102,) = await nb.diagnostics(compiled, lambda d: len(d) == 1)
    assert tc102.code == "TC102"
    # `x.sum().item()` on the third line of the cell (the module's fourth)
    assert tc102.range == types.Range(start=pos(2, 11), end=pos(2, 25))
    (step,) = tc102.related_information
    assert step.location.uri == compiled and step.location.range.start == pos(1, 4)  # `f` in `def f`
    assert "compiled at train.ipynb:cell 2:2" in step.message
    assert await nb.diagnostics(imports, lambda d: True) == []
    assert await nb.diagnostics(magic, lambda d: True) == []
    if client.capabilities.text_document.diagnostic:
        # Cells are pushed; a pull for one answers nothing, so no finding shows twice.
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=compiled)))
        assert list(report.items) == []

    nb.edit(compiled, FIXED)
    assert await nb.diagnostics(compiled, lambda d: d == []) == []

    nb.edit(compiled, COMPILED)
    await nb.diagnostics(compiled, lambda d: codes(d) == ["TC102"])
    nb.close()
    assert await nb.diagnostics(compiled, lambda d: d == []) == []
    assert server_errors(client) == []


async def test_hover_and_code_actions_in_a_cell(client: LanguageClient):
    nb = Notebook(client, client.root / "train.ipynb", [IMPORTS, COMPILED])
    compiled = nb.cell(1)
    (tc102,) = await nb.diagnostics(compiled, lambda d: len(d) == 1)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=compiled), position=tc102.range.start))
    assert hover is not None and "TC102" in hover.contents.value and "GB0124" in hover.contents.value

    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=compiled), range=tc102.range,
        context=types.CodeActionContext(diagnostics=[tc102])))
    titles = [a.title for a in actions]
    assert "Suppress TC102 on this line" in titles and "Open GB0124 documentation" in titles
    suppress = next(a for a in actions if a.title == "Suppress TC102 on this line")
    line = COMPILED.splitlines()[2]
    end = pos(2, len(line))
    assert {k: list(v) for k, v in suppress.edit.changes.items()} == {
        compiled: [types.TextEdit(range=types.Range(start=end, end=end), new_text="  # tclint: ignore[TC102]")]}

    nb.edit(compiled, COMPILED.replace(line, line + "  # tclint: ignore[TC102]"))
    assert await nb.diagnostics(compiled, lambda d: d == []) == []


async def test_cells_added_and_deleted(client: LanguageClient):
    nb = Notebook(client, client.root / "train.ipynb", [IMPORTS, COMPILED])
    compiled = nb.cell(1)
    await nb.diagnostics(compiled, lambda d: codes(d) == ["TC102"])

    # A cell above moves the function in the module, not in its cell.
    nb.insert_cell(1, "x = 1\ny = 2\n")
    (tc102,) = await nb.diagnostics(
        compiled, lambda d: len(d) == 1 and "cell 3" in d[0].related_information[0].message)
    assert tc102.range.start.line == 2

    nb.delete_cell(2)
    assert await nb.diagnostics(compiled, lambda d: d == []) == []
    assert server_errors(client) == []


async def test_calls_into_project_files(client: LanguageClient):
    """The notebook's module lives at the notebook's path: it imports the project's files, and
    findings there reached from a cell point into that cell."""
    helper = client.root / "helpers.py"
    helper.write_text("def scale(x):\n    return x.sum().item()\n")
    helper_uri = helper.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=helper_uri, language_id="python", version=1, text=helper.read_text())))
    nb = Notebook(client, client.root / "train.ipynb",
                  ["import torch\nfrom helpers import scale\n", "@torch.compile\ndef f(x):\n    return scale(x)\n"])

    pull = client.capabilities.text_document.diagnostic is not None

    async def helper_finding() -> types.Diagnostic:
        while True:
            if pull:
                diags = list((await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=helper_uri)))).items)
            else:
                diags = list(client.diagnostics.get(helper_uri) or [])
            if codes(diags) == ["TC102"]:
                return diags[0]
            if pull:  # answered before the notebook was linted: ask again
                await asyncio.sleep(0.02)
            else:
                await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    tc102 = await asyncio.wait_for(helper_finding(), TIMEOUT)
    compiled_at, call = tc102.related_information[0], tc102.related_information[1]
    assert compiled_at.location.uri == nb.cell(1) and compiled_at.location.range.start == pos(1, 4)
    assert "compiled at train.ipynb:cell 2:2" in compiled_at.message
    assert call.location.uri == nb.cell(1) and call.location.range.start.line == 2


async def test_markdown_and_magics_only(client: LanguageClient):
    nb = Notebook(client, client.root / "notes.ipynb",
                  [(MARKUP, "# Notes\n\nSome *text*.\n"), "%matplotlib inline\n!pip install -q einops\n",
                   "%%bash\necho $HOME\n"])
    assert await nb.diagnostics(nb.cell(1), lambda d: True) == []
    assert await nb.diagnostics(nb.cell(2), lambda d: True) == []
    assert nb.cell(0) not in client.diagnostics
    nb.close()
    assert await nb.diagnostics(nb.cell(1), lambda d: d == []) == []
    assert server_errors(client) == []
    assert not [m for m in client.messages if m.type == types.MessageType.Error]
