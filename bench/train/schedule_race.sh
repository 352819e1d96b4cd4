#!/usr/bin/env bash
# The schedule race (docs/schedule-race.md): EDM log-normal vs InfoNoise online vs √-entropy online
# at equal step budgets on binarised Fashion-MNIST (sample_data subset, tiny U-Net) and lambda-phage
# DNA (one-hot windows, 1-D conv net). Each run writes a run directory; race_report.py reads their
# eval events and reports the steps each sampler needs to reach the EDM run's final held-out
# quality. Sized for 2 CPU cores: two lanes (images, DNA) run side by side, one torch thread each.
# Every sampler runs with each seed of SEEDS (default "1 2 3"); run directories are named
# <dataset>-<sampler>-s<seed>. Before the race, the feature networks of the sample-quality measure
# (THEORY §11) are trained once (quality train-features) and every eval event then carries `fd`
# (and `kmer_js` for DNA); race_stats.py prints the per-dataset tables with intervals over seeds.
# The full race: 4 samplers × 3 seeds × 5000 steps per dataset (about 70 min on 2 idle cores).
# Per seed, the real-against-real floor of those measures at the race's counts is computed first
# (`quality floor`: random subsets of the seed's training samples, as many as each eval generates,
# against the seed's held-out set) into floor-<dataset>-s<seed>.json, which race_stats.py reads.
# QUICK=1: one seed and short budgets (the "quick race" of docs/schedule-race.md).
# DATASETS (default "fashion dna") picks the lanes; STEPS_FASHION / STEPS_DNA override budgets;
# SAMPLERS and SEEDS pick the runs, e.g. the 5-seed headline of docs/schedule-race.md:
#   SAMPLERS="static infonoise" SEEDS="1 2 3 4 5" DATASETS=fashion schedule_race.sh build OUT
# FLOORS_ONLY=1 writes the configs and floors of an existing race directory and trains nothing.
# A run that finished (its .done marker) is not trained again, so a stopped race resumes. Every
# run exports its final model as TorchScript, so `noisescope-cli sample-race` can race its
# sampling grids (docs/sampling-steps.md).
# DATASETS=fashion-continuous is the continuous-image lane (issue 33 item 4; not in the default
# DATASETS): the same sample_data Fashion-MNIST files and network as "fashion", but the pixels
# kept continuous in [−1, 1] (dataset transform "none", the reader's own scaling) instead of
# binarised, its own feature network (features-fashion-continuous.pt, `quality train-features`
# without --binarize) and its own floors (floor-fashion-continuous-s<seed>.json); generated
# samples are scored as they come (not rounded). Budget STEPS_FASHION_CONTINUOUS (default 5000).
# Its run directories are fashion-continuous-<sampler>-s<seed>. The race of docs/schedule-race.md,
# "Continuous Fashion-MNIST" (one lane, one thread, niced beside other engineers' work):
#   SAMPLERS="static infonoise sqrt-entropy" SEEDS="1 2 3 4 5" DATASETS=fashion-continuous \
#     nice -n 10 schedule_race.sh build OUT
#
# usage: bench/train/schedule_race.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?usage: schedule_race.sh BUILD_DIR OUT_DIR}
out=${2:?usage: schedule_race.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli="$build/app/noisescope-cli"
mkdir -p "$out"

# Samplers to race (SAMPLERS overrides): the workbench's race, as the engine lists it
# (pipeline/training/schedule_race.h: "static" is EDM log-normal, then the online samplers), and
# "infonoise-mix", InfoNoise with 10 % of π spread uniformly over log σ (noise.uniform_mix = 0.1).
race_samplers=$("$cli" defaults --json |
  /usr/bin/python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["schedule_race"]["samplers"]))') ||
  { echo "schedule_race.sh: $cli defaults --json did not list the race's samplers" >&2; exit 2; }
samplers=${SAMPLERS:-$race_samplers infonoise-mix}
if [ "${QUICK:-0}" = 1 ]; then
  seeds=${SEEDS:-1}
  steps_fashion=${STEPS_FASHION:-400} steps_dna=${STEPS_DNA:-600}
  steps_fashion_continuous=${STEPS_FASHION_CONTINUOUS:-400}
  every_fashion=100 every_dna=150 quality_samples=128 heun_steps=12
else
  seeds=${SEEDS:-1 2 3}
  steps_fashion=${STEPS_FASHION:-5000} steps_dna=${STEPS_DNA:-5000}
  steps_fashion_continuous=${STEPS_FASHION_CONTINUOUS:-5000}
  every_fashion=500 every_dna=500 quality_samples=256 heun_steps=18
fi
datasets=${DATASETS:-fashion dna}
fashion_features="$out/features-fashion-binarized.pt"
fashion_continuous_features="$out/features-fashion-continuous.pt"
dna_features="$out/features-dna-w64.pt"

write_config() {  # dataset sampler seed file
  local dataset=$1 sampler=$2 seed=$3 file=$4 mix=0.0
  if [ "$sampler" = infonoise-mix ]; then sampler=infonoise mix=0.1; fi
  if [ "$dataset" = fashion ] || [ "$dataset" = fashion-continuous ]; then
    local transform=binarize steps=$steps_fashion features=$fashion_features
    if [ "$dataset" = fashion-continuous ]; then
      transform=none steps=$steps_fashion_continuous features=$fashion_continuous_features
    fi
    cat > "$file" <<JSON
{"dataset": {"path": "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz",
             "test_path": "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz",
             "transform": "$transform", "test_limit": 256},
 "model": {"kind": "unet", "channels": 8, "embedding": 32},
 "optim": {"steps": $steps, "batch_size": 32, "lr": 2e-3, "lr_warmup_steps": 50, "seed": $seed,
           "ema_decay": 0.99},
 "noise": {"sampler": "$sampler", "warmup_steps": 200, "refresh_every": 100,
           "uniform_mix": $mix},
 "eval": {"every": $every_fashion, "samples": 128, "levels": 16, "feature_network": "$features",
          "quality_samples": $quality_samples, "heun_steps": $heun_steps},
 "checkpoint": {"every": $steps, "export_torchscript": true},
 "log_every": 50}
JSON
  else
    cat > "$file" <<JSON
{"dataset": {"path": "$repo/sample_data/dna/lambda_phage.fa", "fasta_window": 64,
             "fasta_stride": 64, "test_fraction": 0.15},
 "model": {"kind": "conv1d", "channels": 32, "blocks": 4, "embedding": 32},
 "optim": {"steps": $steps_dna, "batch_size": 64, "lr": 2e-3, "lr_warmup_steps": 50, "seed": $seed,
           "ema_decay": 0.99},
 "noise": {"sampler": "$sampler", "warmup_steps": 200, "refresh_every": 100,
           "uniform_mix": $mix},
 "eval": {"every": $every_dna, "samples": 113, "levels": 16, "feature_network": "$dna_features",
          "quality_samples": $quality_samples, "heun_steps": $heun_steps},
 "checkpoint": {"every": $steps_dna, "export_torchscript": true},
 "log_every": 50}
JSON
  fi
}

features() {  # dataset: the feature network its eval events score with (trained once)
  if [ "$1" = fashion ] && [ ! -f "$fashion_features" ]; then
    "$cli" quality train-features "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz" \
      --test "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz" --binarize --epochs 4 \
      --threads 1 --out "$fashion_features" > "$out/features-fashion.txt"
  elif [ "$1" = fashion-continuous ] && [ ! -f "$fashion_continuous_features" ]; then
    "$cli" quality train-features "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz" \
      --test "$repo/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz" --epochs 4 \
      --threads 1 --out "$fashion_continuous_features" > "$out/features-fashion-continuous.txt"
  elif [ "$1" = dna ] && [ ! -f "$dna_features" ]; then
    "$cli" quality train-features "$repo/sample_data/dna/lambda_phage.fa" --window 64 --stride 64 \
      --epochs 8 --threads 1 --out "$dna_features" > "$out/features-dna.txt"
  fi
}

floor() {  # dataset seed: the floor at the counts of that seed's runs (their split is the same)
  local dataset=$1 seed=$2 config="$out/floor-$1-s$2.config.json"
  [ -s "$out/floor-$1-s$2.json" ] && return
  write_config "$dataset" static "$seed" "$config"
  "$cli" quality floor --config "$config" --repeats 5 --threads 1 --json > "$out/floor-$1-s$2.json"
}

lane() {  # dataset
  local dataset=$1
  features "$dataset"
  for seed in $seeds; do floor "$dataset" "$seed"; done
  [ "${FLOORS_ONLY:-0}" = 1 ] && return
  for seed in $seeds; do
    for sampler in $samplers; do
      local name="$dataset-$sampler-s$seed"
      [ -f "$out/$name/.done" ] && continue  # a finished run is kept: a stopped race resumes
      write_config "$dataset" "$sampler" "$seed" "$out/$name.json"
      rm -rf "$out/$name"
      "$cli" --threads 1 train --config "$out/$name.json" --out "$out/$name" 2> "$out/$name.log"
      touch "$out/$name/.done"
    done
  done
}

start=$(date +%s)
for dataset in $datasets; do lane "$dataset" & done
wait
echo "race finished in $(( $(date +%s) - start )) s" >&2
/usr/bin/python3 "$here/race_stats.py" "$out" | tee "$out/report.md"
