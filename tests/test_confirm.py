"""`tclint confirm`: examples run under Dynamo in a child process; findings are confirmed,
refuted or added. Skipped when torch is not installed."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.dynamo

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed", allow_module_level=True)

MODELS = textwrap.dedent("""
    import time

    import torch

    @torch.compile
    def to_python(x):
        return x.sum().item()

    @torch.compile
    def stringify(x, to_text=str):
        return to_text(x) + "!"  # str() under another name: no rule sees it

    @torch.compile
    def clean(x):
        if x.dim() == 1:
            return x * 2
        return x

    @torch.compile
    def maybe_item(x, flag: bool = False):
        if flag:
            return x.sum().item()
        return x + 1

    @torch.compile
    def slow(x):
        time.sleep(30)
        return x

    @torch.compile
    def scale(x, s):
        return x * s

    @torch.compile
    def broken(x):
        return x @ torch.ones(7, 7)

    import os

    @torch.compile
    def probe_path(x):
        if os.path.exists("/definitely/not/here"):
            x = x * 2
        return x + 1

    def tclint_examples():
        x = torch.randn(3)
        return [
            ("predicted", to_python._torchdynamo_orig_callable, (x,), {}),
            ("unpredicted", stringify._torchdynamo_orig_callable, (x,), {}),
            ("clean", clean._torchdynamo_orig_callable, (x,), {}),
            ("not_taken", maybe_item._torchdynamo_orig_callable, (x,), {}),
            ("timeout", slow._torchdynamo_orig_callable, (x,), {}),
            ("variants", scale._torchdynamo_orig_callable, [((x, True), {}), ((x, False), {}), ((x, True), {})]),
            ("raises", broken._torchdynamo_orig_callable, (x,), {}),
            ("stdlib_frame", probe_path._torchdynamo_orig_callable, (x,), {}),
        ]
""")


# Dynamo configured where static analysis cannot see it: `.item()` no longer breaks.
REFUTED = textwrap.dedent("""
    import torch

    @torch.compile
    def f(x):
        return x.sum().item() + 1

    def tclint_examples():
        setattr(torch._dynamo.config, "capture_scalar_outputs", True)  # out of static sight
        return [("scalar_capture", f._torchdynamo_orig_callable, (torch.randn(3),), {})]
""")


@pytest.fixture(scope="module")
def confirmed(tmp_path_factory):
    root = tmp_path_factory.mktemp("confirm")
    (root / "models.py").write_text(MODELS)
    (root / "refuted.py").write_text(REFUTED)
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "confirm", "--format", "json", "--example-timeout", "3", "."],
        cwd=root, capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    return root, proc


def _by_line(doc):
    return {(d["line"], d["code"]): d for d in json.loads(doc)["diagnostics"]}


def test_exit_status_and_case_summaries(confirmed):
    _, proc = confirmed
    assert proc.returncode == 1, proc.stderr
    log = proc.stderr
    assert "models.py::predicted: ok" in log and "1 graph break" in log
    assert "models.py::clean: ok" in log and "models.py::timeout: timeout" in log
    (raised,) = [line for line in log.splitlines() if "models.py::raises: raised" in line]
    # the exception's own words and where in the user's code, not Dynamo's closing advice
    assert "Error" in raised and "(at models.py:" in raised and "TORCHDYNAMO_VERBOSE" not in raised


def test_predicted_break_is_confirmed(confirmed):
    _, proc = confirmed
    d = _by_line(proc.stdout)[(8, "TC102")]
    assert d["confirmed"] is True and d["severity"] == "error" and "confirmed by Dynamo" in d["message"]


def test_unpredicted_break_becomes_a_finding(confirmed):
    _, proc = confirmed
    d = _by_line(proc.stdout)[(12, "TC900")]
    assert d["gb_type"] == "Failed to trace builtin operator" and d["gb_id"] == "GB0059"
    assert "unpredicted" in d["message"]


def test_prediction_on_a_line_that_never_ran_stays_unconfirmed(confirmed):
    _, proc = confirmed
    assert _by_line(proc.stdout)[(23, "TC102")]["confirmed"] is None


def test_prediction_refuted_by_a_clean_run(confirmed):
    _, proc = confirmed
    rows = [d for d in json.loads(proc.stdout)["diagnostics"] if d["path"].endswith("refuted.py")]
    assert [(d["line"], d["code"], d["confirmed"]) for d in rows] == [(6, "TC102", False)]
    assert "ran without a break" in rows[0]["message"]


def test_breaks_inside_frozen_stdlib_modules_belong_to_the_calling_line(confirmed):
    root, proc = confirmed
    doc = json.loads(proc.stdout)
    assert not [d for d in doc["diagnostics"] if d["path"].startswith("<")]
    line = MODELS.splitlines().index("    if os.path.exists(\"/definitely/not/here\"):") + 1
    d = _by_line(proc.stdout)[(line, "TC205")]
    assert d["confirmed"] is True


def test_recompilations_are_reported_in_words(confirmed):
    _, proc = confirmed
    d = _by_line(proc.stdout)[(31, "TC901")]
    assert d["message"].startswith("Dynamo recompiled `scale` once in models.py::variants: "
                                   "argument `s` was True, now False: a bool is specialised")
    assert "#" not in d["message"]


def test_results_are_cached(confirmed):
    root, first = confirmed
    from tclint.analyzer.cache_folders import cache_folder
    from tclint.analyzer.config import Settings

    assert (cache_folder(Settings(), root) / "confirm").is_dir()
    again = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "confirm", "--format", "json", "--example-timeout", "3", "."],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    assert again.stdout == first.stdout


def test_trace_runs_a_script_with_capture(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import sys
        import torch

        @torch.compile
        def step(x):
            return x.sum().item()

        if __name__ == "__main__":
            print("args", sys.argv[1:])
            step(torch.randn(3))
    """))
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "trace", "--format", "json", "--", sys.executable, "train.py", "--lr", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr  # the script's own status, findings or not
    assert proc.stdout.startswith("args ['--lr', '1']")  # the script's own output passes through
    report = json.loads(proc.stdout[proc.stdout.index("{"):])
    (d,) = report["diagnostics"]
    assert (d["line"], d["code"], d["confirmed"]) == (7, "TC102", True)
    from tclint.analyzer.confirm import saved_results

    from tclint.analyzer.cache_folders import trace_file
    from tclint.analyzer.config import Settings

    hashes, saved = saved_results.load(trace_file(Settings(), tmp_path))
    assert [(d.code, d.line, d.confirmed) for d in saved] == [("TC102", 7, True)]
    assert str((tmp_path / "train.py").resolve()) in hashes


def test_trace_refutes_a_prediction_on_a_line_dynamo_traced_without_a_break(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import torch

        @torch.compile
        def step(x):
            return x.sum().item()

        @torch.compile
        def quiet(x):
            return x.sum().item() + 1

        @torch.compile
        def unused(x):
            return x.sum().item() * 2

        if __name__ == "__main__":
            step(torch.randn(3))
            setattr(torch._dynamo.config, "capture_scalar_outputs", True)  # out of static sight
            quiet(torch.randn(3))
    """))
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "trace", "--format", "json", "--", sys.executable, "train.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    report = json.loads(proc.stdout[proc.stdout.index("{"):])
    got = [(d["line"], d["code"], d["confirmed"]) for d in report["diagnostics"]]
    assert got == [(6, "TC102", True), (10, "TC102", False), (14, "TC102", None)], proc.stderr


def test_submitit_executor_runs_examples_as_jobs(tmp_path):
    pytest.importorskip("submitit")
    (tmp_path / "m.py").write_text(textwrap.dedent("""
        import torch

        @torch.compile
        def f(x):
            return x.sum().item()

        def tclint_examples():
            return [("item", f._torchdynamo_orig_callable, (torch.randn(3),), {})]
    """))
    (tmp_path / "tclint.toml").write_text('[confirm]\nexecutor = "submitit-local"\nslurm = { timeout_min = 10 }\n')
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "confirm", "--format", "json", "--no-cache", "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 1, proc.stderr
    (d,) = json.loads(proc.stdout)["diagnostics"]
    assert (d["code"], d["confirmed"]) == ("TC102", True)
    from tclint.analyzer.cache_folders import cache_folder
    from tclint.analyzer.config import Settings

    assert (cache_folder(Settings(), tmp_path) / "submitit").is_dir()


def test_missing_torch_is_a_clear_message(tmp_path):
    import shutil

    bare = shutil.which("python3", path="/usr/bin:/bin")
    if bare is None or subprocess.run([bare, "-c", "import torch"], capture_output=True).returncode == 0:
        pytest.skip("no interpreter without torch here")
    (tmp_path / "m.py").write_text("import torch\n\ndef tclint_examples():\n    return []\n")
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "--confirm", "--no-cache", "--python", bare, "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "torch is not installed" in proc.stderr and "torch-tclint[confirm]" in proc.stderr


DEVICE_EXAMPLE = textwrap.dedent("""
    import torch

    @torch.compile
    def f(x):
        return x.sum().item()

    def tclint_examples(device):
        return [("on_device", f._torchdynamo_orig_callable, (torch.ones(2, device=device),), {})]
""")


def _confirm_on(tmp_path, device):
    (tmp_path / "m.py").write_text(DEVICE_EXAMPLE)
    return subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "confirm", "--no-cache", "--device", device, "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )


def test_cuda_without_a_gpu_is_a_clear_message(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    proc = _confirm_on(tmp_path, "cuda")
    assert "--device cuda, but torch.cuda.is_available() is False" in proc.stderr
    assert "confirmed by Dynamo" not in proc.stdout  # the finding stays a prediction


def test_auto_device_runs_where_torch_can(tmp_path):
    proc = _confirm_on(tmp_path, "auto")
    assert "m.py::on_device: ok" in proc.stderr and "confirmed by Dynamo" in proc.stdout


def test_examples_are_moved_to_the_device_with_their_containers():
    import collections

    import torch

    from tclint.analyzer.confirm.runner import _to_device

    Pair = collections.namedtuple("Pair", "a b")
    meta = torch.device("meta")
    moved = _to_device([Pair(torch.ones(1), {"m": torch.nn.Linear(1, 1)}), (torch.ones(1), 3)], meta, torch)
    assert isinstance(moved[0], Pair) and moved[0].a.device == meta
    assert moved[0].b["m"].weight.device == meta
    assert moved[1][0].device == meta and moved[1][1] == 3


def test_statistics_count_unpredicted_breaks_by_type(confirmed):
    root, _ = confirmed
    proc = subprocess.run(
        [sys.executable, "-m", "tclint.analyzer", "confirm", "--statistics", "--example-timeout", "3", "."],
        cwd=root, capture_output=True, text=True, timeout=300,
    )
    assert "TC900\tdynamo-observed-break (Failed to trace builtin operator)" in proc.stdout


SHARED_EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"


@pytest.mark.skipif(not (SHARED_EVAL / "truth.json").is_file(), reason="../shared/eval is not beside the checkout")
def test_reproduces_the_shared_truth_on_a_handful_of_cases(tmp_path):
    """Every break of these corpus modules at its file:line with its Gb_type, nothing extra."""
    import shutil

    from tclint.analyzer.config import Settings
    from tclint.analyzer.confirm.driver import confirm
    from tclint.analyzer.discovery import discover

    names = ["normalization_layers.py", "tensor_checks.py", "seq_utils.py", "checkpointing_io.py"]
    for name in names:
        shutil.copy(SHARED_EVAL / "corpus" / name, tmp_path / name)
    files, _ = discover([tmp_path], Settings())
    result = confirm(files, tmp_path.resolve(), [], python=sys.executable, jobs=2)
    got = {(f"{Path(c.module).stem}::{c.name}", Path(b["file"]).name, b["line"], b["gb_type"])
           for c in result.cases for b in c.breaks}
    truth = json.loads((SHARED_EVAL / "truth.json").read_text())
    modules = {Path(n).stem for n in names}
    want = {(case["case"], b["file"], b["line"], b["gb_type"])
            for case in truth["cases"] if case["module"].removesuffix(".py") in modules for b in case["breaks"]}
    assert got == want and len(want) >= 8
