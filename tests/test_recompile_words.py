"""TC901 in plain words (`recompiles.describe`), from the parts the runner takes out of
Dynamo's guard failures (torch 2.13 spells them `tensor 'x' size mismatch at index 0.
expected 8, actual 16` and `n == 4  # return x * n ...`)."""
from __future__ import annotations

from tclint.analyzer.confirm.recompiles import describe
from tclint.analyzer.diagnostic import Severity


def _r(changes, count=1, calls=2, limit=8):
    return {"function": "f", "count": count, "calls": calls, "limit": limit, "changes": changes,
            "reasons": ["0/0: n == 4  # return x * n  # m.py:3 in f"]}


SIZE = {"kind": "size", "name": "x", "dim": 0, "was": "8", "now": "16"}
INT = {"kind": "value", "name": "n", "was": "4", "now": "5", "type": "int"}


def test_the_single_automatic_dynamic_recompile_is_not_reported():
    assert describe(_r([SIZE]), "m.py::case") is None
    assert describe(_r([INT]), "m.py::case") is None


def test_asked_for_it_says_what_changed_in_words():
    message, severity = describe(_r([SIZE]), "m.py::case", report_all=True)
    assert message.startswith("Dynamo recompiled `f` once in m.py::case: dim 0 of `x` changed: 8 → 16 (Dynamo then")
    assert "torch._dynamo.mark_dynamic" in message and "dynamic=True" in message
    assert "mismatch" not in message and severity == Severity.WARNING


def test_a_specialised_number_names_the_argument_and_its_values():
    message, _ = describe(_r([INT], count=2, calls=4), "m.py::case")
    assert "argument `n` was 4, now 5: a Python int is specialised" in message
    assert "pass the number as a tensor" in message and "==" not in message


def test_a_recompile_on_every_call_is_an_error():
    float_change = {"kind": "value", "name": "s", "was": "4.84", "now": "2.5", "type": "float"}
    message, severity = describe(_r([float_change], count=2, calls=3), "m.py::case")
    assert severity == Severity.ERROR and "recompiles on every call" in message
    assert "4.84" in message and "#" not in message


def test_reaching_the_recompile_limit_is_an_error():
    message, severity = describe(_r([SIZE], count=8, calls=20, limit=8), "m.py::case")
    assert severity == Severity.ERROR and "recompile_limit (8)" in message


def test_a_guard_tclint_cannot_read_is_quoted_without_its_source_comment():
    other = {"kind": "other", "text": "___check_obj_id(L['self'], 1234)"}
    message, _ = describe(_r([other], count=2, calls=5), "m.py::case")
    assert "a guard failed (___check_obj_id(L['self'], 1234))" in message
