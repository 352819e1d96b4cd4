#!/usr/bin/env bash
# Quick start (b): install what is needed, build, and run the whole test suite through ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"

bash "$root/installer/install-deps.sh"
bash "$root/installer/build.sh"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build" --output-on-failure -j"${NOISESCOPE_TEST_JOBS:-2}"
# Coverage-guided fuzzing of every reader (docs/fuzzing.md): its own clang build with ASan and
# UBSan, then every harness for NOISESCOPE_FUZZ_SECONDS (30) s; fails on any finding.
# NOISESCOPE_FUZZ_SECONDS=0 skips it.
if [ "${NOISESCOPE_FUZZ_SECONDS:-30}" != 0 ]; then
  bash "$root/tests/fuzz/run.sh" --seconds "${NOISESCOPE_FUZZ_SECONDS:-30}" \
    --build "${NOISESCOPE_FUZZ_BUILD_DIR:-$build-fuzz-clang}"
fi
# ThreadSanitizer and AddressSanitizer + UBSan (docs/sanitizers.md): clang builds of the job, GUI
# and sharded tests in build folders of their own; fails on any race, memory error, leak or UB
# report. NOISESCOPE_SANITIZE_STAGE=0 skips it.
if [ "${NOISESCOPE_SANITIZE_STAGE:-1}" != 0 ]; then
  bash "$root/tests/sanitize/run.sh" --prefix "$build"
fi
