#!/usr/bin/env bash
# Quick start (b): install what is needed, build, run the whole test suite through ctest, then the
# fuzzing and sanitizer stages. Prints each stage's wall time as it ends and a table of all of them
# at the end, passed or failed, so a slower stage shows in the log.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"
# Every build below (gcc, the fuzzing clang build, both sanitizer builds) goes through this cache.
source "$root/installer/ccache-env.sh"

stage_names=()
stage_seconds=()
stage_results=()
run_start=$(date +%s)

summary() {
  local rc=$? i total=$(( $(date +%s) - run_start ))
  printf '\nnoisescope-tests: stage times (wall)\n'
  printf '| stage | seconds | result |\n|---|---:|---|\n'
  for i in "${!stage_names[@]}"; do
    printf '| %s | %s | %s |\n' "${stage_names[$i]}" "${stage_seconds[$i]}" "${stage_results[$i]}"
  done
  printf '| total | %s | %s |\n' "$total" "$([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)")"
  ccache --show-stats 2>/dev/null | grep -E 'Hits|Misses|Cache size' | sed 's/^/noisescope-tests: ccache: /' || true
}
trap summary EXIT

# stage NAME COMMAND...: runs COMMAND, records its wall time, and stops the run when it fails.
stage() {
  local name=$1 start rc=0
  shift
  start=$(date +%s)
  printf 'noisescope-tests: stage %s started\n' "$name" >&2
  "$@" || rc=$?
  stage_names+=("$name")
  stage_seconds+=("$(( $(date +%s) - start ))")
  stage_results+=("$([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)")")
  printf 'noisescope-tests: stage %s took %s s: %s\n' "$name" "${stage_seconds[-1]}" "${stage_results[-1]}" >&2
  return "$rc"
}

stage deps bash "$root/installer/install-deps.sh"
stage configure bash "$root/installer/build.sh" --configure-only
stage build bash "$root/installer/build.sh" --build-only
export QT_QPA_PLATFORM=offscreen
stage ctest ctest --test-dir "$build" --output-on-failure -j"${NOISESCOPE_TEST_JOBS:-2}"

# Coverage-guided fuzzing of every reader (docs/fuzzing.md): its own clang build with ASan and
# UBSan, then every harness for NOISESCOPE_FUZZ_SECONDS (30) s, two harnesses at a time (one core
# each); fails on any finding. NOISESCOPE_FUZZ_SECONDS=0 skips it.
fuzz_build="${NOISESCOPE_FUZZ_BUILD_DIR:-$build-fuzz-clang}"
if [ "${NOISESCOPE_FUZZ_SECONDS:-30}" != 0 ]; then
  stage fuzz-build bash "$root/tests/fuzz/run.sh" --build-only --build "$fuzz_build"
  stage fuzz bash "$root/tests/fuzz/run.sh" --no-build --build "$fuzz_build" \
    --seconds "${NOISESCOPE_FUZZ_SECONDS:-30}" --parallel "${NOISESCOPE_FUZZ_PARALLEL:-2}"
fi

# ThreadSanitizer and AddressSanitizer + UBSan (docs/sanitizers.md): clang builds of the job, GUI
# and sharded tests in build folders of their own; fails on any race, memory error, leak or UB
# report. NOISESCOPE_SANITIZE_STAGE=0 skips it.
if [ "${NOISESCOPE_SANITIZE_STAGE:-1}" != 0 ]; then
  for kind in thread address; do
    stage "$kind-build" bash "$root/tests/sanitize/run.sh" --prefix "$build" --only "$kind" --build-only
    stage "$kind-tests" bash "$root/tests/sanitize/run.sh" --prefix "$build" --only "$kind" --no-build
  done
fi
