#!/usr/bin/env bash
# Reproduces docs/atomic-schedules.md: for a Dirac mixture, a circle and a Fashion-MNIST sample,
# the empirical MMSE profile, the √-entropy and InfoNoise schedules made from it, the atomic optimum
# of the shared random-feature model, the proxies' excess risk relative to the optimum, and the
# comparison table and charts.
#   bench/schedule/atomic_experiments.sh BUILD_DIR OUT_DIR [IMG_DIR]
set -euo pipefail
BUILD=${1:?build dir}
OUT=${2:?output dir}
IMG=${3:-docs/img}
CLI="$BUILD/app/noisescope-cli"
mkdir -p "$OUT" "$IMG"

FMNIST=sample_data/fashion-mnist/train-images-idx3-ubyte.gz
[ -f "$FMNIST" ] || FMNIST=sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz

declare -A DATA=(
  [dirac]="synthetic:dirac-mixture?n=2000&d=2&k=8&seed=1"
  [circle]="synthetic:circle?n=2000&seed=1"
  [fmnist]="$FMNIST"
)
LEVELS=${LEVELS:-48}
FEATURES=${FEATURES:-64}

for name in dirac circle fmnist; do
  data=${DATA[$name]}
  echo "=== $name: $data"
  # 1. Empirical profile, and the √-entropy schedule (in log σ) made from it.
  "$CLI" schedule --profile-dataset "$data" --profile-queries 256 --profile-levels 64 \
    --save-profile "$OUT/$name-profile.json" --method sqrt-entropy --sqrt-coordinate log-sigma \
    --weight uniform -o "$OUT/$name-sqrt.json" > "$OUT/$name-sqrt.txt"
  # 2. InfoNoise from the same profile (an offline empirical profile needs no gate).
  "$CLI" schedule --profile "$OUT/$name-profile.json" --method infonoise --gate-c 0 \
    --weight uniform -o "$OUT/$name-infonoise.json" > "$OUT/$name-infonoise.txt"
  # 3. The atomic optimum (A-criterion, ELBO target, uniform x0 weight) and the proxies' risk.
  "$CLI" schedule --atomic --dataset "$data" --levels "$LEVELS" --features "$FEATURES" \
    --samples 2048 --gap 1e-6 --seed 1 \
    --compare-risk "$OUT/$name-sqrt.json" --compare-risk "$OUT/$name-infonoise.json" \
    --compare-risk edm --compare-risk log-uniform \
    -o "$OUT/$name-atomic.json" > "$OUT/$name-atomic.txt" 2> "$OUT/$name-atomic.log"
  grep -E "^design:" "$OUT/$name-atomic.log" || true
  grep -E "R\(|atoms:" "$OUT/$name-atomic.txt" || true
  # 4. Comparison on φ with the profile's informative band, and charts.
  "$CLI" compare "$OUT/$name-atomic.json" "$OUT/$name-sqrt.json" "$OUT/$name-infonoise.json" edm \
    --profile "$OUT/$name-profile.json" --gate-c 0 --reference 1 --coordinate log-sigma \
    --chart "$IMG/atomic-$name.svg" --chart "$IMG/atomic-$name.png" --csv "$OUT/$name-compare.csv" \
    | tee "$OUT/$name-compare.txt"
done

# 5. The checkpoint regime (CHECKPOINT=1): a small MLP denoiser trained on the Dirac mixture
#    (log-uniform σ, 1500 steps), its last linear layer's information matrices, the optimum and the
#    same proxies.
if [ "${CHECKPOINT:-0}" = 1 ]; then
  name=dirac
  data=${DATA[$name]}
  "$CLI" train --config bench/schedule/dirac_mlp_config.json --out "$OUT/dirac-mlp-run"
  model=$(ls "$OUT"/dirac-mlp-run/checkpoints/*.denoiser.pt | tail -1)
  "$CLI" schedule --atomic --dataset "$data" --checkpoint "$model" --levels "$LEVELS" \
    --samples 512 --gap 1e-6 --seed 1 --device cpu \
    --compare-risk "$OUT/$name-sqrt.json" --compare-risk "$OUT/$name-infonoise.json" \
    --compare-risk edm --compare-risk log-uniform \
    -o "$OUT/$name-ckpt-atomic.json" > "$OUT/$name-ckpt-atomic.txt" 2> "$OUT/$name-ckpt-atomic.log"
  grep -E "^design:" "$OUT/$name-ckpt-atomic.log" || true
  grep -E "R\(|atoms:" "$OUT/$name-ckpt-atomic.txt" || true
  "$CLI" compare "$OUT/$name-ckpt-atomic.json" "$OUT/$name-sqrt.json" "$OUT/$name-infonoise.json" edm \
    --profile "$OUT/$name-profile.json" --gate-c 0 --reference 1 --coordinate log-sigma \
    --chart "$IMG/atomic-$name-checkpoint.svg" --chart "$IMG/atomic-$name-checkpoint.png" \
    | tee "$OUT/$name-ckpt-compare.txt"
fi
