#pragma once
// Loss weights w(σ) in x0 space (THEORY §5): the factor in front of ‖D(y;σ) − x0‖². SNR = 1/σ².
#include <string>
#include <vector>
#include "schedule/engine_defaults.h"
#include "util/setting_names.h"

namespace noisescope::schedule {

struct LossWeight {
  enum class Kind {
    Edm,           // (σ² + σ_d²) / (σ·σ_d)²
    Uniform,       // 1
    Epsilon,       // 1/σ²  (ε-prediction MSE)
    V,             // 1 + 1/σ²  (v-prediction MSE)
    MinSnr,        // min(1/σ², γ)
    FlowVelocity,  // (1 + 1/σ)²: rectified-flow velocity MSE in x0 space (x0 = x_t − t·v)
    Elbo,  // chosen so that π·w ∝ 1/σ² per d log σ: w = 1/(σ²·π_ℓ(ℓ)) — depends on π
  };
  Kind kind = Kind::Uniform;
  double sigmaData = defaults::kSigmaDataFallback;  // σ_d of the EDM weight
  double gamma = defaults::kMinSnrGamma;            // γ of min-SNR-γ

  // w(σ). `samplingDensityLogSigma` is π_ℓ at σ, used only by Elbo (where it is 0, w is +inf).
  double at(double sigma, double samplingDensityLogSigma = 1.0) const;
  // ∫ w dℓ over [a, b] in closed form (Elbo: ∫ e^{−2ℓ} dℓ, the ELBO target's φ mass).
  double integralOverLogSigma(double a, double b) const;
  // "edm", "uniform", "epsilon", "v", "min-snr", "flow-v", "elbo".
  std::string name() const;
  // Display text with parameters, e.g. "EDM (σ_d = 0.5)".
  std::string label() const;
};

// Parses the names above ("eps" and "min-snr-gamma" also accepted); throws InputError(source, ...).
LossWeight::Kind lossWeightKindFromString(const std::string& name,
                                          const std::string& source = "loss weight");
std::vector<std::string> lossWeightNames();

// "edm", "uniform", ... with its parameters checked (σ_d > 0, γ > 0).
LossWeight makeLossWeight(const std::string& name, double sigmaData = defaults::kSigmaDataFallback,
                          double gamma = defaults::kMinSnrGamma,
                          const std::string& source = settings::kLossWeight);

}  // namespace noisescope::schedule
