"""InfoNoise and √-entropy online, inside a user's own PyTorch loop (THEORY §6, §8).

Mirrors the C++ trainer's online sampler: NoiseSampler (core/train/noise_sampler.cpp: the
warm-up, the refresh period, the bins, the CDF change) as train::resolveNoiseSampler
(core/train/trainer.cpp) builds it from a config's `noise` section, and the events the trainer
writes. Keep them in step; tests/python/test_golden.py (test_python_golden) holds the sampler
equal to the one core/pipeline/internal/online_sampler.cpp builds, tests/python/test_event_schema.py the
events to the schema. measure_sigma_data restates measureSigmaData (core/data/statistics.cpp);
no test compares the two.

    sampler = OnlineSampler(method="infonoise", sigma_data=0.5, run_dir="runs/a")
    for step in range(steps):
        sigma, weight = sampler.sample(batch_size, generator=g, device=device)
        x0_hat = model(x0 + sigma.view(-1, 1, 1, 1) * torch.randn_like(x0), sigma)
        error = (x0_hat - x0).pow(2).flatten(1).sum(1)        # unweighted x0 error per sample
        (weight * error).mean().backward(); optimiser.step()
        sampler.observe(sigma, error)
        sampler.step()

Every default and meaning is the C++ trainer's (core/train/noise_sampler.cpp, docs/training.md
"Noise samplers"; the defaults are read from defaults.json): warm-up on a base schedule (a preset,
discretised exactly), K log-σ bins of unweighted x0 errors, a refresh every R steps after the
warm-up with an EMA of the
per-bin means (a bin with fewer than min_bin_count samples keeps accumulating and keeps its old
estimate), gap filling and [¼ ½ ¼] smoothing on log m̂, the gated rate r_g = m̂/σ²·g(σ) with
g = σⁿ/(σⁿ+cⁿ) (c = 0: no gate; "auto": c by the kind of data, defaults.py), InfoNoise π ∝ ρ/w with
ρ ∝ r_g, √-entropy π ∝ √r_g in log σ, and σ drawn by linear inverse CDF inside a bin.

Between refreshes nothing leaves the device: draws, bin indices and the per-bin sums and counts
are tensor operations. A refresh moves 2K numbers to the host (and, under torch.distributed, sums
them over all ranks first with one all-reduce), rebuilds π there in float64, and puts the new
CDF back on the device.
"""

import json
import math
import time

import torch
import torch.distributed as dist

from . import __version__, defaults
from .binned import BinnedSchedule, preset_schedule, uniform_edges
from .loss_weights import parameterisation as _parameterisation
from .loss_weights import weight_at, weight_for_parameterisation, weight_kind, weight_label, x0_error
from .refresh import build, estimate_errors, fold_window
from .run_dir import RunWriter, write_atomically

METHODS = ("infonoise", "sqrt-entropy", "static")
_NOISE = defaults.NOISE
STATE_FORMAT = "noisescope.online-sampler/1"
SCHEDULE_FORMAT = "noisescope.schedule/1"


def _check(condition, name, message):
    if not condition:
        raise ValueError(f"OnlineSampler: {name} {message}")


def measure_sigma_data(x):
    """σ_data = √(tr Σ / D) of a dataset tensor [N, ...] (THEORY §1): the RMS deviation of each
    coordinate from its own mean, in two passes and float64, as measureSigmaData does."""
    flat = torch.as_tensor(x).reshape(len(x), -1).to(torch.float64)
    mean = flat.mean(0, keepdim=True)
    return float(((flat - mean) ** 2).mean().sqrt())


class OnlineSampler:
    """Adaptive σ sampler with the settings of the C++ trainer's `noise` section."""

    # Every default but the method is the trainer's noise section's, read from defaults.json.
    def __init__(self, method="infonoise", sigma_min=_NOISE["sigma_min"],
                 sigma_max=_NOISE["sigma_max"], bins=_NOISE["bins"],
                 warmup_steps=_NOISE["warmup_steps"], refresh_every=_NOISE["refresh_every"],
                 loss_weight=_NOISE["loss_weight"], sigma_data=defaults.SIGMA_DATA,
                 gate_c=_NOISE["gate_c"], gate_n=_NOISE["gate_n"], stat_decay=_NOISE["stat_decay"],
                 smoothing_passes=_NOISE["smoothing_passes"], min_bin_count=_NOISE["min_bin_count"],
                 uniform_mix=_NOISE["uniform_mix"], min_snr_gamma=_NOISE["min_snr_gamma"],
                 schedule=_NOISE["schedule"], schedule_params=None, discrete=False,
                 parameterisation="x0", run_dir=None, total_steps=0, run_info=None,
                 process_group=None):
        _check(method in METHODS, "method", f"must be one of {', '.join(METHODS)}, not {method!r}")
        _check(isinstance(bins, int) and 2 <= bins <= 4096, "bins", "must be an integer in [2, 4096]")
        _check(isinstance(warmup_steps, int) and warmup_steps >= 0, "warmup_steps", "must be an integer >= 0")
        _check(isinstance(refresh_every, int) and refresh_every >= 1, "refresh_every", "must be an integer >= 1")
        _check(0.0 <= stat_decay <= 0.999999, "stat_decay", "must be in [0, 0.999999]")
        _check(isinstance(smoothing_passes, int) and 0 <= smoothing_passes <= 64, "smoothing_passes",
               "must be an integer in [0, 64]")
        _check(isinstance(min_bin_count, int) and min_bin_count >= 1, "min_bin_count", "must be an integer >= 1")
        _check(0.0 < gate_n <= 64.0, "gate_n", "must be in (0, 64]")
        _check(0.0 <= uniform_mix <= 1.0, "uniform_mix", "must be in [0, 1]")
        _check(sigma_data > 0 and math.isfinite(sigma_data), "sigma_data", "must be > 0")
        _check(min_snr_gamma > 0 and math.isfinite(min_snr_gamma), "min_snr_gamma", "must be > 0")
        kind = weight_kind(loss_weight, "OnlineSampler: loss_weight")
        _check(kind != "elbo", "loss_weight", "'elbo' depends on π and cannot be a training weight")
        if gate_c == "auto":
            gate_value = defaults.auto_gate_c(discrete)  # the published choices (THEORY §6)
        else:
            _check(isinstance(gate_c, (int, float)) and 0.0 <= gate_c <= 1e6, "gate_c",
                   "must be 'auto' or a number in [0, 1e6] (0: no gate)")
            gate_value = float(gate_c)
        self.method = method
        self.parameterisation = _parameterisation(parameterisation, "OnlineSampler: parameterisation")
        self.settings = {
            "sampler": method, "schedule": schedule, "schedule_params": dict(schedule_params or {}),
            "sigma_min": float(sigma_min), "sigma_max": float(sigma_max), "loss_weight": kind,
            "min_snr_gamma": float(min_snr_gamma), "sigma_data": float(sigma_data), "bins": bins,
            "warmup_steps": warmup_steps, "refresh_every": refresh_every,
            "stat_decay": float(stat_decay), "smoothing_passes": smoothing_passes,
            "min_bin_count": min_bin_count, "gate_c": gate_value, "gate_n": float(gate_n),
            "uniform_mix": float(uniform_mix),
        }
        self.gate_setting = "auto" if gate_c == "auto" else ("set" if gate_value > 0 else "off")
        self.discrete = bool(discrete)
        self.edges = uniform_edges(float(sigma_min), float(sigma_max), bins)
        self.sigma_centres = [math.exp(0.5 * (a + b)) for a, b in zip(self.edges, self.edges[1:])]
        # The warm-up (and static) schedule on the trainer's exact bins.
        self.base = preset_schedule(schedule, uniform_edges(float(sigma_min), float(sigma_max),
                                                            defaults.BASE_SCHEDULE_BINS),
                                    schedule_params)
        self.current = self.base
        self.process_group = process_group
        K = bins
        self.steps_done = 0
        self.window_sum, self.window_count = [0.0] * K, [0.0] * K  # summed over ranks
        self.mhat, self.known = [0.0] * K, [0] * K
        self.masses = []  # current π as bin masses; empty until the first refresh
        self.refreshes = 0
        self.last_refresh = None  # what the last refresh produced, for events and charts
        self._pending = None  # [2, K] float64 on the statistics' device: this rank's new samples
        self._log = None      # [2, K] since the last log() (this rank), for train events
        self._edges_on = {}
        self._is_writer = not (dist.is_available() and dist.is_initialized()) or dist.get_rank(process_group) == 0
        self._run = RunWriter(run_dir) if (run_dir is not None and self._is_writer) else None
        self._run_started = False
        self._resumed_at = None
        self.total_steps = int(total_steps)
        self.run_info = dict(run_info or {})
        self._log_clock = self._start_clock = time.time()
        self._log_steps = 0
        self._log_samples = 0

    # -- drawing ---------------------------------------------------------------------------------
    def sigma_from_uniform(self, u):
        """σ = F⁻¹(u) of the current π for a tensor of uniforms (float64, u's device)."""
        return self.current.sigma_from_uniform(torch.as_tensor(u, dtype=torch.float64))

    def loss_weight(self, sigma):
        """The weight for a per-sample MSE in this sampler's parameterisation: w_x0(σ)/factor(σ)."""
        s = torch.as_tensor(sigma)
        w = weight_at(self.settings["loss_weight"], s.to(torch.float64), self.settings["sigma_data"],
                      self.settings["min_snr_gamma"])
        return weight_for_parameterisation(w, s.to(torch.float64), self.parameterisation).to(s.dtype)

    def sample(self, batch_size, generator=None, device=None, dtype=torch.float32):
        """(σ, weight), each [batch_size] on `device`. Uniforms come from `generator` (on its own
        device; one on `device` avoids a copy) or from torch's default generator."""
        self._start_run()
        if device is None:
            device = generator.device if generator is not None else torch.device("cpu")
        device = torch.device(device)
        source = generator.device if generator is not None else device
        u = torch.rand(int(batch_size), generator=generator, dtype=torch.float64, device=source)
        sigma = self.sigma_from_uniform(u.to(device))
        return sigma.to(dtype), self.loss_weight(sigma).to(dtype)

    def sample_density(self, shape, device="cpu", generator=None, dtype=torch.float32):
        """k-diffusion's `sample_density(shape, device=...)`: σ of that shape (no weight: keep
        k-diffusion's own loss, which is the EDM weight in x0 space; use loss_weight="edm")."""
        n = 1
        for d in (shape if isinstance(shape, (list, tuple, torch.Size)) else [shape]):
            n *= int(d)
        sigma, _ = self.sample(n, generator=generator, device=device, dtype=dtype)
        return sigma.reshape(shape)

    # -- statistics ------------------------------------------------------------------------------
    def _edges(self, device):
        key = str(device)
        if key not in self._edges_on:
            self._edges_on[key] = torch.tensor(self.edges, dtype=torch.float64, device=device)
        return self._edges_on[key]

    def bin_index(self, sigma):
        """The statistics bin of each σ (clamped into the grid), on σ's device."""
        ell = torch.log(torch.as_tensor(sigma).detach().to(torch.float64).reshape(-1))
        edges = self._edges(ell.device)
        return (torch.searchsorted(edges, ell, right=True) - 1).clamp(0, len(self.edges) - 2)

    def observe(self, sigma, error):
        """Adds each sample's unweighted x0-space error ‖D(x_σ; σ) − x0‖² (summed over the
        dimensions) to its log-σ bin. Tensors on any device; nothing is copied to the host."""
        self._start_run()
        index = self.bin_index(sigma)
        err = torch.as_tensor(error).detach().to(device=index.device, dtype=torch.float64).reshape(-1)
        if err.numel() != index.numel():
            raise ValueError(f"OnlineSampler.observe: {index.numel()} σ values but {err.numel()} errors")
        K = len(self.edges) - 1
        batch = torch.zeros(2, K, dtype=torch.float64, device=index.device)
        batch[0].index_add_(0, index, err)
        batch[1].index_add_(0, index, torch.ones_like(err))
        if self._pending is None or self._pending.device != index.device:
            self._pending = batch if self._pending is None else self._pending.to(index.device) + batch
        else:
            self._pending += batch
        if self._run is not None:
            self._log = batch.clone() if self._log is None else self._log.to(index.device) + batch
        self._log_samples += err.numel()

    def observe_loss(self, sigma, per_sample_loss):
        """observe() for a per-sample MSE in this sampler's parameterisation (summed over the
        dimensions), converted to x0 space first (THEORY §12)."""
        s = torch.as_tensor(sigma).detach().to(torch.float64)
        self.observe(s, x0_error(torch.as_tensor(per_sample_loss).detach().to(torch.float64), s,
                                 self.parameterisation))

    def step(self):
        """Counts one optimizer step; refreshes π when the warm-up is over and a period is done.
        Returns True when π was rebuilt."""
        self._start_run()
        self.steps_done += 1
        self._log_steps += 1
        s = self.settings
        if self.method == "static" or self.steps_done < s["warmup_steps"]:
            return False
        if (self.steps_done - s["warmup_steps"]) % s["refresh_every"] != 0:
            return False
        return self.refresh()

    def _reduced_pending(self):
        """This period's [2, K] sums over all ranks, on the host; one collective."""
        K = len(self.edges) - 1
        pending = self._pending if self._pending is not None else torch.zeros(2, K, dtype=torch.float64)
        if dist.is_available() and dist.is_initialized() and dist.get_world_size(self.process_group) > 1:
            pending = pending.clone()
            dist.all_reduce(pending, op=dist.ReduceOp.SUM, group=self.process_group)
        host = pending.cpu().tolist()
        if self._pending is not None:
            self._pending.zero_()
        return host

    def refresh(self):
        """Rebuilds π from the statistics now (what step() does when one is due). Returns False,
        keeping π, while no bin has ever had min_bin_count samples."""
        sums, counts = self._reduced_pending()
        for b in range(len(sums)):
            self.window_sum[b] += sums[b]
            self.window_count[b] += counts[b]
        s = self.settings
        if not fold_window(self.window_sum, self.window_count, self.mhat, self.known,
                           s["min_bin_count"], s["stat_decay"]):
            return False
        m = estimate_errors(self.mhat, self.known, self.sigma_centres, s["smoothing_passes"])
        rho, pi = build(self.method, m, self.sigma_centres, self.edges, s)
        old_cdf = [self.current.cdf_log_sigma(e) for e in self.edges]
        self.current = BinnedSchedule(self.edges, pi)
        self.masses = pi
        change = max(abs(self.current.cdf_log_sigma(e) - o) for e, o in zip(self.edges, old_cdf))
        self.refreshes += 1
        self.last_refresh = {"step": self.steps_done, "mhat": m, "rho": rho, "pi": pi,
                             "cdf_change": change}
        if self._run is not None:
            self._schedule_event(refreshed=True)
        return True

    @property
    def pi(self):
        """The current π as masses on the K statistics bins."""
        return list(self.masses) if self.masses else self.current.masses_on(self.edges)

    # -- resume ----------------------------------------------------------------------------------
    def state_dict(self):
        """Everything mutable, as plain numbers (torch.save or json.dump it). This rank's samples
        since the last refresh are included; under torch.distributed, save at a refresh step to
        carry every rank's exactly (other ranks' pending samples are not in rank 0's state)."""
        pending = self._pending.cpu().tolist() if self._pending is not None else None
        return {"format": STATE_FORMAT, "kind": self.method, "bins": len(self.edges) - 1,
                "log_sigma_edges": list(self.edges), "step": self.steps_done,
                "window_error_sum": list(self.window_sum), "window_count": list(self.window_count),
                "pending_error_sum": pending[0] if pending else None,
                "pending_count": pending[1] if pending else None,
                "mhat": list(self.mhat), "known": list(self.known), "masses": list(self.masses),
                "refreshes": self.refreshes,
                "last_step": self.last_refresh["step"] if self.last_refresh else 0}

    def load_state_dict(self, state):
        """Restores a state_dict() so that the run continues exactly as it would have."""
        where = "OnlineSampler.load_state_dict"
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise ValueError(f"{where}: not a {STATE_FORMAT} state")
        if state.get("kind") != self.method:
            raise ValueError(f"{where}: the state is for {state.get('kind')!r}, this sampler is {self.method!r}")
        K = len(self.edges) - 1
        if state.get("bins") != K or len(state.get("log_sigma_edges", [])) != K + 1 or any(
                abs(a - b) > 1e-12 for a, b in zip(state["log_sigma_edges"], self.edges)):
            raise ValueError(f"{where}: the state has another σ grid (bins or range differ)")

        def vector(key, allow_empty=False):
            values = state.get(key)
            if not isinstance(values, list) or not (len(values) == K or (allow_empty and not values)):
                raise ValueError(f"{where}: '{key}' is missing or has the wrong size")
            if any(not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0 for v in values):
                raise ValueError(f"{where}: '{key}' holds a bad value")
            return [float(v) for v in values]

        window_sum, window_count = vector("window_error_sum"), vector("window_count")
        mhat, masses = vector("mhat"), vector("masses", allow_empty=True)
        known = [int(k) for k in vector("known")]
        step = state.get("step")
        if not isinstance(step, int) or step < 0:
            raise ValueError(f"{where}: 'step' must be a whole number >= 0")
        pending = None
        rank = dist.get_rank(self.process_group) if dist.is_available() and dist.is_initialized() else 0
        if state.get("pending_error_sum") is not None and rank == 0:
            pending = torch.tensor([vector("pending_error_sum"), vector("pending_count")], dtype=torch.float64)
        current = BinnedSchedule(self.edges, masses) if masses else self.base
        self.window_sum, self.window_count, self.mhat, self.known = window_sum, window_count, mhat, known
        self.masses, self.current, self.steps_done = masses, current, step
        self.refreshes = int(state.get("refreshes", 0))
        self.last_refresh = None
        if pending is not None:
            device = self._pending.device if self._pending is not None else pending.device
            self._pending = pending.to(device)
        elif self._pending is not None:
            self._pending.zero_()
        self._resumed_at = step
        self._run_started = False  # the next call writes the resume (and drops later events)

    def export_schedule(self, path):
        """Writes the current π as a noisescope.schedule/1 file (CLI, workbench, ScheduleSampler)."""
        s = self.settings
        doc = {"format": SCHEDULE_FORMAT, "kind": self.method,
               "label": {"infonoise": "InfoNoise online", "sqrt-entropy": "√-entropy online",
                         "static": s["schedule"]}[self.method],
               "parameters": {"gate_c": s["gate_c"], "gate_n": s["gate_n"],
                              "refresh_step": float(self.last_refresh["step"] if self.last_refresh else 0)},
               "notes": {"coordinate": "log-sigma", "source": "online training statistics (Python)"},
               "sigma_min": math.exp(self.current.edges[0]), "sigma_max": math.exp(self.current.edges[-1]),
               "loss_weight": {"kind": s["loss_weight"], "sigma_data": s["sigma_data"], "gamma": s["min_snr_gamma"]},
               "coordinate": "log-sigma", "log_sigma_edges": self.current.edges,
               "bin_masses": self.current.masses, "cdf": self.current.cdf}
        write_atomically(str(path), json.dumps(doc, indent=1) + "\n")

    # -- run directory ---------------------------------------------------------------------------
    def _world(self):
        if dist.is_available() and dist.is_initialized():
            return dist.get_world_size(self.process_group)
        return 1

    def _start_run(self):
        if self._run is None or self._run_started:
            return
        self._run_started = True
        s = self.settings
        noise = {k: s[k] for k in ("sampler", "schedule", "schedule_params", "sigma_min", "sigma_max",
                                   "loss_weight", "min_snr_gamma", "bins", "warmup_steps", "refresh_every",
                                   "stat_decay", "smoothing_passes", "min_bin_count", "gate_n",
                                   "uniform_mix")}
        noise["gate_c"] = s["gate_c"] if self.gate_setting != "auto" else "auto"
        config = {"writer": f"noisescope Python package {__version__}",
                  "noise": noise, "optim": {"steps": self.total_steps, "sigma_data": s["sigma_data"]},
                  "parameterisation": self.parameterisation, "world_size": self._world()}
        config.update(self.run_info.get("config", {}))
        self._run.write_config(config)
        self._run.begin(self._resumed_at)
        info = self.run_info
        network = info.get("network", {"kind": "python"})
        if isinstance(network, str):
            network = {"kind": network}
        self._run.event("resume" if self._resumed_at is not None else "start", self.steps_done,
                        steps=self.total_steps, world_size=self._world(),
                        device=str(info.get("device", "unknown")), network=network,
                        parameters=int(info.get("parameters", 0)), sigma_data=s["sigma_data"],
                        discrete=self.discrete, train_samples=int(info.get("train_samples", 0)),
                        test_samples=int(info.get("test_samples", 0)), test=str(info.get("test", "none")),
                        bins=s["bins"], gate_c=s["gate_c"], gate=self.gate_setting,
                        loss_weight={"kind": s["loss_weight"],
                                     "label": weight_label(s["loss_weight"], s["sigma_data"], s["min_snr_gamma"]),
                                     "sigma_data": s["sigma_data"], "gamma": s["min_snr_gamma"],
                                     "from": "config", "parameterisation": self.parameterisation})
        if self._resumed_at is None:
            self._schedule_event(refreshed=False)

    def _schedule_event(self, refreshed):
        fields = {"sampler": self.method, "refresh": self.refreshes, "log_sigma_edges": self.edges,
                  "sigma": self.sigma_centres}
        if refreshed:
            r = self.last_refresh
            fields.update(mhat=r["mhat"], rho=r["rho"], pi=r["pi"], cdf_change=r["cdf_change"])
        else:
            fields["pi"] = self.current.masses_on(self.edges)
        self._run.event("schedule", self.steps_done, **fields)

    def log(self, step=None, loss=None, **scalars):
        """A `train` event: the loss, any scalars (lr, …) and this rank's mean unweighted x0 error
        per bin since the last log. Reads those sums from the device: call it every few steps,
        not every step. A no-op without a run directory (and on ranks other than 0)."""
        if self._run is None:
            return
        self._start_run()
        now = time.time()
        seconds = now - self._log_clock
        K = len(self.edges) - 1
        sums, counts = self._log.cpu().tolist() if self._log is not None else ([0.0] * K, [0.0] * K)
        bin_error = [sums[b] / counts[b] if counts[b] > 0 else None for b in range(K)]
        loss_value = float(loss) if loss is not None else None
        fields = {"loss": loss_value, "lr": float(scalars.pop("lr", 0.0)),
                  "samples_per_s": self._log_samples * self._world() / seconds if seconds > 0 else 0.0,
                  "steps_per_s": self._log_steps / seconds if seconds > 0 else 0.0,
                  "bin_error": bin_error, "bin_count": counts}
        for key, value in scalars.items():
            fields[key] = float(value) if hasattr(value, "item") or isinstance(value, (int, float)) else value
        self._run.event("train", self.steps_done if step is None else int(step), **fields)
        self._log = None
        self._log_clock, self._log_steps, self._log_samples = now, 0, 0

    def finish(self, **fields):
        """An `end` event (the run is complete); writes the final schedule beside the events."""
        if self._run is None:
            return
        self._start_run()
        self.export_schedule(f"{self._run.path}/schedules/final.schedule.json")
        self._run.event("end", self.steps_done, seconds=float(fields.pop("seconds", time.time() - self._start_clock)), **fields)
        self._run.close()
