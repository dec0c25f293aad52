"""Dynamo is the judge: each rule's runnable examples are traced with torch 2.13.

An INVALID example must break the graph with the Gb_type the rule predicts; a VALID
example must not break at all, and one of the breaks it predicts must happen on a line the
rule flags (Dynamo runs with the eager backend, see dynamo_oracle.py). For recompilation rules, an INVALID example must make
Dynamo compile the same code more than once, a VALID one exactly once. Skipped when torch is not installed.
"""
from __future__ import annotations

import importlib.util

import pytest

from dynamo_oracle import ask
from tclint.analyzer import api
from tclint.analyzer.rules import all_rules

pytestmark = pytest.mark.dynamo

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed", allow_module_level=True)


def _examples():
    for code, rule in all_rules().items():
        for kind in ("VALID", "INVALID"):
            for i, ex in enumerate(getattr(rule, kind)):
                if ex.call:
                    yield f"{code}-{kind.lower()}-{i}", rule, kind, ex


EXAMPLES = list(_examples())


@pytest.fixture(scope="module")
def verdicts():
    cases = [{"id": ident, "source": ex.source, "call": ex.call} for ident, _, _, ex in EXAMPLES]
    return ask(cases, timeout=1200)


@pytest.mark.parametrize(("ident", "rule", "kind", "example"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_dynamo_agrees(verdicts, ident, rule, kind, example):
    result = verdicts[ident]
    assert result["error"] is None, f"example failed to run: {result['error']}\n{example.source}"
    breaks = [gb for gb, _ in result["breaks"]]
    if getattr(rule, "recompiles", False):
        assert breaks == [], f"{rule.code} example breaks the graph: {breaks}\n{example.source}"
        if kind == "VALID":
            assert result["frames"] == 1, f"Dynamo recompiled a VALID example of {rule.code}\n{example.source}"
        else:
            assert result["frames"] > 1, f"Dynamo did not recompile an INVALID example of {rule.code}\n{example.source}"
        return
    if kind == "VALID":
        assert breaks == [], f"Dynamo breaks on a VALID example of {rule.code}: {breaks}\n{example.source}"
    else:
        expected = {g.gb_type for g in (rule.graph_break, *rule.also_predicts) if g} | {rule.compile_reason} - {None}
        assert expected & set(breaks), f"{rule.code} predicts {expected}, Dynamo saw {breaks}\n{example.source}"
        flagged = {d.line for d in api.lint_source(example.source, path="example.py") if d.code == rule.code}
        where = {line for gb, line in result["breaks"] if gb in expected}
        assert flagged & where, (f"{rule.code} flags lines {sorted(flagged)}, Dynamo breaks on lines "
                                 f"{sorted(where)}\n{example.source}")
