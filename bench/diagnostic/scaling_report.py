#!/usr/bin/env python3
"""Tables and the ImageNet-64 estimate of bench/diagnostic/SCALING.md from scaling.sh's output.

usage: scaling_report.py OUT_DIR
"""
import json
import math
import os
import sys

out = sys.argv[1]


def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None


gemm = load("gemm.json")
runs = {
    "1 rank, 1 thread": (load("one_rank.json"), load("one_rank.time")),
    "1 rank, 2 threads": (load("one_rank_2threads.json"), load("one_rank_2threads.time")),
    "2 ranks, 1 thread each": (load("two_ranks.json"), load("two_ranks_r0.time")),
}
base = runs["1 rank, 1 thread"][0]
N, D = base["dataset_size"], base["dimension"]
M, L = base["queries"], len(base["grid"]["sigma"]) if "grid" in base else None
if L is None:
    L = len(base["mmse"]["estimators"][0]["mean"])


def mean_curve(p):
    return p["mmse"]["estimators"][0]["mean"]


def max_rel(a, b):
    return max(abs(x - y) / max(abs(y), 1e-12) for x, y in zip(mean_curve(a), mean_curve(b)))


print(f"Full Fashion-MNIST train as the prior: N = {N}, D = {D}; M = {M} queries, L = {L} levels.")
print(f"Machine: {os.cpu_count()} cores; GEMM rates measured in this run (1 thread): "
      f"sgemm {gemm['sgemm_gflops']:.1f} GFLOP/s, dgemm {gemm['dgemm_gflops']:.1f} GFLOP/s.\n")
print("| run | wall s | speed-up | distance GEMMs s | per-level work s/level | collectives s | "
      "bytes to collectives per rank | per level | dgemm efficiency of the distance GEMMs | "
      "max rel. diff of MMSE vs 1 rank |")
print("|---|---|---|---|---|---|---|---|---|---|")
t1 = runs["1 rank, 1 thread"][1]["wall_s"]
for name, (p, t) in runs.items():
    if p is None:
        continue
    e = p["provenance"]["execution"]
    ranks = e.get("ranks", 1)
    rows = math.ceil(N / ranks)
    dist = e["seconds_distance_terms"]
    per_level = sum(e[k] for k in e if k.startswith("seconds_") and k not in (
        "seconds_distance_terms", "seconds_communicate", "seconds_read_tiles")) / L
    comm = e.get("seconds_communicate", 0.0)
    sent = e.get("communicated_bytes_rank0", 0)
    per = (sent - M * D * 4) / L if sent else 0
    flops = 2 * (2 * M) * rows * D
    threads = 2 if "2 threads" in name else 1
    eff = flops / dist / 1e9 / (gemm["dgemm_gflops"] * threads)
    diff = max_rel(p, base)
    print(f"| {name} | {t['wall_s']:.1f} | {t1 / t['wall_s']:.2f}× | {dist:.1f} | {per_level:.2f} | "
          f"{comm:.2f} | {sent / 1e6:.2f} MB | {per / 1e6:.3f} MB | {eff:.2f} | {diff:.1e} |")

two = runs["2 ranks, 1 thread each"][0]
if two:
    e = two["provenance"]["execution"]
    predicted = M * D * 4 + L * M * (D + 5) * 8 + 4 * 8
    print(f"\nCollective payload of rank 0, measured {e['communicated_bytes_rank0']} bytes; the cost "
          f"model M·D·4 (query points) + L·M·(D+5)·8 (per level: max, weights and moments, "
          f"spread) + 32 (counters) predicts {predicted} bytes.")
    dense = e["dense_steps"] / max(1, e["dense_steps"] + e["sparse_steps"] + e["one_hot_skips"])
    print(f"Share of (level, tile, chunk) steps on the dense path: {dense:.2f}; "
          f"sparse {e['sparse_steps']}, dense {e['dense_steps']}, one-hot skips {e['one_hot_skips']}.")

whole = load("whole_limited.exit")
streamed = load("streamed_limited.exit")
if whole and streamed:
    st = load("streamed_limited.time") or {}
    sp = load("streamed_limited.json")
    err = open(os.path.join(out, "whole_limited.err")).read().strip().splitlines()
    print("\n| out of core (address space limited with ulimit -v) | exit | wall s | peak RSS MiB | "
          "note |")
    print("|---|---|---|---|---|")
    print(f"| loaded whole | {whole['exit']} | – | – | {err[-1][:160] if err else ''} |")
    if sp:
        e = sp["provenance"]["execution"]
        tile = e["data_chunk"] * sp["dimension"] * 4 / 2**20
        print(f"| streamed, --memory 256 | {streamed['exit']} | {st.get('wall_s', 0):.1f} | "
              f"{st.get('max_rss_kib', 0) / 1024:.0f} | N = {sp['dataset_size']}, float32 size "
              f"{sp['dataset_size'] * sp['dimension'] * 4 / 2**30:.2f} GiB; one tile = "
              f"{tile:.0f} MiB; {e['prior_access']} |")

# ImageNet-64 on 8 GPUs, from the cost model and the measured shares above.
n, d, w, m, levels = 1281167, 12288, 8, 256, 64
rows = math.ceil(n / w)
fp64, fp32, eff = 67e12, 67e12, 0.6   # H100/H200-class FP64 tensor / FP32 peak; assumed efficiency
bus = 300e9                            # NCCL all-reduce bus bandwidth within one NVLink node
dense_share = dense if two else 1.0
distance_s = 2 * (2 * m) * rows * d / (fp64 * eff)
dense_s = levels * dense_share * 2 * m * rows * d / (fp32 * eff)
per_level_bytes = m * (d + 5) * 8
comm_s = levels * 2 * (w - 1) / w * per_level_bytes / bus
print(f"\nEstimate, ImageNet-64 (N = {n}, D = {d}) on {w} GPUs, M = {m}, L = {levels}: each rank "
      f"owns {rows} rows ({rows * d * 4 / 2**30:.1f} GiB as float32). Distance GEMMs "
      f"{2 * 2 * m * rows * d / 1e15:.2f} PFLOP per rank → {distance_s:.0f} s at {eff:.0%} of "
      f"{fp64 / 1e12:.0f} TFLOP/s FP64; dense-level GEMMs (share {dense_share:.2f} of levels, as "
      f"measured here) {dense_s:.0f} s in FP32; collectives {per_level_bytes / 1e6:.1f} MB per "
      f"level, {comm_s:.2f} s in all at {bus / 1e9:.0f} GB/s bus bandwidth. Total ≈ "
      f"{(distance_s + dense_s + comm_s) / 60:.1f} min, compute-bound; with every level dense "
      f"≈ {(distance_s + levels * 2 * m * rows * d / (fp32 * eff) + comm_s) / 60:.1f} min.")
