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


def run(*args, cwd=None, stdin=None, env=None):
    env = {**{k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")},
           "PYTHONIOENCODING": "utf-8", **(env or {})}
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
    assert proc.stderr == "All checks passed!\n"


def test_summary_line_is_on_stderr_whatever_the_format(project):
    text = run("--no-cache", ".", cwd=project)
    assert text.stderr.splitlines()[-1] == "Found 2 findings in 1 file (2 checked)."
    assert "Found" not in text.stdout
    as_json = run("--no-cache", "--format", "json", ".", cwd=project)
    assert json.loads(as_json.stdout)["stats"]["diagnostics"] == 2  # stdout is the document alone
    assert as_json.stderr.splitlines()[-1] == "Found 2 findings in 1 file (2 checked)."
    quiet = run("--no-cache", "-q", ".", cwd=project)
    assert quiet.stderr == "" and quiet.returncode == 1


def test_color_flag_and_environment(project):
    escape = "\x1b["
    assert escape not in run("--no-cache", "bad.py", cwd=project).stdout  # a pipe is not a terminal
    assert escape in run("--no-cache", "--color", "always", "bad.py", cwd=project).stdout
    assert escape in run("--no-cache", "bad.py", cwd=project, env={"FORCE_COLOR": "1"}).stdout
    assert escape not in run("--no-cache", "bad.py", cwd=project, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert escape not in run("--no-cache", "--color", "never", "bad.py", cwd=project, env={"FORCE_COLOR": "1"}).stdout
    assert escape in run("--no-cache", "--color", "always", "--format", "full", "bad.py", cwd=project).stdout
    as_json = run("--no-cache", "--color", "always", "--format", "json", "bad.py", cwd=project).stdout
    assert escape not in as_json and json.loads(as_json)["diagnostics"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(("no_color", "colored"), [(None, True), ("1", False)])
def test_color_on_a_terminal_unless_no_color(project, no_color, colored):
    import pty

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    if no_color:
        env["NO_COLOR"] = no_color
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "tclint.analyzer", "--no-cache", "bad.py"], cwd=project,
                              stdout=slave, stderr=subprocess.PIPE, env=env, timeout=120)
        out = os.read(master, 65536)
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 1 and b"TC101" in out
    assert (b"\x1b[" in out) is colored


def test_no_python_files_is_a_warning(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    proc = run("--no-cache", ".", cwd=tmp_path)
    assert proc.returncode == 0
    assert "warning: No Python files found" in proc.stderr


@pytest.mark.parametrize("jobs", ["0", "-2", "many"])
def test_jobs_must_be_a_positive_number(project, jobs):
    proc = run("--no-cache", "-j", jobs, "bad.py", cwd=project)
    assert proc.returncode == 2 and "-j/--jobs" in proc.stderr and "Traceback" not in proc.stderr


def test_code_lists_take_commas_and_repeated_flags_add_up(project):
    both = run("--no-cache", "--select", "TC101", "--select", "TC102", "bad.py", cwd=project).stdout
    assert "TC101" in both and "TC102" in both
    assert run("--no-cache", "--select", "TC101,TC102", "bad.py", cwd=project).stdout == both
    assert run("--no-cache", "--ignore", "TC101, TC102", "bad.py", cwd=project).stdout == ""
    assert run("--no-cache", "--ignore", "TC101", "--ignore", "TC102", "bad.py", cwd=project).stdout == ""
    only = run("--no-cache", "--select", "TC2", "--extend-select", "TC101", "--extend-select", "TC3", "bad.py",
               cwd=project).stdout
    assert "TC101" in only and "TC102" not in only
    bad = run("--no-cache", "--select", "TC101,TC1O2", "bad.py", cwd=project)
    assert bad.returncode == 2 and "TC1O2" in bad.stderr


def test_help_names_every_value_and_every_command():
    text = run("--help").stdout
    for option in ("--format FORMAT", "--select CODES", "--jobs N", "--output-file FILE", "--config FILE",
                   "--exclude PATTERNS", "--cache-dir DIR", "--color WHEN", "--stdin-filename NAME",
                   "--example-timeout SECONDS", "--python INTERPRETER", "--no-respect-gitignore"):
        assert option in text, option
    assert "{" not in text  # no bare choice lists standing in for a metavar
    for command in ("check", "confirm", "trace", "rule", "rules", "server", "clean"):
        assert f"tclint {command}" in text or f"tclint [{command}]" in text, command
    assert run("check", "--help").stdout == text
    assert "--format FORMAT, --output-format FORMAT" in text  # ruff's spelling works too


def test_confirm_and_trace_have_their_own_help():
    confirm = run("confirm", "--help")
    assert confirm.returncode == 0 and confirm.stdout.startswith("usage: tclint confirm")
    assert "--device DEVICE" in confirm.stdout and "--add-noqa" not in confirm.stdout
    trace = run("trace", "--help")
    assert trace.returncode == 0 and trace.stdout.startswith("usage: tclint trace")
    assert "--root DIR" in trace.stdout and "exit status: the traced script's own status" in trace.stdout
    assert run("clean", "--help").stdout.startswith("usage: tclint clean")


def test_file_selection_flags(tmp_path):
    for name in ("a/one.py", "b/two.py", "c/three.py", "gen/four.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / ".gitignore").write_text("gen/\n")
    (tmp_path / ".git").mkdir()

    def files(*flags):
        proc = run("--show-files", *flags, ".", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert files() == ["a/one.py", "b/two.py", "c/three.py"]
    assert files("--no-respect-gitignore") == ["a/one.py", "b/two.py", "c/three.py", "gen/four.py"]
    assert files("--exclude", "a/,b/") == ["c/three.py"]
    assert files("--exclude", "a/", "--extend-exclude", "c/") == ["b/two.py"]
    (tmp_path / "pyproject.toml").write_text("[tool.tclint]\nexclude = ['a/']\nrespect-gitignore = false\n")
    assert files() == ["b/two.py", "c/three.py", "gen/four.py"]
    assert files("--exclude", "b/", "--respect-gitignore") == ["a/one.py", "c/three.py"]  # flags win


def test_cache_dir_flag(project, tmp_path):
    cache = tmp_path / "elsewhere"
    assert run("--cache-dir", str(cache), "bad.py", cwd=project).returncode == 1
    assert cache.is_dir() and any(cache.rglob("*"))
    assert not (project / ".tclint_cache").exists()


def test_show_settings_names_the_config_and_each_value(project):
    (project / "pyproject.toml").write_text("[tool.tclint]\nignore = ['TC2']\n[tool.tclint.dynamo]\n"
                                            "capture_scalar_outputs = true\n")
    proc = run("--show-settings", "--extend-select", "TC4", "bad.py", cwd=project)
    assert proc.returncode == 0
    assert f"Settings path: {(project / 'pyproject.toml').resolve()}" in proc.stdout
    lines = proc.stdout.splitlines()
    assert 'ignore = ["TC2"]' in lines and 'extend-select = ["TC4"]' in lines
    assert "dynamo.capture_scalar_outputs = true" in lines


def test_add_noqa_silences_every_finding_once(project):
    proc = run("--no-cache", "--add-noqa", ".", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "Added 2 suppressions to 1 file." in proc.stderr
    text = (project / "bad.py").read_text()
    assert "    if x.sum() > 0:  # tclint: ignore[TC101]\n" in text
    assert "    return x.sum().item()  # tclint: ignore[TC102]\n" in text
    assert run("--no-cache", ".", cwd=project).returncode == 0
    again = run("--no-cache", "--add-noqa", ".", cwd=project)
    assert "Added 0 suppressions" in again.stderr and (project / "bad.py").read_text() == text


def test_clean_removes_the_caches(project):
    from tclint.analyzer.cache_folders import CACHEDIR_TAG

    assert run("bad.py", cwd=project, env={"TCLINT_CACHE_DIR": ""}).returncode == 1  # in the project
    assert (project / ".tclint_cache").is_dir()
    (project / ".tclint" / "confirm").mkdir(parents=True)  # where tclint 0.1 kept confirmations
    (project / ".tclint" / "CACHEDIR.TAG").write_text(CACHEDIR_TAG)
    nested = project / "sub" / ".tclint_cache"
    nested.mkdir(parents=True)
    keep = project / ".venv" / ".tclint_cache"  # not ours to walk into
    keep.mkdir(parents=True)
    proc = run("clean", cwd=project, env={"TCLINT_CACHE_DIR": ""})
    assert proc.returncode == 0, proc.stderr
    assert not (project / ".tclint_cache").exists() and not (project / ".tclint").exists()
    assert not nested.exists() and keep.exists()
    assert (project / "bad.py").exists()


def test_clean_leaves_a_configured_folder_that_is_not_a_cache(project):
    (project / "data").mkdir()
    (project / "data" / "weights.bin").write_text("keep me")
    (project / "pyproject.toml").write_text("[tool.tclint]\ncache-dir = 'data'\n")
    assert run("clean", cwd=project).returncode == 0
    assert (project / "data" / "weights.bin").exists()


def test_exit_zero_flag(project):
    assert run("--no-cache", "--exit-zero", "bad.py", cwd=project).returncode == 0


def test_ruffs_short_flags(project):
    proc = run("-n", "-e", "bad.py", cwd=project, env={"TCLINT_CACHE_DIR": ""})  # --no-cache --exit-zero
    assert proc.returncode == 0 and "TC102" in proc.stdout
    assert not (project / ".tclint_cache").exists()


def test_silent_prints_nothing_and_keeps_the_exit_status(project):
    proc = run("--no-cache", "-s", "bad.py", cwd=project)
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", "")
    proc = run("--no-cache", "--silent", "good.py", cwd=project)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    report = project / "report.json"
    proc = run("--no-cache", "-s", "--format", "json", "-o", str(report), "bad.py", cwd=project)
    assert proc.stderr == "" and json.loads(report.read_text())["stats"]["diagnostics"] == 2
    # What could not be linted is still said: an exit status of 2 needs its reason.
    proc = run("--no-cache", "-s", "nope.py", cwd=project)
    assert proc.returncode == 2 and "nope.py: no such file or directory" in proc.stderr


def test_quiet_drops_warnings_but_not_the_report(project):
    (project / ".tclint_cache").write_text("")  # the cache folder cannot be made: a warning
    loud = run("bad.py", cwd=project, env={"TCLINT_CACHE_DIR": ""})
    assert "tclint: warning: cannot write the cache" in loud.stderr
    quiet = run("-q", "bad.py", cwd=project, env={"TCLINT_CACHE_DIR": ""})
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (1, loud.stdout, "")


def test_show_settings_names_the_cache_folder(project, tmp_path):
    (project / "pyproject.toml").write_text("[tool.tclint]\n")
    shown = run("--show-settings", "bad.py", cwd=project, env={"TCLINT_CACHE_DIR": ""}).stdout.splitlines()
    assert f'cache-dir = {json.dumps(str(project.resolve() / ".tclint_cache"))}' in shown
    moved = run("--show-settings", "--cache-dir", str(tmp_path / "c"), "bad.py", cwd=project).stdout
    assert f'cache-dir = {json.dumps(str((tmp_path / "c").resolve()))}' in moved.splitlines()


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


def test_unwritable_output_file_is_exit_2(project):
    proc = run("--no-cache", "-o", str(project / "no-such-folder" / "report.txt"), "bad.py", cwd=project)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot write" in proc.stderr and "report.txt" in proc.stderr


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
    assert not (project / ".tclint_cache").exists()  # TCLINT_CACHE_DIR (set for the tests) moves it


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
