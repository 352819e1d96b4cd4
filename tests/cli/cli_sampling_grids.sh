#!/usr/bin/env bash
# noisescope-cli schedule --steps N --grid SPEC: the default grid is Karras ρ = 7 with no warning;
# the issue-23 case (equal ∫ rate steps of the Fashion-MNIST bound) is flagged on stderr and in
# the file, and guard=cap brings it under the limit; DDPM trailing gives diffusers' timesteps; the
# .json, .py and text forms hold the same levels; a run's final π gives the quantile grid; bad
# specs end with exit 2 and a message naming the spec.
set -u
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/check.sh"

train="$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"
"$cli" diagnose "$train" --kind bracket --levels 12 --queries 32 --sigma-min 0.002 --sigma-max 80 \
  --out "$work/P.json" >/dev/null 2>&1
check "bound profile written" test -s "$work/P.bound.json"

# The issue's command, unchanged: now the default grid, with its rule and no warning.
"$cli" schedule --profile "$work/P.bound.json" --method infonoise --steps 18 \
  --steps-output "$work/default.json" >/dev/null 2>"$work/default.err"
check "default steps exit 0" test $? -eq 0
check "default steps: Karras rho=7, safe, rule named" python3 -c '
import json,sys
s=json.load(open(sys.argv[1]))
assert s["format"]=="noisescope.sigma-steps/2" and s["grid"].startswith("karras?rho=7"), s["grid"]
assert s["steps"]==18 and s["warnings"]==[] and "rho = 7" in s["rule"]
r=s["step_ratio"]; assert r["largest"]<=r["limit"] and abs(r["limit"]/r["largest"]-2)<1e-9, r
v=s["sigma"]; assert v==sorted(v) and abs(v[0]-0.002)<1e-12 and abs(v[-1]-80)<1e-9
assert s["k_diffusion"]["sigmas"]==v[::-1]+[0] and s["diffusers"]["sigmas"]==v[::-1]+[0]
' "$work/default.json"
check "default steps: stderr names the grid, no warning" bash -c \
  "grep -q 'sampling grid: Karras' '$work/default.err' && ! grep -q '^warning' '$work/default.err'"

# The grid the issue found wanting: equal increments of the gated rate (InfoNoise's ρ).
"$cli" schedule --profile "$work/P.bound.json" --method infonoise --steps 18 \
  --grid "entropic?gate_c=0.15" --steps-output "$work/rho.json" >/dev/null 2>"$work/rho.err"
check "entropic steps exit 0" test $? -eq 0
check "entropic steps: the long step is warned about, on stderr and in the file" python3 -c '
import json,sys
s=json.load(open(sys.argv[1])); r=s["step_ratio"]
assert r["largest"]>r["limit"] and len(s["warnings"])>=1, r
assert s["source"].endswith("P.bound.json"), s["source"]
err=open(sys.argv[2]).read(); assert err.count("warning: step")==len(s["warnings"]), err
' "$work/rho.json" "$work/rho.err"
"$cli" schedule --profile "$work/P.bound.json" --method infonoise --steps 18 \
  --grid "entropic?gate_c=0.15&guard=cap" --steps-output "$work/capped.json" >/dev/null 2>&1
check "capped entropic steps: same N and ends, no step over the limit" python3 -c '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
assert b["warnings"]==[] and b["step_ratio"]["largest"]<=b["step_ratio"]["limit"]*(1+1e-9)
assert len(b["sigma"])==18 and b["sigma"][0]==a["sigma"][0] and b["sigma"][-1]==a["sigma"][-1]
' "$work/rho.json" "$work/capped.json"

# diffusers: 1000 training steps, 10 inference steps, trailing: 999, 899, ..., 99.
"$cli" schedule --preset edm --steps 10 --grid "ddpm?spacing=trailing" \
  --steps-output "$work/ddpm.json" >/dev/null 2>&1
check "ddpm trailing timesteps are diffusers'" python3 -c '
import json,sys
s=json.load(open(sys.argv[1])); d=s["diffusers"]
assert d["timesteps"]==[999-100*i for i in range(10)], d["timesteps"]
assert abs(d["sigmas"][0]-14.6146)<1e-3 and d["sigmas"][-1]==0
' "$work/ddpm.json"

# The three forms of one grid hold the same numbers.
for ext in json py txt; do
  "$cli" schedule --preset edm --steps 12 --grid "flow?shift=3" \
    --steps-output "$work/flow.$ext" >/dev/null 2>&1
done
check "json, py and txt forms agree" python3 -c '
import json,sys
j=json.load(open(sys.argv[1])); g={}; exec(open(sys.argv[2]).read(),g)
t=[float(x) for x in open(sys.argv[3]).read().split()]
assert t==j["sigma"], (t,j["sigma"])
assert g["kdiffusion_sigmas"]==j["k_diffusion"]["sigmas"]==t[::-1]+[0]
assert g["diffusers_sigmas"]==j["diffusers"]["sigmas"]
assert g["diffusers_timesteps"]==j["diffusers"]["timesteps"]
assert g["flow_sigmas"]==j["diffusers"]["flow_sigmas"] and g["flow_timesteps"]==j["diffusers"]["flow_timesteps"]
assert all(abs(s-v/(1+v))<1e-15 for s,v in zip(g["flow_sigmas"],t[::-1]))
assert g["grid"]==j["grid"] and g["rule"]==j["rule"]
' "$work/flow.json" "$work/flow.py" "$work/flow.txt"

# A run's final training π: from schedules/final.schedule.json, else the last schedule event.
mkdir -p "$work/run/schedules" "$work/run2"
"$cli" schedule --profile "$work/P.bound.json" --method infonoise \
  --output "$work/run/schedules/final.schedule.json" >/dev/null 2>&1
"$cli" schedule --preset edm --steps 9 --grid "quantiles?run=$work/run" \
  --steps-output "$work/q.json" >/dev/null 2>&1
check "quantile grid of a run's final π" python3 -c '
import json,sys
s=json.load(open(sys.argv[1])); assert s["source"].endswith("final.schedule.json"), s["source"]
assert s["steps"]==9 and s["sigma"]==sorted(s["sigma"])
' "$work/q.json"
python3 -c '
import json,math
edges=[math.log(0.01)+i*(math.log(50)-math.log(0.01))/4 for i in range(5)]
e={"event":"schedule","step":40,"time":1.0,"sampler":"infonoise","refresh":2,"log_sigma_edges":edges,
   "sigma":[math.exp((a+b)/2) for a,b in zip(edges,edges[1:])],"pi":[0.1,0.4,0.4,0.1]}
open("'"$work/run2/events.jsonl"'","w").write(json.dumps({"event":"schedule","step":0,"time":0.5,"sampler":"infonoise","refresh":0,"log_sigma_edges":edges,"sigma":e["sigma"],"pi":[0.25]*4})+"\n"+json.dumps(e)+"\n")'
"$cli" schedule --preset edm --steps 5 --grid "quantiles?run=$work/run2" \
  --steps-output "$work/q2.json" >/dev/null 2>&1
check "quantile grid of the last schedule event" python3 -c '
import json,math,sys
s=json.load(open(sys.argv[1])); v=s["sigma"]
assert s["source"].endswith("events.jsonl") and abs(v[0]-0.01)<1e-9 and abs(v[-1]-50)<1e-6, v
assert abs(v[2]-math.sqrt(0.01*50))<1e-6, v  # the median of a symmetric π
' "$work/q2.json"

# Bad input: exit 2, the spec or the folder named.
"$cli" schedule --preset edm --steps 8 --grid "karras?rho=-1" >/dev/null 2>"$work/bad1.err"
rc=$?
check "bad rho exits 2" test $rc -eq 2
check "bad rho names the spec" grep -q "karras?rho=-1" "$work/bad1.err"
"$cli" schedule --preset edm --steps 8 --grid "euler" >/dev/null 2>"$work/bad2.err"
rc=$?
check "unknown grid exits 2" test $rc -eq 2
check "unknown grid lists the families" bash -c \
  "grep -q 'unknown sampling grid' '$work/bad2.err' && grep -q 'quantiles' '$work/bad2.err'"
"$cli" schedule --preset edm --steps 8 --grid "quantiles?run=$work/nowhere" >/dev/null 2>"$work/bad3.err"
rc=$?
check "a missing run exits 2" test $rc -eq 2
check "a missing run is named" grep -q nowhere "$work/bad3.err"
"$cli" schedule --preset edm --steps 8 --grid entropic >/dev/null 2>"$work/bad4.err"
rc=$?
check "entropic without a profile exits 2" test $rc -eq 2
check "entropic without a profile says so" grep -q "needs a profile" "$work/bad4.err"
"$cli" schedule --preset edm --grid "flow?shift=3" >/dev/null 2>"$work/bad5.err"
rc=$?
check "a grid without --steps exits 2" test $rc -eq 2
check "a grid without --steps says what it needs" grep -q "needs --steps" "$work/bad5.err"
finish
