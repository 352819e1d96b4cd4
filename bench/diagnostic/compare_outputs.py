#!/usr/bin/python3
"""Agreement between NoiseScope's profile and the PyTorch reference on the levels the reference
ran: relative differences of the Rao-Blackwellised and direct MMSE and of the posterior
statistics, and the MMSE difference in units of NoiseScope's standard error.

    compare_outputs.py ours_profile.json reference.json
"""
import json
import sys


def main():
    ours = json.load(open(sys.argv[1]))
    ref = json.load(open(sys.argv[2]))
    estimators = {e["name"]: e for e in ours["mmse"]["estimators"]}
    posterior = ours["posterior"]
    largest = max(estimators["rao_blackwell"]["mean"])
    rows = []
    worst = {}
    for key, level in sorted(ref["levels"].items(), key=lambda kv: int(kv[0])):
        l = int(key)
        row = {"level": l, "sigma": level["sigma"]}
        for name in ("rao_blackwell", "direct"):
            a, b = estimators[name]["mean"][l], level[name]
            se = estimators[name]["standard_error"][l]
            row[name] = (a, b)
            if a > 1e-3 * largest:  # relative differences only where MMSE is not ~0
                worst[name + "_rel"] = max(worst.get(name + "_rel", 0.0), abs(a - b) / abs(a))
            else:
                worst[name + "_abs_small"] = max(worst.get(name + "_abs_small", 0.0), abs(a - b))
            if se > 0:
                worst[name + "_in_se"] = max(worst.get(name + "_in_se", 0.0), abs(a - b) / se)
        for ours_key, ref_key in (("max_weight", "max_weight"),
                                  ("weight_entropy_nats", "weight_entropy_nats"),
                                  ("effective_sample_size", "effective_sample_size")):
            a, b = posterior[ours_key][l], level[ref_key]
            worst[ours_key + "_abs"] = max(worst.get(ours_key + "_abs", 0.0), abs(a - b))
            worst[ours_key + "_rel"] = max(worst.get(ours_key + "_rel", 0.0),
                                           abs(a - b) / max(abs(a), 1e-12))
        rows.append(row)
    print(json.dumps({"levels_compared": len(rows), "worst": worst}))
    for row in rows:
        print("  level %3d sigma %9.4g  RB ours %.6g ref %.6g   direct ours %.6g ref %.6g" % (
            row["level"], row["sigma"], *row["rao_blackwell"], *row["direct"]))


if __name__ == "__main__":
    main()
