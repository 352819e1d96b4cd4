#!/usr/bin/env bash
# noisescope-cli sample-race on a tiny DNA model trained here in seconds: every grid at every NFE
# with 3 seeds, scored by the k-mer JS beside its floor, the per-grid ELBO, the NFE accounting of
# the Heun sampler, the JSON and the chart; a TorchScript file with --config gives the run's
# numbers; bad input ends with exit 2 and a message naming the file or flag.
set -u
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/check.sh"

cat >"$work/train.json" <<JSON
{"dataset": {"path": "$root/sample_data/dna/lambda_phage.fa", "fasta_window": 32,
             "fasta_stride": 32, "test_fraction": 0.1},
 "model": {"kind": "conv1d", "channels": 8, "blocks": 2, "embedding": 16},
 "optim": {"steps": 30, "batch_size": 32, "lr": 2e-3, "lr_warmup_steps": 5, "device": "cpu"},
 "eval": {"every": 0, "samples": 32},
 "checkpoint": {"every": 30}}
JSON
"$cli" --threads 1 train --config "$work/train.json" --out "$work/run" >/dev/null 2>&1
check "tiny DNA run trained" test -s "$work/run/checkpoints/step-000000030.denoiser.pt"

"$cli" --threads 1 sample-race "$work/run" --nfe 8 16 --seeds 1 2 3 --samples 32 \
  --floor-repeats 2 --json "$work/race.json" --chart "$work/race.svg" >"$work/race.txt" \
  2>"$work/race.err"
check "sample-race exits 0" test $? -eq 0
check "text table has the k-mer JS, the ELBO and the floor" bash -c "
  grep -q 'k-mer JS' '$work/race.txt' && grep -q 'ELBO' '$work/race.txt' &&
  grep -q '^floor (real vs held-out)' '$work/race.txt' && grep -q 'karras?rho=7' '$work/race.txt'"
check "charts written (k-mer JS, then the ELBO beside it)" bash -c "
  grep -q '<svg' '$work/race.svg' && grep -q '<svg' '$work/race.elbo.svg'"
check "JSON: every grid × NFE with 3 seeds, Heun's 2N − 1 evaluations, floors" python3 -c '
import json,math,sys
r=json.load(open(sys.argv[1]))
assert r["format"]=="noisescope.sample-race/1", r["format"]
assert r["sampler"]=="heun" and r["seeds"]==[1,2,3] and r["nfe"]==[8,16], r
names=[g["name"] for g in r["grids"]]
assert len(names)>=2 and "karras?rho=7" in names, names
assert len(r["cells"])==len(names)*2, len(r["cells"])
for c in r["cells"]:
    assert c["steps"]==c["nfe"]//2 and c["evaluations"]==2*c["steps"]-1<=c["nfe"], c
    s=c["sigma"]
    assert len(s)==c["steps"]+1 and s[-1]==0 and all(a>b for a,b in zip(s,s[1:])), s
    for m in ("kmer_js","elbo"):
        v=c["values"][m]
        assert len(v)==3 and all(math.isfinite(x) and x>0 for x in v), (m,v)
        assert c["summary"][m]["half_width_95"]>=0, c["summary"]
    assert "fd" not in c["values"], "no feature network was given"
f=r["floor"]["kmer_js"]
assert len(f["draws"])==2 and r["floor_count"]==32 and 0<f["mean"]<1, f
# Seeds are paired across grids: one start noise per seed, so two grids differ only by their steps.
k=[c for c in r["cells"] if c["grid"]=="karras?rho=7"]
assert k[0]["sigma"][0]==80.0, k[0]["sigma"]
' "$work/race.json"

# The same model as a TorchScript file with the run's config: the same numbers.
model="$work/run/checkpoints/step-000000030.denoiser.pt"
"$cli" --threads 1 sample-race "$model" --config "$work/run/config.json" --grid 'karras?rho=7' \
  --nfe 8 --seeds 1 2 --samples 32 --floor-repeats 2 --json "$work/pt.json" >/dev/null 2>&1
check "a TorchScript file with --config gives the run's values" python3 -c '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
ca=[c for c in a["cells"] if c["grid"]=="karras?rho=7" and c["nfe"]==8][0]
cb=b["cells"][0]
assert len(b["cells"])==1 and cb["grid"]=="karras?rho=7"
assert ca["values"]["kmer_js"][:2]==cb["values"]["kmer_js"], (ca["values"], cb["values"])
assert ca["values"]["elbo"][:2]==cb["values"]["elbo"]
' "$work/race.json" "$work/pt.json"

# The quick look: its grids, budgets and seeds, no ELBO, unless a flag says otherwise; the JSON
# says the race is complete (it is rewritten after every cell while the race runs).
"$cli" --threads 1 sample-race "$work/run" --quick --samples 16 --json "$work/quick.json" \
  >/dev/null 2>&1
check "sample-race --quick exits 0" test $? -eq 0
check "quick look: Karras ρ = 7 and log σ first, 2 budgets, 2 seeds, no ELBO, complete" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
names=[g["name"] for g in r["grids"]]
assert names[:2]==["karras?rho=7","log-sigma"] and len(names)<=3, names
assert r["nfe"]==[8,16] and r["seeds"]==[1,2] and r["samples"]==16, (r["nfe"],r["seeds"],r["samples"])
assert r["elbo_samples"]==0 and r["state"]=="complete", (r["elbo_samples"],r["state"])
assert len(r["cells"])==len(names)*2 and all("elbo" not in c["values"] for c in r["cells"])
# Budget by budget: every grid at NFE 8 before any at NFE 16.
assert [c["nfe"] for c in r["cells"]]==[8]*len(names)+[16]*len(names)
' "$work/quick.json"

# Bad input: exit 2, and the message names the file or flag.
expect_error() {  # name pattern args...
  local name="$1" pattern="$2"
  shift 2
  "$cli" sample-race "$@" >/dev/null 2>"$work/err.txt"
  local rc=$?
  check "$name: exit 2" test $rc -eq 2
  check "$name: message" grep -q -- "$pattern" "$work/err.txt"
}
expect_error "missing model" "$work/nothing.pt" "$work/nothing.pt"
expect_error "TorchScript file without --config" "needs --config" "$model"
expect_error "run without an export" "holds no exported denoiser" "$work"
expect_error "NFE too small for Heun" "fewer than 2" "$work/run" --nfe 2 --samples 8
expect_error "bad grid spec" "rho=3.5x is not a finite number" "$work/run" --grid 'karras?rho=3.5x'
expect_error "unknown sampler" "unknown sampler" "$work/run" --sampler dpm --samples 8
echo "not a model" >"$work/bad.pt"
expect_error "not TorchScript" "$work/bad.pt" "$work/bad.pt" --config "$work/run/config.json"
finish
