#!/usr/bin/env bash
# Configures and builds NoiseScope into build/ (or $NOISESCOPE_BUILD_DIR). Extra arguments go to
# CMake's configure step, e.g. -DNOISESCOPE_BUILD_GUI=OFF for a core + CLI build.
#   --configure-only   configure, do not build
#   --build-only       build what was configured (no arguments go to CMake then)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"
source "$root/installer/ccache-env.sh"
source "$root/installer/generator.sh"
jobs="${NOISESCOPE_JOBS:-2}"   # builds are sized for 2 cores and 24 GB: torch headers are heavy

configure=1
compile=1
case "${1:-}" in
  --configure-only) compile=0; shift ;;
  --build-only) configure=0; shift ;;
esac

if [ "$configure" = 1 ]; then
  mapfile -t generator < <(noisescope_generator_args "$build")
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" "$@"
fi
if [ "$compile" = 1 ]; then
  cmake --build "$build" -j"$jobs"
  echo "noisescope: built into $build" >&2
fi
