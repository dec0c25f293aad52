"""The server never imports torch, even where torch is installed: a stand-in `torch`
package first on the server's path records any import of it."""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

FAKE = Path(tempfile.mkdtemp(prefix="tclint-fake-torch-"))
MARKER = FAKE / "torch-was-imported"
(FAKE / "torch").mkdir()
(FAKE / "torch" / "__init__.py").write_text(
    f"open({str(MARKER)!r}, 'a').write('imported\\n')\nraise ImportError('tclint server must not import torch')\n"
)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FAKE), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}

SAMPLE = "import torch\n@torch.compile\ndef f(x):\n    if x.sum() > 0:\n        return x\n    return x.sum().item()\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tclint.server"], server_env=ENV))
async def client(lsp_client: LanguageClient, tmp_path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=tmp_path.as_uri()))
    lsp_client.root = tmp_path
    yield
    await lsp_client.shutdown_session()


async def test_server_does_not_import_torch(client: LanguageClient):
    path = client.root / "m.py"
    path.write_text(SAMPLE)
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SAMPLE)))

    async def wait():
        while len(client.diagnostics.get(uri, [])) != 2:
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    await asyncio.wait_for(wait(), 20)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=3, character=10)))
    assert "GB0170" in hover.contents.value
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=client.diagnostics[uri][0].range,
        context=types.CodeActionContext(diagnostics=list(client.diagnostics[uri]))))
    assert actions
    assert not MARKER.exists()
