#pragma once
// Held-out evaluation of a denoiser during training (any callable following THEORY §4's calling
// convention, so it also serves loaded checkpoints):
//  * the unweighted x0 error E‖x0 − D(x0 + σε; σ)‖² at fixed log-spaced levels, on fixed held-out
//    samples and fixed noise (common random numbers: successive evaluations differ only by the
//    model);
//  * two scalars integrating it over fixed reference allocations:
//      elbo = (1/D) ∫ err(σ)/σ² dlog σ over [σ_min, σ_max]   (nats per dimension; the diffusion
//             term of the continuous-time ELBO, truncated to the grid)
//      edm  = E_{ℓ ~ EDM log-normal(−1.2, 1.2)} [ w_EDM(σ) · err(σ) / D ]   (EDM's training loss)
//  * for low-dimensional data, a sample-quality measure: EDM's deterministic Heun sampler
//    (2nd order, σ steps with ρ = 7) followed by the sliced Wasserstein-2 distance to held-out
//    data.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <functional>
#include <limits>
#include <vector>

#include "data/dataset.h"
#include "train/train_config.h"

namespace noisescope::train {

using DenoiseFunction = std::function<at::Tensor(const at::Tensor& x, const at::Tensor& sigma)>;

struct EvaluationResult {
  std::vector<double> sigmas;
  std::vector<double> error;  // mean unweighted x0 error per sample, summed over dimensions
  double elbo = 0.0;
  double edm = 0.0;
  double quality = 0.0;                                   // the one selected by eval.reference
  double swd = std::numeric_limits<double>::quiet_NaN();  // NaN when not computed
};

class Evaluator {
 public:
  Evaluator(const Dataset& test, const EvalSettings& settings, double sigmaMin, double sigmaMax,
            double sigmaData, uint64_t seed, c10::Device device);
  ~Evaluator();

  bool computesSampleQuality() const { return sampleQuality_; }
  EvaluationResult evaluate(const DenoiseFunction& denoiser) const;

 private:
  EvalSettings settings_;
  double sigmaMin_, sigmaMax_, sigmaData_;
  uint64_t seed_;
  c10::Device device_;
  bool sampleQuality_ = false;
  std::vector<int64_t> shape_;
  at::Tensor x0_, noise_, swdReference_, projections_, start_;
  std::vector<double> levels_;
};

// EDM's σ steps: σ_i = (σ_max^{1/ρ} + i/(N−1)·(σ_min^{1/ρ} − σ_max^{1/ρ}))^ρ, then 0.
std::vector<double> edmSamplingSigmas(int64_t steps, double sigmaMin, double sigmaMax, double rho);
// Deterministic Heun sampler (EDM algorithm 1 without churn) from x = σ_max·z.
at::Tensor heunSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                      const std::vector<double>& sigmas);
// Sliced W2 between two point sets [N, D] and [M, D] over the unit directions [P, D]:
// √(mean over directions of W2² between the projected empirical distributions).
double slicedWasserstein(const at::Tensor& a, const at::Tensor& b, const at::Tensor& directions);

}  // namespace noisescope::train
