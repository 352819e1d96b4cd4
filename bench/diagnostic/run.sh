#!/bin/bash
# Offline diagnostic benchmark: NoiseScope's engine against a plain PyTorch implementation of the
# same estimator (reference_diagnostic.py), same queries, on full Fashion-MNIST train
# (N = 60000, D = 784) and on a CIFAR-shaped set (N = 50000, D = 3072, made from Fashion-MNIST by
# bench/gpu/make_cifar_shaped.py), at 256 queries x 64 levels; then the held-out profile (queries
# from t10k) against the reference with the same held-out points, and the bracket (NoiseScope only).
# The two programs alternate REPEATS times per dataset, so that load from other jobs on the machine
# hits both alike; summarize.py takes the median ratio, the GEMM share of the dense steps and the
# achieved GEMM rate against the sgemm rate bench_diagnostic measures in the same process.
#
#   bench/diagnostic/run.sh BUILD_DIR OUT_DIR
#   bench/diagnostic/check_ratio.py OUT_DIR/summary.json bench/diagnostic/RESULTS.md
#
# Environment: THREADS (2), DEVICE (cpu), REPEATS (3), QUERIES (256), LEVELS (64),
# DATA / HELD_OUT (Fashion-MNIST train / t10k), CIFAR (a folder of data_batch_*.bin; made in
# OUT_DIR when unset), REPEATS_CIFAR (REPEATS), CIFAR_REF_LEVELS (16) and FMNIST_REF_LEVELS (0):
# how many of the levels the reference times, evenly spread (its cost is the same at every level,
# so its wall time is extrapolated to all of them, labelled so; 0 = all; the held-out reference
# uses FMNIST_REF_LEVELS), SKIP_HELD_OUT=1, SKIP_BRACKET=1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?build directory}
out=${2:?output directory}
threads=${THREADS:-2}
device=${DEVICE:-cpu}
repeats=${REPEATS:-3}
queries=${QUERIES:-256}
levels=${LEVELS:-64}
fmnist=${DATA:-/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz}
held_out=${HELD_OUT:-/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz}
cifar_ref_levels=${CIFAR_REF_LEVELS:-16}
fmnist_ref_levels=${FMNIST_REF_LEVELS:-0}
repeats_cifar=${REPEATS_CIFAR:-$repeats}
python=/usr/bin/python3
mkdir -p "$out"
export OMP_NUM_THREADS=$threads

log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$out/log.txt"; }
load() { log "load: $(uptime | sed 's/.*load average/load average/')"; }
log "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
log "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>} threads=$threads device=$device"

cifar=${CIFAR:-$out/cifar-shaped}
if [ ! -f "$cifar/data_batch_1.bin" ]; then
  log "making the CIFAR-shaped set in $cifar"
  "$python" "$here/../gpu/make_cifar_shaped.py" "$fmnist" "$cifar" --count 50000 >> "$out/log.txt"
fi

subset() {  # N_TIMED: that many of the $levels levels, evenly spread, as "0,a,b,...,last"
  "$python" -c "import sys; n, l = int(sys.argv[1]), int(sys.argv[2]); \
print(','.join(str(round(i * (l - 1) / (n - 1))) for i in range(n)))" "$1" "$levels"
}

ours() {  # NAME DATA KIND [held-out]
  local name=$1 data=$2 kind=$3 points=${4:-}
  load
  log "noisescope $name"
  /usr/bin/time -f "%e s wall, %U s user, %M KiB max RSS" -o "$out/$name.time" \
    "$build/bench/diagnostic/bench_diagnostic" "$data" --queries "$queries" --levels "$levels" \
    --threads "$threads" --device "$device" --kind "$kind" ${points:+--held-out "$points"} \
    --out "$out/$name.profile.json" > "$out/$name.json"
  log "$(cat "$out/$name.json" | cut -c1-400)"
}

reference() {  # NAME DATA [level subset] [held-out]
  local name=$1 data=$2 levels_timed=${3:-} points=${4:-}
  load
  log "reference $name ${levels_timed:+(levels $levels_timed)}"
  /usr/bin/time -f "%e s wall, %U s user, %M KiB max RSS" -o "$out/$name.time" \
    "$python" "$here/reference_diagnostic.py" "$data" --queries "$queries" --levels "$levels" \
    --threads "$threads" --device "$device" ${levels_timed:+--level-subset "$levels_timed"} \
    ${points:+--held-out "$points"} --out "$out/$name.levels.json" > "$out/$name.json"
  log "$(cat "$out/$name.json")"
}

levels_subset() {  # COUNT: "" for all levels
  if [ "$1" -gt 0 ] && [ "$1" -lt "$levels" ]; then subset "$1"; fi
}
cifar_subset=$(levels_subset "$cifar_ref_levels")
fmnist_subset=$(levels_subset "$fmnist_ref_levels")
for r in $(seq 1 "$repeats"); do
  ours "ours_fmnist_$r" "$fmnist" empirical
  reference "ref_fmnist_$r" "$fmnist" "$fmnist_subset"
done
for r in $(seq 1 "$repeats_cifar"); do
  ours "ours_cifar_$r" "$cifar" empirical
  reference "ref_cifar_$r" "$cifar" "$cifar_subset"
done
"$python" "$here/compare_outputs.py" "$out/ours_fmnist_1.profile.json" \
  "$out/ref_fmnist_1.levels.json" > "$out/agreement_fmnist.txt"
"$python" "$here/compare_outputs.py" "$out/ours_cifar_1.profile.json" \
  "$out/ref_cifar_1.levels.json" > "$out/agreement_cifar.txt"
log "agreement fmnist: $(head -1 "$out/agreement_fmnist.txt")"
log "agreement cifar: $(head -1 "$out/agreement_cifar.txt")"

if [ "${SKIP_HELD_OUT:-0}" != 1 ]; then
  ours "ours_heldout_1" "$fmnist" held-out "$held_out"
  reference "ref_heldout_1" "$fmnist" "$fmnist_subset" "$held_out"
fi
if [ "${SKIP_BRACKET:-0}" != 1 ]; then
  ours "ours_bracket_1" "$fmnist" bracket "$held_out"
fi
load
"$python" "$here/summarize.py" "$out" > "$out/table.md"
cat "$out/table.md" | tee -a "$out/log.txt"
