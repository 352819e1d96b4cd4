#!/bin/bash
# Distance precision (docs/theory.md §3, "Distance precision"): the same profile with the distance
# GEMMs in float64, in "auto" (float32 where the proven logit error bound allows it) and in
# float32, alternating REPEATS times, on full Fashion-MNIST and on the CIFAR-shaped set, at
# 256 queries x 64 levels. precision_report.py then prints, per dataset and precision: median wall
# and distance-term seconds, the share of (query, tile) rows that ran float32, the proven bound δ
# on a float32 logit, and the largest MMSE difference from float64 (relative, and in standard
# errors).
#
#   bench/diagnostic/precision.sh BUILD_DIR OUT_DIR
#   bench/diagnostic/precision_report.py OUT_DIR
#
# Environment: THREADS (2), REPEATS (3), QUERIES (256), LEVELS (64), DATA (Fashion-MNIST train),
# CIFAR (a folder of data_batch_*.bin; made in OUT_DIR when unset), SKIP_CIFAR=1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?build directory}
out=${2:?output directory}
threads=${THREADS:-2}
repeats=${REPEATS:-3}
queries=${QUERIES:-256}
levels=${LEVELS:-64}
fmnist=${DATA:-/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz}
python=/usr/bin/python3
mkdir -p "$out"
export OMP_NUM_THREADS=$threads

log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$out/log.txt"; }
log "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

run() {  # NAME DATA PRECISION REPEAT
  log "$1 $3 run $4, $(uptime | sed 's/.*load average/load average/')"
  "$build/bench/diagnostic/bench_diagnostic" "$2" --queries "$queries" --levels "$levels" \
    --threads "$threads" --device cpu --kind empirical --precision "$3" \
    --out "$out/$1_$3_$4.profile.json" > "$out/$1_$3_$4.json"
}

sets=("fmnist:$fmnist")
if [ "${SKIP_CIFAR:-0}" != 1 ]; then
  cifar=${CIFAR:-$out/cifar-shaped}
  if [ ! -f "$cifar/data_batch_1.bin" ]; then
    log "making the CIFAR-shaped set in $cifar"
    "$python" "$here/../gpu/make_cifar_shaped.py" "$fmnist" "$cifar" --count 50000 >> "$out/log.txt"
  fi
  sets+=("cifar:$cifar")
fi
for entry in "${sets[@]}"; do
  name=${entry%%:*}
  data=${entry#*:}
  for r in $(seq 1 "$repeats"); do
    for precision in float64 auto float32; do run "$name" "$data" "$precision" "$r"; done
  done
done
log "done"
