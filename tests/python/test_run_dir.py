#!/usr/bin/python3
"""The run-directory bridge: config.json and events.jsonl in the C++ trainer's schema
(docs/training.md), append-only, a killed writer leaves a readable file, resume drops the events
after the resumed step."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python")
sys.path.insert(0, PACKAGE)
import torch  # noqa: E402

from noisescope import OnlineSampler  # noqa: E402

# Fields the workbench's reader (core/io/run_events.cpp) requires, per event.
REQUIRED = {
    "start": ["steps", "world_size", "device", "network", "parameters", "sigma_data", "discrete",
              "train_samples", "test_samples", "test", "bins"],
    "train": ["loss", "lr", "samples_per_s", "steps_per_s", "bin_error", "bin_count"],
    "schedule": ["sampler", "refresh", "log_sigma_edges", "sigma", "pi"],
    "end": ["seconds"],
}


def strict_json(line):
    def refuse(token):
        raise ValueError(f"non-JSON number {token}")
    return json.loads(line, parse_constant=refuse)


def run_steps(sampler, steps, gen, log_every=5):
    for _ in range(steps):
        sigma, _ = sampler.sample(64, generator=gen)
        error = 8 * sigma.double() ** 2 / (1 + sigma.double() ** 2)
        sampler.observe(sigma, error)
        sampler.step()
        if sampler.steps_done % log_every == 0:
            sampler.log(loss=float(error.mean()), lr=1e-3, grad_norm=torch.tensor(0.5))


def read_events(path):
    with open(os.path.join(path, "events.jsonl"), encoding="utf-8") as f:
        return [strict_json(line) for line in f]


class RunDirectory(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run = os.path.join(self.tmp.name, "run")

    def tearDown(self):
        self.tmp.cleanup()

    def test_events_in_the_trainers_schema(self):
        sampler = OnlineSampler(warmup_steps=10, refresh_every=10, min_bin_count=4, bins=24,
                                run_dir=self.run, total_steps=40, run_info={"network": "unet", "parameters": 123})
        run_steps(sampler, 40, torch.Generator().manual_seed(0))
        sampler.log(loss=float("nan"))  # not finite: written as null, the line stays valid JSON
        sampler.finish()
        events = read_events(self.run)
        self.assertEqual(events[0]["event"], "start")
        self.assertEqual(events[-1]["event"], "end")
        for e in events:
            self.assertIsInstance(e["step"], int)
            self.assertIsInstance(e["time"], float)
            for key in REQUIRED.get(e["event"], []):
                self.assertIn(key, e, f"{e['event']} lacks {key}")
        self.assertEqual(events[0]["network"], {"kind": "unet"})
        self.assertEqual(events[0]["parameters"], 123)
        self.assertEqual(events[0]["loss_weight"]["label"], "EDM (σ_d = 0.5)")  # as the trainer's
        schedules = [e for e in events if e["event"] == "schedule"]
        self.assertEqual([e["refresh"] for e in schedules], [0, 1, 2, 3, 4])
        self.assertEqual([e["step"] for e in schedules], [0, 10, 20, 30, 40])
        for e in schedules:
            self.assertEqual(len(e["pi"]), 24)
            self.assertEqual(len(e["log_sigma_edges"]), 25)
            self.assertAlmostEqual(sum(e["pi"]), 1.0, places=12)
        for e in schedules[1:]:
            for key in ("mhat", "rho", "cdf_change"):
                self.assertIn(key, e)
        trains = [e for e in events if e["event"] == "train"]
        self.assertEqual([e["step"] for e in trains[:-1]], [5, 10, 15, 20, 25, 30, 35, 40])
        self.assertEqual(trains[0]["grad_norm"], 0.5)
        self.assertIsNone(trains[-1]["loss"])
        first = trains[0]
        self.assertEqual(sum(first["bin_count"]), 5 * 64)  # this log interval's samples
        for error, count in zip(first["bin_error"], first["bin_count"]):
            self.assertEqual(error is None, count == 0)
        with open(os.path.join(self.run, "config.json"), encoding="utf-8") as f:
            config = json.load(f)
        self.assertEqual(config["format"], "noisescope.train-config/1")
        self.assertEqual(config["noise"]["sampler"], "infonoise")
        self.assertEqual(config["noise"]["gate_c"], "auto")
        with open(os.path.join(self.run, "schedules", "final.schedule.json"), encoding="utf-8") as f:
            final = json.load(f)["bin_masses"]
        for a, b in zip(final, schedules[-1]["pi"]):
            self.assertAlmostEqual(a, b, delta=1e-15)

    def test_a_killed_writer_leaves_a_readable_file(self):
        script = textwrap.dedent(f"""
            import sys, torch
            sys.path.insert(0, {PACKAGE!r})
            from noisescope import OnlineSampler
            s = OnlineSampler(run_dir={self.run!r})
            s.sample(8)
            print("ready", flush=True)
            while True:
                s.log(loss=1.0, lr=0.1, note="x" * 20000)
        """)
        child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(child.stdout.readline().strip(), "ready")
            time.sleep(0.5)
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
        with open(os.path.join(self.run, "events.jsonl"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        complete, last = lines[:-1], lines[-1]
        self.assertGreater(len(complete), 10)
        for line in complete:
            strict_json(line)  # every complete line is a whole event
        if last:  # at most the line being written when the kill came is torn
            with self.assertRaises(ValueError):
                strict_json(last)

    def test_resume_drops_the_events_after_the_state(self):
        settings = dict(warmup_steps=10, refresh_every=10, min_bin_count=4, bins=16, run_dir=self.run)
        first = OnlineSampler(**settings)
        gen = torch.Generator().manual_seed(1)
        run_steps(first, 20, gen)
        state = first.state_dict()
        run_steps(first, 7, gen)  # then the process dies
        del first
        second = OnlineSampler(**settings)
        second.load_state_dict(state)
        run_steps(second, 10, gen)
        events = read_events(self.run)
        names = [(e["event"], e["step"]) for e in events]
        self.assertIn(("resume", 20), names)
        resume_at = names.index(("resume", 20))
        self.assertTrue(all(step <= 20 for _, step in names[:resume_at]))
        self.assertEqual([s for n, s in names if n == "train"], [5, 10, 15, 20, 25, 30])
        self.assertEqual([s for n, s in names if n == "schedule"], [0, 10, 20, 30])


if __name__ == "__main__":
    unittest.main()
