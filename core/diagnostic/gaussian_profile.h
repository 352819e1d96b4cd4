#pragma once
// The plug-in Gaussian profile: MMSE_G(σ) = Σ_k λ_k σ²/(λ_k + σ²) with λ_k the eigenvalues of the
// dataset's *sample* covariance. It would be the population's linear MMSE if the covariance were
// the population's; with the sample's it is an *estimate*, and biased low: MMSE_G is concave in
// the covariance, so plugging in a noisy one under-estimates it on average, and when N ≤ D the
// sample covariance has rank N − 1 and the curve misses whole directions. It is never a bound
// (THEORY §10); the bound's linear member is the held-out Wiener filter
// (diagnostic/held_out_wiener.h). Its interval is a bootstrap over rows, which shows the
// sampling spread but not the bias.
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
  uint64_t seed = 0;        // of the random test matrix (and the plug-in curve's bootstrap)
  int bootstrap = 8;        // replicates of the plug-in curve's bootstrap over rows (0: none)
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
// settings are not used). One estimate, "plug_in_wiener": the curve of the whole sample, with the
// standard deviation of `spectrum.bootstrap` row-resampled replicates as its standard error
// (0 without replicates). The provenance flags "n_over_d" < 2 as too few samples for the
// covariance. Throws InputError for fewer than two samples or bad grid settings; Cancelled when
// progress asks.
Profile computeGaussianProfile(const Dataset& dataset, const DiagnosticOptions& options,
                               const GaussianSpectrumOptions& spectrum = {},
                               const Progress& progress = {});

}  // namespace noisescope
