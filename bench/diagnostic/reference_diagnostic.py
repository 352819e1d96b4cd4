#!/usr/bin/python3
"""Plain PyTorch reference of the offline diagnostic (THEORY section 3), written the way a Python
user would: for every sigma level, cdist -> softmax -> matmul, in float32, on the whole dataset.

It draws the same queries as NoiseScope (torch CPU generator: randint then randn in float64 with
the same seed), so the two outputs can be compared level by level. Prints one JSON line with the
timing and writes the per-level estimates to --out.

    reference_diagnostic.py DATA.idx3-ubyte.gz --queries 256 --levels 64 --out ref.json
    reference_diagnostic.py CIFAR_FOLDER ...     # data_batch_*.bin (CIFAR-10 binary batches)
    [--held-out T10K.idx3-ubyte.gz]   # queries start from these points, not part of the prior
    [--level-subset 0,21,42,63]   # time only these levels (for extrapolation)
    [--device cuda]               # .item() at the end of each level waits for the GPU
"""
import argparse
import gzip
import json
import math
import os
import resource
import struct
import time

import numpy as np
import torch


def load_idx_images(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        magic, n, rows, cols = struct.unpack(">IIII", f.read(16))
        if magic != 0x00000803:
            raise SystemExit(f"{path}: not an IDX3 uint8 image file")
        pixels = np.frombuffer(f.read(n * rows * cols), dtype=np.uint8)
    values = pixels.reshape(n, rows * cols).astype(np.float32)
    # The same map to [-1, 1] as NoiseScope's reader: v * (1/127.5) - 1 in float32.
    return torch.from_numpy(values * np.float32(1.0 / 127.5) - np.float32(1.0))


def load_cifar_folder(path):
    """CIFAR-10 binary batches data_batch_*.bin of a folder, in name order, as NoiseScope reads them:
    each record is a label byte and 3 x 32 x 32 channel planes, mapped to [-1, 1]."""
    names = sorted(n for n in os.listdir(path) if n.startswith("data_batch_") and n.endswith(".bin"))
    if not names:
        raise SystemExit(f"{path}: holds no CIFAR batches (data_batch_*.bin)")
    record = 1 + 3 * 32 * 32
    parts = []
    for name in names:
        raw = np.fromfile(os.path.join(path, name), dtype=np.uint8)
        if raw.size % record:
            raise SystemExit(f"{path}/{name}: {raw.size} bytes, not a whole number of records")
        parts.append(raw.reshape(-1, record)[:, 1:])
    values = np.concatenate(parts).astype(np.float32)
    return torch.from_numpy(values * np.float32(1.0 / 127.5) - np.float32(1.0))


def load(path):
    return load_cifar_folder(path) if os.path.isdir(path) else load_idx_images(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset")
    parser.add_argument("--queries", type=int, default=256)
    parser.add_argument("--levels", type=int, default=64)
    parser.add_argument("--sigma-min", type=float, default=0.002)
    parser.add_argument("--sigma-max", type=float, default=80.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--level-subset", default="")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", default="")
    parser.add_argument("--held-out", default="", help="queries from these points (timing only)")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    x = load(args.dataset)
    n, d = x.shape
    source = load(args.held_out) if args.held_out else x
    if source.shape[1] != d:
        raise SystemExit(f"{args.held_out}: D = {source.shape[1]}, the prior has D = {d}")
    generator = torch.Generator().manual_seed(args.seed)
    index = torch.randint(source.shape[0], (args.queries,), generator=generator)
    noise = torch.randn(args.queries, d, generator=generator, dtype=torch.float64).float()
    sigmas = np.exp(np.linspace(math.log(args.sigma_min), math.log(args.sigma_max), args.levels))
    sigmas[0], sigmas[-1] = args.sigma_min, args.sigma_max
    levels = range(args.levels)
    if args.level_subset:
        levels = [int(v) for v in args.level_subset.split(",")]

    device = torch.device(args.device)
    x, index, noise = x.to(device), index.to(device), noise.to(device)
    x0 = source.to(device)[index]
    sq_norms = (x * x).sum(1)
    results = {}
    start = time.perf_counter()
    for level in levels:
        sigma = float(sigmas[level])
        y = x0 + sigma * noise
        d2 = torch.cdist(y, x) ** 2
        w = torch.softmax(-d2 / (2 * sigma * sigma), dim=1)
        mean = w @ x
        rao_blackwell = (w @ sq_norms) - (mean * mean).sum(1)
        direct = ((x0 - mean) ** 2).sum(1)
        entropy = torch.special.entr(w).sum(1)
        results[level] = {
            "sigma": sigma,
            "rao_blackwell": rao_blackwell.mean().item(),
            "direct": direct.mean().item(),
            "max_weight": w.max(1).values.mean().item(),
            "weight_entropy_nats": entropy.mean().item(),
            "effective_sample_size": (1.0 / (w * w).sum(1)).mean().item(),
        }
    wall = time.perf_counter() - start
    timed = len(results)
    report = {
        "N": n, "D": d, "queries": args.queries, "levels": args.levels,
        "held_out": args.held_out,
        "levels_timed": timed, "threads": args.threads,
        "wall_seconds_timed": wall,
        "wall_seconds_all_levels": wall * args.levels / timed,
        "extrapolated": timed != args.levels,
        "dense_equivalent_gflop": 4.0 * args.queries * n * d * timed / 1e9,
        "effective_gflops": 4.0 * args.queries * n * d * timed / wall / 1e9,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"report": report, "levels": {str(k): v for k, v in results.items()}}, f)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
