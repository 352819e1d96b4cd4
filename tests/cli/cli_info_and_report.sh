#!/usr/bin/env bash
# noisescope-cli info / report on the bundled sample data, and bad input on each: every failure
# must exit non-zero with a message naming the file.
set -u
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/check.sh"

images="$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"
out=$("$cli" info "$images" --json 2>/dev/null)
check "info exits 0" test $? -eq 0
check "info reports shape 1x28x28" grep -q '"shape": \[' <<<"$out"
check "info reports N" python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["N"]>=1000 and d["shape"]==[1,28,28] and d["source_dtype"]=="uint8" and d["source_range"]==[0,255], d' "$out"

text=$("$cli" info "synthetic:two-moons?n=200&seed=2" 2>/dev/null)
check "synthetic info" grep -q "N  *200" <<<"$text"

# Bad input: empty, truncated, wrong type, missing, directory.
: >"$work/empty.npy"
head -c 100 "$images" >"$work/truncated-images-idx3-ubyte.gz"
printf 'hello, not a dataset\n' >"$work/notes.npy"
for bad in "$work/empty.npy" "$work/truncated-images-idx3-ubyte.gz" "$work/notes.npy" "$work/missing.idx"; do
  msg=$("$cli" info "$bad" 2>&1 >/dev/null)
  rc=$?
  check "exit 2 for $(basename "$bad")" test $rc -eq 2
  check "message names $(basename "$bad")" grep -q "$(basename "$bad")" <<<"$msg"
done
msg=$("$cli" info "synthetic:no-such-kind" 2>&1 >/dev/null)
check "unknown synthetic kind rejected" test $? -eq 2
msg=$("$cli" info "$images" --window -3 2>&1 >/dev/null)
check "bad flag rejected" test $? -ne 0

# The table of defaults: JSON with the grid, the gate rule and every preset; the text form too.
out=$("$cli" defaults --json 2>/dev/null)
check "defaults --json exits 0" test $? -eq 0
check "defaults --json holds the table" python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["format"]=="noisescope.defaults/1" and d["grid"]["sigma_min"]==0.002 and d["gate"]["comparison_band"]["empirical"]==0 and any(p["name"]=="edm" for p in d["presets"]), d' "$out"
text=$("$cli" defaults 2>/dev/null)
check "defaults as text" grep -q "^held_out.share  *0.1" <<<"$text"

# The headless report: a folder with a summary and one PNG per dataset.
"$cli" report "$images" "synthetic:circle?n=300" --out "$work/report" >/dev/null 2>&1
check "report exits 0" test $? -eq 0
check "report summary" test -s "$work/report/README.md"
check "report json" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]=="noisescope.report/1" and len(d["datasets"])==2' "$work/report/summary.json"
check "report png" bash -c "head -c 8 '$work/report/1-train-images-idx3-ubyte-samples.png' | grep -q PNG"
# The main job per dataset: profile with bands, schedules on φ, comparison, an exported schedule.
r1="$work/report/1-train-images-idx3-ubyte"
for f in .empirical.profile.json .empirical.profile.csv .bound.profile.json .bound.profile.csv \
         .held-out-wiener.profile.json -mmse.svg -mmse.png -rate.svg -rate.png -allocation.svg \
         -allocation.png -comparison.csv -infonoise.schedule.json -infonoise.sigma-steps.json; do
  check "report writes ${f#[-.]}" test -s "$r1$f"
done
check "report profiles: the empirical one and the bound, with intervals >= 0" python3 -c '
import json,sys
for f,kind in ((sys.argv[1],"empirical"),(sys.argv[2],"bound")):
    p=json.load(open(f)); assert p["format"]=="noisescope.profile/1" and p["kind"]==kind
    e=p["mmse"]["estimators"][0]; assert len(e["mean"])==len(p["grid"]["sigma"])>=2 and min(e["ci95_low"])>=0
    assert p["sigma_data"] > 0
assert "t10k" in json.load(open(sys.argv[2]))["provenance"]["query_set"]' "$r1.empirical.profile.json" "$r1.bound.profile.json"
check "report comparison has 4 schedules against EDM" python3 -c '
import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); assert len(rows)==4, rows' "$r1-comparison.csv"
check "report schedule carries provenance and measured sigma_data" python3 -c '
import json,sys; s=json.load(open(sys.argv[1])); pv=s["provenance"]; assert pv["producer"]=="noisescope-cli report"
src=pv["parameters"]["sigma_data_source"]; assert "profile" in src or "measured" in src, src
assert s["notes"]["profile-kind"]=="bound", s["notes"]' "$r1-infonoise.schedule.json"
check "report sigma-steps: the default grid (Karras rho=7), ascending, with its exports" python3 -c '
import json,sys; s=json.load(open(sys.argv[1])); v=s["sigma"]
assert s["format"]=="noisescope.sigma-steps/2" and len(v)==32 and v==sorted(v)
assert s["grid"].startswith("karras?rho=7") and s["warnings"]==[] and s["step_ratio"]["largest"]<=s["step_ratio"]["limit"]
assert s["k_diffusion"]["sigmas"]==v[::-1]+[0]' "$r1-infonoise.sigma-steps.json"
check "report README names the memorisation caveat" grep -q "memoris" "$work/report/README.md"
# "Use it in your trainer": the exported InfoNoise fitted for all nine trainers (pipeline/schedules/fit_for_tool).
check "report README has a trainer section per dataset" test "$(grep -c '### Use it in your trainer' "$work/report/README.md")" -eq 2
check "report trainer fits: nine tools, best first, the contract's keys" python3 -c '
import json,sys; fits=json.load(open(sys.argv[1])); s=json.load(open(sys.argv[2]))
assert [f["tool"] for f in fits]==["diffusers","sd-scripts","musubi-tuner","onetrainer","simpletuner","ai-toolkit","edm","edm2","k-diffusion"], fits
for f in fits:
    kl=[x["kl"] for x in f["fits"]]; assert kl==sorted(kl) and set(f["fits"][0])=={"family","params","kl","kl_reverse","tv","snippet"}
assert s["datasets"][0]["trainers"]==fits' "$r1-trainers.json" "$work/report/summary.json"
check "report trainer table names the model each trainer is assumed to train" grep -q "| onetrainer | \`flux\` |" "$work/report/README.md"
# The nine default models draw in flow time or σ (OneTrainer's DDPM table is its SD 1.5/SDXL model).
for c in flow-t sigma; do
  check "report trainer overlay $c: the target and each tool's best family" bash -c "grep -q 'target' '$r1-trainers-$c.svg' && head -c 8 '$r1-trainers-$c.png' | grep -q PNG"
done
check "report trainer section shows the overlays and snippets" bash -c "grep -q 'trainers-flow-t.png' '$work/report/README.md' && grep -q -- '--timestep_sampling shift' '$work/report/README.md'"
check "report mmse chart has a band" grep -q "<polygon" "$r1-mmse.svg"
check "report mmse chart shows the empirical curve and the bound" bash -c "grep -q 'empirical (' '$r1-mmse.svg' && grep -q 'bound (' '$r1-mmse.svg'"
# A set too small to hold out four points: the empirical profile alone, said in the README.
"$cli" report "synthetic:circle?n=30" --out "$work/report3" >/dev/null 2>&1
check "tiny report exits 0" test $? -eq 0
check "tiny report has the empirical profile only" bash -c "test -s '$work/report3/1-circle.empirical.profile.json' && ! test -e '$work/report3/1-circle.bound.profile.json'"
"$cli" report "$work/empty.npy" --out "$work/report2" >/dev/null 2>&1
check "report fails on bad dataset" test $? -eq 2

finish
