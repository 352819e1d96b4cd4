#!/usr/bin/env bash
# Takes the user guide's screenshots (docs/img/user-guide/) from a build: the workbench walked
# through the main job on the bundled Fashion-MNIST sample under a virtual X display (xvfb-run),
# each step checked by user_guide_tour before its window is saved.
#   tests/ui/user_guide_tour.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/docs/img/user-guide}"
tour="$build/tests/ui/user_guide_tour"
[ -x "$tour" ] || { echo "user_guide_tour.sh: build $tour first (cmake --build $build --target user_guide_tour)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "user_guide_tour.sh: xvfb-run is missing (apt install xvfb)" >&2; exit 2; }
xvfb-run -a -s "-screen 0 1600x1000x24" "$tour" "$root/sample_data/fashion-mnist" "$out" 1600x1000
