#!/usr/bin/env python3
"""GEMM rates of this machine's PyTorch, measured in the same run as the benchmarks (bench/gpu/run.sh):
square fp32 with TF32 off (plain fp32), TF32 on, fp64 and bf16, plus the diagnostic's own shapes
(M queries x D times D x N points) in fp32 and fp64. Prints one JSON object, rates in TFLOP/s.

    gemm_rate.py --device cuda [--size 8192] [--shape M,D,N ...]
"""
import argparse
import json
import time

import torch


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def rate(m, k, n, dtype, device, tf32=False, seconds=0.5):
    """Best of three timed batches of m x k times k x n products, in TFLOP/s."""
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(m, k, dtype=dtype, device=device)
    b = torch.randn(k, n, dtype=dtype, device=device)
    c = a @ b  # warm-up: cuBLAS handles, kernel selection
    sync(device)
    start = time.perf_counter()
    c = a @ b
    sync(device)
    once = max(time.perf_counter() - start, 1e-6)
    reps = max(1, min(200, int(seconds / once)))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(reps):
            c = a @ b
        sync(device)
        best = min(best, (time.perf_counter() - start) / reps)
    del a, b, c
    return 2.0 * m * k * n / best / 1e12


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--size", type=int, default=0, help="square size (default 8192 on a GPU, 1024 on the CPU)")
    parser.add_argument("--shape", action="append", default=[], help="M,D,N of a diagnostic GEMM")
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    device = torch.device(args.device)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    size = args.size or (8192 if device.type == "cuda" else 1024)
    out = {"torch": torch.__version__, "device": str(device), "square_size": size,
           "threads": torch.get_num_threads()}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        out["gpu"] = props.name
        out["gpu_memory_gib"] = round(props.total_memory / 2**30, 1)
        out["cuda"] = torch.version.cuda
    out["square_tflops"] = {
        "fp32": rate(size, size, size, torch.float32, device, tf32=False),
        "fp64": rate(size, size, size, torch.float64, device),
    }
    if device.type == "cuda":
        out["square_tflops"]["tf32"] = rate(size, size, size, torch.float32, device, tf32=True)
        out["square_tflops"]["bf16"] = rate(size, size, size, torch.bfloat16, device)
    out["diagnostic_shapes_tflops"] = {}
    for shape in args.shape:
        m, k, n = (int(v) for v in shape.split(","))
        out["diagnostic_shapes_tflops"][shape] = {
            "fp32": rate(m, k, n, torch.float32, device, tf32=False),
            "fp64": rate(m, k, n, torch.float64, device),
        }
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
    print(json.dumps(out))


if __name__ == "__main__":
    main()
