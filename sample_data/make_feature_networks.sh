#!/usr/bin/env bash
# Rebuilds the feature networks shipped beside the sample data, which the Training tab's race
# scores sample quality in by default (THEORY §11, ui/feature_network_finder.h): one torch thread
# and fixed seeds, so a rerun with the same LibTorch gives the same weights. Paths are relative to
# the checkout, and so is each file's recorded `trained_on`.
#
# usage: sample_data/make_feature_networks.sh [BUILD_DIR]   (default build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
cli="$build/app/noisescope-cli"
cd "$root"
# Images: a classifier on the 10 labels of the 2000 grey training images, held-out accuracy on the
# 500 test images.
"$cli" quality train-features --threads 1 sample_data/fashion-mnist/train-images-idx3-ubyte.gz \
  --test sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz --epochs 4 --seed 1 \
  --out sample_data/fashion-mnist/fashion-mnist.features.pt
# DNA: a masked-base predictor on the workbench's default windows (200 bases, stride 200); every
# 5th window is held out for its accuracy.
"$cli" quality train-features --threads 1 sample_data/dna/lambda_phage.fa --window 200 \
  --stride 200 --epochs 8 --seed 1 --out sample_data/dna/lambda_phage-w200.features.pt
