#!/usr/bin/python3
"""Summary of one bench/diagnostic/run.sh output folder: per dataset the wall times of each
alternation, the median NoiseScope-vs-reference ratio, the GEMM share of the dense steps' wall
time, and the achieved dense GEMM rate against the sgemm rate measured in the same process.
Prints a Markdown table and writes OUT_DIR/summary.json (read by check_ratio.py).

    summarize.py OUT_DIR
"""
import glob
import json
import os
import re
import statistics
import sys


def read(path):
    with open(path) as f:
        return json.load(f)


def dense_parts(execution):
    """(GEMM seconds, dense wall seconds, GEMM GFLOP) of one profile's execution record."""
    gemm = execution.get("seconds_dense_gemm", 0.0)
    wall = gemm + execution.get("seconds_dense_weights", 0.0)
    return gemm, wall, execution.get("dense_gemm_gflop", 0.0)


def pairs(out, name):
    """Alternations r = 1, 2, ... of ours_NAME_r.json and ref_NAME_r.json."""
    found = []
    for ours_path in sorted(glob.glob(os.path.join(out, f"ours_{name}_*.json"))):
        match = re.fullmatch(rf"ours_{name}_(\d+)\.json", os.path.basename(ours_path))
        if not match or not os.path.getsize(ours_path):  # a run still going has an empty file
            continue
        r = match.group(1)
        ref_path = os.path.join(out, f"ref_{name}_{r}.json")
        ours = read(ours_path)
        # A reference still running (or killed) has an empty file: no pair for that alternation.
        ref = read(ref_path) if os.path.exists(ref_path) and os.path.getsize(ref_path) else None
        found.append((int(r), ours, ref))
    return sorted(found, key=lambda t: t[0])


def summarize_case(out, name):
    rows = pairs(out, name)
    if not rows:
        return None
    case = {"runs": []}
    for r, ours, ref in rows:
        execution = ours["execution"]
        if "empirical" in execution:  # a bracket: both engine runs count
            parts = [dense_parts(execution["empirical"]), dense_parts(execution["held_out"])]
        else:
            parts = [dense_parts(execution)]
        gemm = sum(p[0] for p in parts)
        dense = sum(p[1] for p in parts)
        gflop = sum(p[2] for p in parts)
        run = {
            "alternation": r,
            "ours_seconds": ours["wall_seconds"],
            "sgemm_gflops": ours["sgemm_gflops"],
            "dense_seconds": dense,
            "gemm_seconds": gemm,
            "gemm_share": gemm / dense if dense > 0 else None,
            "gemm_gflops": gflop / gemm if gemm > 0 else None,
        }
        if ref:
            run["reference_seconds"] = ref["wall_seconds_all_levels"]
            run["reference_extrapolated"] = ref["extrapolated"]
            run["ratio"] = ref["wall_seconds_all_levels"] / ours["wall_seconds"]
        case["runs"].append(run)
    first = rows[0][1]
    case.update({"N": first["N"], "D": first["D"], "queries": first["queries"],
                 "levels": first["levels"], "kind": first.get("kind", "empirical")})

    def median(key):
        values = [run[key] for run in case["runs"] if run.get(key) is not None]
        return statistics.median(values) if values else None

    for key in ("ours_seconds", "reference_seconds", "ratio", "gemm_share", "gemm_gflops",
                "sgemm_gflops"):
        case["median_" + key] = median(key)
    if case["median_gemm_gflops"] and case["median_sgemm_gflops"]:
        case["gemm_rate_vs_sgemm"] = case["median_gemm_gflops"] / case["median_sgemm_gflops"]
    return case


def fmt(value, pattern):
    return "–" if value is None else pattern % value


def main():
    out = sys.argv[1]
    names = {"fmnist": "Fashion-MNIST", "cifar": "CIFAR-shaped", "heldout": "Fashion-MNIST held-out",
             "bracket": "Fashion-MNIST bracket"}
    summary = {}
    for key in names:
        case = summarize_case(out, key)
        if case:
            summary[key] = case
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("| case | N × D | NoiseScope s (median) | reference s (median) | ratio (median; per run) "
          "| GEMM share of dense wall | dense GEMM GFLOP/s | sgemm GFLOP/s (same run) |")
    print("|---|---|---|---|---|---|---|---|")
    for key, case in summary.items():
        per_run = ", ".join(fmt(run.get("ratio"), "%.2f") for run in case["runs"])
        extrapolated = any(run.get("reference_extrapolated") for run in case["runs"])
        print(f"| {names[key]} ({case['kind']}) | {case['N']} × {case['D']} "
              f"| {fmt(case['median_ours_seconds'], '%.1f')} "
              f"| {fmt(case['median_reference_seconds'], '%.1f')}{' (extrapolated)' if extrapolated else ''} "
              f"| **{fmt(case['median_ratio'], '%.2f')}×** ({per_run}) "
              f"| {fmt(case['median_gemm_share'] and 100 * case['median_gemm_share'], '%.0f')} % "
              f"| {fmt(case['median_gemm_gflops'], '%.0f')} "
              f"| {fmt(case['median_sgemm_gflops'], '%.0f')} |")


if __name__ == "__main__":
    main()
