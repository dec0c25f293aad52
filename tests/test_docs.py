"""docs/rules.md is generated from the rules; it must not drift from them."""
from __future__ import annotations

from pathlib import Path

from tclint.analyzer.rule_docs import rules_markdown
from tclint.analyzer.rules import all_rules

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_rules_page_is_up_to_date():
    expected = rules_markdown(list(all_rules().values()))
    assert DOCS.read_text(encoding="utf-8") == expected, "run: tclint rules --format markdown > docs/rules.md"
