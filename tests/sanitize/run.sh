#!/usr/bin/env bash
# Builds NoiseScope with clang under ThreadSanitizer and under AddressSanitizer + UBSan, each in
# its own build folder and only the targets its tests need, then runs those tests there
# (docs/sanitizers.md). Fails on any race, memory error, leak or UB report.
#
#   tests/sanitize/run.sh                  CI: both builds and their tests
#   tests/sanitize/run.sh --only thread    ThreadSanitizer only (or --only address)
#   tests/sanitize/run.sh --no-build --repeat 20   every test 20 times in a row (the loaded runs)
# Options: --prefix DIR (build folders DIR-tsan and DIR-asan; default build, or
# $NOISESCOPE_SANITIZE_PREFIX), --no-build, --build-only, --jobs N (tests at a time, default 2),
# --repeat N (each test N times; it fails at its first failing run).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/tests/sanitize"
prefix="${NOISESCOPE_SANITIZE_PREFIX:-$root/build}"
only=""
do_build=1
do_run=1
jobs="${NOISESCOPE_SANITIZE_JOBS:-2}"
repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --build-only) do_run=0; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'sanitize: %s\n' "$*"; }
source "$root/installer/ccache-env.sh"
source "$root/installer/generator.sh"

# The job thread, the run monitor and the GUI tests that start jobs (loads, diagnostics, the
# bracket, atomic design, the sampling race); a training child started, followed and stopped from
# the Training tab (posix_spawn, ui/child_process); the sharded diagnostic with loopback ranks.
tsan_tests=(test_job_runner test_run_monitor test_child_process test_dataset_explorer
            test_diagnostic_panel test_schedule_panel test_diagnostic_bracket test_sampling_panel
            test_training_panel_threads cli_diagnose_sharded)
tsan_targets=(noisescope-cli test_job_runner test_run_monitor test_child_process
              test_dataset_explorer test_diagnostic_panel test_schedule_panel
              test_diagnostic_bracket test_sampling_panel test_training_panel)
# Every GUI test but two: test_python_run needs the Python fixture of the normal build, and
# test_gui_write_faults preloads libfiu's POSIX wrappers, which would load before ASan's runtime.
asan_tests=(test_job_runner test_run_monitor test_child_process test_curve_chart
            test_dataset_explorer test_diagnostic_panel test_diagnostic_bracket test_schedule_panel
            test_export_for_dialog test_default_profiles test_training_panel test_gui_cli_schedules
            test_sampling_panel test_gui_killed_mid_write)
asan_targets=(noisescope-cli gui_write_driver "${asan_tests[@]}")

# build KIND DIR TARGETS...: configure and build with clang; the logs beside DIR.
build() {
  local kind=$1 dir=$2 start
  shift 2
  start=$(date +%s)
  local launcher=() generator
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  mapfile -t generator < <(noisescope_generator_args "$dir")
  if ! cmake -S "$root" -B "$dir" "${generator[@]}" -DNOISESCOPE_SANITIZE="$kind" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
        >"$dir.configure.log" 2>&1 ||
     ! cmake --build "$dir" -j"${NOISESCOPE_JOBS:-2}" --target "$@" >"$dir.build.log" 2>&1; then
    tail -40 "$dir.configure.log" "$dir.build.log" 2>/dev/null
    say "FAILED: the $kind build did not build (logs: $dir.configure.log, $dir.build.log)"
    return 1
  fi
  say "$kind: built $# targets in $(( $(date +%s) - start )) s ($dir)"
}

# run_tests KIND DIR TESTS...: the tests through ctest, $jobs at a time (two on CI's two cores: the
# timing tests then run beside another test, the load they are checked under in docs/sanitizers.md),
# each $repeat times until its first failure.
run_tests() {
  local kind=$1 dir=$2 start
  shift 2
  start=$(date +%s)
  local pattern
  pattern="^($(IFS='|'; echo "$*"))\$"
  if ! ctest --test-dir "$dir" -R "$pattern" --output-on-failure -j"$jobs" \
         --repeat until-fail:"$repeat" >"$dir.ctest.log" 2>&1; then
    grep -E 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY:' \
      "$dir.ctest.log" | sort | uniq -c | head -20
    tail -60 "$dir.ctest.log"
    say "FAILED: $kind tests (log: $dir.ctest.log)"
    return 1
  fi
  local ran
  ran=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' "$dir.ctest.log")
  if [ "$ran" -ne $# ]; then
    tail -30 "$dir.ctest.log"
    say "FAILED: $kind ran $ran of $# tests (log: $dir.ctest.log)"
    return 1
  fi
  say "$kind: $# tests passed $repeat time(s) each in $(( $(date +%s) - start )) s, $jobs at a time"
}

export QT_QPA_PLATFORM=offscreen
failed=()
stage_start=$(date +%s)

if [ -z "$only" ] || [ "$only" = thread ]; then
  dir="$prefix-tsan"
  # halt_on_error: the first race fails its test. Suppressions: third-party code only (tsan.supp).
  export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:suppressions=$here/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
  ok=1
  if [ "$do_build" = 1 ]; then
    build thread "$dir" "${tsan_targets[@]}" || ok=0
  fi
  # libgomp is not instrumented: torch kernels on one thread (the CLI's own --threads too).
  [ $ok = 1 ] && [ "$do_run" = 1 ] && { OMP_NUM_THREADS=1 run_tests thread "$dir" "${tsan_tests[@]}" || ok=0; }
  [ $ok = 1 ] || failed+=(thread)
  unset TSAN_OPTIONS
fi

if [ -z "$only" ] || [ "$only" = address ]; then
  dir="$prefix-asan"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  ok=1
  if [ "$do_build" = 1 ]; then
    build address "$dir" "${asan_targets[@]}" || ok=0
  fi
  [ $ok = 1 ] && [ "$do_run" = 1 ] && { run_tests address "$dir" "${asan_tests[@]}" || ok=0; }
  [ $ok = 1 ] || failed+=(address)
fi

say "stage took $(( $(date +%s) - stage_start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  say "FAILED: ${failed[*]}"
  exit 1
fi
if [ "$do_run" = 1 ]; then
  say "OK: no race, memory error, leak or UB report"
else
  say "OK: built"
fi
