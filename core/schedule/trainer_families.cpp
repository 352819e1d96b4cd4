// Coordinates of other trainers and the Jacobians that move their densities to ℓ = log σ.
#include "schedule/trainer_families.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace noisescope::schedule {
namespace {

constexpr int kDdpmSteps = 1000;

// ℓ_k = log σ_k of SD's scaled-linear table, plus one extrapolated knot at k = 1000 so the
// fraction u = k/1000 covers [0, 1] (OneTrainer draws k = ⌊1000·u⌋ ≤ 999).
const std::array<double, kDdpmSteps + 1>& ddpmLogSigmas() {
  static const std::array<double, kDdpmSteps + 1> table = [] {
    std::array<double, kDdpmSteps + 1> t{};
    const double lo = std::sqrt(0.00085), hi = std::sqrt(0.012);
    double alphaBar = 1.0;
    for (int k = 0; k < kDdpmSteps; ++k) {
      const double root = lo + (hi - lo) * k / (kDdpmSteps - 1);
      alphaBar *= 1.0 - root * root;
      t[k] = 0.5 * std::log((1.0 - alphaBar) / alphaBar);
    }
    t[kDdpmSteps] = 2.0 * t[kDdpmSteps - 1] - t[kDdpmSteps - 2];
    return t;
  }();
  return table;
}

}  // namespace

const char* toString(TrainerCoordinate coordinate) {
  switch (coordinate) {
    case TrainerCoordinate::FlowTime:
      return "flow-t";
    case TrainerCoordinate::DdpmTime:
      return "ddpm-t";
    case TrainerCoordinate::Sigma:
      return "sigma";
  }
  return "sigma";
}

double ddpmSigma(int step) {
  return std::exp(ddpmLogSigmas()[std::clamp(step, 0, kDdpmSteps - 1)]);
}

double trainerSigma(double u, TrainerCoordinate coordinate) {
  switch (coordinate) {
    case TrainerCoordinate::FlowTime:
      return u / (1.0 - u);
    case TrainerCoordinate::DdpmTime: {
      // log σ linear between the integer steps.
      const double k = std::clamp(u, 0.0, 1.0) * kDdpmSteps;
      const int i = std::min(static_cast<int>(k), kDdpmSteps - 1);
      const auto& t = ddpmLogSigmas();
      return std::exp(t[i] + (k - i) * (t[i + 1] - t[i]));
    }
    case TrainerCoordinate::Sigma:
      return u;
  }
  return u;
}

double trainerCoordinate(double sigma, TrainerCoordinate coordinate) {
  switch (coordinate) {
    case TrainerCoordinate::FlowTime:
      return sigma / (1.0 + sigma);
    case TrainerCoordinate::DdpmTime: {
      const auto& t = ddpmLogSigmas();
      const double ell = std::log(sigma);
      if (ell <= t.front()) return 0.0;
      if (ell >= t.back()) return 1.0;
      const int i = static_cast<int>(std::upper_bound(t.begin(), t.end(), ell) - t.begin()) - 1;
      return (i + (ell - t[i]) / (t[i + 1] - t[i])) / kDdpmSteps;
    }
    case TrainerCoordinate::Sigma:
      return sigma;
  }
  return sigma;
}

double trainerUnitsPerLogSigma(double logSigma, TrainerCoordinate coordinate) {
  switch (coordinate) {
    case TrainerCoordinate::FlowTime: {
      const double t = 1.0 / (1.0 + std::exp(-logSigma));  // dt/dℓ = t(1 − t)
      return t * (1.0 - t);
    }
    case TrainerCoordinate::DdpmTime: {
      const auto& t = ddpmLogSigmas();
      if (logSigma < t.front() || logSigma > t.back()) return 0.0;  // the table's reach
      int i = static_cast<int>(std::upper_bound(t.begin(), t.end(), logSigma) - t.begin()) - 1;
      i = std::clamp(i, 0, kDdpmSteps - 1);
      return 1.0 / (kDdpmSteps * (t[i + 1] - t[i]));
    }
    case TrainerCoordinate::Sigma:
      return std::exp(logSigma);
  }
  return 0.0;
}

double fluxShiftMu(const TrainerSettings& settings, double maxShift) {
  // Tokens: (H/8 latent)/2 × (W/8 latent)/2.
  const double tokens = std::floor(settings.height / 16.0) * std::floor(settings.width / 16.0);
  const double slope = (maxShift - 0.5) / (4096.0 - 256.0);
  return 0.5 + slope * (tokens - 256.0);
}

double trainerDensityLogSigma(const TrainerTool& tool, const TrainerFamily& family,
                              const std::vector<double>& p, double logSigma) {
  const double jacobian = trainerUnitsPerLogSigma(logSigma, tool.coordinate);
  if (!(jacobian > 0.0)) return 0.0;
  const double u = trainerCoordinate(std::exp(logSigma), tool.coordinate);
  const double d = family.density(u, p);
  return std::isfinite(d) && d > 0.0 ? d * jacobian : 0.0;
}

double trainerX0Weight(const TrainerTool& tool, const TrainerFamily& family,
                       const std::vector<double>& p, double sigma) {
  return family.toolWeight(sigma, p) * tool.lossToX0(sigma);
}

}  // namespace noisescope::schedule
