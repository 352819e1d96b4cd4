#include "diagnostic/empirical_diagnostic.h"

#include <chrono>
#include <cmath>

#include "diagnostic/empirical_posterior.h"
#include "diagnostic/queries.h"
#include "data/statistics.h"
#include "io/provenance.h"
#include "util/error.h"

namespace noisescope {

Profile computeEmpiricalProfile(const Dataset& dataset, const DiagnosticOptions& options,
                                const Progress& progress) {
  options.validate();
  if (dataset.size() < 1 || dataset.dim() < 1)
    throw InputError(dataset.source.empty() ? dataset.name : dataset.source,
                     "the dataset is empty");
  const auto started = std::chrono::steady_clock::now();
  const std::vector<double> sigma =
      logSigmaLevels(options.levels, options.sigmaMin, options.sigmaMax);
  const QuerySet queries =
      drawQueries(dataset.size(), dataset.dim(), options.queries, options.seed);

  PosteriorEngineSettings settings;
  settings.device = options.device;
  settings.memoryBytes = options.memoryBytes;
  settings.pruneLogRatio = options.pruneLogRatio;
  settings.distancePrecision = options.distancePrecision;
  const PerQueryPosterior result =
      evaluateEmpiricalPosterior(dataset, queries, sigma, settings, progress);

  Profile profile;
  profile.kind = "empirical";
  profile.sigma = sigma;
  profile.dim = dataset.dim();
  profile.datasetSize = dataset.size();
  profile.sigmaData = measureSigmaData(dataset);
  profile.queries = options.queries;
  profile.estimates.push_back(summarizeEstimate(
      "rao_blackwell", "mean over queries of tr Cov(x0 | y) under the empirical prior",
      result.posteriorVariance, result.levels, result.queries));
  profile.estimates.push_back(
      summarizeEstimate("direct", "mean over queries of |x_j - E[x0 | y_j]|^2", result.squaredError,
                        result.levels, result.queries));
  profile.posterior.maxWeight = averageOverQueries(result.maxWeight, result.levels, result.queries);
  profile.posterior.weightEntropy =
      averageOverQueries(result.weightEntropy, result.levels, result.queries);
  profile.posterior.effectiveSampleSize =
      averageOverQueries(result.effectiveSampleSize, result.levels, result.queries);
  profile.posterior.prunedWeightBound = result.prunedWeightBound;
  profile.posterior.pruneLogRatio = options.pruneLogRatio;
  profile.rates = computeRates(sigma, profile.primary());

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  nlohmann::json parameters = {
      {"levels", options.levels},
      {"sigma_min", options.sigmaMin},
      {"sigma_max", options.sigmaMax},
      {"queries", options.queries},
      {"memory_bytes", options.memoryBytes},
      {"prune_log_ratio", options.pruneLogRatio},
      {"distance_precision", toString(options.distancePrecision)},
      {"query_sampling",
       "j uniform over the dataset with replacement; the same (j, eps) at every sigma"},
  };
  profile.provenance = makeProvenance("noisescope empirical diagnostic", parameters);
  profile.provenance["dataset"] = describeDataset(dataset);
  profile.provenance["seed"] = options.seed;
  profile.provenance["device"] = result.device;
  profile.provenance["wall_seconds"] = seconds;
  profile.provenance["execution"] = {
      {"query_chunk", result.plan.queryChunk},
      {"data_chunk", result.plan.dataChunk},
      {"estimated_peak_extra_bytes", result.plan.estimatedBytes},
      {"one_hot_skips", result.oneHotSkips},
      {"sparse_steps", result.sparseSteps},
      {"dense_steps", result.denseSteps},
  };
  for (const auto& [phase, secs] : result.phaseSeconds)
    profile.provenance["execution"]["seconds_" + phase] = secs;
  return profile;
}

}  // namespace noisescope
