#!/usr/bin/env bash
# One prepared run on a bare CUDA + PyTorch machine (no Debian -dev packages: no Qt, HDF5, libpng,
# libjpeg, Eigen, nlohmann-json or CLI11): builds NoiseScope's core, CLI and diagnostic benchmark
# against PyTorch's LibTorch with the header-only dependencies carried in DEPS (made on a Debian
# machine by bench/gpu/pack-deps.sh), then measures
#   (a) the offline diagnostic on the GPU, on full Fashion-MNIST (1000 queries x 128 levels) and on a
#       CIFAR-shaped set (50 000 x 3x32x32, made from Fashion-MNIST), in fp64 and fp32 distances,
#       with the GPU's GEMM rates measured in the same run, the plain-PyTorch reference on the same
#       GPU, and agreement with CPU profiles of the same queries;
#   (b) the C++ trainer's steps/s on the GPU against the same eager PyTorch loop on the same GPU.
# Every stage is bounded by `timeout` and by what is left of BUDGET; a failed stage is logged and the
# next one runs. Everything lands in OUT_DIR: RESULTS.md, stages.tsv, logs/, json/.
#
# usage: bench/gpu/run.sh [OUT_DIR]          (default: $OUT, the device tool's output folder)
# Environment:
#   DEVICE=cuda      cpu: a dry run of the same stages on the CPU (with QUICK=1, small sizes)
#   QUICK=0          1: small sizes everywhere (5000 CIFAR-shaped images, few queries/levels/steps)
#   DEPS=bench/gpu/deps   the folder pack-deps.sh made (headers, CMake files, Fashion-MNIST)
#   FMNIST=$DEPS/data/fashion-mnist/train-images-idx3-ubyte.gz
#   BUILD=build-gpu  JOBS=$(nproc)  BUDGET=570 (seconds, whole run)  COMPILE_LIMIT=360
#   WORK=/tmp/noisescope-gpu
#   PYTHON           a python3 that imports torch (default: the first of python3, /usr/bin/python3)
#   TORCH_FALLBACK=1 use bench/gpu/torch-cmake instead of PyTorch's TorchConfig.cmake
#   CARRIED_ZLIB=1   use DEPS' zlib headers (and the machine's libz.so.1) even where zlib.h exists
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
out=${1:-${OUT:?give OUT_DIR or set OUT}}
device=${DEVICE:-cuda}
quick=${QUICK:-0}
deps=$(cd "${DEPS:-$here/deps}" 2>/dev/null && pwd) || deps=${DEPS:-$here/deps}
fmnist=${FMNIST:-$deps/data/fashion-mnist/train-images-idx3-ubyte.gz}
build=${BUILD:-$repo/build-gpu}
jobs=${JOBS:-$(nproc)}
budget=${BUDGET:-570}
work=${WORK:-/tmp/noisescope-gpu}
reserve=25  # seconds kept for the summary at the end
start_s=$(date +%s)
mkdir -p "$out/logs" "$out/json" "$work"
# PyTorch's CMake files look for the CUDA toolkit (nvcc) where one is installed but not on PATH.
if [ -d /usr/local/cuda/bin ] && ! command -v nvcc > /dev/null; then export PATH=/usr/local/cuda/bin:$PATH; fi
: > "$out/stages.tsv"

if [ -z "${PYTHON:-}" ]; then
  for p in python3 /usr/bin/python3; do
    if "$p" -c 'import torch' 2>/dev/null; then PYTHON=$(command -v "$p"); break; fi
  done
fi
PYTHON=${PYTHON:-python3}

# Sizes: the real run, or QUICK (a few seconds each, for checking the script on a CPU).
if [ "$quick" = 1 ]; then
  q_main=64 l_main=16 cifar_count=5000 q_check=32 l_check=8 q_cifar_check=16 l_cifar_check=8
  train_steps=(30 10 5) train_big_batch=96
else
  q_main=1000 l_main=128 cifar_count=50000 q_check=256 l_check=64 q_cifar_check=128 l_cifar_check=32
  train_steps=(2000 600 300) train_big_batch=256
fi
if [ "$device" = cpu ]; then memory=${MEMORY_MIB:-1024}; else memory=${MEMORY_MIB:-32768}; fi
cpu_threads=$(nproc)

log() { echo "[$(date -u +%H:%M:%S) +$(( $(date +%s) - start_s ))s] $*" | tee -a "$out/log.txt"; }
left() { echo $(( budget - ($(date +%s) - start_s) - reserve )); }

# stage NAME MAX_SECONDS COMMAND...: runs COMMAND (a function or program) under timeout with at most
# MAX_SECONDS and what is left of the budget; output to logs/NAME.log; one row in stages.tsv.
stage() {
  local name=$1 max=$2
  shift 2
  local room limit rc t0 t1 status
  room=$(left)
  limit=$(( max < room ? max : room ))
  if [ "$limit" -lt 5 ]; then
    printf '%s\tskipped\t0\t%s\tno time left in the budget\n' "$name" "$limit" >> "$out/stages.tsv"
    log "stage $name: skipped (no time left)"
    return 99
  fi
  log "stage $name: start (limit ${limit}s)"
  t0=$(date +%s%N)
  timeout --kill-after=10 "$limit" bash -c '"$@"' stage "$@" > "$out/logs/$name.log" 2>&1
  rc=$?
  t1=$(( ($(date +%s%N) - t0) / 1000000 ))
  case $rc in
    0) status=ok ;;
    124 | 137) status=timeout ;;
    *) status=failed ;;
  esac
  printf '%s\t%s\t%d.%03d\t%s\trc=%s\n' "$name" "$status" $(( t1 / 1000 )) $(( t1 % 1000 )) "$limit" \
    "$rc" >> "$out/stages.tsv"
  log "stage $name: $status (rc $rc, $(( t1 / 1000 )).$(( t1 % 1000 / 100 )) s)"
  [ "$status" = ok ] || tail -5 "$out/logs/$name.log" | sed 's/^/    | /' | tee -a "$out/log.txt"
  return $rc
}

# ------------------------------------------------------------------------------ stage bodies

environment() {
  set -x
  date -u
  uname -a
  nproc
  free -g || true
  df -h "$repo" "$work" || true
  nvidia-smi || true
  command -v nvcc && nvcc --version || true
  cmake --version
  "${CXX:-c++}" --version
  command -v ninja || true
  "$PYTHON" -c 'import sys, torch; print(sys.version); print("torch", torch.__version__,
    "cuda", torch.version.cuda, "available", torch.cuda.is_available(),
    "devices", torch.cuda.device_count(), "cxx11 abi", torch.compiled_with_cxx11_abi(),
    "cmake prefix", torch.utils.cmake_prefix_path)'
  "$PYTHON" -c 'import numpy; print("numpy", numpy.__version__)'
  ls -la "$deps" "$(dirname "$fmnist")"
  cat "$deps/MANIFEST.txt"
}

gemm() {
  "$PYTHON" "$here/gemm_rate.py" --device "$device" --threads "$cpu_threads" $([ "$quick" = 1 ] && echo --size 512) \
    --shape "$q_main,784,60000" --shape "$q_main,3072,$cifar_count" > "$out/json/gemm.json"
  cat "$out/json/gemm.json"
}

make_cifar() {
  local labels
  labels=$(dirname "$fmnist")/train-labels-idx1-ubyte.gz
  rm -rf "$work/cifar-shaped"
  "$PYTHON" "$here/make_cifar_shaped.py" "$fmnist" "$work/cifar-shaped" --count "$cifar_count" \
    $([ -e "$labels" ] && echo --labels "$labels")
  ls -la "$work/cifar-shaped"
}

# Where LibTorch's CMake files are: PyTorch's, unless they are missing (Debian's python3-torch has
# none: its LibTorch is the system one) or TORCH_FALLBACK asks for the stand-in.
torch_args() {
  local prefix root abi
  if [ "${TORCH_FALLBACK:-0}" = 1 ]; then
    root=$("$PYTHON" -c 'import torch, os; print(os.path.dirname(torch.__file__))')
    abi=$("$PYTHON" -c 'import torch; print(int(torch.compiled_with_cxx11_abi()))')
    echo "-DTorch_DIR=$here/torch-cmake -DNOISESCOPE_TORCH_ROOT=$root -DNOISESCOPE_TORCH_CXX11_ABI=$abi"
    return
  fi
  echo "-UTorch_DIR"  # forget a stand-in config that an earlier configure of this folder used
  prefix=$("$PYTHON" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)
  if [ -n "$prefix" ] && [ -e "$prefix/Torch/TorchConfig.cmake" ]; then
    echo "-DCMAKE_PREFIX_PATH=$prefix"
  fi
}

# zlib: the machine's own when it has the headers, else DEPS' headers with the machine's libz.so.1.
zlib_args() {
  local lib
  if [ "${CARRIED_ZLIB:-0}" != 1 ] && [ -e /usr/include/zlib.h ]; then return; fi
  lib=$(ldconfig -p 2>/dev/null | awk '/libz\.so\.1 .*x86-64/ {print $NF; exit}')
  [ -n "$lib" ] || lib=$(ls /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 \
    /usr/lib64/libz.so.1 2>/dev/null | head -1)
  echo "-DZLIB_INCLUDE_DIR=$deps/zlib/include -DZLIB_LIBRARY=$lib"
}

configure() {
  local generator=() name
  command -v ninja > /dev/null && generator=(-G Ninja)
  name=${generator[1]:-Unix Makefiles}
  if [ -e "$build/CMakeCache.txt" ] && ! grep -qx "CMAKE_GENERATOR:INTERNAL=$name" "$build/CMakeCache.txt"; then
    rm -rf "$build"
  fi
  # Eigen3_DIR & co. point find_package at the carried CMake files; the check below makes sure it
  # used them (a wrong *_DIR would make CMake search, and find /usr's on a Debian machine).
  set -x
  cmake -S "$repo" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DNOISESCOPE_BUILD_GUI=OFF -DNOISESCOPE_WITH_HDF5=OFF -DNOISESCOPE_BUILD_TESTS=OFF \
    -DNOISESCOPE_WITH_IMAGE_FILES=OFF -DNOISESCOPE_WITH_ZIP=OFF -DNOISESCOPE_BUILD_BENCH=ON \
    -DEigen3_DIR="$deps/share/eigen3/cmake" \
    -Dnlohmann_json_DIR="$deps/share/cmake/nlohmann_json" \
    -DCLI11_DIR="$deps/share/cmake/CLI11" \
    $(torch_args) $(zlib_args) || return
  set +x
  grep -E '^(Eigen3_DIR|nlohmann_json_DIR|CLI11_DIR|Torch_DIR|ZLIB_INCLUDE_DIR|ZLIB_LIBRARY[A-Z_]*|CMAKE_PREFIX_PATH|NOISESCOPE_[A-Z_0-9]+):' \
    "$build/CMakeCache.txt"
  local bad=0 pkg
  for pkg in Eigen3 nlohmann_json CLI11; do
    if ! grep -q "^${pkg}_DIR:[A-Z]*=$deps/" "$build/CMakeCache.txt"; then
      echo "configure: $pkg was not taken from $deps"
      bad=1
    fi
  done
  return $bad
}

compile() {
  set -x
  cmake --build "$build" -j "$jobs" --target noisescope-cli bench_diagnostic
}

# Which header folders the compiler really read (from its dependency files): for Eigen, nlohmann
# and CLI11 the carried ones only.
header_paths() {
  if [ -e "$build/.ninja_deps" ]; then
    (cd "$build" && ninja -t deps) > "$work/deps.txt"
  else
    find "$build" -name '*.o.d' -exec cat {} + > "$work/deps.txt"
  fi
  # Paths inside the source tree are recorded relative to the build folder: make them absolute.
  tr ' ' '\n' < "$work/deps.txt" | sed -e 's/^[[:space:]]*//' -e '/^$/d' | grep -E '\.(h|hpp|hxx|cuh)?$|/[^./]+$' \
    | grep -v ':$' | sort -u | (cd "$build" && xargs -d '\n' realpath -m --) | sort -u > "$work/headers.txt"
  echo "distinct headers read: $(wc -l < "$work/headers.txt")"
  local lib
  for lib in eigen3/Eigen nlohmann CLI zlib.h zconf.h png.h jpeglib.h hdf5.h torch/csrc/api ATen; do
    echo "$lib, read from:"
    grep -oE "^.*/${lib}(/|\$)" "$work/headers.txt" | sort | uniq -c | sed 's/^/    /'
  done
  if grep -qE '^/usr/include/(eigen3|nlohmann|CLI)/' "$work/headers.txt"; then
    echo "header_paths: the system's Eigen/nlohmann/CLI11 headers were read, not only DEPS'"
    return 1
  fi
}

# The build has no libpng/libjpeg: reading a PNG must fail with the InputError that says so.
image_files_off() {
  rm -rf "$work/png-folder" && mkdir -p "$work/png-folder"
  printf '\x89PNG\r\n\x1a\n' > "$work/png-folder/a.png"
  local said
  said=$("$build/app/noisescope-cli" info "$work/png-folder" 2>&1)
  echo "$said"
  echo "$said" | grep -q "a.png: is a PNG image, but this build of NoiseScope has no PNG/JPEG support"
}

diagnose() {  # TAG DATA QUERIES LEVELS DEVICE PRECISION THREADS
  local tag=$1 data=$2 m=$3 l=$4 dev=$5 precision=$6 threads=$7
  "$build/bench/diagnostic/bench_diagnostic" "$data" --queries "$m" --levels "$l" --device "$dev" \
    --precision "$precision" --threads "$threads" --memory "$([ "$dev" = cpu ] && echo 2048 || echo "$memory")" \
    --out "$work/$tag.profile.json" > "$out/json/$tag.json"
  local rc=$?
  cat "$out/json/$tag.json"
  cp "$work/$tag.profile.json" "$out/json/" 2>/dev/null
  return $rc
}

reference_diagnostic() {  # QUERIES LEVELS
  "$PYTHON" "$repo/bench/diagnostic/reference_diagnostic.py" "$fmnist" --queries "$1" --levels "$2" \
    --threads "$cpu_threads" --device "$device" --out "$work/ref_fmnist.levels.json" \
    > "$out/json/ref_fmnist_${device}.json" || return
  cat "$out/json/ref_fmnist_${device}.json"
  "$PYTHON" "$repo/bench/diagnostic/compare_outputs.py" "$work/fmnist_${device}_f64.profile.json" \
    "$work/ref_fmnist.levels.json" > "$out/json/agreement_ref_fmnist.txt"
  head -1 "$out/json/agreement_ref_fmnist.txt"
}

compare() {  # TAG A B
  "$PYTHON" "$here/compare_profiles.py" "$work/$2.profile.json" "$work/$3.profile.json" \
    > "$out/json/agreement_$1.txt"
  local rc=$?
  head -1 "$out/json/agreement_$1.txt"
  return $rc
}

# (b) one network: the C++ trainer and the eager loop, same model, batch and steps, same device.
train_case() {  # KIND STEPS BATCH
  local kind=$1 steps=$2 batch=$3 dataset model pyopts tag="$1_b$3"
  case $kind in
    mlp)
      dataset='{"path": "synthetic:two-moons?n=4000&seed=1"}'
      model='{"kind": "mlp", "width": 256, "depth": 3, "embedding": 64}'
      pyopts="width=256 depth=3 embedding=64" ;;
    conv1d)
      dataset="{\"path\": \"$repo/sample_data/dna/lambda_phage.fa\", \"fasta_window\": 200, \"fasta_stride\": 50}"
      model='{"kind": "conv1d", "channels": 32, "blocks": 4, "embedding": 64}'
      pyopts="channels=32 blocks=4 embedding=64 length=200" ;;
    unet)
      dataset="{\"path\": \"$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz\", \"transform\": \"binarize\"}"
      model='{"kind": "unet", "channels": 32, "embedding": 64}'
      pyopts="channels=32 embedding=64" ;;
  esac
  cat > "$work/train_$tag.json" <<JSON
{"dataset": $dataset, "model": $model,
 "optim": {"steps": $steps, "batch_size": $batch, "lr": 1e-3, "device": "$device"},
 "noise": {"sampler": "static"},
 "eval": {"every": 0, "samples": 8, "levels": 2, "sample_quality": "off"},
 "checkpoint": {"every": 1000000, "export_torchscript": false},
 "log_every": $(( steps / 5 ))}
JSON
  rm -rf "$work/train_$tag"
  local rc=0
  "$build/app/noisescope-cli" --threads 1 train --config "$work/train_$tag.json" \
    --out "$work/train_$tag" && cp "$work/train_$tag/events.jsonl" "$out/json/train_${tag}_events.jsonl" || rc=1
  "$PYTHON" "$here/reference_train_device.py" "$kind" "$steps" "$batch" 1 "$device" $pyopts \
    > "$out/json/train_${tag}_pytorch.json" || rc=1
  cat "$out/json/train_${tag}_pytorch.json"
  return $rc
}

export -f environment gemm make_cifar torch_args zlib_args configure compile header_paths image_files_off \
  diagnose \
  reference_diagnostic compare train_case
export here repo out device quick deps fmnist build jobs work PYTHON memory cpu_threads cifar_count \
  q_main l_main

# ------------------------------------------------------------------------------ the run

log "bench/gpu/run.sh: DEVICE=$device QUICK=$quick BUDGET=${budget}s OUT=$out BUILD=$build DEPS=$deps"
stage environment 30 environment
stage gemm 60 gemm
stage make_cifar 60 make_cifar
if ! stage configure 120 configure && [ "${TORCH_FALLBACK:-0}" != 1 ]; then
  log "configure with PyTorch's TorchConfig.cmake failed: again with bench/gpu/torch-cmake"
  rm -rf "$build"
  export TORCH_FALLBACK=1
  stage configure_fallback 90 configure
fi
if stage compile "${COMPILE_LIMIT:-360}" compile; then
  stage header_paths 20 header_paths
  stage image_files_off 10 image_files_off
fi

f=$fmnist c=$work/cifar-shaped
# (a) the timed runs on the device, fp64 (the default, exact to σ = 0.002) and fp32 distances
stage diag_fmnist_f64 60 diagnose "fmnist_${device}_f64" "$f" "$q_main" "$l_main" "$device" float64 "$cpu_threads"
stage diag_fmnist_f32 60 diagnose "fmnist_${device}_f32" "$f" "$q_main" "$l_main" "$device" float32 "$cpu_threads"
stage diag_cifar_f64 90 diagnose "cifar_${device}_f64" "$c" "$q_main" "$l_main" "$device" float64 "$cpu_threads"
stage diag_cifar_f32 90 diagnose "cifar_${device}_f32" "$c" "$q_main" "$l_main" "$device" float32 "$cpu_threads"
# agreement with the CPU on the same queries: smaller cases, run on both
stage check_fmnist_dev 30 diagnose check_fmnist_dev "$f" "$q_check" "$l_check" "$device" float64 "$cpu_threads"
stage check_fmnist_cpu 90 diagnose check_fmnist_cpu "$f" "$q_check" "$l_check" cpu float64 "$cpu_threads"
stage agree_fmnist 15 compare fmnist check_fmnist_dev check_fmnist_cpu
stage check_cifar_dev 30 diagnose check_cifar_dev "$c" "$q_cifar_check" "$l_cifar_check" "$device" float64 "$cpu_threads"
stage check_cifar_cpu 90 diagnose check_cifar_cpu "$c" "$q_cifar_check" "$l_cifar_check" cpu float64 "$cpu_threads"
stage agree_cifar 15 compare cifar check_cifar_dev check_cifar_cpu
# (b) training steps/s
stage train_mlp 60 train_case mlp "${train_steps[0]}" 256
stage train_conv1d 60 train_case conv1d "${train_steps[1]}" 64
stage train_unet 60 train_case unet "${train_steps[2]}" 64
stage train_unet_big 60 train_case unet "${train_steps[2]}" "$train_big_batch"
# the plain PyTorch reference of the diagnostic on the same device (fp32, as a Python user writes it)
stage reference_fmnist 90 reference_diagnostic "$q_main" "$l_main"
# with what is left: the CPU on the timed Fashion-MNIST case itself
if [ "$device" != cpu ]; then
  stage check_full_cpu 200 diagnose fmnist_cpu_f64 "$f" "$q_main" "$l_main" cpu float64 "$cpu_threads" &&
    stage agree_full 15 compare fmnist_full "fmnist_${device}_f64" fmnist_cpu_f64
fi

reserve=0
stage summary 25 "$PYTHON" "$here/summarize.py" "$out" "$device" "$quick"
log "done in $(( $(date +%s) - start_s )) s; $out/RESULTS.md"
