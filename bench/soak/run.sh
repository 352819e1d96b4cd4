#!/usr/bin/env bash
# The workbench soak (noisescope_soak, soak_cycle.h) under Xvfb: every cycle opens the window,
# loads the Fashion-MNIST sample, the λ-phage DNA sample and a synthetic set, runs the bracket on
# each, builds, compares and exports schedules from its profiles, starts a race on one and stops
# it, opens the stopped runs, visits every tab and closes the window. Records RSS every 10 s and
# the longest event-loop stall; writes OUT/rss.csv and OUT/summary.json.
#
#   bench/soak/run.sh --build build --minutes 20 --out /tmp/soak            the write-up's run
#   bench/soak/run.sh --build build --minutes 2 --min-cycles 3 --check ...  CI (ctest soak_2min)
# Other options go to noisescope_soak (--check, --rss-tolerance, --stall-ms, --min-cycles).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
driver="$build/bench/soak/noisescope_soak"
cli="$build/app/noisescope-cli"
for f in "$driver" "$cli"; do
  [ -x "$f" ] || { echo "soak: $f is missing; build the target noisescope_soak" >&2; exit 2; }
done
command -v xvfb-run >/dev/null ||
  { echo "soak: xvfb-run not found (installer/install-deps.sh installs xvfb and xauth)" >&2; exit 2; }
samples="$root/sample_data"
# -a: a free display number; the screen is larger than the window (1400×900). The X display,
# not the offscreen platform the test suite sets for itself.
export QT_QPA_PLATFORM=xcb
exec xvfb-run -a -s "-screen 0 1600x1000x24" "$driver" --cli "$cli" \
  --dataset "$samples/fashion-mnist/train-images-idx3-ubyte.gz" \
  --dataset "$samples/dna/lambda_phage.fa" \
  --dataset "synthetic:two-moons?n=2000&seed=1" \
  "${args[@]}"
