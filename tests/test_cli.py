"""The `tclint` command through a real subprocess: exit codes and output shapes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BREAKING = textwrap.dedent("""
    import torch

    @torch.compile
    def f(x):
        if x.sum() > 0:
            return x
        return x.sum().item()
""")
CLEAN = textwrap.dedent("""
    import torch

    @torch.compile
    def f(x):
        if x.dim() == 2:
            return x * 2
        return x
""")


def run(*args, cwd=None, stdin=None):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", *args], cwd=cwd, input=stdin,
        capture_output=True, text=True, env=env, timeout=120,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BREAKING)
    (tmp_path / "good.py").write_text(CLEAN)
    return tmp_path


def test_findings_exit_1_and_text_lines(project):
    proc = run("--no-cache", "bad.py", cwd=project)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("bad.py:6:8: TC101 [GB0170]")
    assert lines[1].startswith("bad.py:8:12: TC102 [GB0124]")


def test_clean_exit_0(project):
    proc = run("--no-cache", "good.py", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == ""


def test_exit_zero_flag(project):
    assert run("--no-cache", "--exit-zero", "bad.py", cwd=project).returncode == 0


def test_json_contract(project):
    proc = run("--no-cache", "--format", "json", ".", cwd=project)
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["tool"] == "tclint" and doc["version"]
    first = doc["diagnostics"][0]
    for key in ("path", "line", "column", "end_line", "end_column", "code", "severity", "message", "gb_type", "confirmed"):
        assert key in first
    assert (first["path"], first["line"], first["column"], first["end_line"], first["end_column"]) == ("bad.py", 6, 8, 6, 19)
    assert first["gb_type"] == "Data-dependent branching" and first["confirmed"] is None
    assert doc["stats"]["by_code"] == {"TC101": 1, "TC102": 1}


def test_jsonl_one_object_per_line(project):
    proc = run("--no-cache", "--format", "jsonl", "bad.py", cwd=project)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["code"] for r in rows] == ["TC101", "TC102"]


def test_sarif_shape(project):
    proc = run("--no-cache", "--format", "sarif", "bad.py", cwd=project)
    doc = json.loads(proc.stdout)
    assert doc["version"] == "2.1.0"
    run0 = doc["runs"][0]
    ids = [r["id"] for r in run0["tool"]["driver"]["rules"]]
    result = run0["results"][0]
    assert result["ruleId"] == "TC101" and ids[result["ruleIndex"]] == "TC101"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 6, "startColumn": 8, "endLine": 6, "endColumn": 19}


def test_github_annotations(project):
    proc = run("--no-cache", "--format", "github", "bad.py", cwd=project)
    assert proc.stdout.splitlines()[0].startswith("::warning file=bad.py,line=6,col=8,endLine=6,endColumn=19,title=TC101 tensor-branch::")


def test_select_and_ignore_prefixes(project):
    assert "TC102" not in run("--no-cache", "--ignore", "TC102", "bad.py", cwd=project).stdout
    only = run("--no-cache", "--select", "TC10", "--ignore", "TC101", "bad.py", cwd=project).stdout
    assert "TC102" in only and "TC101" not in only


def test_unknown_code_is_usage_error(project):
    proc = run("--no-cache", "--select", "XY9", "bad.py", cwd=project)
    assert proc.returncode == 2 and "XY9" in proc.stderr


def test_statistics(project):
    proc = run("--no-cache", "--statistics", ".", cwd=project)
    assert proc.returncode == 1
    assert "1\tTC101\ttensor-branch" in proc.stdout


def test_stdin_with_filename(project):
    proc = run("--no-cache", "-", "--stdin-filename", "model.py", stdin=BREAKING, cwd=project)
    assert proc.returncode == 1 and proc.stdout.startswith("model.py:6:8: TC101")


def test_missing_path_is_exit_2(project):
    proc = run("--no-cache", "nope.py", cwd=project)
    assert proc.returncode == 2 and "nope.py" in proc.stderr


def test_rule_and_rules_commands():
    proc = run("rule", "TC101")
    assert proc.returncode == 0
    assert "GB0170" in proc.stdout and "## Use instead" in proc.stdout
    assert "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0170.html" in proc.stdout
    assert run("rule", "TC999").returncode == 2
    listing = run("rules").stdout
    assert "TC101  tensor-branch" in listing


def test_version():
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("tclint ")


def test_cache_rerun_gives_same_output(project):
    first = run("bad.py", cwd=project)
    second = run("bad.py", cwd=project)
    assert first.stdout == second.stdout and second.returncode == 1
    assert (project / ".tclint_cache").is_dir()


def test_bad_input_never_tracebacks(tmp_path):
    (tmp_path / "syntax.py").write_text("def f(:\n    pass\n")
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: utf-8 -*-\nx = '\xff\xfe'\n")
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "huge.py").write_text("x = 1\n" * 20)
    (tmp_path / "pyproject.toml").write_text("[tool.tclint]\nmax-file-size = 50\n")
    loop = tmp_path / "loop"
    loop.mkdir()
    (loop / "self").symlink_to(loop)
    proc = run("--no-cache", ".", cwd=tmp_path)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1
    assert "syntax.py:1:7: TC001" in proc.stdout
    assert "latin.py:" in proc.stdout and "TC001" in proc.stdout
    assert "huge.py: skipped" in proc.stderr


def test_broken_config_is_exit_2_with_location(tmp_path):
    (tmp_path / "a.py").write_text(CLEAN)
    (tmp_path / "pyproject.toml").write_text("[tool.tclint]\nselectt = ['TC1']\n")
    proc = run("--no-cache", "a.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert "pyproject.toml" in proc.stderr and "selectt" in proc.stderr and "accepted" in proc.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.tclint\n")
    proc = run("--no-cache", "a.py", cwd=tmp_path)
    assert proc.returncode == 2 and "invalid TOML" in proc.stderr
