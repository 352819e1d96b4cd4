#include "diagnostic/covariance_basis.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

namespace {

// Rows converted to fp64 at once: bounds the extra memory to rows × D doubles.
constexpr int64_t kRowChunk = 2048;

using Matrix = Eigen::MatrixXd;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows [r0, r0 + rows) minus the mean, in fp64.
RowMatrix centredRows(const Dataset& dataset, const Eigen::VectorXd& mean, int64_t r0,
                      int64_t rows) {
  const int64_t d = dataset.dim();
  Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> block(
      dataset.sample(r0), rows, d);
  RowMatrix out = block.cast<double>();
  out.rowwise() -= mean.transpose();
  return out;
}

Eigen::VectorXd columnMean(const Dataset& dataset) {
  const int64_t n = dataset.size(), d = dataset.dim();
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(d);
  for (int64_t i = 0; i < n; ++i) {
    const float* x = dataset.sample(i);
    for (int64_t k = 0; k < d; ++k) sum[k] += x[k];
  }
  return sum / static_cast<double>(n);
}

// Σ·V = (1/N) Σ_chunks Xcᵀ (Xc V), never forming Σ (D may be large).
Matrix applyCovariance(const Dataset& dataset, const Eigen::VectorXd& mean, const Matrix& v,
                       const Progress& progress) {
  const int64_t n = dataset.size();
  Matrix out = Matrix::Zero(v.rows(), v.cols());
  for (int64_t r0 = 0; r0 < n; r0 += kRowChunk) {
    progress.throwIfCancelled();
    const int64_t rows = std::min(kRowChunk, n - r0);
    const RowMatrix xc = centredRows(dataset, mean, r0, rows);
    out.noalias() += xc.transpose() * (xc * v);
  }
  return out / static_cast<double>(n);
}

Matrix orthonormalColumns(const Matrix& y) {
  Eigen::HouseholderQR<Matrix> qr(y);
  return qr.householderQ() * Matrix::Identity(y.rows(), y.cols());
}

// The solver's ascending pairs, reordered descending and clipped at 0 (rounding leaves tiny
// negatives); `keep` of them.
void takeDescending(const Eigen::VectorXd& values, const Matrix* vectors, const Matrix* lift,
                    int64_t keep, CovarianceBasis& out) {
  const int64_t k = values.size();
  keep = std::min(keep, k);
  out.values.resize(static_cast<size_t>(keep));
  for (int64_t i = 0; i < keep; ++i) out.values[i] = std::max(0.0, values[k - 1 - i]);
  if (!vectors) return;
  const Matrix ordered = vectors->rowwise().reverse().leftCols(keep);
  out.vectors = lift ? Matrix(*lift * ordered) : ordered;
}

}  // namespace

CovarianceBasis covarianceBasis(const Dataset& dataset, const GaussianSpectrumOptions& options,
                                bool wantVectors, const Progress& progress) {
  const int64_t n = dataset.size(), d = dataset.dim();
  if (n < 2 || d < 1)
    throw InputError(dataset.sourceOrName(), "a covariance needs at least two samples");
  if (options.rank < 1 || options.oversample < 0 || options.powerIterations < 0)
    throw InputError(settings::kSpectrumRank,
                     "the randomised spectrum needs rank ≥ 1, oversample ≥ 0 and "
                     "power iterations ≥ 0");
  CovarianceBasis out;
  out.mean = columnMean(dataset);
  for (int64_t r0 = 0; r0 < n; r0 += kRowChunk) {
    const int64_t rows = std::min(kRowChunk, n - r0);
    out.trace += centredRows(dataset, out.mean, r0, rows).squaredNorm();
  }
  out.trace /= static_cast<double>(n);
  const auto mode = wantVectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly;

  if (d <= options.exactDimLimit) {
    out.method = "exact";
    Matrix covariance = Matrix::Zero(d, d);
    for (int64_t r0 = 0; r0 < n; r0 += kRowChunk) {
      progress.throwIfCancelled();
      const int64_t rows = std::min(kRowChunk, n - r0);
      covariance.selfadjointView<Eigen::Lower>().rankUpdate(
          centredRows(dataset, out.mean, r0, rows).transpose());
      progress.report(0.9 * static_cast<double>(r0 + rows) / static_cast<double>(n), "covariance");
    }
    covariance /= static_cast<double>(n);
    Eigen::SelfAdjointEigenSolver<Matrix> solver;
    solver.compute(covariance, mode);
    if (solver.info() != Eigen::Success)
      throw InputError(dataset.sourceOrName(),
                       "the covariance eigendecomposition did not converge");
    takeDescending(solver.eigenvalues(), wantVectors ? &solver.eigenvectors() : nullptr, nullptr, d,
                   out);
    progress.report(1.0, "spectrum");
    return out;
  }

  // Randomised range finder (Halko, Martinsson & Tropp 2011, Alg. 4.4) and Rayleigh–Ritz.
  out.method = "randomised";
  const int64_t width = std::min<int64_t>(d, options.rank + options.oversample);
  std::mt19937_64 rng(options.seed);
  std::normal_distribution<double> normal;
  Matrix omega(d, width);
  for (int64_t c = 0; c < width; ++c)
    for (int64_t r = 0; r < d; ++r) omega(r, c) = normal(rng);
  const int passes = options.powerIterations + 2;
  Matrix q = orthonormalColumns(applyCovariance(dataset, out.mean, omega, progress));
  progress.report(1.0 / passes, "range");
  for (int it = 0; it < options.powerIterations; ++it) {
    q = orthonormalColumns(applyCovariance(dataset, out.mean, q, progress));
    progress.report(static_cast<double>(it + 2) / passes, "range");
  }
  const Matrix sq = applyCovariance(dataset, out.mean, q, progress);
  const Matrix small = (q.transpose() * sq + sq.transpose() * q) / 2.0;  // symmetric Qᵀ Σ Q
  Eigen::SelfAdjointEigenSolver<Matrix> solver(small, mode);
  if (solver.info() != Eigen::Success)
    throw InputError(dataset.sourceOrName(), "the projected eigenproblem did not converge");
  takeDescending(solver.eigenvalues(), wantVectors ? &solver.eigenvectors() : nullptr, &q,
                 options.rank, out);
  progress.report(1.0, "spectrum");
  return out;
}

}  // namespace noisescope
