#include "diagnostic/gaussian_profile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "data/statistics.h"
#include "diagnostic/covariance_basis.h"
#include "io/provenance.h"
#include "util/error.h"

namespace noisescope {

namespace {

// Standard deviation, per level, of the plug-in curve over row-resampled copies of the dataset.
std::vector<double> bootstrapSpread(const Dataset& dataset, const GaussianSpectrumOptions& options,
                                    int replicates, const std::vector<double>& sigma,
                                    const Progress& progress) {
  std::vector<double> sum(sigma.size(), 0.0), squares(sigma.size(), 0.0);
  if (replicates < 2) return std::vector<double>(sigma.size(), 0.0);
  std::mt19937_64 engine(options.seed ^ 0xb00757a9ULL);
  const uint64_t n = static_cast<uint64_t>(dataset.size());
  for (int b = 0; b < replicates; ++b) {
    std::vector<int64_t> rows(n);
    for (auto& r : rows) r = static_cast<int64_t>(engine() % n);  // bias of order n/2^64
    const Dataset resampled = selectRows(dataset, rows);
    const std::vector<double> curve =
        wienerMmse(covarianceSpectrum(resampled, options,
                                      progress.sub(static_cast<double>(b) / replicates,
                                                   static_cast<double>(b + 1) / replicates))
                       .eigenvalues,
                   sigma);
    for (size_t l = 0; l < sigma.size(); ++l) {
      sum[l] += curve[l];
      squares[l] += curve[l] * curve[l];
    }
  }
  std::vector<double> out(sigma.size());
  for (size_t l = 0; l < sigma.size(); ++l) {
    const double mean = sum[l] / replicates;
    out[l] = std::sqrt(std::max(0.0, (squares[l] - replicates * mean * mean) / (replicates - 1)));
  }
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
  const CovarianceBasis basis = covarianceBasis(dataset, options, false, progress);
  CovarianceSpectrum out;
  out.method = basis.method;
  out.trace = basis.trace;
  out.eigenvalues = basis.values;
  out.explicitCount = static_cast<int64_t>(basis.values.size());
  const int64_t d = dataset.dim();
  if (out.explicitCount < d) {  // randomised: spread what the Ritz values miss over the tail
    double top = 0.0;
    for (double x : basis.values) top += x;
    out.tailTotal = std::max(0.0, out.trace - top);
    out.eigenvalues.resize(static_cast<size_t>(d),
                           out.tailTotal / static_cast<double>(d - out.explicitCount));
  }
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
  const int replicates = std::max(0, spectrumOptions.bootstrap);
  const double share = 1.0 / (1.0 + replicates);
  const CovarianceSpectrum spectrum =
      covarianceSpectrum(dataset, spectrumOptions, progress.sub(0.0, share));

  Profile profile;
  profile.kind = "gaussian";
  profile.sigma = sigma;
  profile.dim = dataset.dim();
  profile.datasetSize = dataset.size();
  profile.queries = 0;  // closed form: no Monte Carlo queries
  profile.sigmaData = measureSigmaData(dataset);
  MmseEstimate wiener;
  wiener.name = "plug_in_wiener";
  wiener.description =
      "sum_k lambda_k sigma^2/(lambda_k + sigma^2) over the sample covariance's eigenvalues: a "
      "plug-in ESTIMATE of the population's linear MMSE, biased low (never a bound)";
  wiener.mean = wienerMmse(spectrum.eigenvalues, sigma);
  const std::vector<double> spread =
      bootstrapSpread(dataset, spectrumOptions, replicates, sigma, progress.sub(share, 1.0));
  for (size_t l = 0; l < sigma.size(); ++l) {
    wiener.standardError.push_back(spread[l]);
    wiener.ciLow.push_back(std::max(0.0, wiener.mean[l] - kNormal95 * spread[l]));
    wiener.ciHigh.push_back(wiener.mean[l] + kNormal95 * spread[l]);
  }
  wiener.interval = replicates > 0
                        ? "bootstrap over rows (" + std::to_string(replicates) +
                              " replicates): mean +- 1.96 replicate sd; sampling spread only, "
                              "not the downward bias"
                        : "none: no bootstrap replicates";
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
      {"bootstrap_replicates", replicates},
      {"n_over_d", static_cast<double>(dataset.size()) / static_cast<double>(dataset.dim())},
      {"caveat",
       "an estimate, biased low; with N < 2 D the sample covariance is far from the population's "
       "(rank at most N - 1)"},
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
