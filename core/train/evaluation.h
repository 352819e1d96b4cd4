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
//    data;
//  * for images with a feature network and for DNA (THEORY §11): Heun samples from fixed start
//    noise (σ steps with ρ = 7 or from a σ-steps file), rounded when the data is discrete, scored
//    by train/sample_quality.h — Fréchet distance in the network's features, k-mer JS for DNA.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "train/samplers.h"
#include "train/train_config.h"
#include "util/progress.h"

namespace noisescope::train {

struct EvaluationResult {
  std::vector<double> sigmas;
  std::vector<double> error;  // mean unweighted x0 error per sample, summed over dimensions
  double elbo = 0.0;
  double edm = 0.0;
  double quality = 0.0;                                      // the one selected by eval.reference
  double swd = std::numeric_limits<double>::quiet_NaN();     // NaN when not computed
  double fd = std::numeric_limits<double>::quiet_NaN();      // NaN when not computed
  double kmerJs = std::numeric_limits<double>::quiet_NaN();  // NaN when not computed
  int64_t qualitySamples = 0;  // Heun samples behind fd / kmer_js (0: not computed)
  int64_t heunSteps = 0;       // σ steps they were drawn with
};

class FeatureNetwork;

class Evaluator {
 public:
  // discrete: every value is ±1 (binarised images, one-hot DNA): samples are rounded before
  // their quality is scored. Throws InputError for a feature network that does not load or does
  // not fit the data's shape, and for a σ-steps file that does not read.
  Evaluator(const Dataset& test, const EvalSettings& settings, double sigmaMin, double sigmaMax,
            double sigmaData, uint64_t seed, c10::Device device, bool discrete = false);
  ~Evaluator();

  bool computesSampleQuality() const { return sampleQuality_; }
  bool computesGeneratedQuality() const { return generatedQuality_; }
  // The feature network scored with (null when none); its path and accuracy go into the events.
  const FeatureNetwork* featureNetwork() const { return features_.get(); }
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
  bool generatedQuality_ = false, discrete_ = false;
  Dataset reference_;  // held-out data the generated samples are scored against
  std::shared_ptr<const FeatureNetwork> features_;
  at::Tensor qualityStart_;
  std::vector<double> qualitySigmas_;  // descending, ending in 0
};

// The diffusion term of the discrete-time ELBO of sampling on `sigmas` (descending; a trailing 0
// is ignored), in nats per dimension: with SNR = 1/σ², Σ_i ½ (SNR(σ_{i+1}) − SNR(σ_i)) ·
// E‖x0 − D(x0 + σ_i ε; σ_i)‖² / D over consecutive levels (Kingma et al. 2021, the finite-T
// bound L_T; it is the bound of ancestral sampling on that grid). x0 and noise: [N, ...].
// Excludes the prior term at σ_0 and the reconstruction term at the smallest σ.
double gridElbo(const DenoiseFunction& denoiser, const at::Tensor& x0, const at::Tensor& noise,
                const std::vector<double>& sigmas);
// The two end terms that make gridElbo a bound on −log p(x0) for data in {−1, +1}^D (binarised
// images, one-hot DNA), in nats per dimension: the prior KL(N(x0, σ_max²) ‖ N(0, σ_max²)) =
// x0²/(2σ_max²) and the reconstruction −log p(x0 | z) at σ_min with the factorised decoder
// p(x = ±1 | z) = sigmoid(±2z/σ_min²), z = x0 + σ_min·noise. The same x0 and noise as gridElbo.
double discreteElboEnds(const at::Tensor& x0, const at::Tensor& noise, double sigmaMin,
                        double sigmaMax);
// Sliced W2 between two point sets [N, D] and [M, D] over the unit directions [P, D]:
// √(mean over directions of W2² between the projected empirical distributions).
double slicedWasserstein(const at::Tensor& a, const at::Tensor& b, const at::Tensor& directions);

}  // namespace noisescope::train
