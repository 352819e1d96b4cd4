#!/usr/bin/env bash
# Quick start (b): install what is needed, build, and run the whole test suite through ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"

bash "$root/installer/install-deps.sh"
bash "$root/installer/build.sh"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build" --output-on-failure -j"${NOISESCOPE_TEST_JOBS:-2}"
