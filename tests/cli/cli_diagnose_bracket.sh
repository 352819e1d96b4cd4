#!/usr/bin/env bash
# noisescope-cli diagnose --kind empirical|held-out|gaussian|bracket on the bundled Fashion-MNIST
# sample: the four profile files, their kinds, the bound as the per-level minimum, the held-out
# query set in the provenance, and clear failures for bad input.
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
for kind in empirical held-out gaussian bound; do
  check "bracket writes $kind JSON" test -s "$work/P.$kind.json"
  check "bracket writes $kind CSV" grep -q "^# kind: $kind" "$work/P.$kind.csv"
  check "summary explains $kind" grep -q "^  $kind " <<<"$out"
done
check "held-out queries from the t10k file" grep -q "test split beside the dataset: .*t10k-images" <<<"$out"
check "files record their kind; bound is min(held-out, gaussian); held-out above empirical at small sigma" python3 -c '
import json,sys
w=sys.argv[1]
p={k: json.load(open(f"{w}/P.{k}.json")) for k in ["empirical","held-out","gaussian","bound"]}
for k,v in p.items(): assert v["kind"]==k, (k, v["kind"])
m={k: v["mmse"]["estimators"][0]["mean"] for k,v in p.items()}
for l in range(len(m["bound"])):
    assert abs(m["bound"][l]-min(m["held-out"][l], m["gaussian"][l])) <= 1e-12*max(1,m["bound"][l])
assert m["held-out"][0] > 10*max(m["empirical"][0], 1e-3)
assert all(se==0 for se in p["gaussian"]["mmse"]["estimators"][0]["standard_error"])
assert "t10k-images" in p["held-out"]["provenance"]["queries_from"]["source"]
assert "t10k-images" in p["held-out"]["provenance"]["query_set"]
assert p["gaussian"]["provenance"]["parameters"]["method"]=="exact"
' "$work"

# Schedules know the kind: the caveat on stderr for the empirical profile only.
for kind in empirical held-out gaussian bound; do
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
check "gaussian exits 0" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["kind"]=="gaussian"' "$work/G.json"

# Bad input.
"$cli" diagnose "$train" --kind nonsense --out "$work/X.json" >/dev/null 2>&1
check "unknown kind rejected" test $? -ne 0
msg=$("$cli" diagnose "$train" --kind held-out --queries-from "$root/sample_data/dna/lambda_phage.fa" "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "mismatched query set exits 2" test $? -eq 2
check "message names the query file" grep -q "lambda_phage.fa" <<<"$msg"
msg=$("$cli" diagnose "$train" --kind held-out --holdout 1.5 "${fast[@]}" --out "$work/X.json" 2>&1 >/dev/null)
check "bad holdout share exits 2" test $? -eq 2

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
