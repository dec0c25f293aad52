"""Hover text for a finding: the rule, its Dynamo graph break (GB id, Gb_type, hints, link),
the call chain from the compiled region, and the rule's documentation; and for a rule code
written in a suppression comment, that rule's documentation."""
from __future__ import annotations

import re
from typing import Any, Sequence

from lsprotocol import types

from tclint.server.conversions import rule_doc_url


def contains(rng: types.Range, pos: types.Position) -> bool:
    start = (rng.start.line, rng.start.character)
    end = (rng.end.line, rng.end.character)
    here = (pos.line, pos.character)
    return start <= here <= end


def finding_markdown(d: Any) -> str:
    from tclint.analyzer import gb_registry
    from tclint.analyzer.rules import all_rules

    rule = all_rules().get(d.code)
    parts = [f"**{d.code}** `{d.name}`: {d.text()}"]
    if d.gb_id:
        url = d.url or gb_registry.gb_url(d.gb_id)
        parts.append(f"Dynamo graph break **{d.gb_id}**: {d.gb_type or ''} ([documentation]({url}))")
        entry = gb_registry.lookup(d.gb_id)
        if entry is not None:
            if entry.explanation:
                parts.append(entry.explanation)
            if entry.hints:
                parts.append("Dynamo's hints:\n" + "\n".join(f"- {h}" for h in entry.hints))
    if len(d.chain) > 1:
        steps = " → ".join(step.label for step in d.chain)
        parts.append(f"Call chain: {steps}")
    elif d.chain:
        parts.append(f"In a compiled region: {d.chain[0].label}")
    if rule is not None:
        doc = rule.doc()
        if doc:
            parts.append(doc)
    parts.append(f"[{d.code} in the rules reference]({rule_doc_url(d.code)})")
    return "\n\n".join(parts)


def finding_plaintext(d: Any) -> str:
    from tclint.analyzer.rule_docs import rule_doc_text
    from tclint.analyzer.rules import all_rules

    rule = all_rules().get(d.code)
    head = f"{d.code} {d.name}: {d.text()}"
    if rule is None:
        return head
    return head + "\n\n" + rule_doc_text(rule)


def build_hover(found: Sequence[tuple[Any, types.Diagnostic]], markdown: bool) -> types.Hover | None:
    """Hover for the findings under the cursor (analyzer Diagnostic, its LSP Diagnostic)."""
    if not found:
        return None
    render = finding_markdown if markdown else finding_plaintext
    sep = "\n\n---\n\n" if markdown else "\n\n"
    text = sep.join(render(d) for d, _ in found)
    first = found[0][1].range
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText,
            value=text,
        ),
        range=first,
    )


_SUPPRESSION = re.compile(r"#\s*(?:tclint:\s*(?:file-)?ignore\[[^\]]*\]|noqa:[^#]*)")
_CODE = re.compile(r"TC\d{3}")


def suppression_code_at(line: str, character: int) -> str | None:
    """The rule code under the cursor inside a `# tclint: ignore[...]` or `# noqa:` comment."""
    for comment in _SUPPRESSION.finditer(line):
        for code in _CODE.finditer(comment.group(0)):
            if comment.start() + code.start() <= character <= comment.start() + code.end():
                return code.group(0)
    return None


def rule_hover(code: str, markdown: bool) -> types.Hover | None:
    """What a rule flags, for a code named in a suppression comment."""
    from tclint.analyzer.rule_docs import rule_doc_text
    from tclint.analyzer.rules import all_rules

    rule = all_rules().get(code)
    if rule is None:
        return None
    if markdown:
        gb = rule.graph_break
        head = f"**{rule.code}** `{rule.name}`: {rule.message}"
        if gb:
            from tclint.analyzer.gb_registry import gb_url
            head += f"\n\nDynamo graph break **{gb.gb_id}**: {gb.gb_type} ([documentation]({gb_url(gb.gb_id)}))"
        value = head + "\n\n" + rule.doc()
    else:
        value = rule_doc_text(rule)
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=value))
