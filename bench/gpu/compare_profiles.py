#!/usr/bin/env python3
"""Agreement of two NoiseScope empirical profiles of the same data, queries and sigma grid (say one
computed on the GPU and one on the CPU): per level, the Rao-Blackwellised and direct MMSE (relative
difference where MMSE > 1e-3 of its largest value, absolute below; and in units of the standard
error) and the posterior statistics. Prints one JSON line, then one line per level.

    compare_profiles.py A.profile.json B.profile.json

Exits 1 when the two were not run on the same grid and queries (nothing to compare), 0 otherwise:
judging the differences is left to the reader of the numbers.
"""
import json
import sys


def main():
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    sigma_a, sigma_b = a["grid"]["sigma"], b["grid"]["sigma"]
    if len(sigma_a) != len(sigma_b) or a["provenance"].get("seed") != b["provenance"].get("seed") or \
            a["provenance"]["parameters"]["queries"] != b["provenance"]["parameters"]["queries"]:
        print(json.dumps({"error": "the profiles differ in grid, seed or query count"}))
        return 1
    est_a = {e["name"]: e for e in a["mmse"]["estimators"]}
    est_b = {e["name"]: e for e in b["mmse"]["estimators"]}
    worst = {}

    def note(key, value):
        worst[key] = max(worst.get(key, 0.0), value)

    lines = []
    for name in ("rao_blackwell", "direct"):
        mean_a, mean_b = est_a[name]["mean"], est_b[name]["mean"]
        se = est_a[name]["standard_error"]
        largest = max(mean_a)
        for level, (x, y) in enumerate(zip(mean_a, mean_b)):
            if x > 1e-3 * largest:
                note(name + "_rel", abs(x - y) / abs(x))
            else:
                note(name + "_abs_small", abs(x - y))
            if se[level] > 0:
                note(name + "_in_se", abs(x - y) / se[level])
    for key in ("max_weight", "weight_entropy_nats", "effective_sample_size"):
        for x, y in zip(a["posterior"][key], b["posterior"][key]):
            note(key + "_abs", abs(x - y))
            note(key + "_rel", abs(x - y) / max(abs(x), 1e-12))
    for level, s in enumerate(sigma_a):
        lines.append("  level %3d sigma %9.4g  RB %.9g vs %.9g   direct %.9g vs %.9g" % (
            level, s, est_a["rao_blackwell"]["mean"][level], est_b["rao_blackwell"]["mean"][level],
            est_a["direct"]["mean"][level], est_b["direct"]["mean"][level]))
    print(json.dumps({"levels_compared": len(sigma_a),
                      "devices": [a["provenance"].get("device"), b["provenance"].get("device")],
                      "worst": worst}))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
