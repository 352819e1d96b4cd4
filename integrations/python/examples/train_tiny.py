#!/usr/bin/env python3
"""A plain PyTorch training loop with NoiseScope's online sampler, writing a run directory that
the workbench's Training tab follows live (Open run…).

    python3 train_tiny.py --out runs/tiny --steps 2000 --method infonoise

The data are 2-D points on two interleaved half circles; the model is a small MLP denoiser with
EDM's preconditioning (THEORY §4). Nothing here is specific to NoiseScope except the four sampler
calls marked below.
"""
import argparse
import math
import os
import sys

import torch

try:
    import noisescope  # installed with pip install ./integrations/python
except ImportError:  # run from a source checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import noisescope
from noisescope import OnlineSampler, measure_sigma_data


def two_moons(n, generator):
    t = torch.rand(n, generator=generator) * math.pi
    upper = torch.rand(n, generator=generator) < 0.5
    x = torch.where(upper, torch.cos(t), 1.0 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    points = torch.stack([x - 0.5, y - 0.25], 1)
    return points + 0.05 * torch.randn(n, 2, generator=generator)


class Denoiser(torch.nn.Module):
    """D(x; σ) = c_skip·x + c_out·F(c_in·x, ¼ log σ) with a residual SiLU MLP for F."""

    def __init__(self, sigma_data, width=64):
        super().__init__()
        self.sigma_data = sigma_data
        self.inp = torch.nn.Linear(2 + 16, width)
        self.hidden = torch.nn.ModuleList([torch.nn.Linear(width, width) for _ in range(2)])
        self.out = torch.nn.Linear(width, 2)
        self.register_buffer("freq", torch.logspace(0, 2, 8))

    def forward(self, x, sigma):
        sd, s = self.sigma_data, sigma.view(-1, 1)
        c_in, c_skip = 1 / torch.sqrt(s ** 2 + sd ** 2), sd ** 2 / (s ** 2 + sd ** 2)
        c_out = s * sd / torch.sqrt(s ** 2 + sd ** 2)
        angle = 0.25 * torch.log(s) * self.freq
        h = torch.nn.functional.silu(self.inp(torch.cat([c_in * x, angle.sin(), angle.cos()], 1)))
        for layer in self.hidden:
            h = h + torch.nn.functional.silu(layer(h))
        return c_skip * x + c_out * self.out(h)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="run directory to write")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--method", default="infonoise", choices=["infonoise", "sqrt-entropy"])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--refresh", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(min(2, torch.get_num_threads()))
    gen = torch.Generator().manual_seed(args.seed)
    data = two_moons(20000, gen)
    sigma_data = measure_sigma_data(data)
    model = Denoiser(sigma_data)
    optimiser = torch.optim.Adam(model.parameters(), lr=2e-3)

    # (1) the sampler, with the run directory the workbench follows
    sampler = OnlineSampler(method=args.method, bins=48, warmup_steps=args.warmup,
                            refresh_every=args.refresh, loss_weight="edm", sigma_data=sigma_data,
                            run_dir=args.out, total_steps=args.steps,
                            run_info={"network": "mlp", "device": "cpu", "train_samples": len(data),
                                      "parameters": sum(p.numel() for p in model.parameters())})
    for step in range(args.steps):
        x0 = data[torch.randint(len(data), (args.batch,), generator=gen)]
        # (2) σ and its loss weight from the current π
        sigma, weight = sampler.sample(args.batch, generator=gen)
        denoised = model(x0 + sigma.view(-1, 1) * torch.randn(x0.shape, generator=gen), sigma)
        error = (denoised - x0).pow(2).sum(1)  # unweighted x0 error per sample
        loss = (weight * error).mean() / x0.shape[1]
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        # (3) the statistics, then one step (π is rebuilt every `refresh` steps after the warm-up)
        sampler.observe(sigma, error.detach())
        sampler.step()
        if (step + 1) % 25 == 0 or step + 1 == args.steps:
            # (4) a loss event for the charts
            sampler.log(loss=loss.item(), lr=optimiser.param_groups[0]["lr"])
    torch.save({"model": model.state_dict(), "sampler": sampler.state_dict()},
               os.path.join(args.out, "checkpoint.pt"))
    sampler.finish()
    print(f"train_tiny: {args.steps} steps, {sampler.refreshes} refreshes, run in {args.out} "
          f"(noisescope {noisescope.__version__})")


if __name__ == "__main__":
    main()
