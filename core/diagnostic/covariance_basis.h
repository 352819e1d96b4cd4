#pragma once
// Internal to noisescope_diagnostic: the eigendecomposition of a dataset's covariance, shared by
// the plug-in Gaussian estimate (eigenvalues only) and the held-out Wiener bound (eigenvectors
// too, to fit its linear denoiser on the prior).
#include <Eigen/Dense>

#include <string>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/gaussian_profile.h"
#include "util/progress.h"

namespace noisescope {

struct CovarianceBasis {
  Eigen::VectorXd mean;        // per-coordinate mean, D
  Eigen::MatrixXd vectors;     // D × K orthonormal eigenvectors (empty unless asked for)
  std::vector<double> values;  // K eigenvalues, descending, clipped at 0
  double trace = 0.0;          // tr Σ, exact on both paths
  std::string method;          // "exact" (K = D) or "randomised" (K = rank, the Ritz pairs)
};

// Covariance with 1/N normalisation about the mean. D ≤ options.exactDimLimit: all D pairs from a
// dense fp64 decomposition; above it the top `rank` Ritz pairs of a randomised range finder.
// Throws InputError for fewer than two samples or bad options; Cancelled when progress asks.
CovarianceBasis covarianceBasis(const Dataset& dataset, const GaussianSpectrumOptions& options,
                                bool wantVectors, const Progress& progress = {});

}  // namespace noisescope
