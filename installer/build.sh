#!/usr/bin/env bash
# Configures and builds NoiseScope into build/ (or $NOISESCOPE_BUILD_DIR). Extra arguments go to
# CMake's configure step, e.g. -DNOISESCOPE_BUILD_GUI=OFF for a core + CLI build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"
# Paths under the checkout are hashed relative to it, so any clone reuses the compiler cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
jobs="${NOISESCOPE_JOBS:-2}"   # builds are sized for 2 cores and 24 GB: torch headers are heavy

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" "$@"
cmake --build "$build" -j"$jobs"
echo "noisescope: built into $build" >&2
