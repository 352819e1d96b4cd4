#!/usr/bin/env bash
# The GUI's quick race, timed (bench_gui_race.cpp): the Training tab's defaults on binarised
# Fashion-MNIST, "Start race", offscreen. Prints a Markdown table; needs the benchmark built
# (NOISESCOPE_BUILD_BENCH, target bench_gui_race, which also builds noisescope-cli).
#
# RACE=quick clicks "Quick-look race" instead; TRANSFORM (default binarize) and FEATURES (a feature
# network; default none) set the form.
#
# usage: [RACE=quick] [TRANSFORM=none] [FEATURES=FILE] bench/train/gui_race.sh BUILD_DIR [MAX_SECONDS]
set -euo pipefail
build=${1:?usage: gui_race.sh BUILD_DIR [MAX_SECONDS]}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
for f in "$build/bench/train/bench_gui_race" "$build/app/noisescope-cli"; do
  [[ -x $f ]] || { echo "error: $f is missing; build the target bench_gui_race" >&2; exit 2; }
done
export QT_QPA_PLATFORM=offscreen
exec "$build/bench/train/bench_gui_race" "$build/app/noisescope-cli" \
  "$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz" "${2:-1800}" \
  "${RACE:-full}" "${TRANSFORM:-binarize}" "${FEATURES:-}"
