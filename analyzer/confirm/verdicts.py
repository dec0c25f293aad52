"""What Dynamo's run adds to a static finding: a verdict, never new words of its own.

`confirm`, `trace` and the editor (live runs, or `.tclint/trace.json`) all go through these
functions, so a finding reads the same wherever it was confirmed, and a saved row cannot
change what tclint says about the code: only whether Dynamo agreed, and which Gb_type it saw.
"""
from __future__ import annotations

from tclint.analyzer.diagnostic import Diagnostic, Severity
from tclint.analyzer.gb_registry import gb_url

def predicted_types(d: Diagnostic) -> set[str]:
    """The Gb_types the finding's rule predicts (its own and the spellings it also predicts)."""
    from tclint.analyzer.rules import all_rules

    kinds = {d.gb_type} if d.gb_type else set()
    rule = all_rules().get(d.code)
    if rule is not None:
        kinds |= {g.gb_type for g in (rule.graph_break, *rule.also_predicts) if g is not None}
    return kinds


def confirmed(d: Diagnostic, gb_type: str | None, gb_id: str | None) -> Diagnostic:
    """Dynamo broke the graph here as predicted: the finding carries the Gb_type it observed."""
    gb_type = gb_type or d.gb_type
    gb_id = gb_id if gb_type != d.gb_type or gb_id else d.gb_id
    return d.with_changes(confirmed=True, severity=Severity.ERROR, observed=gb_type if gb_type != d.gb_type else None,
                          gb_type=gb_type, gb_id=gb_id, url=gb_url(gb_id) if gb_id else None)


def refuted(d: Diagnostic) -> Diagnostic:
    return d.with_changes(confirmed=False)


def apply(d: Diagnostic, verdict: Diagnostic) -> Diagnostic:
    """The static finding `d` with the verdict of a stored row (same code and range) applied."""
    if verdict.confirmed:
        return confirmed(d, verdict.gb_type, verdict.gb_id)
    if verdict.confirmed is False:
        return refuted(d)
    return d
