"""Which NumPy functions Dynamo cannot trace, as its own tables decide, written into the probe's
versioned table (`analyzer/knowledge/dynamo_calls_<torch major.minor>.json`).

Dynamo traces a NumPy function (one its `trace_rules.is_numpy` claims) by calling the
`torch._numpy` function of the same name; one without such a counterpart
(`get_np_to_tnp_map()`) breaks with "attempted to trace numpy function unsupported by PyTorch",
whatever its arguments (checked under torch 2.13 for `np.asanyarray`, `np.nanmean`, `np.isin`,
`np.digitize`, `np.unravel_index`). So these rows come from Dynamo's own map, not from a run.
Run on demand, with the torch to describe and NumPy installed; the analyzer never imports it:

    python analyzer/knowledge/tools/numpy_support.py [TABLE.json]

A name the probe ran keeps the probe's row. `probe_dynamo.py` adds the same rows when it
writes a table.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

GB_TYPE = "attempted to trace numpy function unsupported by PyTorch"


def unsupported_rows() -> dict[str, dict]:
    """qualname -> table row, for each public NumPy function (numpy, numpy.fft, numpy.linalg)
    that Dynamo hands to torch._numpy but torch._numpy does not implement."""
    import numpy as np
    from torch._dynamo import trace_rules
    from torch._dynamo.exc import _load_gb_type_to_gb_id_map
    from torch._dynamo.variables.misc import get_np_to_tnp_map

    mapped = get_np_to_tnp_map()
    gb_id = _load_gb_type_to_gb_id_map().get(GB_TYPE)
    rows = {}
    for module in (np, np.fft, np.linalg):
        for name in dir(module):
            value = getattr(module, name)
            if name.startswith("_") or isinstance(value, type) or not callable(value):
                continue  # classes (dtypes, ndarray) take other paths in Dynamo
            if trace_rules.is_numpy(value) and value not in mapped:
                rows[f"{module.__name__}.{name}"] = {"breaks": True, "gb_type": GB_TYPE, "gb_id": gb_id,
                                                     "from": "np_to_tnp_map"}
    return rows


def merge(calls: dict[str, dict]) -> dict[str, dict]:
    """`calls` with a row for every unsupported NumPy function the probe did not run."""
    return dict(sorted({**unsupported_rows(), **calls}.items()))


def main(argv: list[str]) -> int:
    import torch

    major_minor = ".".join(torch.__version__.split("+")[0].split(".")[:2])
    path = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / f"dynamo_calls_{major_minor}.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    before = len(table["calls"])
    table["calls"] = merge({k: v for k, v in table["calls"].items() if v.get("from") != "np_to_tnp_map"})
    path.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(table['calls'])} calls ({len(table['calls']) - before:+d})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
