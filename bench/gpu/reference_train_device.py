#!/usr/bin/env python3
"""bench/train/reference_train.py's eager PyTorch training loop, on a chosen device: the same networks
(imported from it), EDM preconditioning, loss, Adam, EMA and per-bin error statistics, placed the way
the C++ trainer places them (core/train/trainer.cpp: rows, uniforms and noise drawn with a CPU
generator, sigma/weight/bin computed on the host, the data set and the model on the device; the bin
sums and the loss come back to the host every step).

usage: reference_train_device.py {mlp,unet,conv1d} STEPS BATCH THREADS DEVICE [key=value ...]
Prints one JSON line: parameters, steps/s (after the first fifth of the steps).
"""
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "train"))
from reference_train import Conv1dNet, Mlp, UNet, denoise  # noqa: E402


def main():
    kind, steps, batch, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    device = torch.device(sys.argv[5])
    opts = dict(a.split("=", 1) for a in sys.argv[6:])
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    width, depth = int(opts.get("width", 256)), int(opts.get("depth", 3))
    channels, blocks, emb = int(opts.get("channels", 32)), int(opts.get("blocks", 4)), int(opts.get("embedding", 64))
    if kind == "mlp":
        shape = (2,)
        net = Mlp(2, width, depth, emb)
    elif kind == "unet":
        shape = (1, 28, 28)
        net = UNet(1, channels, emb)
    else:
        shape = (int(opts.get("length", 200)), 4)
        net = Conv1dNet(4, channels, blocks, emb)
    net = net.to(device)
    ema = [p.detach().clone() for p in net.parameters()]
    n = 4000
    data = torch.randn((n,) + shape).clamp(-1, 1)
    sd = float(data.std())
    data = data.to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
    K = 64
    lo, hi = math.log(0.002), math.log(80.0)
    params = list(net.parameters())
    start, timed_from = None, steps // 5
    for step in range(steps):
        if step == timed_from:
            if device.type == "cuda":
                torch.cuda.synchronize(device)
            start = time.perf_counter()
        gen = torch.Generator().manual_seed(step + 1)
        rows = torch.randint(n, (batch,), generator=gen)
        u = torch.rand(batch, generator=gen, dtype=torch.float64)
        ell = -1.2 + 1.2 * math.sqrt(2) * torch.erfinv(2 * u - 1)
        sigma64 = torch.exp(ell.clamp(lo, hi))
        w = ((sigma64 ** 2 + sd * sd) / (sigma64 * sd) ** 2).float().to(device)
        bins = ((ell.clamp(lo, hi) - lo) / (hi - lo) * K).long().clamp(0, K - 1).to(device)
        sigma = sigma64.float().to(device)
        noise = torch.randn((batch,) + shape, generator=gen).to(device)
        x0 = data.index_select(0, rows.to(device))
        y = x0 + sigma.view([batch] + [1] * len(shape)) * noise
        d = denoise(net, y, sigma, sd)
        err = (d - x0).pow(2).flatten(1).sum(1)
        loss = (w * err).mean() / float(np.prod(shape))
        opt.zero_grad()
        loss.backward()
        bin_sum = torch.zeros(K, device=device).index_add_(0, bins, err.detach())
        bin_count = torch.zeros(K, device=device).index_add_(0, bins, torch.ones_like(err))
        opt.step()
        with torch.no_grad():
            decay = min(0.999, (1 + step) / (10 + step))
            for e, p in zip(ema, params):
                e.mul_(decay).add_(p.detach(), alpha=1 - decay)
        bin_sum.double().cpu().numpy(), bin_count.double().cpu().numpy()
        loss.item()
    elapsed = time.perf_counter() - start
    print(json.dumps({"kind": kind, "parameters": sum(p.numel() for p in params),
                      "steps_per_s": (steps - timed_from) / elapsed, "batch": batch,
                      "threads": threads, "device": str(device)}))


if __name__ == "__main__":
    main()
