"""How Dynamo's records meet the static findings (`driver.merge`): no torch needed, the
records are written here as the runner writes them."""
from __future__ import annotations

import textwrap

from tclint.analyzer.confirm.driver import CaseResult, merge
from tclint.analyzer.diagnostic import Diagnostic, Severity, Span
from tclint.analyzer.discovery import SourceFile

SOURCE = textwrap.dedent("""\
    import torch

    @torch.compile
    def f(top_i):
        for e in top_i.unique().tolist():
            print(e)
        return top_i
""")
LOOP = 5  # the `for` header: two breaks of two kinds


def _setup(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(SOURCE)
    f = SourceFile(path=path, display="m.py", module="m", is_package=False)
    return f, {str(path): f}


def _finding(code, gb_type, line=LOOP):
    return Diagnostic(path="m.py", span=Span(line, 14, line, 40), code=code, name="", severity=Severity.WARNING,
                      message=f"{code} says so", gb_type=gb_type)


def _break(f, gb_type, line=LOOP, gb_id=None):
    return {"file": "m.py", "abs_file": str(f.path), "line": line, "gb_type": gb_type, "gb_id": gb_id,
            "reason": gb_type}


def _case(breaks=(), status="ok", executed=None):
    return CaseResult("m.py", "case", status, breaks=list(breaks), executed=executed or {})


def test_each_break_in_one_statement_is_its_own_record(tmp_path):
    f, by_path = _setup(tmp_path)
    breaks = [_break(f, "Dynamic shape operator", gb_id="GB0036"), _break(f, "Data dependent operator", gb_id="GB0033")]
    out = merge([_finding("TC301", "Dynamic shape operator")], [_case(breaks)], by_path)
    assert sorted((d.code, d.gb_type, d.confirmed) for d in out) == [
        ("TC301", "Dynamic shape operator", True), ("TC900", "Data dependent operator", True)]


def test_two_findings_in_one_statement_each_claim_their_own_break(tmp_path):
    f, by_path = _setup(tmp_path)
    breaks = [_break(f, "Dynamic shape operator"), _break(f, "Data dependent operator", gb_id="GB0033")]
    static = [_finding("TC301", "Dynamic shape operator"), _finding("TC104", "Tensor.tolist() with non-integer tensor")]
    out = merge(static, [_case(breaks)], by_path)
    assert sorted((d.code, d.gb_type, d.confirmed) for d in out) == [
        ("TC104", "Data dependent operator", True), ("TC301", "Dynamic shape operator", True)]


def test_a_confirmed_finding_carries_the_observed_type(tmp_path):
    f, by_path = _setup(tmp_path)
    static = [_finding("TC104", "Tensor.tolist() with non-integer tensor")]
    (d,) = merge(static, [_case([_break(f, "Data dependent operator", gb_id="GB0033")])], by_path)
    assert (d.gb_type, d.gb_id, d.severity) == ("Data dependent operator", "GB0033", Severity.ERROR)
    assert d.url.endswith("gb0033.html")
    assert d.text() == "TC104 says so [confirmed by Dynamo: Data dependent operator]"


def test_a_break_of_another_kind_does_not_confirm_a_finding(tmp_path):
    f, by_path = _setup(tmp_path)
    out = merge([_finding("TC301", "Dynamic shape operator")], [_case([_break(f, "Data dependent operator")])], by_path)
    assert sorted((d.code, d.confirmed) for d in out) == [("TC301", None), ("TC900", True)]


def test_only_a_case_that_ran_cleanly_refutes(tmp_path):
    f, by_path = _setup(tmp_path)
    ran = {"m.py": [LOOP, LOOP + 1, LOOP + 2]}
    static = [_finding("TC301", "Dynamic shape operator")]
    for status in ("capture-failed", "timeout", "crashed", "raised", "memory"):
        (d,) = merge(static, [_case(status=status, executed=ran)], by_path)
        assert d.confirmed is None, status
    (d,) = merge(static, [_case(executed=ran)], by_path)
    assert d.confirmed is False and "ran without a break" in d.text()


def test_a_function_and_its_resume_functions_recompiling_are_one_finding(tmp_path):
    f, by_path = _setup(tmp_path)
    value = {"kind": "value", "name": "depth", "was": "0", "now": None, "type": None}
    recompiles = [{"file": "m.py", "line": line, "function": "f", "count": 2, "calls": 1, "limit": 8,
                   "changes": [value], "reasons": []} for line in (4, 6)]
    out = merge([], [CaseResult("m.py", "case", "ok", recompiles=recompiles)], by_path)
    assert [(d.code, d.line) for d in out] == [("TC901", 4)]
