"""tclint on its own bundled example: exactly the findings the example is written to show."""
from __future__ import annotations

from pathlib import Path

from tclint.analyzer.config import Settings
from tclint.analyzer.project import lint_paths

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_examples_have_exactly_the_intended_findings():
    result = lint_paths([EXAMPLES], Settings(), jobs=1, use_cache=False)
    found = {(Path(d.path).relative_to(EXAMPLES).as_posix() if Path(d.path).is_absolute() else
              Path(d.path).resolve().relative_to(EXAMPLES).as_posix(), d.line, d.code) for d in result.diagnostics}
    assert found == {
        ("tinyvit/layers.py", 30, "TC101"),   # if has_nan(scores): a tensor-valued helper
        ("tinyvit/model.py", 22, "TC102"),    # .item() inside forward, before the loop whose break makes the rest run eagerly
        ("tinyvit/model.py", 32, "TC212"),    # loss.backward() inside a compiled step
        ("tinyvit/model.py", 33, "TC217"),    # optimizer.step() there too
        ("tinyvit/model.py", 34, "TC217"),    # and optimizer.zero_grad(set_to_none=True)
    }
