"""The language server under the interpreter an editor picked reads the libraries installed
there: a break inside one, reached from the user's compiled call, is a TC227 at that call.

The interpreter is a virtual environment made for the test, with the library in its
site-packages and tclint reached through a `.pth` line; the workspace holds only the
user's package, so the library is found where the interpreter installs packages."""
from __future__ import annotations

import asyncio
import site
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities

from test_library_context import CALL_LINE, LIBRARY, USER, _write

TIMEOUT = 30.0


def _interpreter(root: Path) -> Path:
    """A venv whose site-packages holds the library and sees this environment's packages (tclint)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
    python = root / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    ours = [sysconfig.get_paths()["purelib"], *site.getsitepackages()]
    # `import` lines of a .pth file run at start-up: addsitedir also runs tclint's editable hook there.
    (Path(purelib) / "tclint_test.pth").write_text(
        "".join(f"import site; site.addsitedir({folder!r})\n" for folder in dict.fromkeys(ours)))
    _write(Path(purelib), LIBRARY)
    return python


@pytest.mark.skipif(sys.platform == "win32", reason="the venv's interpreter lies under Scripts/ there")
async def test_tc227_in_the_server_for_a_library_of_its_interpreter(tmp_path):
    python = _interpreter(tmp_path / "venv")
    workspace = tmp_path / "ws"
    _write(workspace, {"userpkg/__init__.py": "", "userpkg/model.py": USER})
    uri = (workspace / "userpkg" / "model.py").as_uri()
    client = await ClientServerConfig(server_command=[str(python), "-m", "tclint.server"]).start()
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")]))
        text = textwrap.dedent(USER).lstrip("\n")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))

        async def published():  # the first analysis of the document
            while uri not in client.diagnostics:
                await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            return list(client.diagnostics[uri])

        found = await asyncio.wait_for(published(), TIMEOUT)
    finally:
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        await client.stop()
    assert [d.code for d in found] == ["TC227"]
    assert found[0].range.start == types.Position(line=CALL_LINE - 1, character=11)
    assert "`solve` breaks the graph inside an installed library (solverlib.core, line 5)" in found[0].message
