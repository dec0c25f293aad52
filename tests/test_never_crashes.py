"""The analyzer turns any program, valid or not, into diagnostics without raising."""
from __future__ import annotations

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tclint.analyzer import api

TORCHY = st.sampled_from([
    "import torch\n@torch.compile\ndef f(x):\n    return x\n",
    "import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n",
    "",
])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(prefix=TORCHY, program=hypothesmith.from_grammar())
def test_generated_programs(prefix, program):
    api.lint_source(prefix + program, path="generated.py")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(prefix=TORCHY, text=st.text(max_size=200))
def test_arbitrary_text(prefix, text):
    api.lint_source(prefix + text, path="noise.py")


def test_deep_nesting():
    api.lint_source("x = " + "(" * 500 + "1" + ")" * 500 + "\n", path="deep.py")
    api.lint_source("def f(x):\n" + "".join("    " * i + "if x:\n" for i in range(1, 90)) + "    " * 90 + "pass\n", path="deep2.py")
