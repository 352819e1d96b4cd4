#!/usr/bin/env python3
"""The PyTorch reference for bench/train/run.sh: the same networks as core/train/networks.cpp
(layer for layer, same parameter count), the same EDM preconditioning, loss, Adam, EMA and
per-bin error statistics as the C++ trainer's step, in an ordinary eager PyTorch loop.

usage: reference_train.py {mlp,unet,conv1d} STEPS BATCH THREADS [options as key=value]
Prints one JSON line: parameters, steps/s (after the first fifth of the steps)."""
import json
import math
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoiseEmbedding(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.register_buffer("frequencies", torch.exp(torch.linspace(0.0, math.log(100.0), size // 2)))
        self.fc1 = nn.Linear(size, size)
        self.fc2 = nn.Linear(size, size)

    def forward(self, c_noise):
        angles = c_noise[:, None] * self.frequencies[None, :]
        e = torch.cat([torch.cos(angles), torch.sin(angles)], 1)
        return self.fc2(F.silu(self.fc1(e)))


class Mlp(nn.Module):
    def __init__(self, dim, width, depth, emb):
        super().__init__()
        self.embed = NoiseEmbedding(emb)
        self.input = nn.Linear(dim + emb, width)
        self.hidden = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.inject = nn.ModuleList([nn.Linear(emb, width) for _ in range(depth)])
        self.output = nn.Linear(width, dim)

    def forward(self, x, c_noise):
        e = self.embed(c_noise)
        h = F.silu(self.input(torch.cat([x.flatten(1), e], 1)))
        for layer, inj in zip(self.hidden, self.inject):
            h = h + F.silu(layer(h) + inj(e))
        return self.output(h).view(x.shape)


def groups(c):
    return math.gcd(8, c)


class ResBlock(nn.Module):
    def __init__(self, conv, cin, cout, emb, kernel, dilation):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups(cin), cin)
        self.conv1 = conv(cin, cout, kernel, padding=dilation * (kernel // 2), dilation=dilation)
        self.emb = nn.Linear(emb, cout)
        self.norm2 = nn.GroupNorm(groups(cout), cout)
        self.conv2 = conv(cout, cout, kernel, padding=kernel // 2)
        self.skip = conv(cin, cout, 1) if cin != cout else None

    def forward(self, x, e):
        h = self.conv1(F.silu(self.norm1(x)))
        b = self.emb(e)
        while b.dim() < h.dim():
            b = b.unsqueeze(-1)
        h = self.conv2(F.silu(self.norm2(h + b)))
        return h + (self.skip(x) if self.skip is not None else x)


class UNet(nn.Module):
    def __init__(self, cin, c, emb):
        super().__init__()
        self.embed = NoiseEmbedding(emb)
        self.stem = nn.Conv2d(cin, c, 3, padding=1)
        self.down0 = ResBlock(nn.Conv2d, c, c, emb, 3, 1)
        self.down1 = ResBlock(nn.Conv2d, c, 2 * c, emb, 3, 1)
        self.mid = ResBlock(nn.Conv2d, 2 * c, 2 * c, emb, 3, 1)
        self.up1 = ResBlock(nn.Conv2d, 4 * c, 2 * c, emb, 3, 1)
        self.up0 = ResBlock(nn.Conv2d, 3 * c, c, emb, 3, 1)
        self.out_norm = nn.GroupNorm(groups(c), c)
        self.out = nn.Conv2d(c, cin, 3, padding=1)

    @staticmethod
    def pool(h):
        return h.view(h.size(0), h.size(1), h.size(2) // 2, 2, h.size(3) // 2, 2).mean([3, 5])

    @staticmethod
    def up(h):
        return h.repeat_interleave(2, 2).repeat_interleave(2, 3)

    def forward(self, x, c_noise):
        e = self.embed(c_noise)
        h0 = self.down0(self.stem(x), e)
        h1 = self.down1(self.pool(h0), e)
        h = self.mid(self.pool(h1), e)
        h = self.up1(torch.cat([self.up(h), h1], 1), e)
        h = self.up0(torch.cat([self.up(h), h0], 1), e)
        return self.out(F.silu(self.out_norm(h)))


class Conv1dNet(nn.Module):
    def __init__(self, alphabet, c, blocks, emb):
        super().__init__()
        self.embed = NoiseEmbedding(emb)
        self.stem = nn.Conv1d(alphabet, c, 5, padding=2)
        self.blocks = nn.ModuleList([ResBlock(nn.Conv1d, c, c, emb, 5, 2 ** (i % 4)) for i in range(blocks)])
        self.out_norm = nn.GroupNorm(groups(c), c)
        self.out = nn.Conv1d(c, alphabet, 1)

    def forward(self, x, c_noise):
        e = self.embed(c_noise)
        h = self.stem(x.transpose(1, 2))
        for b in self.blocks:
            h = b(h, e)
        return self.out(F.silu(self.out_norm(h))).transpose(1, 2)


def denoise(net, x, sigma, sd):
    shape = [x.shape[0]] + [1] * (x.dim() - 1)
    s2 = sigma * sigma + sd * sd
    c_skip = (sd * sd / s2).view(shape)
    c_out = (sigma * sd / torch.sqrt(s2)).view(shape)
    c_in = torch.rsqrt(s2).view(shape)
    return c_skip * x + c_out * net(c_in * x, 0.25 * torch.log(sigma))


def main():
    kind, steps, batch, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    opts = dict(a.split("=", 1) for a in sys.argv[5:])
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
    ema = [p.detach().clone() for p in net.parameters()]
    # Data with the statistics of the benchmark's data (values in [-1, 1]); what is timed is the step.
    n = 4000
    data = torch.randn((n,) + shape).clamp(-1, 1)
    sd = float(data.std())
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
    K = 64
    lo, hi = math.log(0.002), math.log(80.0)
    params = list(net.parameters())
    start, timed_from = None, steps // 5
    for step in range(steps):
        if step == timed_from:
            start = time.perf_counter()
        gen = torch.Generator().manual_seed(step + 1)
        rows = torch.randint(n, (batch,), generator=gen)
        u = torch.rand(batch, generator=gen, dtype=torch.float64)
        ell = -1.2 + 1.2 * math.sqrt(2) * torch.erfinv(2 * u - 1)
        sigma64 = torch.exp(ell.clamp(lo, hi))
        w = ((sigma64 ** 2 + sd * sd) / (sigma64 * sd) ** 2).float()
        bins = ((ell.clamp(lo, hi) - lo) / (hi - lo) * K).long().clamp(0, K - 1)
        sigma = sigma64.float()
        noise = torch.randn((batch,) + shape, generator=gen)
        x0 = data.index_select(0, rows)
        y = x0 + sigma.view([batch] + [1] * len(shape)) * noise
        d = denoise(net, y, sigma, sd)
        err = (d - x0).pow(2).flatten(1).sum(1)
        loss = (w * err).mean() / float(np.prod(shape))
        opt.zero_grad()
        loss.backward()
        bin_sum = torch.zeros(K).index_add_(0, bins, err.detach())
        bin_count = torch.zeros(K).index_add_(0, bins, torch.ones_like(err))
        opt.step()
        with torch.no_grad():
            decay = min(0.999, (1 + step) / (10 + step))
            for e, p in zip(ema, params):
                e.mul_(decay).add_(p.detach(), alpha=1 - decay)
        bin_sum.double().numpy(), bin_count.double().numpy()
        loss.item()
    elapsed = time.perf_counter() - start
    print(json.dumps({"kind": kind, "parameters": sum(p.numel() for p in params),
                      "steps_per_s": (steps - timed_from) / elapsed, "batch": batch, "threads": threads}))


if __name__ == "__main__":
    main()
