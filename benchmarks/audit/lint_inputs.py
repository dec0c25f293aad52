"""Writes what the linter needs from truth.json: OUT/files.txt and OUT/tclint.toml.

    python lint_inputs.py TRUTH SITE_PACKAGES OUT

files.txt: every package file a case ran or broke in (absolute paths under SITE_PACKAGES).
tclint.toml: the cases' entry points as `roots`, as a user of these packages would declare
the functions they compile.
"""
from __future__ import annotations

import json
import os
import sys


def main(truth_path, site, out):
    with open(truth_path) as fh:
        cases = json.load(fh)["cases"]
    files, roots = set(), set()
    for c in cases:
        files.update(c["executed"])
        files.update(b["file"] for b in c["breaks"])
        if c.get("entry"):
            roots.add(c["entry"])
    with open(os.path.join(out, "files.txt"), "w") as fh:
        for rel in sorted(files):
            path = os.path.join(site, rel)
            if os.path.exists(path):
                fh.write(path + "\n")
            else:
                print(f"not in site-packages: {path}", file=sys.stderr)
    with open(os.path.join(out, "tclint.toml"), "w") as fh:
        fh.write("[tool.tclint]\nroots = [\n")
        fh.writelines(f"  {json.dumps(r)},\n" for r in sorted(roots))
        fh.write("]\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
