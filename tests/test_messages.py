"""Messages a PyTorch engineer acts on without the docs: the value named, training-only paths,
the Dynamo setting that decides the verdict, and a `--format full` help line for the code found."""
from __future__ import annotations

import re

from tclint.analyzer.render.help_text import help_line
from tclint.analyzer.render.text import render_full
from tclint.analyzer.rules import all_rules

HEAD = """
import torch

@torch.compile
def f(x):
"""


def messages(lint, body: str, code: str) -> list[str]:
    return [d.text() for d in lint(HEAD + body) if d.code == code]


def test_branch_names_the_value(lint):
    (message,) = messages(lint, "    error_ratio = x.norm()\n    if error_ratio:\n        x = x * 2\n    return x\n",
                          "TC101")
    assert message.startswith("branching on ") and "`error_ratio`" in message


def test_a_long_condition_is_not_quoted(lint):
    condition = "(x * 2 + 1).abs().sum() > x.mean() * 3 + x.std() * 2"
    (message,) = messages(lint, f"    if {condition}:\n        return x\n    return -x\n", "TC101")
    assert message.startswith("branching on ") and condition not in message


def test_item_and_conversions_name_the_value(lint):
    (item,) = messages(lint, "    return x.sum().item()\n", "TC102")
    assert item.startswith("`.item()` converts a tensor to a Python number, so `x.sum().item()` breaks the graph")
    (cast,) = messages(lint, "    return float(x.max())\n", "TC103")
    assert cast.startswith("`float()` of the tensor `x.max()` reads its value")


def test_setting_that_decides_the_verdict_is_named(lint):
    (item,) = messages(lint, "    return x.sum().item()\n", "TC102")
    assert item.endswith("; set `torch._dynamo.config.capture_scalar_outputs = True` to trace it")
    (op,) = messages(lint, "    return x.nonzero()\n", "TC301")
    assert op.endswith("; set `torch._dynamo.config.capture_dynamic_output_shape_ops = True` to trace it")
    (out,) = messages(lint, "    print(x)\n    return x\n", "TC201")
    assert "`torch._dynamo.config.reorderable_logging_functions.add(print)`" in out
    (backward,) = messages(lint, "    x.sum().backward()\n    return x\n", "TC212")
    assert "torch._dynamo.config" not in backward  # no setting traces it


MODULE = """
import torch

class Net(torch.nn.Module):
    def forward(self, x):
        if self.training:
            x = x * x.std().item()
        if not self.training:
            pass
        else:
            x = x + x.sum().item()
        if self.training and x.dim() == 2:
            x = x - x.mean().item()
        return x * x.max().item()
"""


def test_training_only_paths_say_so(lint):
    notes = [(d.line, "; this only runs in training (under `self.training`)" in d.text())
             for d in lint(MODULE) if d.code == "TC102"]
    assert notes == [(7, True), (11, True), (13, True), (14, False)]


def test_full_help_fits_the_finding(lint, tmp_path):
    path = tmp_path / "m.py"
    path.write_text(HEAD + "    if x.sum() > 0:\n        return x\n    return x.max().item()\n")
    from tclint.analyzer.api import lint_source

    report = render_full(lint_source(path.read_text(), str(path)))
    assert "  = help: decide inside the graph: `torch.where(x.sum() > 0, a, b)`" in report
    assert "  = help: keep `x.max()` a tensor" in report


def test_help_never_quotes_an_example_out_of_context():
    for code, rule in all_rules().items():
        text = help_line(rule, None)
        if text is None:
            continue
        example_lines = {line.strip() for block in re.findall(r"```python\n(.*?)```", rule.doc(), re.DOTALL)
                         for line in block.splitlines() if line.strip()}
        assert not any(line in text for line in example_lines), code
