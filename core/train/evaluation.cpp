#include "train/evaluation.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>

#include "io/sigma_steps_io.h"
#include "train/dataset_tensor.h"
#include "train/feature_network.h"
#include "train/sample_quality.h"
#include "util/error.h"
#include "util/log_grid.h"

namespace noisescope::train {
Evaluator::Evaluator(const Dataset& test, const EvalSettings& settings, double sigmaMin,
                     double sigmaMax, double sigmaData, uint64_t seed, c10::Device device,
                     bool discrete)
    : settings_(settings),
      sigmaMin_(sigmaMin),
      sigmaMax_(sigmaMax),
      sigmaData_(sigmaData),
      seed_(seed),
      device_(device),
      shape_(test.sampleShape) {
  const int64_t n = std::min<int64_t>(settings.samples, test.size());
  auto gen = at::detail::createCPUGenerator(seed ^ 0x5eedf00dULL);
  const auto all = datasetTensor(test, test.size());
  const auto rows = at::randperm(test.size(), gen, at::kLong).narrow(0, 0, n);
  x0_ = all.index_select(0, rows).to(device);
  noise_ = at::randn(x0_.sizes(), gen, at::kFloat).to(device);
  levels_ = logSpacedGrid(sigmaMin, sigmaMax, static_cast<int>(settings.levels));
  const bool flatSmall = test.sampleShape.size() == 1 && test.dim() <= 16;
  sampleQuality_ =
      settings.sampleQuality == "on" || (settings.sampleQuality == "auto" && flatSmall);
  if (sampleQuality_) {
    const int64_t m = std::min<int64_t>(settings.swdSamples, test.size());
    const auto refRows = at::randperm(test.size(), gen, at::kLong).narrow(0, 0, m);
    swdReference_ = all.index_select(0, refRows).flatten(1).to(at::kDouble);
    projections_ = at::randn({settings.swdProjections, test.dim()}, gen, at::kDouble);
    projections_ = projections_ / projections_.norm(2, {1}, true);
    std::vector<int64_t> startShape{settings.swdSamples};
    startShape.insert(startShape.end(), test.sampleShape.begin(), test.sampleShape.end());
    start_ = at::randn(startShape, gen, at::kFloat).to(device);
  }
  const bool dna = test.sampleShape.size() == 2 && test.sampleShape[1] == 4;
  generatedQuality_ =
      settings.sampleQuality != "off" && !flatSmall && (!settings.featureNetwork.empty() || dna);
  if (generatedQuality_) {
    discrete_ = discrete;
    reference_ = test;
    if (!settings.featureNetwork.empty()) {
      features_ = std::make_shared<const FeatureNetwork>(settings.featureNetwork);
      if (features_->info().sampleShape != test.sampleShape)
        throw InputError(settings.featureNetwork,
                         "the feature network was trained on other shapes than " +
                             test.shapeString() + " (eval.feature_network)");
    }
    if (!settings.heunSigmaSteps.empty()) {
      const auto steps = readSigmaSteps(settings.heunSigmaSteps);  // ascending
      qualitySigmas_.assign(steps.sigma.rbegin(), steps.sigma.rend());
      qualitySigmas_.push_back(0.0);
    } else {
      qualitySigmas_ = edmSamplingSigmas(settings.heunSteps, sigmaMin, sigmaMax, settings.heunRho);
    }
    // Own generator: adding the measure leaves every other fixed draw as it was.
    auto qgen = at::detail::createCPUGenerator(seed ^ 0xfd5eedULL);
    std::vector<int64_t> startShape{settings.qualitySamples};
    startShape.insert(startShape.end(), test.sampleShape.begin(), test.sampleShape.end());
    qualityStart_ = at::randn(startShape, qgen, at::kFloat).to(device);
  }
}

Evaluator::~Evaluator() = default;

EvaluationResult Evaluator::evaluate(const DenoiseFunction& denoiser) const {
  c10::AutoGradMode noGrad(false);
  EvaluationResult r;
  r.sigmas = levels_;
  const double dim = double(x0_[0].numel());
  for (double sigma : levels_) {
    const auto y = x0_ + sigma * noise_;
    const auto d = denoiseInChunks(denoiser, y, sigma);
    r.error.push_back((d - x0_).pow(2).flatten(1).sum(1).mean().item<double>());
  }
  // Trapezoid rule in ℓ = log σ on the (uniform in ℓ) levels.
  const double dl = (std::log(sigmaMax_) - std::log(sigmaMin_)) / double(levels_.size() - 1);
  double elbo = 0, edm = 0, edmNorm = 0;
  for (size_t i = 0; i < levels_.size(); ++i) {
    const double s = levels_[i];
    const double trap = (i == 0 || i + 1 == levels_.size()) ? 0.5 * dl : dl;
    elbo += trap * r.error[i] / (s * s);
    const double z = (std::log(s) + 1.2) / 1.2;
    const double p = std::exp(-0.5 * z * z) * trap;
    const double w = (s * s + sigmaData_ * sigmaData_) / (s * s * sigmaData_ * sigmaData_);
    edm += p * w * r.error[i];
    edmNorm += p;
  }
  r.elbo = elbo / dim;
  r.edm = edmNorm > 0 ? edm / edmNorm / dim : 0.0;
  r.quality = settings_.reference == "edm" ? r.edm : r.elbo;
  if (sampleQuality_) {
    const auto sigmas =
        edmSamplingSigmas(settings_.heunSteps, sigmaMin_, sigmaMax_, settings_.heunRho);
    const auto samples = heunSample(denoiser, start_, sigmas);
    r.swd = slicedWasserstein(samples.flatten(1).to(at::kCPU, at::kDouble), swdReference_,
                              projections_);
  }
  if (generatedQuality_) {
    const auto samples = heunSample(denoiser, qualityStart_, qualitySigmas_).to(at::kCPU);
    const auto q = scoreSamples(samples, reference_, discrete_, features_.get());
    r.fd = q.fd;
    r.kmerJs = q.kmerJs;
    r.qualitySamples = q.samples;
    r.heunSteps = int64_t(qualitySigmas_.size()) - 1;
  }
  return r;
}

double gridElbo(const DenoiseFunction& denoiser, const at::Tensor& x0, const at::Tensor& noise,
                const std::vector<double>& sigmas) {
  c10::AutoGradMode noGrad(false);
  std::vector<double> levels;
  for (double s : sigmas)
    if (s > 0) levels.push_back(s);
  const double dim = double(x0[0].numel());
  double total = 0;
  for (size_t i = 0; i + 1 < levels.size(); ++i) {
    const double s = levels[i];
    const auto d = denoiseInChunks(denoiser, x0 + s * noise, s);
    const double err = (d - x0).pow(2).flatten(1).sum(1).mean().item<double>();
    total += 0.5 * (1.0 / (levels[i + 1] * levels[i + 1]) - 1.0 / (s * s)) * err;
  }
  return total / dim;
}

double discreteElboEnds(const at::Tensor& x0, const at::Tensor& noise, double sigmaMin,
                        double sigmaMax) {
  const auto x = x0.to(at::kDouble), z = x + sigmaMin * noise.to(at::kDouble);
  const double prior = (x.pow(2) / (2 * sigmaMax * sigmaMax)).mean().item<double>();
  // −log sigmoid(2xz/σ²) = softplus(−2xz/σ²)
  const double reconstruction =
      at::softplus(-2.0 * x * z / (sigmaMin * sigmaMin)).mean().item<double>();
  return prior + reconstruction;
}

double slicedWasserstein(const at::Tensor& a, const at::Tensor& b, const at::Tensor& directions) {
  const auto pa = std::get<0>(at::sort(at::matmul(a, directions.t()), 0));  // [N, P]
  const auto pb = std::get<0>(at::sort(at::matmul(b, directions.t()), 0));  // [M, P]
  const int64_t q = std::min(pa.size(0), pb.size(0));
  // Compare the two quantile functions at the mid-points of q equal slices.
  auto quantiles = [q](const at::Tensor& sorted) {
    const int64_t n = sorted.size(0);
    auto idx = ((at::arange(q, at::kDouble) + 0.5) * double(n) / double(q)).floor().to(at::kLong);
    return sorted.index_select(0, idx.clamp_max(n - 1));
  };
  const auto diff = quantiles(pa) - quantiles(pb);
  return std::sqrt(diff.pow(2).mean().item<double>());
}

}  // namespace noisescope::train
