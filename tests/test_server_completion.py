"""Completion of rule codes in suppression comments, end to end and as a function."""
from __future__ import annotations

from lsprotocol import types
from test_server_e2e import SAMPLE, Editor, client, editor  # noqa: F401 - the fixtures

from tclint.server.suppression_completion import completion_items


def test_codes_of_the_line_first_then_every_rule_but_those_written():
    items = completion_items("    return x.item()  # tclint: ignore[TC101, ", ["TC102", "TC101"])
    labels = [i.label for i in sorted(items, key=lambda i: i.sort_text)]
    assert labels[0] == "TC102" and "TC101" not in labels
    assert "TC201" in labels or len(labels) > 10  # every rule follows
    assert completion_items("x = 1  # a comment [", ["TC102"]) is None
    assert [i.label for i in completion_items("# noqa: TC1", [])][:1]  # noqa comments too


async def test_completion_in_a_suppression_comment(editor: Editor):
    text = SAMPLE.replace("return x.sum().item()", "return x.sum().item()  # tclint: ignore[")
    uri = editor.open("sample.py", text)
    await editor.diagnostics(uri, lambda d: [x.code for x in d] == ["TC101"])  # the open comment suppresses TC102
    line = text.splitlines()[5]
    result = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=5, character=len(line))))
    items = result.items if isinstance(result, types.CompletionList) else result
    item = next(i for i in items if i.label == "TC102")
    assert "item" in item.detail
    outside = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=3)))
    assert not outside
