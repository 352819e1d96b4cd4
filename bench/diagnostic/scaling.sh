#!/bin/bash
# The diagnostic out of core and sharded (docs/scaling.md), measured on this machine:
#  1. the machine's GEMM rates and a one-process profile of full Fashion-MNIST (bench_diagnostic);
#  2. the same profile from noisescope-cli diagnose with 1 rank and with 2 ranks over c10d/Gloo on
#     loopback (one torch thread per rank), and 1 rank with 2 threads: wall time, per-phase
#     seconds per level, bytes handed to collectives per level, agreement between them;
#  3. out of core: an IDX file whose float32 rows are larger than the address space the process
#     is allowed (ulimit -v), loaded whole (fails) and streamed (works), with peak RSS.
# scaling_report.py turns the JSON into the tables of bench/diagnostic/SCALING.md and the written
# estimate for ImageNet-64 on 8 GPUs.
#
#   bench/diagnostic/scaling.sh BUILD_DIR OUT_DIR
#
# Environment: QUERIES (256), LEVELS (24), BIG_ROWS (1200000 rows for the out-of-core file),
# LIMIT_GB (address-space limit for step 3, default 3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?build directory}
out=${2:?output directory}
data=${DATA:-/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz}
queries=${QUERIES:-256}
levels=${LEVELS:-24}
big_rows=${BIG_ROWS:-1200000}
limit_gb=${LIMIT_GB:-3}
cli="$build/app/noisescope-cli"
mkdir -p "$out"
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$out/log.txt"; }
timed() {  # timed NAME COMMAND...: wall, user, max RSS into NAME.time
  local name=$1
  shift
  /usr/bin/time -f '{"wall_s": %e, "user_s": %U, "max_rss_kib": %M}' -o "$out/$name.time" "$@"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
grid=(--queries "$queries" --levels "$levels" --seed 1)

log "start; load $(cat /proc/loadavg); $(nproc) cores"
OMP_NUM_THREADS=1 "$build/bench/diagnostic/bench_diagnostic" "$data" "${grid[@]}" --threads 1 \
  --out "$out/gemm.profile.json" > "$out/gemm.json"
log "GEMM rates: $(cat "$out/gemm.json" | head -c 300)"

OMP_NUM_THREADS=1 timed one_rank "$cli" --threads 1 diagnose "$data" "${grid[@]}" \
  --out "$out/one_rank.json" > /dev/null 2> "$out/one_rank.err"
log "1 rank: $(cat "$out/one_rank.time"); load $(cat /proc/loadavg)"

OMP_NUM_THREADS=2 timed one_rank_2threads "$cli" --threads 2 diagnose "$data" "${grid[@]}" \
  --out "$out/one_rank_2threads.json" > /dev/null 2> /dev/null
log "1 rank, 2 threads: $(cat "$out/one_rank_2threads.time"); load $(cat /proc/loadavg)"

port=$(free_port)
for r in 0 1; do
  MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=2 RANK=$r LOCAL_RANK=$r OMP_NUM_THREADS=1 \
    timed "two_ranks_r$r" "$cli" --threads 1 diagnose "$data" "${grid[@]}" \
    --out "$out/two_ranks.json" > /dev/null 2> "$out/two_ranks_r$r.err" &
done
wait
log "2 ranks: $(cat "$out/two_ranks_r0.time") / $(cat "$out/two_ranks_r1.time"); load $(cat /proc/loadavg)"

# Out of core: Fashion-MNIST's rows repeated (each copy with fresh ±8 jitter) to BIG_ROWS rows.
big="$out/big-images-idx3-ubyte"
if [ ! -s "$big" ]; then
  /usr/bin/python3 - "$data" "$big" "$big_rows" <<'PY'
import gzip, sys, numpy as np
src, dst, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
raw = gzip.open(src).read()
base = np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(-1, 784)
rng = np.random.default_rng(1)
with open(dst, "wb") as f:
    f.write(bytes([0, 0, 8, 3]) + rows.to_bytes(4, "big") + (28).to_bytes(4, "big") * 2)
    done = 0
    while done < rows:
        n = min(len(base), rows - done)
        jitter = rng.integers(-8, 9, size=(n, 784))
        f.write(np.clip(base[:n].astype(np.int16) + jitter, 0, 255).astype(np.uint8).tobytes())
        done += n
PY
fi
log "out-of-core file: $(stat -c %s "$big") bytes on disk, $((big_rows * 784 * 4)) bytes as float32"
limit_kib=$((limit_gb * 1024 * 1024))
set +e
(ulimit -v "$limit_kib"; OMP_NUM_THREADS=1 timed whole_limited "$cli" --threads 1 diagnose "$big" \
  --queries 32 --levels 8 --precision float32 --stream off --out "$out/whole_limited.json" \
  > /dev/null 2> "$out/whole_limited.err")
echo "{\"exit\": $?}" > "$out/whole_limited.exit"
(ulimit -v "$limit_kib"; OMP_NUM_THREADS=1 timed streamed_limited "$cli" --threads 1 diagnose "$big" \
  --queries 32 --levels 8 --precision float32 --stream on --memory 256 \
  --out "$out/streamed_limited.json" > /dev/null 2> "$out/streamed_limited.err")
echo "{\"exit\": $?}" > "$out/streamed_limited.exit"
set -e
log "whole under ulimit -v ${limit_gb} GiB: exit $(cat "$out/whole_limited.exit"); $(tail -c 200 "$out/whole_limited.err")"
log "streamed under ulimit -v ${limit_gb} GiB: exit $(cat "$out/streamed_limited.exit"); $(cat "$out/streamed_limited.time" 2>/dev/null)"
log "end; load $(cat /proc/loadavg)"
/usr/bin/python3 "$here/scaling_report.py" "$out" | tee "$out/report.md"
