#!/usr/bin/env bash
# noisescope-cli diagnose --kind empirical|held-out|gaussian|bracket on the bundled Fashion-MNIST
# sample: the bracket's five profile files, their kinds, the bound as the selection-half winner
# scored on the evaluation half, the held-out query set in the provenance, the coverage of the
# isotropic N < D case, and clear failures for bad input.
set -u
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/check.sh"

train="$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"
fast=(--levels 8 --queries 32 --sigma-min 0.01 --sigma-max 80)

out=$("$cli" diagnose "$train" --kind bracket "${fast[@]}" --out "$work/P.json" --csv "$work/P.csv" 2>/dev/null)
check "bracket exits 0" test $? -eq 0
for kind in empirical held-out held-out-wiener held-out-patch bound; do
  check "bracket writes $kind JSON" test -s "$work/P.$kind.json"
  check "bracket writes $kind CSV" grep -q "^# kind: $kind" "$work/P.$kind.csv"
  check "summary explains $kind" grep -q "^  $kind " <<<"$out"
done
check "held-out queries from the t10k file" grep -q "test split beside the dataset: .*t10k-images" <<<"$out"
check "files record their kind; the bound is cross-fitted from its members" python3 -c '
import json,sys
w=sys.argv[1]
kinds=["empirical","held-out","held-out-wiener","held-out-patch","bound"]
p={k: json.load(open(f"{w}/P.{k}.json")) for k in kinds}
for k,v in p.items(): assert v["kind"]==k, (k, v["kind"])
e={k: v["mmse"]["estimators"][0] for k,v in p.items()}
b=p["bound"]["provenance"]
members=set(b["selection_means"])
assert {"held-out","wiener"} <= members and any(m.startswith("patch-k") for m in members), members
for l,src in enumerate(b["source"]):
    # each half chose the member with the smallest mean there ("A|B" when they differ)
    even,odd=(src.split("|")+[src])[:2]
    assert all(b["selection_means"][even][l] <= b["selection_means"][m][l] for m in members)
    assert all(b["evaluation_means"][odd][l] <= b["evaluation_means"][m][l] for m in members)
    assert e["bound"]["upper95"][l] >= e["bound"]["mean"][l]
    assert e["bound"]["ci95_high"][l] >= e["bound"]["upper95"][l]
assert e["held-out"]["mean"][0] > 10*max(e["empirical"]["mean"][0], 1e-3)
assert all(se > 0 for se in e["held-out-wiener"]["standard_error"])
assert "Student t" in e["bound"]["interval"]
assert "t10k-images" in p["held-out"]["provenance"]["queries_from"]["source"]
for k in kinds[1:]: assert "t10k-images" in p[k]["provenance"]["query_set"], k
' "$work"

# Schedules know the kind: the caveat on stderr for the empirical profile only.
for kind in empirical held-out held-out-wiener bound; do
  msg=$("$cli" schedule --profile "$work/P.$kind.json" --method infonoise --output "$work/S.$kind.json" 2>&1 >/dev/null)
  check "schedule from $kind exits 0" test $? -eq 0
  if [ "$kind" = empirical ]; then
    check "caveat for the empirical profile" grep -q "^caveat: .*memorises.*bound" <<<"$msg"
    check "caveat in the schedule file" python3 -c '
import json,sys; s=json.load(open(sys.argv[1])); assert "memorises" in s["notes"]["caveat"]' "$work/S.$kind.json"
  else
    check "no caveat for $kind" bash -c "! grep -q caveat <<<'$msg'"
  fi
done

# A stated held-out share instead of the test split; the Gaussian curve alone.
out=$("$cli" diagnose "$train" --kind held-out --holdout 0.25 "${fast[@]}" --out "$work/H.json" 2>/dev/null)
check "held-out with --holdout exits 0" test $? -eq 0
check "held-out split recorded" python3 -c '
import json,sys; p=json.load(open(sys.argv[1])); assert p["kind"]=="held-out"
assert p["dataset_size"]==1500 and "25%" in p["provenance"]["query_set"], (p["dataset_size"], p["provenance"]["query_set"])' "$work/H.json"
"$cli" diagnose "$train" --kind gaussian "${fast[@]}" --out "$work/G.json" >/dev/null 2>&1
check "gaussian is a labelled estimate with a bootstrap interval" python3 -c '
import json,sys; p=json.load(open(sys.argv[1])); e=p["mmse"]["estimators"][0]
assert p["kind"]=="gaussian" and "ESTIMATE" in e["description"] and "bootstrap" in e["interval"]
assert any(se > 0 for se in e["standard_error"]) and p["provenance"]["parameters"]["method"]=="exact"' "$work/G.json"

# The issue's case: 242 draws of N(0, I_800), 20 % held out (N = 194 < D). The bound's upper end
# must cover the true MMSE 800 s^2/(1 + s^2) at every level; the plug-in curve does not.
iso="synthetic:gaussian?n=242&d=800&scale=1&seed=3"
"$cli" diagnose "$iso" --kind bracket --holdout 0.2 --levels 16 --queries 64 --out "$work/I.json" >/dev/null 2>&1
check "isotropic bracket exits 0" test $? -eq 0
"$cli" diagnose "$iso" --kind gaussian --levels 16 --bootstrap 0 --out "$work/IG.json" >/dev/null 2>&1
check "bound covers 800 s^2/(1+s^2) at every level, the plug-in curve does not" python3 -c '
import json,sys
b=json.load(open(sys.argv[1])); g=json.load(open(sys.argv[2]))
s=b["grid"]["sigma"]; truth=[800*x*x/(1+x*x) for x in s]
up=b["mmse"]["estimators"][0]["upper95"]; hi=b["mmse"]["estimators"][0]["ci95_high"]
assert all(u >= t for u,t in zip(up,truth)), [(x,u,t) for x,u,t in zip(s,up,truth) if u < t]
assert all(h >= t for h,t in zip(hi,truth))
gm=g["mmse"]["estimators"][0]["ci95_high"]
assert sum(v < t for v,t in zip(gm,truth)) >= len(s)//2, list(zip(gm,truth))' "$work/I.bound.json" "$work/IG.json"

# A held-out set too small to split into a selection and an evaluation half.
msg=$("$cli" diagnose "synthetic:gaussian?n=20&d=4" --kind bracket --holdout 0.1 "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "too few held-out points exits 2" test $? -eq 2
check "the message says why" grep -q "at least 4" <<<"$msg"

# Bad input.
"$cli" diagnose "$train" --kind nonsense --out "$work/X.json" >/dev/null 2>&1
check "unknown kind rejected" test $? -ne 0
msg=$("$cli" diagnose "$train" --kind held-out --queries-from "$root/sample_data/dna/lambda_phage.fa" "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "mismatched query set exits 2" test $? -eq 2
check "message names the query file" grep -q "lambda_phage.fa" <<<"$msg"
msg=$("$cli" diagnose "$train" --kind held-out --holdout 1.5 "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "bad holdout share exits 2" test $? -eq 2
check "the engine's 'held-out share' reads as the flag" grep -q -- "^error: --holdout: " <<<"$msg"
msg=$("$cli" diagnose "$train" --levels 1 --queries 32 --out "$work/X.json" 2>&1 >/dev/null)
check "one level exits 2" test $? -eq 2
check "the engine's 'levels' reads as the flag" grep -q -- "^error: --levels: need at least 2 levels" <<<"$msg"
msg=$("$cli" diagnose "$train" --device tpu "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "a setting with its value reads as the flag with it" grep -q -- "^error: --device tpu: unknown device" <<<"$msg"

# --checkpoint RUN_DIR: the run's newest exported denoiser, the run recorded.
data="synthetic:gaussian?n=256&d=4&seed=1"
printf '{"dataset": {"path": "%s"}, "optim": {"steps": 10, "batch_size": 32}, "checkpoint": {"every": 10}, "eval": {"every": 10}}\n' "$data" >"$work/train.json"
"$cli" train --config "$work/train.json" --out "$work/run" >/dev/null 2>&1
check "tiny training run exits 0" test $? -eq 0
out=$("$cli" diagnose "$data" --checkpoint "$work/run" "${fast[@]}" --out "$work/C.json" 2>/dev/null)
check "diagnose --checkpoint RUN_DIR exits 0" test $? -eq 0
check "names the export it used" grep -q "step-000000010.denoiser.pt" <<<"$out"
check "checkpoint profile records the run" python3 -c '
import json,sys; p=json.load(open(sys.argv[1])); assert p["kind"]=="checkpoint" and p["provenance"]["run_directory"]==sys.argv[2]' "$work/C.json" "$work/run"
mkdir -p "$work/norun"
msg=$("$cli" diagnose "$data" --checkpoint "$work/norun" "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "directory without an export exits 2" test $? -eq 2
check "message names the directory" grep -q "norun" <<<"$msg"

finish
