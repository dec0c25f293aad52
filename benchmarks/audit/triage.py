"""Sorts the misses of an audit run: not reached, or reached and not recognised.

    python triage.py TRUTH SITE_PACKAGES OUT TCLINT

Reads OUT/score.json (written by run.sh). For every missed break it lints the break's file
alone with the function around the break as a root: when tclint then flags the break's
statement, the construct is known and the miss is about reaching the function from the
entry points (calls through objects, generators, containers); otherwise tclint does not
recognise the construct even where it looks. Prints one line per miss, grouped.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict


def enclosing(tree, line):
    """Dotted qualname of the innermost def around `line` (None at module level or in a
    nested function, which no root can name)."""
    best = None

    def walk(node, prefix, in_def):
        nonlocal best
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                inside = child.lineno <= line <= (child.end_lineno or child.lineno)
                if inside and not isinstance(child, ast.ClassDef):
                    best = None if in_def else name
                if inside:
                    walk(child, name + ".", in_def or not isinstance(child, ast.ClassDef))
            else:
                walk(child, prefix, in_def)

    walk(tree, "", False)
    return best


def statement_lines(tree, line):
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno):
            body = getattr(node, "body", None)
            end = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
            if node.lineno <= line <= max(end, node.lineno):
                return set(range(node.lineno, max(end, node.lineno) + 1))
    return {line}


def main(truth_path, site, out, tclint):
    with open(os.path.join(out, "score.json")) as fh:
        misses = json.load(fh)["misses"]
    by_file = defaultdict(list)
    for m in misses:
        by_file[m["file"]].append(m)
    groups = defaultdict(list)
    for rel, items in sorted(by_file.items()):
        path = os.path.join(site, rel)
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
        tree = ast.parse(source)
        module = rel[:-3].replace("/", ".").removesuffix(".__init__")
        roots = {}
        for m in items:
            fn = enclosing(tree, m["line"])
            roots[id(m)] = fn
        names = sorted({f"{module}:{fn}" for fn in roots.values() if fn})
        flagged = set()
        if names:
            with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as cfg:
                cfg.write("[tool.tclint]\nroots = [" + ", ".join(json.dumps(n) for n in names) + "]\n")
            proc = subprocess.run([tclint, "--format", "json", "--no-cache", "--config", cfg.name, path],
                                  capture_output=True, text=True)
            os.unlink(cfg.name)
            flagged = {d["line"] for d in json.loads(proc.stdout or '{"diagnostics": []}')["diagnostics"]}
        lines = source.splitlines()
        for m in items:
            text = lines[m["line"] - 1].strip()[:90]
            if roots[id(m)] is None:
                kind = "no root can name its function (module level or nested def)"
            elif statement_lines(tree, m["line"]) & flagged:
                kind = "known construct, function not reached from the entry points"
            else:
                kind = "not recognised even with its function as a root"
            groups[kind].append(f"  {rel}:{m['line']}  [{m['gb_type']}]  {text}")
    for kind, rows in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"{kind}: {len(rows)}")
        print("\n".join(rows))


if __name__ == "__main__":
    main(*sys.argv[1:5])
