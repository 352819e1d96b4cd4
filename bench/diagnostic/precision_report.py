#!/usr/bin/python3
"""The table of bench/diagnostic/precision.sh's runs: per dataset and distance precision, the
median wall and distance-term seconds, the share of (query, tile) rows that ran float32, the
proven bound on a float32 logit, and the largest difference of the Rao-Blackwellised MMSE from
the float64 run of the same repeat (relative where MMSE > 1e-3 of its largest, and in float64's
standard errors everywhere).

    precision_report.py OUT_DIR
"""
import glob
import json
import os
import re
import statistics
import sys


def rao_blackwell(profile_path):
    profile = json.load(open(profile_path))
    for estimator in profile["mmse"]["estimators"]:
        if estimator["name"] == "rao_blackwell":
            return estimator["mean"], estimator["standard_error"]
    raise SystemExit(profile_path + ": no rao_blackwell estimator")


def main():
    out = sys.argv[1]
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "*_*_*.json"))):
        match = re.fullmatch(r"(\w+?)_(float64|auto|float32)_(\d+)\.json", os.path.basename(path))
        if not match:
            continue
        name, precision, repeat = match.groups()
        runs.setdefault((name, precision), []).append((int(repeat), json.load(open(path))))
    print("| set | precision | wall s (median) | distance terms s (median) | float32 rows | "
          "proven logit bound δ | MMSE vs float64: worst relative | in standard errors |")
    print("|---|---|---|---|---|---|---|---|")
    for (name, precision) in sorted(runs, key=lambda k: (k[0], ["float64", "auto", "float32"].index(k[1]))):
        records = runs[(name, precision)]
        wall = statistics.median(r["wall_seconds"] for _, r in records)
        terms = statistics.median(r["execution"]["seconds_distance_terms"] for _, r in records)
        f32 = sum(r["execution"]["float32_distance_rows"] for _, r in records)
        f64 = sum(r["execution"]["float64_distance_rows"] for _, r in records)
        bound = max(r["execution"]["distance_logit_error_bound"] for _, r in records)
        worst_rel, worst_se = 0.0, 0.0
        for repeat, _ in records:
            exact, se = rao_blackwell(os.path.join(out, "%s_float64_%d.profile.json" % (name, repeat)))
            mine, _ = rao_blackwell(os.path.join(out, "%s_%s_%d.profile.json" % (name, precision, repeat)))
            largest = max(exact)
            for a, b, s in zip(mine, exact, se):
                if b > 1e-3 * largest:
                    worst_rel = max(worst_rel, abs(a - b) / b)
                if s > 0:
                    worst_se = max(worst_se, abs(a - b) / s)
        print("| %s | %s | %.1f | %.2f | %.1f %% | %.3g | %.2g | %.2g |" % (
            name, precision, wall, terms, 100.0 * f32 / max(f32 + f64, 1), bound, worst_rel,
            worst_se))


if __name__ == "__main__":
    main()
