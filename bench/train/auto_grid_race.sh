#!/usr/bin/env bash
# Issue 34's image half (docs/sampling-steps.md, "Auto on the image models"): the data-derived
# `auto` sampling grid raced against Karras ρ = 7 on trained Fashion-MNIST models, binarised and
# continuous. The models are the schedule race's seed-1 runs (bench/train/schedule_race.sh, which
# exports TorchScript); auto follows the *data's* bracket (diagnose --kind bracket on the training
# images), the entropic ∫rate grid follows the *model's* own error profile (the grid the first
# race found worst), so both sources of a sampling rate are on the table.
#   RUNS      the schedule race's directory (fashion-<sampler>-s1, fashion-continuous-<sampler>-s1)
#   MODELS    run names to race (default: the three binarised and two continuous seed-1 runs)
#   SAMPLES   generated samples per cell (default 128, docs/sampling-steps.md's image count)
#   SEEDS     sampling seeds (default "1 2 3")
# Binarised data are read from a black-and-white copy of the sample (pixels > 127.5 set to 255,
# the rest 0: the trainer's own binarize threshold), which loads as ±1 data, so the bracket is the
# one the binarised models were trained on.
#
# usage: bench/train/auto_grid_race.sh BUILD_DIR RUNS OUT_DIR
set -euo pipefail
build=${1:?usage: auto_grid_race.sh BUILD_DIR RUNS OUT_DIR}
runs=${2:?usage: auto_grid_race.sh BUILD_DIR RUNS OUT_DIR}
out=${3:?usage: auto_grid_race.sh BUILD_DIR RUNS OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli="$build/app/noisescope-cli"
models=${MODELS:-fashion-static-s1 fashion-infonoise-s1 fashion-sqrt-entropy-s1 \
fashion-continuous-static-s1 fashion-continuous-infonoise-s1}
samples=${SAMPLES:-128}
seeds=${SEEDS:-1 2 3}
mkdir -p "$out/fashion-binarized"

# The binarised training images, as the binarised runs saw them.
for name in train-images-idx3-ubyte.gz t10k-images-idx3-ubyte.gz; do
  [ -f "$out/fashion-binarized/$name" ] && continue
  /usr/bin/python3 - "$repo/sample_data/fashion-mnist/$name" "$out/fashion-binarized/$name" <<'PY'
import gzip, sys
import numpy as np
raw = gzip.open(sys.argv[1]).read()
pixels = np.frombuffer(raw[16:], np.uint8)
with gzip.open(sys.argv[2], "wb") as f:
    f.write(raw[:16] + np.where(pixels > 127.5, 255, 0).astype(np.uint8).tobytes())
PY
done

# The data's brackets: the sampling rate auto is built from.
bracket() {  # name data
  [ -f "$out/$1.bound.json" ] && return
  nice -n 10 "$cli" --threads 1 diagnose "$2" --kind bracket --levels 32 --queries 128 \
    --device cpu --out "$out/$1.json" > "$out/$1.txt"
}
bracket fashion-binarized "$out/fashion-binarized/train-images-idx3-ubyte.gz"
bracket fashion-continuous "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"

start=$(date +%s)
for name in $models; do
  [ -f "$out/race-$name.json" ] && [ -f "$out/race-$name.done" ] && continue
  data=fashion-binarized
  case "$name" in fashion-continuous-*) data=fashion-continuous ;; esac
  # The model's own error profile on its run's held-out data (the first race's entropic source).
  nice -n 10 "$cli" --threads 1 diagnose "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz" \
    --checkpoint "$runs/$name" --levels 32 --queries 128 --device cpu \
    --out "$out/profile-$name.json" > "$out/profile-$name.txt"
  grids=(--grid 'karras?rho=7' --grid 'karras?rho=7&sigma_min=0.03' --grid auto --grid gated
         --grid 'ddpm?spacing=trailing' --grid 'quantiles?of=pi'
         --grid "entropic?increment=rate&profile=$out/profile-$name.json")
  # Karras with σ_min where the data's rate vanishes; continuous data have no such σ (it would be
  # Karras ρ = 7 again).
  [ "$data" = fashion-binarized ] && grids+=(--grid karras-profile)
  # shellcheck disable=SC2086
  nice -n 10 "$cli" --threads 1 sample-race "$runs/$name" --profile "$out/$data.bound.json" \
    --seeds $seeds --samples "$samples" "${grids[@]}" --json "$out/race-$name.json" \
    --chart "$out/race-$name.svg" > "$out/race-$name.txt" 2> "$out/race-$name.log"
  touch "$out/race-$name.done"
done
echo "finished in $(( $(date +%s) - start )) s" >&2
