#include "schedule/loss_weight.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "util/error.h"

namespace noisescope::schedule {

double LossWeight::at(double sigma, double samplingDensityLogSigma) const {
  const double s2 = sigma * sigma;
  switch (kind) {
    case Kind::Edm:
      return (s2 + sigmaData * sigmaData) / (s2 * sigmaData * sigmaData);
    case Kind::Uniform:
      return 1.0;
    case Kind::Epsilon:
      return 1.0 / s2;
    case Kind::V:
      return 1.0 + 1.0 / s2;
    case Kind::MinSnr:
      return std::min(1.0 / s2, gamma);
    case Kind::FlowVelocity:
      return (1.0 + 1.0 / sigma) * (1.0 + 1.0 / sigma);
    case Kind::Elbo:
      if (!(samplingDensityLogSigma > 0.0)) return std::numeric_limits<double>::infinity();
      return 1.0 / (s2 * samplingDensityLogSigma);
  }
  return 1.0;
}

namespace {
// ∫_a^b e^{−kℓ} dℓ.
double expIntegral(double k, double a, double b) {
  return (std::exp(-k * a) - std::exp(-k * b)) / k;
}
}  // namespace

double LossWeight::integralOverLogSigma(double a, double b) const {
  const double width = b - a;
  switch (kind) {
    case Kind::Edm:
      return width / (sigmaData * sigmaData) + expIntegral(2.0, a, b);
    case Kind::Uniform:
      return width;
    case Kind::Epsilon:
      return expIntegral(2.0, a, b);
    case Kind::V:
      return width + expIntegral(2.0, a, b);
    case Kind::MinSnr: {
      // 1/σ² ≤ γ above ℓ* = −½ log γ; below it the weight is the constant γ.
      const double split = std::clamp(-0.5 * std::log(gamma), a, b);
      return gamma * (split - a) + expIntegral(2.0, split, b);
    }
    case Kind::FlowVelocity:
      return width + 2.0 * expIntegral(1.0, a, b) + expIntegral(2.0, a, b);
    case Kind::Elbo:
      return expIntegral(2.0, a, b);
  }
  return width;
}

std::string LossWeight::name() const {
  switch (kind) {
    case Kind::Edm:
      return "edm";
    case Kind::Uniform:
      return "uniform";
    case Kind::Epsilon:
      return "epsilon";
    case Kind::V:
      return "v";
    case Kind::MinSnr:
      return "min-snr";
    case Kind::FlowVelocity:
      return "flow-v";
    case Kind::Elbo:
      return "elbo";
  }
  return "?";
}

std::string LossWeight::label() const {
  char buffer[64];
  switch (kind) {
    case Kind::Edm:
      std::snprintf(buffer, sizeof buffer, "EDM (σ_d = %g)", sigmaData);
      return buffer;
    case Kind::Uniform:
      return "uniform x0";
    case Kind::Epsilon:
      return "ε-MSE (1/σ²)";
    case Kind::V:
      return "v-MSE (1 + 1/σ²)";
    case Kind::MinSnr:
      std::snprintf(buffer, sizeof buffer, "min-SNR-γ (γ = %g)", gamma);
      return buffer;
    case Kind::FlowVelocity:
      return "flow velocity ((1 + 1/σ)²)";
    case Kind::Elbo:
      return "ELBO (π·w ∝ 1/σ²)";
  }
  return "?";
}

LossWeight::Kind lossWeightKindFromString(const std::string& name, const std::string& source) {
  if (name == "edm") return LossWeight::Kind::Edm;
  if (name == "uniform" || name == "x0") return LossWeight::Kind::Uniform;
  if (name == "epsilon" || name == "eps") return LossWeight::Kind::Epsilon;
  if (name == "v") return LossWeight::Kind::V;
  if (name == "min-snr" || name == "min-snr-gamma") return LossWeight::Kind::MinSnr;
  if (name == "flow-v" || name == "flow") return LossWeight::Kind::FlowVelocity;
  if (name == "elbo") return LossWeight::Kind::Elbo;
  throw InputError(source, "unknown loss weight '" + name +
                               "' (expected edm, uniform, epsilon, v, min-snr, flow-v or elbo)");
}

std::vector<std::string> lossWeightNames() {
  return {"edm", "uniform", "epsilon", "v", "min-snr", "flow-v", "elbo"};
}

LossWeight makeLossWeight(const std::string& name, double sigmaData, double gamma,
                          const std::string& source) {
  LossWeight w;
  w.kind = lossWeightKindFromString(name, source);
  if (!(sigmaData > 0.0) || !std::isfinite(sigmaData))
    throw InputError(source, "σ_data must be > 0");
  if (!(gamma > 0.0) || !std::isfinite(gamma)) throw InputError(source, "γ must be > 0");
  w.sigmaData = sigmaData;
  w.gamma = gamma;
  return w;
}

}  // namespace noisescope::schedule
