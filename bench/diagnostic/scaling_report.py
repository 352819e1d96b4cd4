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

# ImageNet-64 on 8 GPUs, from the cost model (docs/scaling.md) and the dense share measured above.
# Assumptions, stated in the output: H200-class GPUs at 60 % of 67 TFLOP/s (FP64 tensor cores, the
# distance GEMMs) and of 67 TFLOP/s (FP32, the weight GEMMs); NCCL all-reduce at 300 GB/s bus
# bandwidth inside one NVLink node; the set stored as uint8 [N, 64, 64, 3] .npy (15.7 GB), read at
# 0.75 GB/s per rank (one node's NVMe shared by 8 ranks): once when the shard fits --memory (it is
# then held, --stream auto), else once per query chunk of at most 256 (--stream on).
n, d, w, levels = 1281167, 12288, 8, 64
rows = math.ceil(n / w)
fp64 = fp32 = 67e12
eff, bus, read_bw = 0.6, 300e9, 0.75e9
dense_share = dense if two else 1.0
print(f"\n**Estimate: ImageNet-64 (N = {n}, D = {d}) on {w} GPUs, L = {levels} levels.** Each rank "
      f"owns {rows} rows: {rows * d / 1e9:.2f} GB as uint8 on disk, {rows * d * 4 / 2**30:.1f} GiB "
      f"as float32. Assumed: {eff:.0%} of {fp64 / 1e12:.0f} TFLOP/s FP64 and FP32, "
      f"{bus / 1e9:.0f} GB/s all-reduce bus bandwidth, {read_bw / 1e9:.2f} GB/s disk reads per "
      f"rank; dense-level share {dense_share:.2f} as measured above (the column 'every level dense' takes them all as dense).\n")
print("| queries M | distance GEMMs per rank | weight GEMMs per rank | reading the shard once "
      "(held in memory) | collectives (per level) | total | total, every level dense | "
      "reading it per query chunk instead (--stream on) |")
print("|---|---|---|---|---|---|---|---|")
bound = {}
for m in (256, 4096):
    chunks = math.ceil(m / 256)
    distance_s = 2 * (2 * m) * rows * d / (fp64 * eff)
    weight_flop = 2 * m * rows * d
    dense_s = levels * dense_share * weight_flop / (fp32 * eff)
    all_dense_s = levels * weight_flop / (fp32 * eff)
    read_s = rows * d / read_bw
    reread_s = chunks * rows * d / read_bw
    per_level = m * (d + 5) * 8
    comm_s = levels * 2 * (w - 1) / w * per_level / bus + m * d * 12 / bus
    total = distance_s + dense_s + read_s + comm_s
    parts = {"the distance GEMMs": distance_s, "the weight GEMMs": dense_s,
             "reading the shard": read_s, "the collectives": comm_s}
    bound[m] = max(parts, key=parts.get)
    print(f"| {m} | {distance_s:.1f} s | {dense_s:.1f} s | {read_s:.1f} s | "
          f"{comm_s:.2f} s ({per_level / 1e6:.0f} MB) | {total / 60:.1f} min | "
          f"{(total - dense_s + all_dense_s) / 60:.1f} min | {reread_s:.1f} s ({chunks} "
          f"pass{'es' if chunks > 1 else ''}) |")
print("\nThe collectives stay far below the compute and the reads: their size grows with M·D per "
      "level but not with N, while each rank's work falls as N/W. The largest part is "
      + "; ".join(f"{part} at M = {m}" for m, part in bound.items()) + ".")
