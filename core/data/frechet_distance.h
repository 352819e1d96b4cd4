#pragma once
// The Fréchet distance between two Gaussians fitted to feature vectors (THEORY §11):
//   FD = ‖μ₁ − μ₂‖² + tr(Σ₁ + Σ₂ − 2(Σ₁Σ₂)^{1/2}).
// With Inception features this is FID; NoiseScope feeds it features of its own small networks.
// Everything is computed in double. tr (Σ₁Σ₂)^{1/2} is taken as tr (Σ₁^{1/2} Σ₂ Σ₁^{1/2})^{1/2}
// (the same eigenvalues, but of a symmetric matrix), from two symmetric eigendecompositions with
// round-off negative eigenvalues clamped to 0, so it stays real and stable for the rank-deficient
// covariances that small sample counts give.
#include <cstdint>
#include <string>
#include <vector>

namespace noisescope {

struct GaussianFit {
  int64_t dimension = 0;
  int64_t count = 0;               // samples the fit came from (FD is biased at small counts)
  std::vector<double> mean;        // [D]
  std::vector<double> covariance;  // [D×D] row-major, unbiased (1/(N−1))
};

// rows: count × dimension values, sample-major. Throws InputError (naming `what`) for fewer than
// two samples or a size that is not count × dimension.
GaussianFit fitGaussian(const std::vector<double>& rows, int64_t dimension,
                        const std::string& what);
GaussianFit fitGaussian(const std::vector<float>& rows, int64_t dimension, const std::string& what);

// Throws InputError when the dimensions differ. The result is ≥ 0 (clamped at round-off level).
double frechetDistance(const GaussianFit& a, const GaussianFit& b);

}  // namespace noisescope
