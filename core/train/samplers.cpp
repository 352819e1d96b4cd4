#include "train/samplers.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>

#include "schedule/sampling_grid.h"

namespace noisescope::train {
namespace {

constexpr int64_t kSamplesPerPass = 1024;  // samples per forward pass

// The walk the samplers share: x starts as the noise scaled to σ_0 and `step` takes it from each
// level to the next (σ_i, σ_{i+1}), without autograd, checking for cancellation before a step and
// reporting the share done after it. The samplers differ only in their step.
template <class Step>
at::Tensor walkSigmas(const at::Tensor& startNoise, const std::vector<double>& sigmas,
                      const Progress& progress, const Step& step) {
  c10::AutoGradMode noGrad(false);
  at::Tensor x = startNoise * sigmas.front();
  for (size_t i = 0; i + 1 < sigmas.size(); ++i) {
    progress.throwIfCancelled();
    x = step(x, sigmas[i], sigmas[i + 1]);
    progress.report(double(i + 1) / double(sigmas.size() - 1));
  }
  return x;
}

}  // namespace

at::Tensor denoiseInChunks(const DenoiseFunction& denoiser, const at::Tensor& y, double sigma) {
  std::vector<at::Tensor> parts;
  for (int64_t begin = 0; begin < y.size(0); begin += kSamplesPerPass) {
    const auto chunk = y.narrow(0, begin, std::min(kSamplesPerPass, y.size(0) - begin));
    const auto s = at::full({chunk.size(0)}, sigma, chunk.options());
    parts.push_back(denoiser(chunk, s));
  }
  return at::cat(parts, 0);
}

std::vector<double> edmSamplingSigmas(int64_t steps, double sigmaMin, double sigmaMax, double rho) {
  // The Karras grid has one implementation, the sampling-grid family's.
  schedule::SamplingGridSpec spec;
  spec.family = schedule::GridFamily::Karras;
  spec.sigmaMin = sigmaMin;
  spec.sigmaMax = sigmaMax;
  spec.rho = rho;
  return schedule::buildSamplingGrid(spec, static_cast<int>(steps));
}

at::Tensor heunSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                      const std::vector<double>& sigmas, const Progress& progress) {
  return walkSigmas(startNoise, sigmas, progress, [&](const at::Tensor& x, double s, double next) {
    const auto d = (x - denoiseInChunks(denoiser, x, s)) / s;
    auto xNext = x + (next - s) * d;
    if (next > 0) {
      const auto d2 = (xNext - denoiseInChunks(denoiser, xNext, next)) / next;
      xNext = x + (next - s) * 0.5 * (d + d2);
    }
    return xNext;
  });
}

at::Tensor eulerSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                       const std::vector<double>& sigmas, const Progress& progress) {
  return walkSigmas(startNoise, sigmas, progress, [&](const at::Tensor& x, double s, double next) {
    const auto denoised = denoiseInChunks(denoiser, x, s);
    return denoised + (next / s) * (x - denoised);
  });
}

at::Tensor eulerAncestralSample(const DenoiseFunction& denoiser, const at::Tensor& startNoise,
                                const std::vector<double>& sigmas, uint64_t seed,
                                const Progress& progress) {
  auto gen = at::detail::createCPUGenerator(seed);
  return walkSigmas(startNoise, sigmas, progress, [&](const at::Tensor& x, double s, double next) {
    const double up = std::sqrt(std::max(0.0, next * next * (s * s - next * next) / (s * s)));
    const double down = std::sqrt(std::max(0.0, next * next - up * up));
    const auto denoised = denoiseInChunks(denoiser, x, s);
    at::Tensor out = denoised + (down / s) * (x - denoised);
    if (up > 0)
      out = out + up * at::randn(out.sizes(), gen, at::kFloat).to(out.device(), out.scalar_type());
    return out;
  });
}

at::Tensor sampleWith(schedule::OdeSampler sampler, const DenoiseFunction& denoiser,
                      const at::Tensor& startNoise, const std::vector<double>& sigmas,
                      uint64_t seed, const Progress& progress) {
  switch (sampler) {
    case schedule::OdeSampler::Heun:
      return heunSample(denoiser, startNoise, sigmas, progress);
    case schedule::OdeSampler::Euler:
      return eulerSample(denoiser, startNoise, sigmas, progress);
    case schedule::OdeSampler::EulerAncestral:
      break;
  }
  return eulerAncestralSample(denoiser, startNoise, sigmas, seed, progress);
}

}  // namespace noisescope::train
