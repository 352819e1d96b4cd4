#!/usr/bin/python3
"""Warns when a benchmark run's NoiseScope-vs-reference ratio is more than 10 % worse than the one
recorded in RESULTS.md (its line "recorded ratios: fmnist=… cifar=…"). Exit status 0 when every
recorded case is within 10 %, 3 when one is worse (with a WARNING line per case), 2 on bad input.

    check_ratio.py OUT_DIR/summary.json [bench/diagnostic/RESULTS.md] [--tolerance 0.10]
"""
import argparse
import json
import os
import re
import sys


def recorded(path):
    with open(path) as f:
        text = f.read()
    match = re.search(r"recorded ratios:((?:\s+\w+=[0-9.]+)+)", text)
    if not match:
        raise SystemExit(f"{path}: no line 'recorded ratios: NAME=RATIO ...'")
    return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", match.group(1))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("summary")
    parser.add_argument("results", nargs="?",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md"))
    parser.add_argument("--tolerance", type=float, default=0.10)
    args = parser.parse_args()
    try:
        with open(args.summary) as f:
            summary = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"error: {args.summary}: {e}", file=sys.stderr)
        return 2
    worse = False
    for name, want in recorded(args.results).items():
        case = summary.get(name)
        if not case or case.get("median_ratio") is None:
            print(f"error: {args.summary}: no ratio for '{name}'", file=sys.stderr)
            return 2
        got = case["median_ratio"]
        floor = want * (1.0 - args.tolerance)
        status = "ok"
        if got < floor:
            status = "WARNING"
            worse = True
        print(f"{status}: {name}: ratio {got:.2f} (recorded {want:.2f}, warn below {floor:.2f})")
    return 3 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
