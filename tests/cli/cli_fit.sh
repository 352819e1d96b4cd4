#!/usr/bin/env bash
# noisescope-cli fit: a logit-normal target is recovered in diffusers' own convention, each of the
# nine tools gets fitted families and a snippet for the bundled Fashion-MNIST sample (its InfoNoise
# schedule from a quick bound profile), the profile route gives the same answer as the schedule
# file, and bad input ends with exit 2 and a message naming the flag or file.
set -u
cli="$1"
root="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/check.sh"

# diffusers draws u ~ logit-normal(logit_mean, logit_std) and indexes descending timesteps, so
# logit t ~ N(−logit_mean, logit_std²): NoiseScope's logit-normal family with m = −0.3 (velocity loss)
# comes back as logit_mean ≈ +0.3.
"$cli" schedule --family logit-normal --param m=-0.3 --param s=1.1 --param shift=1 --weight flow-v \
  --output "$work/T.json" >/dev/null 2>&1
check "target schedule written" test -s "$work/T.json"
"$cli" fit "$work/T.json" --for diffusers --json >"$work/T.fit.json"
check "fit --json exits 0" test $? -eq 0
check "diffusers recovers logit-normal (0.3, 1.1)" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
assert set(r)=={"tool","model","coordinate","fits"}, r.keys()
assert r["tool"]=="diffusers" and r["model"]=="flux" and r["coordinate"]=="flow-t"
best=r["fits"][0]
assert set(best)=={"family","params","kl","kl_reverse","tv","snippet"}, best.keys()
assert best["family"]=="logit_normal", best["family"]
# Close, not exact: the scripts train at 1000 table values of t, and the smallest ones (where the
# velocity loss puts most of φ) carry the weight at the table value, not the continuous average.
assert abs(best["params"]["logit_mean"]-0.3)<0.03 and abs(best["params"]["logit_std"]-1.1)<0.03, best
assert best["kl"]<0.03 and best["tv"]<0.08, best
assert "--logit_mean 0.28" in best["snippet"], best["snippet"]
assert all(a["kl"]<=b["kl"] for a,b in zip(r["fits"],r["fits"][1:]))
' "$work/T.fit.json"
# --output writes the same object (the GUI's "Save knobs" uses the same writer), or the text.
"$cli" fit "$work/T.json" --for diffusers --json --output "$work/T.knobs.json" >/dev/null
check "fit --output .json is the --json object" cmp -s "$work/T.knobs.json" "$work/T.fit.json"
"$cli" fit "$work/T.json" --for diffusers --output "$work/T.knobs.txt" >/dev/null
check "fit --output .txt is the text with the snippets" grep -q -- "--weighting_scheme logit_normal" "$work/T.knobs.txt"
"$cli" fit "$work/T.json" --for diffusers --output "$work/no/such/dir/k.json" >/dev/null 2>"$work/err"
rc=$?
check "fit --output into a missing folder exits 2 naming it" bash -c "test $rc -eq 2 && grep -q 'no/such/dir' '$work/err'"

# The Fashion-MNIST sample: a quick bound profile, its InfoNoise schedule, every tool fitted.
train="$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"
"$cli" diagnose "$train" --kind bracket --levels 8 --queries 32 --sigma-min 0.01 --sigma-max 80 \
  --out "$work/P.json" >/dev/null 2>&1
check "bound profile written" test -s "$work/P.bound.json"
"$cli" schedule --profile "$work/P.bound.json" --method infonoise --output "$work/S.json" >/dev/null 2>&1
check "InfoNoise schedule written" test -s "$work/S.json"
for tool in diffusers sd-scripts musubi-tuner onetrainer simpletuner ai-toolkit edm edm2 k-diffusion; do
  "$cli" fit "$work/S.json" --for "$tool" --json >"$work/F.$tool.json"
  check "fit --for $tool exits 0" test $? -eq 0
  check "$tool: fitted families with snippets and finite mismatches" python3 -c '
import json,math,sys
r=json.load(open(sys.argv[1]))
assert r["tool"]==sys.argv[2] and r["fits"], r
for f in r["fits"]:
    assert f["snippet"].strip(), f
    assert all(math.isfinite(f[k]) and f[k]>=0 for k in ("kl","kl_reverse","tv")), f
    assert f["tv"]<=1.0
' "$work/F.$tool.json" "$tool"
  out=$("$cli" fit "$work/S.json" --for "$tool")
  check "$tool: text output names the reachable sigma range" grep -q "^reachable sigma:" <<<"$out"
  check "$tool: text output names the model it assumed" grep -q "^$tool training " <<<"$out"
done
# --model: diffusers' SD3 scripts train x0 by default and have no weighting_scheme none.
"$cli" fit "$work/S.json" --for diffusers --model sd3 --json >"$work/F.sd3.json"
check "fit --model sd3 exits 0" test $? -eq 0
check "diffusers sd3: model said, no none, x0 flag in every snippet" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
assert r["model"]=="sd3", r["model"]
assert all(f["family"]!="none" for f in r["fits"]), [f["family"] for f in r["fits"]]
assert all("--precondition_outputs 1" in f["snippet"] for f in r["fits"])
' "$work/F.sd3.json"
# --loss-weighting: SDXL with min-SNR γ in sd-scripts fits γ and prints --min_snr_gamma.
"$cli" fit "$work/S.json" --for sd-scripts --model sdxl --loss-weighting min_snr_gamma --json \
  >"$work/F.snr.json"
check "fit --loss-weighting min_snr_gamma exits 0" test $? -eq 0
check "sd-scripts sdxl min_snr_gamma: every fit carries the flag" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
assert r["model"]=="sdxl" and r["coordinate"]=="ddpm-t", r
assert r["fits"] and all("--min_snr_gamma" in f["snippet"] for f in r["fits"]), r["fits"]
' "$work/F.snr.json"
"$cli" fit --profile "$work/P.bound.json" --method infonoise --for edm --json >"$work/F.profile.json"
check "profile + method gives the schedule file's fit" python3 -c '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
for x,y in zip(a["fits"],b["fits"]):
    assert x["family"]==y["family"] and abs(x["kl"]-y["kl"])<1e-9, (x,y)
    assert all(abs(x["params"][k]-y["params"][k])<1e-9 for k in x["params"])
' "$work/F.edm.json" "$work/F.profile.json"

# Bad input: exit 2, the flag or file named.
msg=$("$cli" fit "$work/missing.json" --for edm 2>&1)
check "missing target exits 2" test $? -eq 2
check "missing target named" grep -q "missing.json" <<<"$msg"
msg=$("$cli" fit "$work/S.json" --for kohya 2>&1)
check "unknown tool exits 2" test $? -eq 2
check "unknown tool names --for" grep -q -- "--for: unknown tool 'kohya'" <<<"$msg"
msg=$("$cli" fit "$work/S.json" --for musubi-tuner --model sd15 2>&1)
check "unknown model exits 2" test $? -eq 2
check "unknown model names --model and the tool's models" grep -q -- "--model: musubi-tuner is modelled for flux" <<<"$msg"
msg=$("$cli" fit "$work/S.json" --for diffusers --model sdxl --loss-weighting soft-min-snr 2>&1)
check "unknown loss weighting exits 2" test $? -eq 2
check "unknown loss weighting names the offered ones" grep -q -- "--loss-weighting: .*snr_gamma" <<<"$msg"
msg=$("$cli" fit --profile "$work/P.bound.json" --method wild --for edm 2>&1)
check "unknown method exits 2" test $? -eq 2
check "unknown method names --method" grep -q -- "--method" <<<"$msg"
msg=$("$cli" fit "$work/S.json" --for sd-scripts --resolution 1024 2>&1)
check "bad resolution exits 2" test $? -eq 2
check "bad resolution names --resolution" grep -q -- "--resolution" <<<"$msg"
msg=$("$cli" fit --for edm 2>&1)
check "no target exits 2" test $? -eq 2
# musubi-tuner's held timestep window: every snippet carries it; other tools and a reversed
# window are refused, naming --timestep-window.
out=$("$cli" fit "$work/S.json" --for musubi-tuner --timestep-window 875 1000 --preserve-distribution-shape)
check "--timestep-window is printed in the snippets" grep -q -- "--min_timestep 875 --max_timestep 1000 --preserve_distribution_shape" <<<"$out"
msg=$("$cli" fit "$work/S.json" --for diffusers --timestep-window 0 500 2>&1)
check "--timestep-window on another tool exits 2" test $? -eq 2
check "--timestep-window on another tool names the flag" grep -q -- "--timestep-window: diffusers has no held timestep window" <<<"$msg"
msg=$("$cli" fit "$work/S.json" --for musubi-tuner --timestep-window 900 100 2>&1)
check "a reversed --timestep-window exits 2" test $? -eq 2
check "a reversed --timestep-window names the flag" grep -q -- "--timestep-window: --min_timestep 900" <<<"$msg"

# fit --current without --model: the model named in the file is used and said; an unknown one is
# an error naming the key and value.
cat >"$work/chroma.json" <<'JSON'
{"model_type": "CHROMA_1", "timestep_distribution": "INVERTED_PARABOLA", "noising_weight": 7.7,
 "noising_bias": 0.0, "timestep_shift": 1.0}
JSON
out=$("$cli" fit "$work/S.json" --for onetrainer --current "$work/chroma.json")
check "fit --current exits 0" test $? -eq 0
check "fit --current says the model it read from the file" \
  grep -q "onetrainer training chroma (inferred from the file's model_type = CHROMA_1)" <<<"$out"
echo '{"model_type": "HUNYUAN_VIDEO", "timestep_shift": 1.0}' >"$work/video.json"
msg=$("$cli" fit "$work/S.json" --for onetrainer --current "$work/video.json" 2>&1)
check "unknown model_type exits 2" test $? -eq 2
check "unknown model_type named with --model" grep -q "model_type = HUNYUAN_VIDEO.*--model" <<<"$msg"
# A latent cache: sd-scripts caches SDXL latents raw (×0.13025 at training time). Read with
# --latents the profile is on the trainer's scale and says so; read as cached, fit says which
# caches that is right for; a cache of the wrong channel count is refused.
mkdir -p "$work/latents"
/usr/bin/python3 -c '
import numpy as np, sys
rng = np.random.default_rng(5)
for i in range(24):
    np.savez(sys.argv[1] + "/img%02d_0064x0064_sdxl.npz" % i,
             latents=(rng.standard_normal((4, 4, 4)) * 6).astype(np.float32),
             original_size=np.array([64, 64]), crop_ltrb=np.array([0, 0, 64, 64]))
' "$work/latents"
"$cli" diagnose "$work/latents" --latents sd-scripts:sdxl --kind empirical --levels 8 --queries 16 \
  --sigma-min 0.01 --sigma-max 80 --out "$work/L.json" >/dev/null 2>&1
check "diagnose --latents writes a profile" test -s "$work/L.json"
check "the profile records whose scale its latents are on" python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))["provenance"]["dataset"]
assert d["latents"]["normalised_for"]=="sd-scripts:sdxl", d
assert "0.13025" in d["latents"]["transform"], d
' "$work/L.json"
out=$("$cli" fit --profile "$work/L.json" --method infonoise --for sd-scripts --model sdxl)
check "fit names the matching latent scale" \
  grep -q "^latent scale: the profile's latents were put on the scale sd-scripts noises sdxl" <<<"$out"
"$cli" schedule --profile "$work/L.json" --method infonoise --output "$work/LS.json" >/dev/null 2>&1
out=$("$cli" fit "$work/LS.json" --for onetrainer --model sd3 --json)
check "a schedule built from it carries the scale to fit (and a wrong VAE is named)" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
assert "wrong scale" in r["latent_scale"], r.get("latent_scale")
' <(echo "$out")
"$cli" diagnose "$work/latents" --kind empirical --levels 8 --queries 16 --sigma-min 0.01 \
  --sigma-max 80 --out "$work/LC.json" >/dev/null 2>&1
out=$("$cli" fit --profile "$work/LC.json" --method infonoise --for sd-scripts --model sdxl)
check "as cached: fit says which caches hold raw latents" \
  grep -q "^latent scale: the profile's latents are as cached: .*raw (sd-scripts, onetrainer)" <<<"$out"
msg=$("$cli" info "$work/latents" --latents sd-scripts:flux 2>&1)
check "a 4-channel cache as flux latents exits 2" test $? -eq 2
check "... naming the channel count" grep -q "16-channel" <<<"$msg"
msg=$("$cli" info "$train" --latents sd-scripts:sdxl 2>&1)
check "--latents on an IDX file exits 2" test $? -eq 2
check "... saying it is not a latent cache" grep -q "not a latent cache" <<<"$msg"
finish
