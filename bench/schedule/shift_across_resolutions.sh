#!/usr/bin/env bash
# Issue 20 (5): the flow shift the same images need at several resolutions. The bundled
# Fashion-MNIST images are written as 28×28 PNGs; the image-folder reader resizes them to each
# resolution (area average down, bilinear up); each is profiled (the quick bracket of
# docs/trainers.md), InfoNoise is built from its bound, and sd-scripts' `shift` family is fitted.
# Prints one line per resolution: the fitted discrete_flow_shift and sigmoid_scale with the
# mismatch, beside Flux's rule read with one token per pixel. Results: docs/trainers.md.
#   bench/schedule/shift_across_resolutions.sh [BUILD_DIR] [WORK_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${1:-$root/build}/app/noisescope-cli"
work="${2:-$(mktemp -d)}"
/usr/bin/python3 "$root/bench/schedule/fmnist_pngs.py" \
  "$root/sample_data/fashion-mnist/train-images-idx3-ubyte.gz" "$work/pngs" 2000
for r in 14 28 56; do
  "$cli" diagnose "$work/pngs" --width "$r" --height "$r" --kind bracket --levels 8 --queries 32 \
    --sigma-min 0.01 --sigma-max 80 --out "$work/P$r.json" >/dev/null 2>&1
  "$cli" schedule --profile "$work/P$r.bound.json" --method infonoise --output "$work/S$r.json" \
    >/dev/null 2>&1
  "$cli" fit "$work/S$r.json" --for sd-scripts --json >"$work/fit$r.json"
done
/usr/bin/python3 - "$work" <<'PY'
import json, math, sys
work = sys.argv[1]
def flux_mu(tokens):  # Flux's rule: linear from (256, 0.5) to (4096, 1.15)
    return 0.5 + (1.15 - 0.5) / (4096 - 256) * (tokens - 256)
fits = {r: next(f for f in json.load(open('%s/fit%d.json' % (work, r)))['fits']
                if f['family'] == 'shift') for r in (14, 28, 56)}
base = fits[28]['params']['discrete_flow_shift']
# SD3's rule (Esser et al. 2024, §5.3.2): the shift grows as sqrt(pixel count), here r/28 from 28.
print('res  fitted shift  sigmoid_scale  KL(t||f)  TV      SD3 rule from 28  Flux e^mu (r*r tokens)')
for r, fit in fits.items():
    print('%3d  %12.3f  %13.3f  %8.4f  %.4f  %16.3f  %.3f' % (
        r, fit['params']['discrete_flow_shift'], fit['params']['sigmoid_scale'], fit['kl'],
        fit['tv'], base * r / 28, math.exp(flux_mu(r * r))))
PY
