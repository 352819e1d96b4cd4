#!/bin/bash
# Offline diagnostic benchmark on full Fashion-MNIST train (N = 60000, D = 784, [-1, 1]):
# NoiseScope's engine against a plain PyTorch implementation of the same estimator, same queries.
#
#   bench/diagnostic/run.sh BUILD_DIR OUT_DIR
#
# Environment: THREADS (default 2), DEVICE (default cpu), OPENBLAS_CORETYPE (see RESULTS.md:
# OpenBLAS 0.3.21 misdetects this machine's CPU and falls back to SSE3 kernels unless told).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?build directory}
out=${2:?output directory}
threads=${THREADS:-2}
device=${DEVICE:-cpu}
data=${DATA:-/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz}
mkdir -p "$out"
export OMP_NUM_THREADS=$threads

log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$out/log.txt"; }
log "load: $(cat /proc/loadavg)  OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>}"

run_pair() {  # queries levels [reference level subset]
  local m=$1 l=$2 subset=${3:-}
  log "noisescope ${m}x${l}"
  /usr/bin/time -f "%e s wall, %U s user, %M KiB max RSS" -o "$out/ours_${m}x${l}.time" \
    "$build/bench/diagnostic/bench_diagnostic" "$data" --queries "$m" --levels "$l" \
    --threads "$threads" --device "$device" --out "$out/ours_${m}x${l}.profile.json" \
    > "$out/ours_${m}x${l}.json"
  log "$(cat "$out/ours_${m}x${l}.json")"
  log "load: $(cat /proc/loadavg)"
  log "reference ${m}x${l} ${subset:+(levels $subset)}"
  /usr/bin/time -f "%e s wall, %U s user, %M KiB max RSS" -o "$out/ref_${m}x${l}.time" \
    /usr/bin/python3 "$here/reference_diagnostic.py" "$data" --queries "$m" --levels "$l" \
    --threads "$threads" --device "$device" ${subset:+--level-subset "$subset"} --out "$out/ref_${m}x${l}.levels.json" \
    > "$out/ref_${m}x${l}.json"
  log "$(cat "$out/ref_${m}x${l}.json")"
  /usr/bin/python3 "$here/compare_outputs.py" "$out/ours_${m}x${l}.profile.json" \
    "$out/ref_${m}x${l}.levels.json" > "$out/agreement_${m}x${l}.txt"
  log "agreement: $(head -1 "$out/agreement_${m}x${l}.txt")"
  log "load: $(cat /proc/loadavg)"
}

run_pair 256 64
# The reference costs the same at every level (dense cdist/softmax/matmul), so on the large case it
# is timed on 8 evenly spread levels and extrapolated to 128 (labelled so in its JSON).
run_pair 1000 128 "0,18,36,54,72,90,108,127"
