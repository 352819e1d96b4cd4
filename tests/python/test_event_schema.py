#!/usr/bin/python3
"""Both writers of events.jsonl against the one schema file, docs/schemas/run-events.schema.json.

    test_event_schema.py NOISESCOPE_CLI WORK_DIR

The C++ writer: a short `noisescope-cli train` run (start, the initial and refreshed schedules,
train, eval, checkpoint, end) and its resume (resume, eval, checkpoint, end). The Python writer:
an OnlineSampler loop with a run directory (start, schedules, train with an extra scalar, end)
and its resume from a saved state. Every line of both files must satisfy the schema, and every
kind of event must occur. The validator (event_schema.py) is shown to refuse broken events, so
a pass means something.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "integrations", "python"))
sys.path.insert(0, here)
import torch  # noqa: E402

from event_schema import Validator  # noqa: E402
from noisescope import OnlineSampler  # noqa: E402

CLI, WORK = sys.argv[1], sys.argv[2]
SCHEMA = os.path.join(here, "..", "..", "docs", "schemas", "run-events.schema.json")
ALL_KINDS = {"start", "resume", "train", "schedule", "eval", "checkpoint", "end"}


def read_events(run):
    with open(os.path.join(run, "events.jsonl"), encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def cpp_run(folder):
    """A C++ run of 60 steps, then its resume; the run directory."""
    config = {
        "dataset": {"path": "synthetic:gaussian?n=400&d=3&seed=2"},
        "model": {"kind": "mlp", "width": 16, "depth": 1, "embedding": 8},
        "optim": {"steps": 60, "batch_size": 16, "lr_warmup_steps": 5},
        "noise": {"sampler": "infonoise", "bins": 12, "warmup_steps": 20, "refresh_every": 20},
        "eval": {"every": 30, "samples": 16, "levels": 4, "quality_samples": 16, "heun_steps": 4},
        "checkpoint": {"every": 30},
        "log_every": 10,
    }
    path = os.path.join(folder, "run.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(config, out)
    run = os.path.join(folder, "cpp-run")
    for args in (["--config", path], ["--resume"]):
        done = subprocess.run([CLI, "--threads", "1", "train", *args, "--out", run],
                              capture_output=True, text=True, timeout=240)
        if done.returncode != 0:
            raise AssertionError(f"noisescope-cli train {' '.join(args)} failed:\n{done.stderr}")
    return run


def python_run(folder):
    """An OnlineSampler loop of 60 steps with a run directory, saved at step 40 and resumed."""
    run = os.path.join(folder, "python-run")
    settings = dict(method="sqrt-entropy", bins=12, warmup_steps=20, refresh_every=10,
                    run_dir=run, total_steps=60,
                    run_info={"network": "mlp", "parameters": 123, "device": "cpu",
                              "train_samples": 400, "test_samples": 40, "test": "held-out 10 %"})
    gen = torch.Generator().manual_seed(3)

    def steps(sampler, count):
        for _ in range(count):
            sigma, _ = sampler.sample(32, generator=gen, dtype=torch.float64)
            sampler.observe(sigma, 0.5 * sigma ** 2 / (0.25 + sigma ** 2))
            sampler.step()
            if sampler.steps_done % 10 == 0:
                sampler.log(loss=0.1, lr=1e-3, grad_norm=torch.tensor(2.5))

    first = OnlineSampler(**settings)
    steps(first, 40)
    state = first.state_dict()
    steps(first, 5)  # written, then dropped by the resume
    second = OnlineSampler(**settings)
    second.load_state_dict(state)
    steps(second, 20)
    second.finish(note="done")
    return run


class EventSchemaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shutil.rmtree(WORK, ignore_errors=True)
        os.makedirs(WORK)
        with open(SCHEMA, encoding="utf-8") as file:
            cls.validator = Validator(json.load(file))
        cls.runs = {"C++ trainer": read_events(cpp_run(WORK)), "Python OnlineSampler": read_events(python_run(WORK))}

    def test_every_line_of_both_writers(self):
        for writer, events in self.runs.items():
            for number, event in enumerate(events, 1):
                errors = self.validator.errors(event)
                self.assertEqual(errors, [], f"{writer}, events.jsonl line {number} ({event.get('event')})")

    def test_every_kind_occurs(self):
        cpp = {e["event"] for e in self.runs["C++ trainer"]}
        self.assertEqual(cpp, ALL_KINDS)
        python = {e["event"] for e in self.runs["Python OnlineSampler"]}
        self.assertEqual(python, ALL_KINDS - {"eval", "checkpoint"})  # the user's loop does those
        for writer, events in self.runs.items():
            refreshed = [e for e in events if e["event"] == "schedule" and e["refresh"] > 0]
            self.assertTrue(refreshed and all("mhat" in e for e in refreshed), writer)

    def test_the_validator_refuses_broken_events(self):
        cpp = self.runs["C++ trainer"]
        start = next(e for e in cpp if e["event"] == "start")
        schedule = next(e for e in cpp if e["event"] == "schedule" and "mhat" in e)
        train = next(e for e in cpp if e["event"] == "train")

        def broken(event, change):
            event = copy.deepcopy(event)
            change(event)
            return self.validator.errors(event)

        cases = {
            "missing step": (train, lambda e: e.pop("step"), "missing field 'step'"),
            "unknown event": (train, lambda e: e.update(event="restart"), "is not one of"),
            "count as text": (start, lambda e: e.update(bins="12"), "$.bins"),
            "negative count": (start, lambda e: e.update(parameters=-1), "below the minimum"),
            "a flag as number": (start, lambda e: e.update(discrete=1), "$.discrete"),
            "bad gate word": (start, lambda e: e.update(gate="maybe"), "$.gate"),
            "loss weight field": (start, lambda e: e["loss_weight"].pop("from"), "missing field 'from'"),
            "misspelt field": (start, lambda e: e.update(wolrd_size=1), "$.wolrd_size"),
            "negative mass": (schedule, lambda e: e["pi"].__setitem__(0, -0.1), "$.pi[0]"),
            "m̂ without ρ": (schedule, lambda e: e.pop("rho"), "'mhat' without 'rho'"),
            "true as a number": (train, lambda e: e.update(lr=True), "$.lr"),
            "a list as extra": (train, lambda e: e.update(extra=[1]), "$.extra"),
        }
        for name, (event, change, expected) in cases.items():
            errors = broken(event, change)
            self.assertTrue(any(expected in error for error in errors), f"{name}: {errors}")
        # A run that stops on a write fault says so (docs/training.md); these short runs do not.
        error = {"event": "error", "step": 30, "time": 1.0, "message": "disk full",
                 "last_checkpoint": "checkpoints/step-000000030.ckpt"}
        self.assertEqual(self.validator.errors(error), [])
        self.assertIn("$: missing field 'message'", broken(error, lambda e: e.pop("message")))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
