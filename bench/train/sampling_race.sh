#!/usr/bin/env bash
# The sampling-steps experiment (docs/sampling-steps.md): three models per dataset, trained like
# the schedule race (bench/train/schedule_race.sh: EDM log-normal, InfoNoise online, √-entropy
# online; binarised Fashion-MNIST sample with a tiny U-Net, lambda-phage DNA windows with a 1-D
# conv net), each then raced by `noisescope-cli sample-race` on every sampling grid at NFE 8, 16,
# 32 and 64 with several sampling seeds. Sized for a shared 2-core machine: two lanes (images,
# DNA), one torch thread each, at low priority (nice 10).
#   STEPS_FASHION / STEPS_DNA  training budgets (default 3000 / 3000: the race's 5000 did not fit
#                              beside other work; the doc states what was run)
#   SEED                       training seed (default 1)
#   SAMPLE_SEEDS               sampling seeds of the race (default "1 2 3")
#   TRAIN_ONLY=1               train and stop; RACE_ONLY=1 races existing run directories
#   DATASETS                   lanes to run (default "fashion dna")
#   FASHION_GRIDS / DNA_GRIDS  grid specs to race, space-separated (default: the Fashion-MNIST
#                              8-grid set of docs/sampling-steps.md; DNA: every default grid)
#   FASHION_SAMPLES            generated samples per Fashion-MNIST cell (default 128)
#
# usage: bench/train/sampling_race.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?usage: sampling_race.sh BUILD_DIR OUT_DIR}
out=${2:?usage: sampling_race.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli="$build/app/noisescope-cli"
mkdir -p "$out"
steps_fashion=${STEPS_FASHION:-3000} steps_dna=${STEPS_DNA:-3000}
seed=${SEED:-1}
sample_seeds=${SAMPLE_SEEDS:-1 2 3}
datasets=${DATASETS:-fashion dna}
fashion_grids=${FASHION_GRIDS:-karras?rho=7 karras?rho=7&sigma_min=0.03 log-sigma ddpm?spacing=trailing flow?shift=3 entropic?increment=rate entropic?increment=sqrt-rate quantiles?of=pi}
dna_grids=${DNA_GRIDS:-}
fashion_samples=${FASHION_SAMPLES:-128}
fashion_features="$out/features-fashion-binarized.pt"
dna_features="$out/features-dna-w64.pt"

write_config() {  # dataset sampler file: the schedule race's configs, exported as TorchScript
  local dataset=$1 sampler=$2 file=$3
  if [ "$dataset" = fashion ]; then
    cat > "$file" <<JSON
{"dataset": {"path": "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz",
             "test_path": "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz",
             "transform": "binarize", "test_limit": 256},
 "model": {"kind": "unet", "channels": 8, "embedding": 32},
 "optim": {"steps": $steps_fashion, "batch_size": 32, "lr": 2e-3, "lr_warmup_steps": 50,
           "seed": $seed, "ema_decay": 0.99},
 "noise": {"sampler": "$sampler", "warmup_steps": 200, "refresh_every": 100},
 "eval": {"every": 0, "samples": 128, "levels": 16, "feature_network": "$fashion_features",
          "quality_samples": 256, "heun_steps": 18},
 "checkpoint": {"every": $steps_fashion, "export_torchscript": true},
 "log_every": 50}
JSON
  else
    cat > "$file" <<JSON
{"dataset": {"path": "$repo/sample_data/dna/lambda_phage.fa", "fasta_window": 64,
             "fasta_stride": 64, "test_fraction": 0.15},
 "model": {"kind": "conv1d", "channels": 32, "blocks": 4, "embedding": 32},
 "optim": {"steps": $steps_dna, "batch_size": 64, "lr": 2e-3, "lr_warmup_steps": 50,
           "seed": $seed, "ema_decay": 0.99},
 "noise": {"sampler": "$sampler", "warmup_steps": 200, "refresh_every": 100},
 "eval": {"every": 0, "samples": 113, "levels": 16, "feature_network": "$dna_features",
          "quality_samples": 256, "heun_steps": 18},
 "checkpoint": {"every": $steps_dna, "export_torchscript": true},
 "log_every": 50}
JSON
  fi
}

features() {  # dataset: the schedule race's feature networks, trained once
  if [ "$1" = fashion ] && [ ! -f "$fashion_features" ]; then
    nice -n 10 "$cli" quality train-features \
      "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz" \
      --test "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz" --binarize --epochs 4 \
      --threads 1 --out "$fashion_features" > "$out/features-fashion.txt"
  elif [ "$1" = dna ] && [ ! -f "$dna_features" ]; then
    nice -n 10 "$cli" quality train-features "$repo/sample_data/dna/lambda_phage.fa" --window 64 \
      --stride 64 --epochs 8 --threads 1 --out "$dna_features" > "$out/features-dna.txt"
  fi
}

train_lane() {  # dataset
  local dataset=$1
  features "$dataset"
  for sampler in static infonoise sqrt-entropy; do
    local name="$dataset-$sampler"
    [ -f "$out/$name/.done" ] && continue
    write_config "$dataset" "$sampler" "$out/$name.json"
    rm -rf "$out/$name"
    nice -n 10 "$cli" --threads 1 train --config "$out/$name.json" --out "$out/$name" \
      2> "$out/$name.log"
    touch "$out/$name/.done"
  done
}

race_lane() {  # dataset
  local dataset=$1 data grids=() specs=() spec
  # DATA only fixes the shape: a run's checkpoint is scored on the run's own held-out data.
  if [ "$dataset" = fashion ]; then
    data=("$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz")
    read -r -a specs <<<"$fashion_grids"  # word-split without globbing the '?'
    for spec in "${specs[@]}"; do grids+=(--grid "$spec"); done
    grids+=(--samples "$fashion_samples")
  else
    data=("$repo/sample_data/dna/lambda_phage.fa" --window 64 --stride 64)
    read -r -a specs <<<"$dna_grids"
    for spec in "${specs[@]}"; do grids+=(--grid "$spec"); done
  fi
  for sampler in static infonoise sqrt-entropy; do
    local name="$dataset-$sampler"
    # The profile the entropic grids follow: the model's own MMSE on its run's held-out data.
    nice -n 10 "$cli" --threads 1 diagnose "${data[@]}" --checkpoint "$out/$name" --levels 32 \
      --queries 128 --device cpu --out "$out/profile-$name.json" 2> "$out/profile-$name.log"
    # shellcheck disable=SC2086
    nice -n 10 "$cli" --threads 1 sample-race "$out/$name" --profile "$out/profile-$name.json" \
      --seeds $sample_seeds "${grids[@]}" --json "$out/race-$name.json" \
      --chart "$out/race-$name.svg" \
      > "$out/race-$name.txt" 2> "$out/race-$name.log"
  done
}

start=$(date +%s)
if [ "${RACE_ONLY:-0}" != 1 ]; then
  for dataset in $datasets; do train_lane "$dataset" & done
  wait
  echo "training finished in $(( $(date +%s) - start )) s" >&2
fi
[ "${TRAIN_ONLY:-0}" = 1 ] && exit 0
for dataset in $datasets; do race_lane "$dataset" & done
wait
echo "finished in $(( $(date +%s) - start )) s" >&2
