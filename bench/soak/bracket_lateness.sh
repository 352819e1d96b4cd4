#!/usr/bin/env bash
# The GUI's event-loop lateness through a whole bracket on full Fashion-MNIST (issue 22): runs
# test_bracket_responsiveness with the dataset, the 50 ms limit and a JSON file per run, and
# prints one line per run. Figures and their reading: bench/soak/RESULTS.md.
#
#   bench/soak/bracket_lateness.sh [--build DIR] [--runs N] [--limit-ms MS] [--dataset PATH]
#                                  [--out DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build"
runs=3
limit=50
dataset=/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
out=/tmp/bracket-lateness
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --limit-ms) limit="$2"; shift 2 ;;
    --dataset) dataset="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "bracket_lateness.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bracket_lateness.sh: --runs '$runs' is not a positive whole number" >&2; exit 2; }
[[ "$limit" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "bracket_lateness.sh: --limit-ms '$limit' is not a number of milliseconds" >&2; exit 2; }
test_binary="$build/tests/ui/test_bracket_responsiveness"
[ -x "$test_binary" ] || { echo "bracket_lateness.sh: no $test_binary (build the tests)" >&2; exit 2; }
[ -e "$dataset" ] || { echo "bracket_lateness.sh: no dataset $dataset (apt install dataset-fashion-mnist)" >&2; exit 2; }
mkdir -p "$out" || exit 2

failed=0
for ((i = 1; i <= runs; i++)); do
  QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" NOISESCOPE_RESPONSIVENESS_DATASET="$dataset" \
    NOISESCOPE_LATENESS_LIMIT_MS="$limit" NOISESCOPE_LATENESS_JSON="$out/run$i.json" \
    "$test_binary" >"$out/run$i.log" 2>&1 || failed=$((failed + 1))
  grep -E "bracket of|FAIL" "$out/run$i.log" | sed "s/^/run $i: /"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $failed of $runs runs over ${limit} ms (logs and JSON in $out)"
[ $failed -eq 0 ]
