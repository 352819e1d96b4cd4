#!/usr/bin/env bash
# Training steps/s of the C++ trainer (noisescope-cli train) against the same model, batch and step
# in eager PyTorch (reference_train.py, Debian's /usr/bin/python3), for the three networks. Both
# run with the same number of torch threads (THREADS, default 1) and one OpenBLAS thread; the
# first fifth of the steps is warm-up and not timed. Prints a markdown table and the machine's
# measured single-precision GEMM rate from the same run.
#
# usage: bench/train/run.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [OUT_DIR]}
out=${2:-/tmp/noisescope-bench-train}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
threads=${THREADS:-1}
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=1
mkdir -p "$out"

gemm=$(/usr/bin/python3 - "$threads" <<'PY'
import sys, time, torch
torch.set_num_threads(int(sys.argv[1]))
a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
for _ in range(3): a @ b
n, t = 20, time.perf_counter()
for _ in range(n): a @ b
print("%.1f" % (n * 2 * 1024 ** 3 / (time.perf_counter() - t) / 1e9))
PY
)

# case name, network, dataset block, steps, batch, model block
cases=(
  "mlp|{\"path\": \"synthetic:two-moons?n=4000&seed=1\"}|600|256|{\"kind\": \"mlp\", \"width\": 256, \"depth\": 3, \"embedding\": 64}|width=256 depth=3 embedding=64"
  "conv1d|{\"path\": \"$repo/sample_data/dna/lambda_phage.fa\", \"fasta_window\": 200, \"fasta_stride\": 50}|100|64|{\"kind\": \"conv1d\", \"channels\": 32, \"blocks\": 4, \"embedding\": 64}|channels=32 blocks=4 embedding=64 length=200"
  "unet|{\"path\": \"$repo/sample_data/fashion-mnist/train-images-idx3-ubyte.gz\", \"transform\": \"binarize\"}|50|64|{\"kind\": \"unet\", \"channels\": 32, \"embedding\": 64}|channels=32 embedding=64"
)

echo "| network | batch | parameters (C++ / PyTorch) | C++ steps/s | PyTorch steps/s | C++ / PyTorch |"
echo "|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  IFS='|' read -r kind dataset steps batch model pyopts <<< "$c"
  log_every=$(( steps / 5 ))
  cat > "$out/$kind.json" <<JSON
{"dataset": $dataset, "model": $model,
 "optim": {"steps": $steps, "batch_size": $batch, "lr": 1e-3, "device": "cpu"},
 "noise": {"sampler": "static"},
 "eval": {"every": 0, "samples": 8, "levels": 2, "sample_quality": "off"},
 "checkpoint": {"every": 1000000, "export_torchscript": false},
 "log_every": $log_every}
JSON
  rm -rf "$out/$kind"
  "$build/app/noisescope-cli" --threads "$threads" train --config "$out/$kind.json" --out "$out/$kind" 2> "$out/$kind.log"
  cpp=$(/usr/bin/python3 - "$out/$kind/events.jsonl" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
train = [e for e in ev if e["event"] == "train"][1:]  # the first interval is warm-up
params = [e for e in ev if e["event"] == "start"][0]["parameters"]
print("%d %.3f" % (params, len(train) / sum(1.0 / e["steps_per_s"] for e in train)))
PY
)
  py=$(/usr/bin/python3 "$here/reference_train.py" "$kind" "$steps" "$batch" "$threads" $pyopts)
  read -r cpp_params cpp_rate <<< "$cpp"
  py_params=$(echo "$py" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["parameters"])')
  py_rate=$(echo "$py" | /usr/bin/python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["steps_per_s"])')
  ratio=$(/usr/bin/python3 -c "print('%.2f' % ($cpp_rate / $py_rate))")
  echo "| $kind | $batch | $cpp_params / $py_params | $cpp_rate | $py_rate | $ratio |"
done
echo
echo "threads: $threads; GEMM 1024³ fp32: $gemm GFLOP/s; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
