"""Compare `tclint confirm --format json` on the shared corpus with its truth.json: every
break Dynamo reported in the truth must be a confirmed finding at that file:line."""
import json
import sys
from pathlib import Path

truth = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
want = {(b["file"], b["line"]) for case in truth["cases"] for b in case["breaks"]}
got = {(Path(d["path"]).name, d["line"]) for d in report["diagnostics"]
       if d.get("confirmed") is True and d.get("gb_type")}  # recompiles (TC901) have no gb_type
print(f"truth breaks: {len(want)}  confirmed findings: {len(got)}  missing: {sorted(want - got)}  extra: {sorted(got - want)}")
