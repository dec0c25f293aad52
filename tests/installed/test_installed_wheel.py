"""What a user gets from `pip install torch-tclint`: the built wheel, installed without -e.

`.ci/check_wheel` builds the sdist and the wheel, installs the wheel into a fresh venv and
runs this module with that venv's Python from a neutral folder. Under an editable or source
checkout these tests skip: there they would prove nothing about the artifact.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

import tclint.analyzer

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
TCLINT = str(BIN / "tclint")
SITE = Path(sysconfig.get_paths()["purelib"]).resolve()

pytestmark = pytest.mark.skipif(
    SITE not in Path(tclint.analyzer.__file__).resolve().parents,
    reason="runs against a wheel installed in site-packages (.ci/check_wheel)",
)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TCLINT, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_every_source_package_and_its_data_is_installed():
    for folder, package in (("analyzer", "tclint.analyzer"), ("server", "tclint.server")):
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            installed = SITE.joinpath(*package.split("."), *rel.parts, "__init__.py")
            assert installed.is_file(), f"{package}.{'.'.join(rel.parts)} is missing from the wheel"
            for data in init.parent.glob("*.json"):   # knowledge tables
                assert (installed.parent / data.name).is_file(), f"{data} is missing from the wheel"


def test_lint_prints_the_readme_findings():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\$ tclint examples/\n(.*?)```", readme, re.S).group(1)
    proc = run("--no-cache", "examples/", cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == block.strip().splitlines()


def test_rule_prints_its_doc():
    proc = run("rule", "TC101", cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("TC101") and "## What it does" in proc.stdout


def test_confirm_confirms_a_break(tmp_path):
    (tmp_path / "model.py").write_text(textwrap.dedent("""\
        import torch

        @torch.compile
        def f(x):
            return x.sum().item() + 1

        def tclint_examples():
            return [("item", f._torchdynamo_orig_callable, (torch.randn(3),), {})]
    """))
    proc = run("confirm", "--format", "json", "--no-cache", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    found = {(d["line"], d["code"]): d for d in json.loads(proc.stdout)["diagnostics"]}
    assert found[(5, "TC102")]["confirmed"] is True


SAMPLE = "import torch\n\n@torch.compile\ndef f(x):\n    return x.sum().item()\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[TCLINT, "server"]))
async def client(lsp_client: LanguageClient, tmp_path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
    ))
    yield
    await lsp_client.shutdown_session()


async def test_server_publishes_a_diagnostic(client: LanguageClient, tmp_path):
    path = tmp_path / "m.py"
    path.write_text(SAMPLE)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python", version=1, text=SAMPLE)))
    while not client.diagnostics.get(path.as_uri()):
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
    diagnostics = client.diagnostics[path.as_uri()]
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("TC102", 4)]


def test_checkout_is_not_on_the_path():
    assert os.getcwd() != str(REPO) and str(REPO) not in sys.path
