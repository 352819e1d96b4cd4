#!/usr/bin/python3
"""OnlineSampler under torch.distributed: two processes over Gloo on loopback.

    test_distributed.py WORK_DIR            (parent: starts both ranks, then checks)
    test_distributed.py WORK_DIR RANK PORT  (one rank)

Each rank draws its own batches from the shared π and observes its own errors. At every refresh
the bin statistics are summed over the ranks with exactly one all-reduce; π must then be identical
on both ranks and equal to the π of one process fed the combined stream.
"""
import datetime
import json
import os
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python"))
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from noisescope import OnlineSampler  # noqa: E402

SETTINGS = dict(method="infonoise", warmup_steps=20, refresh_every=10, min_bin_count=12, bins=32)
STEPS, BATCH, WORLD = 60, 48, 2


def error_of(sigma, gen):
    noise = torch.exp(0.3 * torch.randn(sigma.shape, generator=gen, dtype=torch.float64))
    return 8 * 0.25 * sigma ** 2 / (0.25 + sigma ** 2) * noise


def rank_main(work, rank, port):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=WORLD, timeout=datetime.timedelta(seconds=60))
    calls = []
    original = dist.all_reduce

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    dist.all_reduce = counting
    sampler = OnlineSampler(**SETTINGS, run_dir=os.path.join(work, "run"))
    stream, pis, due = [], [], 0
    for step in range(STEPS):
        gen = torch.Generator().manual_seed(1000 * rank + step)
        sigma, _ = sampler.sample(BATCH, generator=gen, dtype=torch.float64)
        error = error_of(sigma, gen)
        sampler.observe(sigma, error)
        stream.append({"sigma": sigma.tolist(), "error": error.tolist()})
        s = step + 1
        due += int(s >= SETTINGS["warmup_steps"] and (s - SETTINGS["warmup_steps"]) % SETTINGS["refresh_every"] == 0)
        if sampler.step():
            pis.append(sampler.pi)
    with open(os.path.join(work, f"rank{rank}.json"), "w", encoding="utf-8") as out:
        json.dump({"stream": stream, "pis": pis, "all_reduces": len(calls), "due": due}, out)
    dist.barrier()
    dist.destroy_process_group()


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parent_main(work):
    os.makedirs(work, exist_ok=True)
    port = free_port()
    env = dict(os.environ, OMP_NUM_THREADS="1")
    procs = [subprocess.Popen([sys.executable, __file__, work, str(r), str(port)], env=env) for r in range(WORLD)]
    try:
        codes = [p.wait(timeout=180) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    if codes != [0, 0]:
        sys.exit(f"FAIL: ranks exited with {codes}")
    ranks = []
    for r in range(WORLD):
        with open(os.path.join(work, f"rank{r}.json"), encoding="utf-8") as f:
            ranks.append(json.load(f))
    failures = []
    if ranks[0]["pis"] != ranks[1]["pis"]:
        failures.append("π differs between the ranks")
    if len(ranks[0]["pis"]) != 5:
        failures.append(f"expected 5 refreshes, saw {len(ranks[0]['pis'])}")
    for r, data in enumerate(ranks):
        if data["all_reduces"] != data["due"]:
            failures.append(f"rank {r}: {data['all_reduces']} all-reduces for {data['due']} refreshes")
    # One process, the combined stream: rank 0's batch and rank 1's batch at every step.
    single = OnlineSampler(**SETTINGS)
    pis = []
    for step in range(STEPS):
        for data in ranks:
            batch = data["stream"][step]
            single.observe(torch.tensor(batch["sigma"], dtype=torch.float64),
                           torch.tensor(batch["error"], dtype=torch.float64))
        if single.step():
            pis.append(single.pi)
    worst = max(abs(a - b) for p, q in zip(pis, ranks[0]["pis"]) for a, b in zip(p, q))
    if len(pis) != len(ranks[0]["pis"]) or worst > 1e-12:
        failures.append(f"single-process π differs (max |Δ| = {worst:.3g})")
    # Only rank 0 writes the run directory, and it holds the refreshes.
    with open(os.path.join(work, "run", "events.jsonl"), encoding="utf-8") as f:
        events = [json.loads(line) for line in f]
    refreshed = [e for e in events if e["event"] == "schedule" and e["refresh"] > 0]
    if len(refreshed) != 5 or events[0]["world_size"] != 2:
        failures.append("the run directory does not hold the 5 refreshes of a 2-process run")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)
    print(f"distributed: π identical on both ranks over {len(pis)} refreshes, "
          f"equal to one process on the combined stream (max |Δ| = {worst:.3g})")


if __name__ == "__main__":
    if len(sys.argv) == 4:
        rank_main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    else:
        parent_main(sys.argv[1])
