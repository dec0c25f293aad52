"""`tclint --add-noqa`: silence every current finding in place, so a large codebase adopts
tclint and only new breaks fail. Each finding's line gets `# tclint: ignore[CODE]` (or its
codes join the comment already there), so a second run finds nothing left to add."""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

# Syntax errors and internal errors cannot be suppressed in place, and a finding about a
# suppression comment (unused, unknown code) is fixed by editing that comment.
NOT_SUPPRESSIBLE = frozenset({"TC001", "TC002", "TC003", "TC004"})

_IGNORE_COMMENT = re.compile(r"#\s*tclint:\s*ignore\[([^\]]*)\]")


@dataclass
class Added:
    comments: int = 0  # lines that gained a comment or codes in one
    files: int = 0
    notices: list[str] = field(default_factory=list)


def add_suppressions(diagnostics) -> Added:
    added = Added()
    by_file: dict[str, dict[int, list[str]]] = {}
    notebooks: set[str] = set()
    for d in diagnostics:
        if d.code in NOT_SUPPRESSIBLE:
            continue
        if d.cell is not None:
            notebooks.add(d.path)
            continue
        codes = by_file.setdefault(d.path, {}).setdefault(d.line, [])
        if d.code not in codes:
            codes.append(d.code)
    for path in sorted(notebooks):
        added.notices.append(f"{path}: notebooks are not edited; add `# tclint: ignore[CODE]` in their cells")
    for path, lines in sorted(by_file.items()):
        try:
            data = Path(path).read_bytes()
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError) as exc:
            added.notices.append(f"{path}: cannot edit: {exc}")
            continue
        new_text, count, skipped = suppress_lines(text, lines)
        for line in skipped:
            added.notices.append(f"{path}:{line}: no place for a suppression comment here; add one by hand")
        if count:
            try:
                Path(path).write_bytes(new_text.encode(encoding))
            except OSError as exc:
                added.notices.append(f"{path}: cannot write: {exc.strerror or exc}")
                continue
            added.comments += count
            added.files += 1
    return added


def suppress_lines(text: str, lines: dict[int, list[str]]) -> tuple[str, int, list[int]]:
    """`text` with `codes` suppressed on each line of `lines` (1-based); how many lines changed,
    and the lines where no comment can go. A line that ends inside a string or a backslash
    continuation gets the comment on its own line above, which covers the next line."""
    source = io.StringIO(text, newline="").readlines()  # \n, \r\n and \r, as Python splits
    no_trailing = _lines_without_trailing_comment(text, source)
    above: dict[int, list[str]] = {}
    skipped = []
    count = 0
    for lineno, codes in sorted(lines.items()):
        if not 0 < lineno <= len(source):
            continue
        if lineno not in no_trailing:
            body, ending = _split_ending(source[lineno - 1])
            new = _with_codes(body, codes)
            if new != body:
                source[lineno - 1] = new + ending
                count += 1
        elif lineno == 1 or lineno - 1 not in no_trailing:
            above[lineno] = codes
        else:
            skipped.append(lineno)
    for lineno in sorted(above, reverse=True):  # bottom up: line numbers above stay valid
        body, _ = _split_ending(source[lineno - 1])
        indent = body[: len(body) - len(body.lstrip())]
        ending = _split_ending(source[0])[1] or "\n"
        source.insert(lineno - 1, f"{indent}# tclint: ignore[{', '.join(_sorted(above[lineno]))}]{ending}")
        count += 1
    return "".join(source), count, skipped


def _sorted(codes) -> list[str]:
    return sorted(set(codes))


def _with_codes(body: str, codes: list[str]) -> str:
    existing = _IGNORE_COMMENT.search(body)
    if existing is None:
        return f"{body}  # tclint: ignore[{', '.join(_sorted(codes))}]"
    present = [c.strip() for c in existing.group(1).split(",") if c.strip()]
    missing = [c for c in _sorted(codes) if c not in present]
    if not missing:
        return body
    start, end = existing.span(1)
    return body[:start] + ", ".join(present + missing) + body[end:]


def _split_ending(line: str) -> tuple[str, str]:
    body = line.rstrip("\r\n")
    return body, line[len(body):]


def _lines_without_trailing_comment(text: str, source: list[str]) -> set[int]:
    """Lines whose end is inside a string (a triple-quoted one, or an f-string's) or after a
    backslash continuation: a `#` there would be text, or a syntax error."""
    out = {i for i, line in enumerate(source, start=1) if _split_ending(line)[0].endswith("\\")}
    fstring_starts: list[int] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            name = tokenize.tok_name[tok.type]
            if name == "FSTRING_START":
                fstring_starts.append(tok.start[0])
            elif name == "FSTRING_END" and fstring_starts:
                out.update(range(fstring_starts.pop(), tok.end[0]))
            elif tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                out.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass  # a file that does not tokenize has no findings to suppress beyond TC001
    return out
