#include "diagnostic/posterior_probe.h"

#include "diagnostic/empirical_posterior.h"
#include "diagnostic/queries.h"
#include "util/error.h"

namespace noisescope {

PosteriorProbe probePosterior(const Dataset& dataset, int64_t sampleIndex,
                              const std::vector<double>& sigmas, const ProbeOptions& options,
                              const Progress& progress) {
  if (sampleIndex < 0 || sampleIndex >= dataset.size())
    throw InputError("sample " + std::to_string(sampleIndex),
                     "outside the dataset (N = " + std::to_string(dataset.size()) + ")");
  if (sigmas.empty()) throw InputError("σ values", "none given");
  const int64_t d = dataset.dim();
  QuerySet query = drawQueries(dataset.size(), d, 1, options.seed);
  query.index[0] = sampleIndex;

  PosteriorEngineSettings settings;
  settings.device = options.device;
  settings.memoryBytes = options.memoryBytes;
  settings.keepPosteriorMeans = true;
  PerQueryPosterior result = evaluateEmpiricalPosterior(dataset, query, sigmas, settings, progress);

  PosteriorProbe probe;
  probe.sampleIndex = sampleIndex;
  probe.sampleShape = dataset.sampleShape;
  probe.sigma = sigmas;
  probe.clean.assign(dataset.sample(sampleIndex), dataset.sample(sampleIndex) + d);
  probe.noisy.resize(sigmas.size() * static_cast<size_t>(d));
  for (size_t l = 0; l < sigmas.size(); ++l) {
    for (int64_t k = 0; k < d; ++k) {
      probe.noisy[l * d + k] =
          static_cast<float>(probe.clean[k] + sigmas[l] * query.noise[static_cast<size_t>(k)]);
    }
  }
  probe.posteriorMean = std::move(result.posteriorMean);
  probe.maxWeight = std::move(result.maxWeight);
  probe.weightEntropy = std::move(result.weightEntropy);
  probe.effectiveSampleSize = std::move(result.effectiveSampleSize);
  probe.posteriorVariance = std::move(result.posteriorVariance);
  probe.squaredError = std::move(result.squaredError);
  return probe;
}

}  // namespace noisescope
