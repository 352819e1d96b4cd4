#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan+UBSan, torch-free libraries only) and runs each for
# a bounded time over its seeds (corpus/), the saved regressions (regressions/) and the corpus it
# grew before (in the build folder). Fails on any crash, leak, timeout, out-of-memory or UB report.
#
#   tests/fuzz/run.sh                          CI: 30 s per harness, one process each
#   tests/fuzz/run.sh --seconds 600 --jobs 2   longer developer run, 2 fuzzing processes per harness
#   tests/fuzz/run.sh --only npy,hdf5          some harnesses only
#   tests/fuzz/run.sh --parallel 2             two harnesses at a time, each on its own core and
#                                              still for its whole --seconds
# Options: --build DIR (default build-fuzz-clang, or $NOISESCOPE_FUZZ_BUILD_DIR), --no-build,
# --build-only.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/tests/fuzz"
build="${NOISESCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz-clang}"
seconds=30
jobs=1
only=""
do_build=1
do_run=1
parallel=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --build-only) do_run=0; shift ;;
    --parallel) parallel="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'fuzz: %s\n' "$*"; }
source "$root/installer/ccache-env.sh"
source "$root/installer/generator.sh"
harnesses=(idx idx_gz cifar npy streamed_prior hdf5 fasta image safetensors npz edm_zip synthetic
           profile schedule_json schedule_csv schedule_spec train_config run_event trainer_settings)
if [ -n "$only" ]; then IFS=',' read -r -a harnesses <<<"$only"; fi

if [ "$do_build" = 1 ]; then
  start=$(date +%s)
  if ! command -v clang++ >/dev/null; then
    say "FAILED: clang++ not found (installer/install-deps.sh installs clang and libfuzzer-14-dev)"
    exit 1
  fi
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  mapfile -t generator < <(noisescope_generator_args "$build")
  if ! cmake -S "$root" -B "$build" "${generator[@]}" -DNOISESCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >"$build.configure.log" 2>&1 ||
     ! cmake --build "$build" --target noisescope_fuzzers -j"${NOISESCOPE_JOBS:-2}" >"$build.build.log" 2>&1; then
    tail -40 "$build.configure.log" "$build.build.log" 2>/dev/null
    say "FAILED: the harnesses did not build (logs: $build.configure.log, $build.build.log)"
    exit 1
  fi
  say "built the harnesses in $(( $(date +%s) - start )) s ($build)"
fi

artifacts="$build/fuzz-artifacts"
grown="$build/fuzz-corpus"
logs="$build/fuzz-logs"
mkdir -p "$artifacts" "$grown" "$logs"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
[ -f "$here/lsan.supp" ] && export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/lsan.supp}"

[ "$do_run" = 1 ] || exit 0

# harness_dirs H: sets dirs to H's corpus folders: the one it grows, its seeds, its regressions.
harness_dirs() {
  dirs=("$grown/$1")
  [ -d "$here/corpus/$1" ] && dirs+=("$here/corpus/$1")
  [ -d "$here/regressions/$1" ] && dirs+=("$here/regressions/$1")
  return 0
}

# fuzz_one H: runs harness H for its seconds; its output in logs/H.log, its exit code in logs/H.rc.
fuzz_one() {
  local h=$1 binary="$build/tests/fuzz/noisescope_fuzz_$1"
  local log="$logs/$h.log" asan="$ASAN_OPTIONS"
  rm -f "$logs/$h.rc"
  if [ ! -x "$binary" ]; then
    echo "no binary $binary" >"$log"
    echo missing >"$logs/$h.rc"
    return
  fi
  mkdir -p "$grown/$h"
  local dirs
  harness_dirs "$h"
  local args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
              -artifact_prefix="$artifacts/$h-")
  [ -f "$here/dict/$h.dict" ] && args+=(-dict="$here/dict/$h.dict")
  [ "$jobs" -gt 1 ] && args+=(-fork="$jobs")
  # libhdf5 sizes metadata buffers from header fields before it checks them against the file: it
  # asks malloc for up to 2^61 bytes, handles the NULL glibc gives, and frees gigabytes it never
  # touched. For it only, such requests are not findings; the RSS limit still is (docs/fuzzing.md).
  if [ "$h" = hdf5 ]; then
    asan="$asan:allocator_may_return_null=1"
    args+=(-malloc_limit_mb=1048576)
  fi
  local rc=0
  ASAN_OPTIONS="$asan" "$binary" "${args[@]}" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$logs/$h.rc"
}

# Up to $parallel harnesses at once: each is one process on one core for its whole time.
running=0
for h in "${harnesses[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$h" &
  running=$((running + 1))
done
wait

failed=()
table="| harness | executions | exec/s | cov | ft | corpus (files/bytes) | result |"$'\n'"|---|---:|---:|---:|---:|---:|---|"
for h in "${harnesses[@]}"; do
  binary="$build/tests/fuzz/noisescope_fuzz_$h"
  log="$logs/$h.log"
  rc=$(cat "$logs/$h.rc" 2>/dev/null || echo "no exit code")
  if [ "$rc" = missing ]; then
    say "$h: no binary $binary"
    failed+=("$h(missing)")
    continue
  fi
  harness_dirs "$h"
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  last=$(grep -E 'cov: [0-9]+' "$log" | tail -1)
  if [ -z "$execs" ]; then  # fork mode prints "#N: cov: ..." instead of the final stats
    execs=$(sed -n 's/^#\([0-9]*\):\{0,1\} .*/\1/p' <<<"$last")
    rate=$(( ${execs:-0} / (seconds > 0 ? seconds : 1) ))
  fi
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*$')
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*$')
  files=$(find "${dirs[@]}" -type f | wc -l)
  bytes=$(find "${dirs[@]}" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  result=clean
  if [ "$rc" != 0 ]; then
    result="FAILED (exit $rc): $(grep -m1 -E 'ERROR: |SUMMARY: |noisescope-fuzz: |==[0-9]+==' "$log" | cut -c1-160)"
    failed+=("$h")
  fi
  say "$h: ${execs:-?} executions (${rate:-?}/s), cov ${cov:-?}, ft ${ft:-?}, corpus $files files / $bytes bytes: $result"
  if [ "$rc" != 0 ]; then
    grep -E 'Test unit written|artifact' "$log" | head -3 | sed 's/^/fuzz:   /'
    say "  log: $log; minimise with: $binary -minimize_crash=1 -runs=100000 ARTIFACT"
  fi
  table+=$'\n'"| $h | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | $files / $bytes | ${result%%:*} |"
done

printf '\n%s\n\n' "$table"
if [ ${#failed[@]} -gt 0 ]; then
  say "FAILED: ${#failed[@]} of ${#harnesses[@]} harnesses found a defect or did not run: ${failed[*]}"
  say "$(( ${#harnesses[@]} - ${#failed[@]} )) passed, ${#failed[@]} failed"
  exit 1
fi
say "OK: all ${#harnesses[@]} harnesses ran ${seconds} s each without a crash, leak, timeout or UB report"
# The plain closing line a CI reader counts.
say "${#harnesses[@]} passed, 0 failed"
