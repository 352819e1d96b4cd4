#!/usr/bin/env bash
# noisescope-cli diagnose out of core and sharded (docs/scaling.md): on the bundled Fashion-MNIST
# sample, the profile of a prior streamed from disk under a memory budget smaller than the set,
# and of 2 and 3 local ranks over c10d/Gloo on loopback (torchrun's variables), equals the
# one-process in-memory profile to floating-point tolerance; held-out queries too. A rank that is
# missing, killed or stopped ends the run on the others with a clear message within the timeout.
set -u
cli="$1"
root="$2"
work="$(mktemp -d)"
pids=()
trap 'kill -9 "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
source "$(dirname "$0")/check.sh"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

train="$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"
test_split="$root/sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz"
fast=(--levels 10 --queries 48 --sigma-min 0.01 --sigma-max 80 --seed 5)

# sharded WORLD ARGS...: every rank in the background, rank r's output in $work/rank$r.{out,err}
sharded() {
  local world=$1 port
  shift
  port=$(free_port)
  pids=()
  for ((r = 0; r < world; r++)); do
    MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=$world RANK=$r LOCAL_RANK=$r \
      "$cli" --threads 1 diagnose "$@" >"$work/rank$r.out" 2>"$work/rank$r.err" &
    pids+=($!)
  done
  local status=0
  for p in "${pids[@]}"; do wait "$p" || status=1; done
  pids=()
  return $status
}

same_profile() {  # same_profile A.json B.json: every MMSE, rate and posterior number within 1e-6
  python3 - "$1" "$2" <<'PY'
import json, sys
def numbers(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items(): yield from numbers(v, path + "/" + k)
    elif isinstance(x, list):
        for i, v in enumerate(x): yield from numbers(v, path + "/" + str(i))
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield path, float(x)
a, b = (json.load(open(f)) for f in sys.argv[1:3])
keys = ["mmse", "rates", "posterior", "sigma_data", "dataset_size", "dimension"]
na = dict(numbers({k: a[k] for k in keys})); nb = dict(numbers({k: b[k] for k in keys}))
assert na.keys() == nb.keys(), "different fields"
bad = [(k, na[k], nb[k]) for k in na if abs(na[k] - nb[k]) > 1e-6 * max(1.0, abs(nb[k]))]
assert not bad, bad[:5]
assert len(na) > 50
PY
}

"$cli" --threads 1 diagnose "$train" "${fast[@]}" --out "$work/one.json" >/dev/null 2>&1
check "one process, in memory" test -s "$work/one.json"

"$cli" --threads 1 diagnose "$train" "${fast[@]}" --stream on --memory 2 --out "$work/streamed.json" \
  >/dev/null 2>"$work/streamed.err"
check "streamed: the prior is read as an IDX stream" grep -q "prior: IDX stream (2000 samples)" "$work/streamed.err"
check "streamed under a 2 MiB budget (the set is 6.3 MB as float32) equals in memory" \
  same_profile "$work/streamed.json" "$work/one.json"
check "streamed profile records how the prior was read" \
  python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["provenance"]; assert p["execution"]["prior_access"]=="IDX stream" and p["dataset"]["size"]==2000' "$work/streamed.json"

sharded 2 "$train" "${fast[@]}" --out "$work/two.json"
check "2 ranks exit 0" test $? -eq 0
check "2 ranks equal one process" same_profile "$work/two.json" "$work/one.json"
check "only rank 0 writes and reports" test ! -s "$work/rank1.out"
check "rank 0 says which rows it owns" grep -q "rank 0 of 2 owns rows 0..999" "$work/rank0.err"

sharded 3 "$train" "${fast[@]}" --stream on --memory 2 --out "$work/three.json"
check "3 ranks, streamed, exit 0" test $? -eq 0
check "3 streamed ranks equal one process" same_profile "$work/three.json" "$work/one.json"
check "3 ranks record the collectives" \
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["provenance"]["execution"]; assert e["ranks"]==3 and e["communicated_bytes_rank0"]>0' "$work/three.json"

# --stream auto with a budget the set exceeds (6.3 MB) but each shard (3.1 MB) fits: streamed, and
# each rank reads its shard once into memory.
sharded 2 "$train" "${fast[@]}" --memory 4 --out "$work/two_auto.json"
check "auto: the set is streamed, each shard read once" \
  grep -q "prior: IDX stream (2000 samples); rank 0 of 2 owns rows 0..999, read once into memory" "$work/rank0.err"
check "auto: shards in memory equal one process" same_profile "$work/two_auto.json" "$work/one.json"

"$cli" --threads 1 diagnose "$train" --kind held-out --queries-from "$test_split" "${fast[@]}" \
  --out "$work/held1.json" >/dev/null 2>&1
sharded 2 "$train" --kind held-out --queries-from "$test_split" "${fast[@]}" --out "$work/held2.json"
check "held-out: 2 ranks equal one process" same_profile "$work/held2.json" "$work/held1.json"

# Kinds that need the whole set in one process say so.
out=$(WORLD_SIZE=2 RANK=0 "$cli" diagnose "$train" --kind gaussian --out "$work/g.json" 2>&1)
check "gaussian refuses to run sharded" grep -q "only the empirical and held-out diagnostics run sharded" <<<"$out"

# A rank that never comes: rank 0 gives up at the rendezvous after --timeout, naming itself.
port=$(free_port)
start=$SECONDS
out=$(MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=2 RANK=0 \
  "$cli" diagnose "$train" "${fast[@]}" --timeout 3 --out "$work/lonely.json" 2>&1)
status=$?
check "missing rank: rank 0 fails" test $status -ne 0
check "missing rank: within the timeout" test $((SECONDS - start)) -le 20
check "missing rank: the message names the rendezvous and the rank" \
  grep -q "rendezvous at 127.0.0.1:$port (rank 0 of 2) failed within 3 s" <<<"$out"
check "missing rank: no profile written" test ! -e "$work/lonely.json"

# A rank that cannot read its data fails with its own message; the other ends at the timeout.
port=$(free_port)
MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=2 RANK=1 \
  "$cli" diagnose "$work/no-such-file.npy" "${fast[@]}" --timeout 3 --out "$work/bad.json" \
  >/dev/null 2>"$work/bad1.err"
check "failing rank names its file" grep -q "no-such-file.npy" "$work/bad1.err"

# A rank killed mid-run, and one stopped mid-run: the survivor ends with a clear message.
big='synthetic:gaussian?n=20000&d=64&seed=3'
for how in KILL STOP; do
  port=$(free_port)
  start=$SECONDS
  for r in 0 1; do
    MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=2 RANK=$r \
      "$cli" --threads 1 diagnose "$big" --queries 2048 --levels 48 --timeout 4 \
      --out "$work/$how.json" >/dev/null 2>"$work/$how$r.err" &
    pids+=($!)
  done
  for _ in $(seq 1 300); do grep -q "σ level" "$work/${how}0.err" && break; sleep 0.1; done
  kill -"$how" "${pids[1]}"
  wait "${pids[0]}"
  status=$?
  check "$how: rank 0 fails" test $status -ne 0
  check "$how: within the timeout" test $((SECONDS - start)) -le 30
  check "$how: the message names the rank and the failed collective" \
    grep -Eq "rank 0 of 2: (all-reduce|broadcast).* failed \(another rank stopped, or did not answer within 4 s\)" "$work/${how}0.err"
  check "$how: no profile written" test ! -e "$work/$how.json"
  # A failure above shows what rank 0 said (under a sanitizer, its report).
  [ $failures -eq 0 ] || { echo "--- rank 0 ($how) stderr, last lines:"; tail -60 "$work/${how}0.err"; }
  kill -9 "${pids[1]}" 2>/dev/null
  wait "${pids[1]}" 2>/dev/null
  pids=()
done

finish
