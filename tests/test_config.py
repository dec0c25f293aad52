"""`[tool.tclint]` and tclint.toml: discovery, validation and the settings they produce."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tclint.analyzer.config import ConfigError, find_config
from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.settings_resolution import Overrides, resolve_settings


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_found_by_walking_up(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.tclint]\nignore = ['TC2']\n")
    sub = tmp_path / "pkg" / "deep"
    sub.mkdir(parents=True)
    assert find_config(sub) == tmp_path / "pyproject.toml"
    assert resolve_settings(sub).ignore == ("TC2",)


def test_pyproject_without_section_is_skipped(tmp_path):
    write(tmp_path / "tclint.toml", "ignore = ['TC1']\n")
    inner = tmp_path / "inner"
    inner.mkdir()
    write(inner / "pyproject.toml", "[project]\nname = 'x'\n")
    assert find_config(inner) == tmp_path / "tclint.toml"


def test_all_keys(tmp_path):
    cfg = write(tmp_path / "tclint.toml", """
select = ["TC1"]
extend-select = ["TC210"]
ignore = ["TC102"]
per-file-ignores = { "tests/*" = ["TC101"] }
exclude = ["vendored/"]
roots = ["pkg.mod:Net.forward"]
assume-forward-compiled = false
severity = { "TC1" = "error" }
max-file-size = 1000

[dynamo]
capture_scalar_outputs = true
reorderable_logging_functions = ["print"]

[confirm]
examples = ["examples/cases.py"]
device = "auto"
timeout = 30
python = "/opt/venv/bin/python"
""")
    s = resolve_settings(tmp_path, config=str(cfg))
    assert s.select == ("TC1",) and s.extend_select == ("TC210",) and s.ignore == ("TC102",)
    assert s.per_file_ignores == (("tests/*", ("TC101",)),)
    assert "vendored/" in s.exclude and ".git" in s.exclude
    assert s.roots == ("pkg.mod:Net.forward",) and s.assume_forward_compiled is False
    assert s.severity == (("TC1", Severity.ERROR),) and s.max_file_size == 1000
    assert s.dynamo.capture_scalar_outputs is True
    assert s.dynamo.reorderable_logging_functions == frozenset({"builtins.print"})
    assert (s.confirm.examples, s.confirm.device, s.confirm.timeout, s.confirm.python) == (
        ("examples/cases.py",), "auto", 30.0, "/opt/venv/bin/python")


@pytest.mark.parametrize(("text", "needle"), [
    ("selectt = ['TC1']", "unknown key 'selectt'"),
    ("select = 'TC1'", "must be a list"),
    ("select = ['XX1']", "'XX1' matches no rule"),
    ("assume-forward-compiled = 'yes'", "must be true or false"),
    ("severity = { TC101 = 'fatal' }", "accepted values are error, warning, info, hint"),
    ("roots = ['no_colon']", "is not of the form"),
    ("max-file-size = -1", "positive"),
    ("target-version = '3.11'", 'must be the oldest Python the code runs on, "py38" to "py314"'),
    ("[tool.tclint.dynamo]\ncapture_scalars = true", "unknown key 'capture_scalars'"),
    ("[tool.tclint.confirm]\ndevice = 'tpu'", "accepted values are cpu, cuda, auto"),
    ("[tool.tclint.confirm]\ntimeout = 0", "positive"),
])
def test_bad_values_name_file_key_and_accepted(tmp_path, text, needle):
    body = text if text.startswith("[") else "[tool.tclint]\n" + text
    write(tmp_path / "pyproject.toml", body + "\n")
    with pytest.raises(ConfigError) as info:
        resolve_settings(tmp_path)
    assert needle in str(info.value)
    assert "pyproject.toml" in str(info.value)


@pytest.mark.parametrize(("pyproject", "expected"), [
    ('[project]\nrequires-python = ">=3.10"\n[tool.tclint]\ntarget-version = "py312"\n', (3, 12)),
    ('[project]\nrequires-python = ">=3.9, <4"\n', (3, 9)),
    ('[project]\nrequires-python = "~=3.11"\n', (3, 11)),
    ('[project]\nname = "m"\n', None),  # not said: the Python tclint runs on
])
def test_target_version_from_the_config_else_the_oldest_python_the_project_admits(tmp_path, pyproject, expected):
    write(tmp_path / "pyproject.toml", pyproject)
    (tmp_path / "pkg").mkdir()
    settings = resolve_settings(tmp_path / "pkg")
    assert settings.target_version == expected
    assert settings.target_python == (expected or sys.version_info[:2])


def test_a_tclint_toml_beside_a_pyproject_takes_its_requires_python(tmp_path):
    write(tmp_path / "pyproject.toml", '[project]\nrequires-python = ">=3.12"\n')
    write(tmp_path / "tclint.toml", "select = ['TC2']\n")
    assert resolve_settings(tmp_path).target_version == (3, 12)


def test_cli_overrides(tmp_path):
    write(tmp_path / "tclint.toml", "select = ['TC1']\nignore = ['TC101']\n")
    s = resolve_settings(tmp_path, overrides=Overrides(select=["TC2"], ignore=["TC210,TC211", "TC212"]))
    assert s.select == ("TC2",) and s.ignore == ("TC101", "TC210", "TC211", "TC212")


def test_severity_override_applies(tmp_path, lint):
    write(tmp_path / "tclint.toml", "severity = { TC102 = 'error' }\n")
    s = resolve_settings(tmp_path)
    diags = lint("import torch\n@torch.compile\ndef f(x):\n    return x.sum().item()\n", settings=s)
    assert diags[0].severity is Severity.ERROR


def test_dynamo_setting_in_code_disables_item_rule(lint):
    src = (
        "import torch\n"
        "torch._dynamo.config.capture_scalar_outputs = True\n"
        "@torch.compile\n"
        "def f(x):\n    return x.sum().item()\n"
    )
    assert lint(src) == []


def test_dynamo_setting_assigned_in_setup_function_counts(lint):
    src = """
        import torch

        def main():
            torch._dynamo.config.capture_scalar_outputs = True
            torch.compile(step)(torch.ones(2))

        def step(x):
            return x.sum().item()
    """
    assert lint(src) == []


def test_dynamo_config_patch_block_counts_for_the_project(lint):
    src = """
        import torch

        @torch.compile
        def step(x):
            return x.sum().item()

        def main(x):
            with torch._dynamo.config.patch({"capture_scalar_outputs": True}):
                return step(x)
    """
    assert lint(src) == []


# Dynamo (torch 2.13) honours a patch decorator in either order around torch.compile.
PATCHED_ROOT = """
    import torch

    @torch.compile
    @torch._dynamo.config.patch(capture_scalar_outputs=True)
    def scaled(x):
        return x * total(x)

    def total(x):
        return x.sum().item()

    @torch.compile
    def peak(x):
        return x * x.max().item()
"""


def test_dynamo_config_patch_decorator_holds_only_for_its_compiled_function(lint):
    assert [d.span.line for d in lint(PATCHED_ROOT)] == [14]


def test_helper_shared_with_an_unpatched_root_still_breaks_there(lint):
    src = PATCHED_ROOT + """
    @torch.compile
    def plain_total(x):
        return total(x)
    """
    assert sorted(d.span.line for d in lint(src)) == [10, 14]
