"""Every rule's VALID examples stay clean and every INVALID example is flagged."""
from __future__ import annotations

import pytest

from tclint.analyzer import api
from tclint.analyzer.rules import all_rules


def _cases(kind: str):
    for code, rule in all_rules().items():
        for i, example in enumerate(getattr(rule, kind)):
            yield pytest.param(rule, example, id=f"{code}-{kind.lower()}-{i}")


@pytest.mark.parametrize(("rule", "example"), list(_cases("INVALID")))
def test_invalid_example_is_flagged(rule, example):
    found = [d.code for d in api.lint_source(example.source, path="example.py")]
    assert rule.code in found, f"{rule.code} missed:\n{example.source}"


@pytest.mark.parametrize(("rule", "example"), list(_cases("VALID")))
def test_valid_example_is_clean(rule, example):
    found = [d.code for d in api.lint_source(example.source, path="example.py")]
    assert rule.code not in found, f"{rule.code} false alarm:\n{example.source}"


def test_every_syntax_rule_has_examples_of_both_kinds():
    for code, rule in all_rules().items():
        if any(name.startswith("visit_") for name in vars(rule)) or code == "TC210":
            assert rule.VALID and rule.INVALID, f"{code} needs VALID and INVALID examples"


def test_every_rule_documents_the_four_parts():
    for code, rule in all_rules().items():
        doc = rule.doc()
        for part in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
            assert part in doc, f"{code} doc lacks {part!r}"
