"""Values are known from where they come from, never from their names (issue 8): a class from
another file stored on `self` is no tensor or config for ending in `Tensor` or `Config`; which of
torch's classes build tensors is the table written from torch itself. Each program lists the
lines Dynamo (torch 2.13, eager backend) reports; tclint must flag exactly those. The Dynamo
half is skipped without torch."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from break_lines import dynamo_verdicts, flagged_lines
from dynamo_oracle import ask
from tclint.analyzer.config import Settings
from tclint.analyzer import tensor_facts
from tclint.analyzer.knowledge import tensor_api
from tclint.analyzer.project import lint_paths

HELPERS = '''import torch


class Base(torch.nn.Module):
    pass
'''

# A module class named like a tensor type, whose base another file defines: its weight is a tensor.
MODEL = '''

class ScaleTensor(Base):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = ScaleTensor()

    def forward(self, x):
        if self.scale.weight.sum() > 0:
            return x + 1
        return x - 1
'''
MODEL_LINE = 17  # in model.py, below its two import lines


def test_a_set_up_instance_named_like_a_tensor_type(tmp_path: Path):
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "model.py").write_text("import torch\nfrom helpers import Base\n" + MODEL)
    result = lint_paths([tmp_path], Settings(), jobs=1, use_cache=False)
    assert sorted((Path(d.path).name, d.span.line) for d in result.diagnostics if d.gb_type) == [
        ("model.py", MODEL_LINE)]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_on_that_line():
    verdict = ask([{"id": "model", "source": HELPERS + MODEL, "call": "torch.compile(Model())(torch.ones(3))"}])["model"]
    offset = len(HELPERS.splitlines()) - 2
    assert verdict["error"] is None
    assert {line for _, line in verdict["breaks"]} == {MODEL_LINE + offset}


TORCH_CLASSES = {
    "a legacy tensor type builds a tensor": ("""
    import torch

    @torch.compile
    def f(x):
        t = torch.FloatTensor([1.0, 2.0])
        if t.sum() > 0:
            return x + 1
        return x - 1
    """, "f(torch.ones(3))", {7}),
    "torch.Size builds a Python value": ("""
    import torch

    @torch.compile
    def f(x):
        s = torch.Size([3, 2])
        if s[0] > 2:
            return x + 1
        return x - 1
    """, "f(torch.ones(3))", set()),
    "torch.nn's classes that are nn.Modules": ("""
    import torch

    class Scale(torch.nn.Identity):
        def forward(self, x):
            return x * x.sum().item()
    """, "torch.compile(Scale())(torch.ones(3))", {6}),
}


@pytest.mark.parametrize("name", TORCH_CLASSES)
def test_torch_classes_build_what_the_table_says(name):
    source, _call, lines = TORCH_CLASSES[name]
    assert flagged_lines(source) == lines


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_agrees_on_torch_classes():
    dynamo_verdicts(TORCH_CLASSES)


def test_torch_nn_classes_are_modules_where_the_table_says():
    # PackedSequence is a tuple and SDPBackend an Enum, capitalised like torch.nn's modules
    assert [tensor_facts.is_module_base(q) for q in (
        "torch.nn.Linear", "torch.nn.modules.container.Sequential", "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.utils.rnn.PackedSequence", "torch.nn.attention.SDPBackend", "torch.nn.Parameter",
        "torch.nn.LinearCrossEntropyOptions")] == [True, True, True, False, False, False, False]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_the_tables_of_torchs_classes_are_the_installed_torchs():
    tool = Path(tensor_api.__file__).with_name("tools") / "list_tensor_attributes.py"
    found = subprocess.run([sys.executable, "-c", "import runpy, sys; sys.argv = ['x']; g = runpy.run_path("
                            f"{str(tool)!r}); print([sorted(g[t]()) for t in ('tensor_types', 'namespace_classes', "
                            "'nn_module_classes')])"], capture_output=True, text=True, check=True).stdout.strip()
    assert found == str([sorted(tensor_api.TENSOR_TYPES), sorted(tensor_api.NAMESPACE_CLASSES),
                         sorted(tensor_api.NN_MODULE_CLASSES)])


# An optimizer is known from what the callers pass (TC217): a compiled training step taking an
# un-annotated `optimizer`, which another file builds with torch.optim; a trainer storing the
# optimizer its constructor is given; and the same names given something else, that lie.
TRAIN_MODEL = '''import torch


@torch.compile
def train_step(model, x, optimizer):
    loss = model(x).sum()
    optimizer.step()
    optimizer.zero_grad()
    return loss.detach()


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    @torch.compile
    def step(self, x):
        loss = self.model(x).sum()
        self.optimizer.step()
        return loss.detach()


class Ticker:
    def __init__(self):
        self.n = 0

    def step(self):
        self.n += 1
        return self.n


@torch.compile
def scaled(x, optimizer):
    return x * optimizer.step()


class Scaler:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    @torch.compile
    def scale(self, x):
        return x * self.optimizer.step()
'''
TRAIN_MAIN = '''import torch
from model import Scaler, Ticker, Trainer, scaled, train_step


def main():
    net = torch.nn.Linear(3, 1)
    sgd = torch.optim.SGD(net.parameters(), lr=0.1)
    train_step(net, torch.randn(2, 3), sgd)
    Trainer(net, torch.optim.Adam(net.parameters())).step(torch.randn(2, 3))
    optimizer = Ticker()
    scaled(torch.randn(3), optimizer)
    Scaler(Ticker()).scale(torch.randn(3))
'''
OPTIMIZER_LINES = {7, 8, 20}  # in model.py: train_step's step() and zero_grad(), Trainer.step's step()


def test_optimizers_are_known_from_what_the_callers_pass(tmp_path: Path):
    (tmp_path / "model.py").write_text(TRAIN_MODEL)
    (tmp_path / "train.py").write_text(TRAIN_MAIN)
    result = lint_paths([tmp_path], Settings(), jobs=1, use_cache=False)
    assert {d.span.line for d in result.diagnostics if d.code == "TC217"} == OPTIMIZER_LINES
    assert all(Path(d.path).name == "model.py" for d in result.diagnostics if d.code == "TC217")


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_dynamo_breaks_at_the_optimizers_only():
    source = TRAIN_MODEL + TRAIN_MAIN.replace("from model import Scaler, Ticker, Trainer, scaled, train_step\n", "")
    verdict = ask([{"id": "train", "source": source, "call": "main()"}])["train"]
    assert verdict["error"] is None
    assert {line for _, line in verdict["breaks"] if line is not None} == OPTIMIZER_LINES
