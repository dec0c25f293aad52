#!/usr/bin/env bash
# The GPU check of confirmation, as one script for a lent GPU machine:
#   1. the shared evaluation corpus under `tclint confirm --device cuda`, compared with its truth;
#   2. a real model (transformers' Llama, tiny config) under `tclint confirm --device cuda`.
# Prints timings and the comparison; writes results under $OUT (or ./gpu-check-out).
# Usage (from the repository root): bash benchmarks/gpu_check/run.sh [DEVICE]
set -uo pipefail
DEVICE=${1:-cuda}
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
PY=${PY:-.venv/bin/python}
if [ ! -x "$PY" ]; then
    python3 -m venv .venv && .venv/bin/pip install -q -e . torch==2.13.0 numpy transformers
    PY=.venv/bin/python
fi
"$PY" -c "import transformers" 2>/dev/null || "$PY" -m pip install -q transformers
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')"
SHARED=${SHARED:-../shared}
if [ -d "$SHARED/eval/corpus" ]; then
    start=$SECONDS
    (cd "$SHARED/eval" && "$OLDPWD/.venv/bin/tclint" confirm --no-cache --device "$DEVICE" --jobs 4 --format json corpus) \
        > "$OUT/corpus.json" 2> "$OUT/corpus.log"
    echo "corpus confirm on $DEVICE: $((SECONDS - start)) s"
    "$PY" benchmarks/gpu_check/compare_truth.py "$SHARED/eval/truth.json" "$OUT/corpus.json"
fi
start=$SECONDS
.venv/bin/tclint confirm --no-cache --device "$DEVICE" --example-timeout 600 --format json \
    benchmarks/gpu_check/real_model_examples.py > "$OUT/llama.json" 2> "$OUT/llama.log"
echo "llama confirm on $DEVICE: $((SECONDS - start)) s"
tail -n 5 "$OUT/llama.log"
"$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['diagnostics']), 'diagnostics'); [print(x['path'], x['line'], x['code'], x['gb_type']) for x in d['diagnostics'][:20]]" "$OUT/llama.json"
