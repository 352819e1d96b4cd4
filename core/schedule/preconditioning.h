#pragma once
// EDM preconditioning (Karras et al. 2022; THEORY §4), the one implementation: the raw network F
// sees an input and predicts a target of roughly unit variance, and the denoiser is
//
//   D(x; σ) = c_skip(σ)·x + c_out(σ)·F(c_in(σ)·x, c_noise(σ))
//   c_skip = σ_d²/(σ² + σ_d²)   c_out = σ·σ_d/√(σ² + σ_d²)   c_in = 1/√(σ² + σ_d²)   c_noise = ¼·ln
//   σ
//
// The coefficients are templates over the type of σ, so that these lines are the formulas for
// every caller: double (the random-feature information model, schedule/information.cpp),
// at::Tensor (the networks, train/networks.cpp) and the TorchScript expression writer of the
// export (train/torchscript_export.cpp), which records the same operations as TorchScript source.
// The header stays torch-free: for a non-arithmetic σ, sqrt and log are found by argument-
// dependent lookup (at::sqrt, at::log for tensors). Arithmetic σ (int, float) is computed in
// double.
#include <cmath>
#include <type_traits>
#include <utility>
#include "schedule/engine_defaults.h"

namespace noisescope::schedule {

struct EdmPreconditioning {
  double sigmaData = defaults::kSigmaDataFallback;  // σ_d: measureSigmaData of the training data
                                                    // (data/statistics.h)

  // The type the coefficients are computed in: double for arithmetic σ, else σ's own type.
  template <class T>
  using Value = std::conditional_t<std::is_arithmetic_v<T>, double, T>;

  template <class T>
  Value<T> cSkip(const T& sigma) const {
    const Value<T>& s = sigma;
    const double sd2 = sigmaData * sigmaData;
    return sd2 / (s * s + sd2);
  }
  template <class T>
  Value<T> cOut(const T& sigma) const {
    using std::sqrt;
    const Value<T>& s = sigma;
    const double sd2 = sigmaData * sigmaData;
    return s * sigmaData / sqrt(s * s + sd2);
  }
  template <class T>
  Value<T> cIn(const T& sigma) const {
    using std::sqrt;
    const Value<T>& s = sigma;
    const double sd2 = sigmaData * sigmaData;
    return 1.0 / sqrt(s * s + sd2);
  }
  template <class T>
  Value<T> cNoise(const T& sigma) const {
    using std::log;
    const Value<T>& s = sigma;
    return 0.25 * log(s);
  }

  // D(x; σ) = c_skip·x + c_out·F(c_in·x, c_noise) for a raw network `network(input, cNoise)`.
  // `perSample` turns a coefficient of σ into one that multiplies x (for a batch: a view of shape
  // [B, 1, …]; for scalars: the identity).
  template <class X, class S, class Network, class PerSample>
  X denoise(const X& x, const S& sigma, Network&& network, PerSample&& perSample) const {
    return perSample(cSkip(sigma)) * x +
           perSample(cOut(sigma)) * network(perSample(cIn(sigma)) * x, cNoise(sigma));
  }
};

}  // namespace noisescope::schedule
