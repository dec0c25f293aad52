#!/usr/bin/env bash
# tclint audit on published packages that are not in shared/eval/realworld (issue 8).
#
#   benchmarks/audit/run.sh [--rebuild] [--jobs N]
#
# 1. makes the audit venv ($AUDIT_HOME/venv, default ~/.cache/tclint-audit) once: torch 2.13.0
#    CPU from the local wheel, alone, then requirements.txt (refused if it would replace torch);
# 2. with --rebuild, asks Dynamo again (truth.py, every case) and scores against that truth
#    ($OUT/truth.json); otherwise scores against the committed truth.json;
# 3. lints the package files the cases ran, with the cases' entry points as `roots` in a
#    generated tclint.toml, and scores the report with shared/eval/score.py.
# Env: TRIAGE=1 (also sort the misses: not reached, or not recognised; triage.py),
#      LINT_CMD (default: this checkout's .venv/bin/tclint --format json --no-cache
#      --config @CONFIG@), OUT (default $AUDIT_HOME/out), SCORE, VERBOSE=1 (every miss
#      and false alarm), ONLY=PREFIX[,PREFIX] (score the cases whose id starts so, e.g.
#      ONLY=zuko_cases,julius_cases: a sample of packages alone).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
AUDIT_HOME="${AUDIT_HOME:-$HOME/.cache/tclint-audit}"
VENV="$AUDIT_HOME/venv"
OUT="${OUT:-$AUDIT_HOME/out}"
LINT_CMD="${LINT_CMD:-$REPO/.venv/bin/tclint --format json --no-cache --config @CONFIG@}"
SCORE="${SCORE:-$REPO/../shared/eval/score.py}"
REBUILD=0
JOBS=2
while [ $# -gt 0 ]; do
  case "$1" in
    --rebuild) REBUILD=1 ;;
    --jobs) JOBS="$2"; shift ;;
    -h|--help) sed -n 2,15p "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

# DDE_BACKEND: on import DeepXDE otherwise picks a backend and writes ~/.deepxde/config.json
if [ ! -x "$VENV/bin/python" ] || ! DDE_BACKEND=pytorch "$VENV/bin/python" -c "import torch, kornia, diffusers, zuko, julius, entmax, pytorch_metric_learning, geomloss, torchcde, normflows, torchode, fast_pytorch_kmeans, auraloss, torchcrf, mambapy, reformer_pytorch, pytorch_wavelets, snntorch, roma, geoopt, torchkbnufft, rtdl_revisiting_models, peft, botorch, esm, nnAudio, torchdyn, nflows, torchquad, neuralop, minGRU_pytorch, gateloop_transformer, bs_roformer, pytorch_optimizer, optimi, adan_pytorch, FrEIA, torchmin, egnn_pytorch, point_transformer_pytorch, tab_transformer_pytorch, torchfm, stable_baselines3, conformer, graph_transformer_pytorch, mega_pytorch, h_transformer_1d, palm_pytorch, madgrad, adabelief_pytorch, came_pytorch, kan, pytorch_forecasting, torch_struct, kmeans_pytorch, torch_kmeans, sparsemax, en_transformer, soft_moe_pytorch, compressive_transformer_pytorch, sinkhorn_transformer, MEGABYTE_pytorch, torchlayers, pytorch_lamb, torchlibrosa, adamp, charformer_pytorch, flowtorch, pfrl, bayesian_torch, torchcfm, torchist, torchkde, torch_pca, torchinterp1d, efficientnet_pytorch, rtdl_num_embeddings, info_nce, TorchCRF, torchbnn, xitorch, torch_cubic_spline_grids, sophia_opt, muon, deepctr_torch, TorchDiffEqPack, torchjd, captum, tntorch, torch_kf, torch_harmonics, recurrent_memory_transformer_pytorch, sentence_transformers, deepxde, tensorly, torchani, tensordict, ignite, neurodiffeq, iTransformer, pykeen, torch_ppr, torchattacks, invariant_point_attention, memory_efficient_attention_pytorch, hourglass_transformer_pytorch, coca_pytorch" 2>/dev/null; then
  echo "== creating $VENV" >&2
  python3 -m venv "$VENV"
  if "$VENV/bin/pip" install --dry-run torch==2.13.0 2>&1 | grep -qiE 'nvidia|cuda'; then
    echo "refusing: pip would install a CUDA torch (is the local 2.13.0 CPU wheel missing?)" >&2
    exit 2
  fi
  "$VENV/bin/pip" install -q torch==2.13.0
  if "$VENV/bin/pip" install --dry-run -r "$HERE/requirements.txt" 2>&1 | grep -qiE 'Would install.*(nvidia|torch-2|torchvision)'; then
    echo "refusing: requirements.txt would replace torch or add CUDA/torchvision" >&2
    exit 2
  fi
  "$VENV/bin/pip" install -q -r "$HERE/requirements.txt"
  "$VENV/bin/pip" install -q --no-deps -r "$HERE/requirements-nodeps.txt"
fi
SITE="$("$VENV/bin/python" -c 'import os, sysconfig; print(os.path.realpath(sysconfig.get_paths()["purelib"]))')"
mkdir -p "$OUT"

TRUTH="$HERE/truth.json"
if [ "$REBUILD" = 1 ]; then
  TRUTH="$OUT/truth.json"
  echo "== asking Dynamo (jobs=$JOBS) into $TRUTH" >&2
  "$VENV/bin/python" "$HERE/truth.py" -o "$TRUTH" -j "$JOBS" >&2
fi

if [ -n "${ONLY:-}" ]; then
  python3 - "$TRUTH" "$OUT/truth-only.json" "$ONLY" <<'PY'
import json, sys
truth = json.load(open(sys.argv[1]))
keep = tuple(sys.argv[3].split(","))
for key in ("cases", "failed_cases"):
    truth[key] = [c for c in truth.get(key, []) if c["case"].startswith(keep)]
json.dump(truth, open(sys.argv[2], "w"))
print(f"== ONLY {sys.argv[3]}: {len(truth['cases'])} cases", file=sys.stderr)
PY
  TRUTH="$OUT/truth-only.json"
fi
python3 "$HERE/lint_inputs.py" "$TRUTH" "$SITE" "$OUT"
LINT_CMD="${LINT_CMD//@CONFIG@/$OUT/tclint.toml}"
mapfile -t PATHS < "$OUT/files.txt"
echo "== linting ${#PATHS[@]} package files: $LINT_CMD" >&2
set +e
# shellcheck disable=SC2086
$LINT_CMD "${PATHS[@]}" > "$OUT/report.json" 2> "$OUT/lint.stderr"
rc=$?
set -e
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
  echo "linter failed (rc=$rc); see $OUT/lint.stderr" >&2
  tail -5 "$OUT/lint.stderr" >&2
  exit 2
fi
python3 "$SCORE" --truth "$TRUTH" --root "$SITE" --report "$OUT/report.json" ${VERBOSE:+--verbose} \
  --json-out "$OUT/score.json" | tee "$OUT/score.txt"
if [ -n "${TRIAGE:-}" ]; then
  echo "== misses, sorted (each file linted alone with the function around the break as a root)"
  python3 "$HERE/triage.py" "$TRUTH" "$SITE" "$OUT" "${TCLINT:-$REPO/.venv/bin/tclint}"
fi
