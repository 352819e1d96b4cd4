#!/usr/bin/env bash
# Installs everything NoiseScope needs to build, test and run on Debian 12 (bookworm).
# Idempotent: packages already present are left as they are. Runs as root or through sudo.
set -euo pipefail

packages=(
  # toolchain
  cmake g++ make ccache pkg-config git
  # the build tool every script configures with where it is installed (installer/generator.sh)
  ninja-build
  # the linker every build uses (CMakeLists.txt NOISESCOPE_LINKER): about five times faster than ld
  lld
  # coverage-guided fuzzing of the readers (tests/fuzz/run.sh): clang 14 with libFuzzer
  clang libfuzzer-14-dev
  # injected I/O faults (tests/core/io/test_injected_write_faults): libfiu and its POSIX preload
  libfiu-dev fiu-utils
  # core libraries
  libtorch-dev libopenblas0-pthread libhdf5-dev libeigen3-dev nlohmann-json3-dev libcli11-dev
  # SLEEF headers: the fused dense step's AVX2 kernel (at::vec exp; core/CMakeLists.txt)
  libsleef-dev
  zlib1g-dev libgloo-dev libpng-dev libjpeg-dev
  # ZIP archives: .npz latent caches and EDM/EDM2 dataset ZIPs (core/data/formats/zip_archive)
  libzip-dev
  # other trainers' settings for fit --current (core/io/trainer_config_file): YAML and TOML
  libyaml-cpp-dev libtomlplusplus-dev
  # GUI
  # qt6-charts-dev needs the Qt OpenGL development files, which it does not pull in itself
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev
  # headless display for tests and the report
  xvfb xauth
  # Python side: reference benchmarks, TorchScript fixtures, the exported sampler
  python3 python3-numpy python3-torch python3-h5py
  # the Python package (integrations/python): pip install --no-build-isolation, offline
  python3-setuptools python3-pip python3-venv
  # the Debian package (installer/cpack.cmake): dpkg-shlibdeps derives its dependencies,
  # appstreamcli validates its metadata
  dpkg-dev appstream
  # real data for sample_data and benchmarks
  dataset-fashion-mnist
)

say() { printf 'noisescope-install: %s\n' "$*" >&2; }

if [ ! -r /etc/os-release ]; then
  say "cannot read /etc/os-release; this script supports Debian 12 (bookworm) only."
  exit 2
fi
. /etc/os-release
if [ "${ID:-}" != "debian" ] || [ "${VERSION_ID:-}" != "12" ]; then
  say "this system is '${PRETTY_NAME:-unknown}'. The script supports Debian 12 (bookworm) only."
  say "On another system install the equivalents of: ${packages[*]}"
  exit 2
fi

if [ "$(id -u)" -eq 0 ]; then
  run_root() { "$@"; }
elif command -v sudo >/dev/null 2>&1; then
  run_root() { sudo "$@"; }
else
  say "needs root: run it as root or install sudo."
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#packages[@]} packages already installed."
  exit 0
fi

say "installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
run_root apt-get update -q
run_root apt-get install -y -q --no-install-recommends "${missing[@]}"
say "done."
