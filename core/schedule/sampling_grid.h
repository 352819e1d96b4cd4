#pragma once
// Sampling grids: the σ levels a sampler steps through at inference, one family at a time, each
// written once here (docs/file-formats.md, "Sampling grids"). A grid is given by a spec string
// ("karras?rho=7", "ddpm?spacing=trailing", "flow?shift=3", "entropic?increment=sqrt-rate") and a
// number of steps N, and comes back in k-diffusion's order: N levels σ_0 > σ_1 > … > σ_{N−1} > 0,
// then a final 0 (N + 1 values). Heun (EDM algorithm 1) spends 2N − 1 network evaluations on it
// (the last step, to 0, is an Euler step), Euler N.
//
// The families (σ is the VE noise level of THEORY §1; DDPM and flow times are mapped to it):
//   karras        σ_i = (σ_max^{1/ρ} + i/(N−1)·(σ_min^{1/ρ} − σ_max^{1/ρ}))^ρ          (EDM eq. 5)
//   uniform-sigma σ_i linear from σ_max to σ_min
//   log-sigma     log σ_i linear from log σ_max to log σ_min
//   ddpm          diffusers' timestep_spacing over T training steps (linspace, leading,
//                 trailing; steps_offset for leading), σ_t = √((1 − ᾱ_t)/ᾱ_t) of the beta
//                 schedule (scaled-linear: Stable Diffusion; linear: DDPM). σ range: the table's.
//   flow          rectified-flow t uniform, shifted as SD3/Flux do: s = k·t/(1 + (k−1)·t),
//                 σ = s/(1 − s); t spans the values whose shifted σ are σ_max and σ_min.
//   entropic      equal increments of ∫ r dℓ (increment=rate) or ∫ √r dℓ (sqrt-rate) from
//                 σ_max down to σ_min, r = MMSE/σ² the profile's rate (optionally gated)
//   quantiles     equal quantiles of a schedule's π (a run's final training π) or its φ = π·w
//   auto          resolved first (resolveSamplingGrid) into one of the above from the sampling
//                 rate (schedule/sampling_rate.h); Karras ρ = 7 without one
//
// The spec strings themselves (parsing, canonical spelling, labels, rules) are
// schedule/sampling_grid_spec.h.
//
// Plain C++ (no torch, no JSON, no files): the files a family needs (a profile, a run) are read by
// core/pipeline/sampling/sampling_grids.h, which hands their contents in through
// SamplingGridInputs.
#include <string>
#include <vector>

#include "schedule/engine_defaults.h"
#include "schedule/entropic.h"
#include "schedule/sampling_grid_spec.h"
#include "schedule/sampling_rate.h"
#include "schedule/schedule.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

// What the data-driven families need; the pointers must outlive the call.
struct SamplingGridInputs {
  const RateProfile* profile = nullptr;  // entropic with rate=profile
  const Schedule* schedule = nullptr;    // quantiles: the π (φ is taken from it when of=phi)
  // entropic with rate=sampling, auto, sigma_min=profile, gate_c=auto
  const SamplingRate* rate = nullptr;
};

// A spec with nothing left to decide: auto replaced by the grid chooseAutoGrid picks,
// sigma_min=profile and gate_c=auto by their values from inputs.rate, and the reasons, one line
// each, for the file's provenance. InputError(spec.text, …) when a choice needs inputs.rate and
// there is none (auto without one resolves to Karras ρ = 7 and says so).
struct ResolvedGrid {
  SamplingGridSpec spec;
  std::vector<std::string> notes;
};
ResolvedGrid resolveSamplingGrid(const SamplingGridSpec& spec, const SamplingGridInputs& inputs);

// N ≥ 2 levels, descending, then 0 (size N + 1). InputError("--grid" / spec.text, …) for N < 2,
// a missing input, or (ddpm) N > T. The guard is applied (capRatios with ratioLimit) when
// spec.guard is Cap; with Warn the levels are the family's own.
std::vector<double> buildSamplingGrid(const SamplingGridSpec& spec, int steps,
                                      const SamplingGridInputs& inputs = {});

// The integer DDPM timesteps of a ddpm spec, descending (diffusers' DDIMScheduler.set_timesteps:
// linspace rounds half to even as np.round does). InputError for N > T or an offset past T − 1.
std::vector<int> ddpmTimesteps(const SamplingGridSpec& spec, int steps);

// ---- Step ratios: what a sampler can integrate ----
//
// The largest step σ_i/σ_{i+1} (over the positive levels, the final step to 0 excluded).
double largestStepRatio(const std::vector<double>& sigma);
// The limit a grid of N positive levels from σ_max to σ_min is held to: `margin` times the
// largest step ratio of Karras ρ = 7 with the same N and the same ends (its last step,
// ((b + h)/b)^7 with b = σ_min^{1/7} and h the step in σ^{1/7}). Karras ρ = 7 is the grid EDM's
// Heun sampler was tuned on; a step more than twice as long in log σ as its longest is one the
// second-order step was never checked on.
double ratioLimit(int steps, double sigmaMin, double sigmaMax, double margin = 2.0);
// The steps (index i of σ_i → σ_{i+1}) whose ratio exceeds `limit`.
std::vector<int> stepsOverRatio(const std::vector<double>& sigma, double limit);
// The same ends and N, the steps' log-σ widths d_i replaced by min(c·d_i, log limit) with c ≥ 1
// chosen so they still sum to log(σ_max/σ_min): long steps are cut to the limit and the rest
// stretched in proportion, keeping the family's shape where it was safe. InputError when N − 1
// steps at the limit cannot span the range. Takes and returns the k-diffusion form (final 0).
std::vector<double> capRatios(const std::vector<double>& sigma, double limit);

// ---- Exports ----
//
// σ of the DDPM timestep t (fractional t: linear in σ between integer steps, as diffusers'
// np.interp), and the (fractional) timestep of σ by linear interpolation in log σ clamped to
// [0, T − 1] (diffusers' EulerDiscreteScheduler._sigma_to_t).
std::vector<double> ddpmSigmaTable(BetaSchedule schedule, int trainTimesteps, double betaStart,
                                   double betaEnd);
double ddpmTimestepOfSigma(const std::vector<double>& table, double sigma);

struct GridExports {
  std::vector<double> kdiffusionSigmas;  // descending, final 0 (k-diffusion `sigmas`)
  // diffusers EulerDiscreteScheduler.set_timesteps(sigmas=…) (VE σ, final 0 included: it takes
  // len − 1 steps) and the timesteps it derives from them; for ddpm grids the integer t chosen.
  std::vector<double> diffusersSigmas, diffusersTimesteps;
  std::string timestepsTable;  // what the timesteps index, e.g. "scaled-linear, T=1000"
  // FlowMatchEulerDiscreteScheduler: s = σ/(1 + σ) without the final 0 (it appends one), and
  // timesteps s·T. It shifts sigmas= again: set its shift to 1.
  std::vector<double> flowSigmas, flowTimesteps;
};
GridExports gridExports(const SamplingGridSpec& spec, const std::vector<double>& sigma);

}  // namespace noisescope::schedule
