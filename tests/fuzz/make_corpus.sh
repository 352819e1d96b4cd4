#!/usr/bin/env bash
# Rewrites the seed corpora in tests/fuzz/corpus/ with the project's own writers (write_seeds.cpp).
# Needs the normal build (gcc, Qt Test for the data fixtures): builds noisescope_fuzz_seeds there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"
cmake --build "$build" --target noisescope_fuzz_seeds -j"${NOISESCOPE_JOBS:-2}"
corpus="$root/tests/fuzz/corpus"
rm -rf "$corpus"
"$build/tests/fuzz/noisescope_fuzz_seeds" "$corpus"
echo "seeds: $(find "$corpus" -type f | wc -l) files, $(du -sh "$corpus" | cut -f1) in $corpus"
