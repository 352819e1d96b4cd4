#pragma once
// EDM preconditioning (Karras et al. 2022): the network F sees a unit-variance input and predicts a
// unit-variance target; the denoiser is D(x; σ) = c_skip·x + c_out·F(c_in·x, c_noise).
#include <cmath>

namespace noisescope::train {

struct EdmPreconditioning {
  double sigmaData = 0.5;  // σ_d, measured from the training data

  double cSkip(double sigma) const {
    const double sd2 = sigmaData * sigmaData;
    return sd2 / (sigma * sigma + sd2);
  }
  double cOut(double sigma) const {
    return sigma * sigmaData / std::sqrt(sigma * sigma + sigmaData * sigmaData);
  }
  double cIn(double sigma) const { return 1.0 / std::sqrt(sigma * sigma + sigmaData * sigmaData); }
  double cNoise(double sigma) const { return 0.25 * std::log(sigma); }
  // The EDM loss weight (σ² + σ_d²)/(σ·σ_d)²; with it, λ(σ)·c_out(σ)² = 1.
  double edmWeight(double sigma) const {
    return (sigma * sigma + sigmaData * sigmaData) / (sigma * sigmaData * sigma * sigmaData);
  }
};

}  // namespace noisescope::train
