#pragma once
// The samplers of the probability-flow ODE, on any denoiser that follows THEORY §4's calling
// convention (a network in training, a loaded checkpoint, an exact posterior mean), and EDM's σ
// steps. The evaluation during training, the sampling-grid race and the quality job share them.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "schedule/ode_sampler.h"
#include "util/progress.h"

namespace noisescope::train {

using DenoiseFunction = std::function<at::Tensor(const at::Tensor& x, const at::Tensor& sigma)>;

// D(y; σ) for a batch y, in forward passes of at most 1 024 samples (bounded memory).
at::Tensor denoiseInChunks(const DenoiseFunction& denoiser, const at::Tensor& y, double sigma);

// EDM's σ steps: σ_i = (σ_max^{1/ρ} + i/(N−1)·(σ_min^{1/ρ} − σ_max^{1/ρ}))^ρ, then 0.
std::vector<double> edmSamplingSigmas(int64_t steps, double sigmaMin, double sigmaMax, double rho);
// The samplers of the probability-flow ODE dx/dσ = (x − D(x; σ))/σ, from x = σ_0·z over
// `sigmas` (descending, ending in 0). Each polls `progress` once per step (cancel) and reports the
// fraction of steps done.
//  * Heun: EDM algorithm 1 without churn; a second-order correction on every step but the last
//    (to σ = 0), so N steps cost 2N − 1 denoiser evaluations.
//  * Euler: first order, N evaluations. Its step x' = D + (σ'/σ)(x − D) is DDIM's, and it is the
//    same update as Euler in a rectified-flow model's time t = σ/(1 + σ) on z = x/(1 + σ), so a
//    flow model sampled with Euler in t is this sampler on its σ grid.
//  * Euler ancestral (k-diffusion's sample_euler_ancestral, η = 1): a step to
//    σ↓ = √(σ'² − σ↑²) with σ↑ = √(σ'²(σ² − σ'²)/σ²), then fresh noise of size σ↑ drawn from
//    `seed`; N evaluations.
at::Tensor heunSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                      const std::vector<double>& sigmas, const Progress& progress = {});
at::Tensor eulerSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                       const std::vector<double>& sigmas, const Progress& progress = {});
at::Tensor eulerAncestralSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                                const std::vector<double>& sigmas, uint64_t seed,
                                const Progress& progress = {});
// The sampler a name picks (schedule/ode_sampler.h), run on `sigmas`; `seed` draws Euler
// ancestral's fresh noise.
at::Tensor sampleWith(schedule::OdeSampler sampler, const DenoiseFunction& denoiser,
                      const at::Tensor& startNoise, const std::vector<double>& sigmas,
                      uint64_t seed, const Progress& progress = {});
}  // namespace noisescope::train
