#!/usr/bin/env bash
# Quick start (a): install what is needed, build, and open the workbench on the bundled sample
# data. Without a display the same loading runs headless and writes a report folder instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${NOISESCOPE_BUILD_DIR:-$root/build}"

bash "$root/installer/install-deps.sh"
bash "$root/installer/build.sh"

# Debian's OpenBLAS 0.3.21 does not know recent Intel cores (e.g. Sapphire Rapids) and falls back
# to its SSE3 kernels, 5-7x slower (bench/diagnostic/RESULTS.md). On a CPU with AVX2 and FMA the
# Haswell kernels are safe; the user's own setting always wins. Read at library load, so it must
# be in the environment before the program starts; training runs started from the GUI inherit it.
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=Haswell
fi

samples=(
  "$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"
  "$root/sample_data/dna/lambda_phage.fa"
  "synthetic:two-moons?n=2000&seed=1"
)

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/app/noisescope" "${samples[0]}"
fi

out="${NOISESCOPE_REPORT_DIR:-$root/report}"
echo "noisescope: no display found; writing the headless report instead." >&2
"$build/app/noisescope-cli" report "${samples[@]}" --out "$out"
echo "noisescope: open $out/README.md: per dataset the samples across σ, the bracket (the sample's profile and the population bound), the" >&2
echo "noisescope: schedules built from the bound compared with EDM and log-uniform, and an exported schedule." >&2
