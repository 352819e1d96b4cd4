#!/usr/bin/env bash
# The schedule race (docs/schedule-race.md): EDM log-normal vs InfoNoise online vs √-entropy online
# at equal step budgets on binarised Fashion-MNIST (sample_data subset, tiny U-Net) and lambda-phage
# DNA (one-hot windows, 1-D conv net). Each run writes a run directory; race_report.py reads their
# eval events and reports the steps each sampler needs to reach the EDM run's final held-out
# quality. Sized for 2 CPU cores: two lanes (images, DNA) run side by side, one torch thread each.
#
# usage: bench/train/schedule_race.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?usage: schedule_race.sh BUILD_DIR OUT_DIR}
out=${2:?usage: schedule_race.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli="$build/app/noisescope-cli"
mkdir -p "$out"

# Samplers to race (SAMPLERS overrides): "static" is EDM log-normal; "infonoise-mix" is InfoNoise
# with 10 % of π spread uniformly over log σ (noise.uniform_mix = 0.1).
samplers=${SAMPLERS:-static infonoise sqrt-entropy}

write_config() {  # dataset sampler file
  local dataset=$1 sampler=$2 file=$3 mix=0.0
  if [ "$sampler" = infonoise-mix ]; then sampler=infonoise mix=0.1; fi
  if [ "$dataset" = fashion ]; then
    cat > "$file" <<JSON
{"dataset": {"path": "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz",
             "test_path": "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz",
             "transform": "binarize", "test_limit": 256},
 "model": {"kind": "unet", "channels": 8, "embedding": 32},
 "optim": {"steps": 1200, "batch_size": 32, "lr": 2e-3, "lr_warmup_steps": 50, "seed": 1,
           "ema_decay": 0.99},
 "noise": {"sampler": "$sampler", "warmup_steps": 200, "refresh_every": 100,
           "uniform_mix": $mix},
 "eval": {"every": 150, "samples": 128, "levels": 16},
 "checkpoint": {"every": 600, "export_torchscript": false},
 "log_every": 50}
JSON
  else
    cat > "$file" <<JSON
{"dataset": {"path": "$repo/sample_data/dna/lambda_phage.fa", "fasta_window": 64,
             "fasta_stride": 64, "test_fraction": 0.15},
 "model": {"kind": "conv1d", "channels": 32, "blocks": 4, "embedding": 32},
 "optim": {"steps": 2000, "batch_size": 64, "lr": 2e-3, "lr_warmup_steps": 50, "seed": 1,
           "ema_decay": 0.99},
 "noise": {"sampler": "$sampler", "warmup_steps": 200, "refresh_every": 100,
           "uniform_mix": $mix},
 "eval": {"every": 200, "samples": 113, "levels": 16},
 "checkpoint": {"every": 1000, "export_torchscript": false},
 "log_every": 50}
JSON
  fi
}

lane() {  # dataset
  local dataset=$1
  for sampler in $samplers; do
    local name="$dataset-$sampler"
    write_config "$dataset" "$sampler" "$out/$name.json"
    rm -rf "$out/$name"
    "$cli" --threads 1 train --config "$out/$name.json" --out "$out/$name" 2> "$out/$name.log"
  done
}

start=$(date +%s)
lane fashion &
lane dna &
wait
echo "race finished in $(( $(date +%s) - start )) s" >&2
/usr/bin/python3 "$here/race_report.py" "$out" | tee "$out/report.md"
