#pragma once
// The Gaussian (Wiener) profile of THEORY §10: MMSE_G(σ) = Σ_k λ_k σ²/(λ_k + σ²) with λ_k the
// eigenvalues of the dataset's covariance. It is the MMSE of the best linear denoiser, exact for
// Gaussian data and an upper bound on the MMSE of every distribution with that covariance — in
// particular on the population MMSE when the covariance is the population's. A closed form: its
// standard errors are 0 (no Monte Carlo); the only sampling is the finite dataset itself.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope {

struct GaussianSpectrumOptions {
  // Up to this D the full D×D covariance is decomposed exactly (fp64, Eigen's
  // SelfAdjointEigenSolver); above it a randomised decomposition of the top `rank` eigenvalues.
  int64_t exactDimLimit = 4096;
  int64_t rank = 512;       // eigenvalues computed explicitly on the randomised path
  int64_t oversample = 16;  // extra directions of the random range finder
  int powerIterations = 2;  // subspace iterations sharpening the range
  uint64_t seed = 0;        // of the random test matrix
};

// Eigenvalues of the covariance (1/N normalisation, about the per-coordinate mean), descending.
// Exact path: all D of them. Randomised path: the `rank` Ritz values of the range found, followed
// by D − rank copies of the tail's average (tr Σ − Σ top) / (D − rank). That tail is what keeps the
// result an upper bound: the true spectrum majorises (Ritz values, pinched tail, averaged tail),
// and Σ_k f(λ_k) with f(λ) = λσ²/(λ+σ²) concave is Schur-concave, so the MMSE_G computed from it is
// ≥ the exact one, and equal when the spectrum beyond `rank` is flat. `method` names the path
// taken.
struct CovarianceSpectrum {
  std::vector<double> eigenvalues;
  int64_t explicitCount = 0;      // eigenvalues computed one by one (D on the exact path)
  double trace = 0.0;             // tr Σ, exact on both paths
  double tailTotal = 0.0;         // what was spread evenly over the tail (0 on the exact path)
  std::string method;             // "exact" or "randomised"
  int64_t numericalRank() const;  // eigenvalues above 1e-12·λ_max
};
CovarianceSpectrum covarianceSpectrum(const Dataset& dataset,
                                      const GaussianSpectrumOptions& options = {},
                                      const Progress& progress = {});

// Σ_k λ_k σ²/(λ_k + σ²) at each σ.
std::vector<double> wienerMmse(const std::vector<double>& eigenvalues,
                               const std::vector<double>& sigma);

// Profile kind "gaussian" on the grid of `options` (levels, sigmaMin, sigmaMax; the Monte Carlo
// settings are not used). One estimate, "wiener", with standard errors 0. Throws InputError for
// fewer than two samples or bad grid settings; Cancelled when progress asks.
Profile computeGaussianProfile(const Dataset& dataset, const DiagnosticOptions& options,
                               const GaussianSpectrumOptions& spectrum = {},
                               const Progress& progress = {});

}  // namespace noisescope
