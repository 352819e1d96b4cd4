#include "diagnostic/gaussian_profile.h"

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "data/statistics.h"
#include "io/provenance.h"
#include "util/error.h"

namespace noisescope {

namespace {

// Rows converted to fp64 at once: bounds the extra memory to rows × D doubles.
constexpr int64_t kRowChunk = 2048;

using Matrix = Eigen::MatrixXd;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::string nameOf(const Dataset& dataset) {
  return dataset.source.empty() ? dataset.name : dataset.source;
}

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

std::vector<double> descending(const Eigen::VectorXd& values) {
  std::vector<double> out(values.data(), values.data() + values.size());
  for (double& x : out) x = std::max(0.0, x);  // rounding can leave tiny negatives
  std::sort(out.begin(), out.end(), std::greater<double>());
  return out;
}

}  // namespace

int64_t CovarianceSpectrum::numericalRank() const {
  if (eigenvalues.empty() || !(eigenvalues.front() > 0.0)) return 0;
  const double cut = 1e-12 * eigenvalues.front();
  return std::count_if(eigenvalues.begin(), eigenvalues.end(), [cut](double x) { return x > cut; });
}

CovarianceSpectrum covarianceSpectrum(const Dataset& dataset,
                                      const GaussianSpectrumOptions& options,
                                      const Progress& progress) {
  const int64_t n = dataset.size(), d = dataset.dim();
  if (n < 2 || d < 1) throw InputError(nameOf(dataset), "a covariance needs at least two samples");
  if (options.rank < 1 || options.oversample < 0 || options.powerIterations < 0)
    throw InputError("--rank",
                     "the randomised spectrum needs rank ≥ 1, oversample ≥ 0 and "
                     "power iterations ≥ 0");
  const Eigen::VectorXd mean = columnMean(dataset);
  CovarianceSpectrum out;
  for (int64_t r0 = 0; r0 < n; r0 += kRowChunk) {
    const int64_t rows = std::min(kRowChunk, n - r0);
    out.trace += centredRows(dataset, mean, r0, rows).squaredNorm();
  }
  out.trace /= static_cast<double>(n);

  if (d <= options.exactDimLimit) {
    out.method = "exact";
    Matrix covariance = Matrix::Zero(d, d);
    for (int64_t r0 = 0; r0 < n; r0 += kRowChunk) {
      progress.throwIfCancelled();
      const int64_t rows = std::min(kRowChunk, n - r0);
      covariance.selfadjointView<Eigen::Lower>().rankUpdate(
          centredRows(dataset, mean, r0, rows).transpose());
      progress.report(0.9 * static_cast<double>(r0 + rows) / static_cast<double>(n), "covariance");
    }
    covariance /= static_cast<double>(n);
    Eigen::SelfAdjointEigenSolver<Matrix> solver;
    solver.compute(covariance, Eigen::EigenvaluesOnly);
    if (solver.info() != Eigen::Success)
      throw InputError(nameOf(dataset), "the covariance eigendecomposition did not converge");
    out.eigenvalues = descending(solver.eigenvalues());
    out.explicitCount = d;
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
  Matrix q = orthonormalColumns(applyCovariance(dataset, mean, omega, progress));
  progress.report(1.0 / passes, "range");
  for (int it = 0; it < options.powerIterations; ++it) {
    q = orthonormalColumns(applyCovariance(dataset, mean, q, progress));
    progress.report(static_cast<double>(it + 2) / passes, "range");
  }
  const Matrix sq = applyCovariance(dataset, mean, q, progress);
  const Matrix small = (q.transpose() * sq + sq.transpose() * q) / 2.0;  // symmetric Qᵀ Σ Q
  Eigen::SelfAdjointEigenSolver<Matrix> solver(small, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success)
    throw InputError(nameOf(dataset), "the projected eigenproblem did not converge");
  std::vector<double> ritz = descending(solver.eigenvalues());
  const int64_t keep = std::min<int64_t>(options.rank, static_cast<int64_t>(ritz.size()));
  ritz.resize(static_cast<size_t>(keep));
  double top = 0.0;
  for (double x : ritz) top += x;
  out.tailTotal = std::max(0.0, out.trace - top);
  out.eigenvalues = ritz;
  out.explicitCount = keep;
  if (d > keep) {
    const double each = out.tailTotal / static_cast<double>(d - keep);
    out.eigenvalues.resize(static_cast<size_t>(d), each);
  }
  progress.report(1.0, "spectrum");
  return out;
}

std::vector<double> wienerMmse(const std::vector<double>& eigenvalues,
                               const std::vector<double>& sigma) {
  std::vector<double> out;
  out.reserve(sigma.size());
  for (double s : sigma) {
    const double s2 = s * s;
    double sum = 0.0;
    // Smallest first: the many small tail terms are not lost against the large ones.
    for (auto it = eigenvalues.rbegin(); it != eigenvalues.rend(); ++it) {
      if (*it > 0.0) sum += *it * s2 / (*it + s2);
    }
    out.push_back(sum);
  }
  return out;
}

Profile computeGaussianProfile(const Dataset& dataset, const DiagnosticOptions& options,
                               const GaussianSpectrumOptions& spectrumOptions,
                               const Progress& progress) {
  options.validate();
  const auto started = std::chrono::steady_clock::now();
  const std::vector<double> sigma =
      logSigmaLevels(options.levels, options.sigmaMin, options.sigmaMax);
  const CovarianceSpectrum spectrum = covarianceSpectrum(dataset, spectrumOptions, progress);

  Profile profile;
  profile.kind = "gaussian";
  profile.sigma = sigma;
  profile.dim = dataset.dim();
  profile.datasetSize = dataset.size();
  profile.queries = 0;  // closed form: no Monte Carlo queries
  profile.sigmaData = measureSigmaData(dataset);
  MmseEstimate wiener;
  wiener.name = "wiener";
  wiener.description =
      "sum_k lambda_k sigma^2/(lambda_k + sigma^2) over the covariance eigenvalues (linear MMSE); "
      "closed form, standard error 0";
  wiener.mean = wienerMmse(spectrum.eigenvalues, sigma);
  wiener.standardError.assign(sigma.size(), 0.0);
  wiener.ciLow = wiener.mean;
  wiener.ciHigh = wiener.mean;
  profile.estimates.push_back(std::move(wiener));
  profile.rates = computeRates(sigma, profile.primary());

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  nlohmann::json parameters = {
      {"levels", options.levels},
      {"sigma_min", options.sigmaMin},
      {"sigma_max", options.sigmaMax},
      {"covariance", "1/N normalisation, about the per-coordinate mean"},
      {"method", spectrum.method},
      {"exact_dim_limit", spectrumOptions.exactDimLimit},
      {"standard_errors", "0: closed form, no Monte Carlo"},
  };
  if (spectrum.method == "randomised") {
    parameters["rank"] = spectrumOptions.rank;
    parameters["oversample"] = spectrumOptions.oversample;
    parameters["power_iterations"] = spectrumOptions.powerIterations;
    parameters["tail"] =
        "the D - rank eigenvalues beyond the Ritz values are replaced by their average "
        "(tr Sigma - sum of Ritz values)/(D - rank); by Schur-concavity this can only raise "
        "MMSE_G, "
        "so the curve stays an upper bound";
  }
  profile.provenance = makeProvenance("noisescope gaussian profile", parameters);
  profile.provenance["dataset"] = describeDataset(dataset);
  profile.provenance["seed"] = spectrumOptions.seed;
  profile.provenance["wall_seconds"] = seconds;
  const size_t shown = std::min<size_t>(spectrum.eigenvalues.size(), 32);
  profile.provenance["spectrum"] = {
      {"trace", spectrum.trace},
      {"explicit_eigenvalues", spectrum.explicitCount},
      {"numerical_rank", spectrum.numericalRank()},
      {"tail_total", spectrum.tailTotal},
      {"top_eigenvalues",
       std::vector<double>(spectrum.eigenvalues.begin(),
                           spectrum.eigenvalues.begin() + static_cast<std::ptrdiff_t>(shown))},
  };
  return profile;
}

}  // namespace noisescope
