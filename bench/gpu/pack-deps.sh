#!/usr/bin/env bash
# Packs what bench/gpu/run.sh needs from this Debian machine into one folder that travels to a bare
# CUDA + PyTorch machine (no Debian -dev packages there):
#   include/{eigen3,nlohmann,CLI}            the header-only libraries
#   share/eigen3/cmake, share/cmake/{nlohmann_json,CLI11}   their CMake package files (relocatable:
#                                            each finds its headers three folders above itself)
#   zlib/include/{zlib.h,zconf.h}            zlib's headers, used only if that machine has none
#                                            (its libz.so.1 is linked directly)
#   data/fashion-mnist/train-*-ubyte.gz      the full Fashion-MNIST training set (60 000 images)
#   MANIFEST.txt                             Debian package versions and sizes
#
# usage: bench/gpu/pack-deps.sh [DEST]      (default bench/gpu/deps, which .gitignore keeps out)
# Environment: FASHION_MNIST (default /usr/share/datasets/fashion-mnist, Debian's
# dataset-fashion-mnist package).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$here/deps}
fmnist=${FASHION_MNIST:-/usr/share/datasets/fashion-mnist}

need() {  # PATH WHAT
  [ -e "$1" ] || { echo "pack-deps: $1 is missing ($2); install it with apt-get" >&2; exit 1; }
}
need /usr/include/eigen3/Eigen/Core "libeigen3-dev"
need /usr/share/eigen3/cmake/Eigen3Config.cmake "libeigen3-dev"
need /usr/include/nlohmann/json.hpp "nlohmann-json3-dev"
need /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake "nlohmann-json3-dev"
need /usr/include/CLI/CLI.hpp "libcli11-dev"
need /usr/share/cmake/CLI11/CLI11Config.cmake "libcli11-dev"
need /usr/include/zlib.h "zlib1g-dev"
need "$fmnist/train-images-idx3-ubyte.gz" "dataset-fashion-mnist, or set FASHION_MNIST"

rm -rf "$dest"
mkdir -p "$dest/include" "$dest/share/eigen3" "$dest/share/cmake" "$dest/zlib/include" \
  "$dest/data/fashion-mnist"
# Eigen's unsupported/ modules are not used by NoiseScope; leaving them out saves a third.
mkdir -p "$dest/include/eigen3"
cp -a /usr/include/eigen3/Eigen /usr/include/eigen3/signature_of_eigen3_matrix_library \
  "$dest/include/eigen3/"
cp -a /usr/include/nlohmann /usr/include/CLI "$dest/include/"
cp -a /usr/share/eigen3/cmake "$dest/share/eigen3/"
cp -a /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 "$dest/share/cmake/"
cp -a /usr/include/zlib.h /usr/include/zconf.h "$dest/zlib/include/"
cp -a "$fmnist/train-images-idx3-ubyte.gz" "$dest/data/fashion-mnist/"
if [ -e "$fmnist/train-labels-idx1-ubyte.gz" ]; then
  cp -a "$fmnist/train-labels-idx1-ubyte.gz" "$dest/data/fashion-mnist/"
fi

{
  echo "# bench/gpu deps, packed $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  dpkg-query -W libeigen3-dev nlohmann-json3-dev libcli11-dev zlib1g-dev 2>/dev/null || true
  echo "fashion-mnist: $fmnist"
  du -sh "$dest"/include/* "$dest"/data/fashion-mnist/* | sed "s|$dest/||"
} > "$dest/MANIFEST.txt"
total=$(du -sm "$dest" | cut -f1)
echo "pack-deps: $dest ($total MiB)"
if [ "$total" -gt 60 ]; then
  echo "pack-deps: $dest is over 60 MiB; the device tool carries at most 64 MiB" >&2
  exit 1
fi
