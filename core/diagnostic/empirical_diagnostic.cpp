#include "diagnostic/empirical_diagnostic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <ATen/ATen.h>

#include "data/statistics.h"
#include "data/streaming/prior_rows.h"
#include "diagnostic/empirical_posterior.h"
#include "diagnostic/onset_bound.h"
#include "diagnostic/queries.h"
#include "io/provenance.h"
#include "tensor/communicator.h"
#include "util/error.h"
#include "util/seeded_split.h"
#include "util/setting_names.h"

namespace noisescope {

namespace {

void requireData(const Dataset& dataset) {
  if (dataset.size() < 1 || dataset.dim() < 1)
    throw InputError(dataset.sourceOrName(), "the dataset is empty");
}

void requireData(const PriorAccess& prior) {
  if (!prior.whole || !prior.rows) throw std::invalid_argument("PriorAccess without rows");
  const Dataset& about = prior.whole->description();
  if (prior.whole->size() < 1 || prior.whole->dim() < 1)
    throw InputError(about.sourceOrName(), "the dataset is empty");
  if (prior.communicator && prior.rows->size() < 1)
    throw InputError(about.sourceOrName(),
                     "has " + std::to_string(prior.whole->size()) + " samples, fewer than the " +
                         std::to_string(prior.communicator->worldSize()) + " ranks sharing it");
}

// The queries, drawn once: on rank 0 of a sharded run, and broadcast to the other ranks.
QuerySet broadcastQueries(const PriorAccess& prior, QuerySet queries) {
  if (!prior.communicator) return queries;
  at::Tensor index = at::from_blob(queries.index.data(), {queries.count()}, at::kLong);
  at::Tensor noise = at::from_blob(queries.noise.data(),
                                   {static_cast<int64_t>(queries.noise.size())}, at::kDouble);
  prior.communicator->broadcast(index, 0);
  prior.communicator->broadcast(noise, 0);
  return queries;
}

QuerySet sharedQueries(const PriorAccess& prior, int64_t sourceSize, const DiagnosticOptions& o) {
  return broadcastQueries(prior, drawQueries(sourceSize, prior.whole->dim(), o.queries, o.seed));
}

// Per-query values [level * queries + j] averaged per held-out point: query j used the point at
// position j mod U of the held-out order (drawHeldOutQueries), U = min(queries, H).
PointRisks perPointMeans(const std::string& member, const std::vector<double>& perQuery, int levels,
                         int64_t queries, int64_t heldOutSize) {
  const int64_t used = std::min(queries, heldOutSize);
  PointRisks out;
  out.member = member;
  out.levels = levels;
  for (int64_t p = 0; p < used; ++p) out.position.push_back(p);
  out.values.assign(static_cast<size_t>(levels * used), 0.0);
  std::vector<double> draws(static_cast<size_t>(used), 0.0);
  for (int64_t j = 0; j < queries; ++j) draws[j % used] += 1.0;
  for (int l = 0; l < levels; ++l)
    for (int64_t j = 0; j < queries; ++j)
      out.values[l * used + j % used] += perQuery[l * queries + j] / draws[j % used];
  return out;
}

// σ_data of the whole prior. Sharded: each rank makes the two passes of measureSigmaData over
// its own rows, and the per-coordinate sums and then the squared deviations are summed over ranks.
double sharedSigmaData(const PriorAccess& prior) {
  if (!prior.communicator) return measureSigmaData(*prior.whole);
  const int64_t n = prior.whole->size(), d = prior.whole->dim();
  std::vector<double> means = coordinateSums(*prior.rows);
  at::Tensor sums = at::from_blob(means.data(), {d}, at::kDouble);
  prior.communicator->allReduceSum(sums);
  for (double& m : means) m /= static_cast<double>(n);
  at::Tensor squares = at::full({1}, squaredDeviations(*prior.rows, means), at::kDouble);
  prior.communicator->allReduceSum(squares);
  return sigmaDataFromSquares(squares.item<double>(), n, d);
}

PriorAccess wholeInMemory(PriorRows& rows) {
  PriorAccess access;
  access.whole = &rows;
  access.rows = &rows;
  return access;
}

// Turns the engine's per-level values into the profile's primary estimate for that level: over
// queries, or (held-out, `heldOutSize` > 0) over the held-out points as the finished profile does.
LevelCallback levelCallback(const LevelObserver& onLevel, const std::string& kind,
                            const std::vector<double>& sigma, bool fromSquaredError,
                            int64_t heldOutSize = 0) {
  if (!onLevel) return {};
  return [onLevel, kind, sigma, fromSquaredError, heldOutSize](const LevelResult& r) {
    const std::vector<double>& v = fromSquaredError ? r.squaredError : r.posteriorVariance;
    const int64_t m = static_cast<int64_t>(v.size());
    const MmseEstimate e =
        heldOutSize > 0
            ? [&] {
                const PointRisks p = perPointMeans(kind, v, 1, m, heldOutSize);
                return summarizeOverPoints("level", "", p.values, 1, p.columns());
              }()
            : summarizeEstimate("level", "", v, 1, m);
    LevelEstimate out;
    out.kind = kind;
    out.level = r.level;
    out.sigma = sigma[static_cast<size_t>(r.level)];
    out.mmse = e.mean.front();
    out.standardError = e.standardError.front();
    out.maxWeight = averageOverQueries(r.maxWeight, 1, m).front();
    onLevel(out);
  };
}

PosteriorEngineSettings engineSettings(const DiagnosticOptions& options, const PriorAccess& prior) {
  PosteriorEngineSettings settings;
  settings.communicator = prior.communicator;
  settings.firstRow = prior.firstRow;
  if (prior.communicator) {
    // Every rank plans for the largest shard, so all cut the queries into the same chunks.
    const int64_t world = prior.communicator->worldSize();
    settings.planRows = (prior.whole->size() + world - 1) / world;
  }
  settings.device = options.device;
  settings.memoryBytes = options.memoryBytes;
  settings.pruneLogRatio = options.pruneLogRatio;
  settings.distancePrecision = options.distancePrecision;
  return settings;
}

// Everything but the estimates, shared by both kinds: grid, sizes, posterior shape, provenance.
Profile assemble(const std::string& kind, const PriorAccess& prior,
                 const DiagnosticOptions& options, const std::vector<double>& sigma,
                 const PerQueryPosterior& result, const std::string& querySampling,
                 double seconds) {
  Profile profile;
  profile.kind = kind;
  profile.sigma = sigma;
  profile.dim = prior.whole->dim();
  profile.datasetSize = prior.whole->size();
  profile.sigmaData = sharedSigmaData(prior);
  profile.queries = options.queries;
  profile.posterior.maxWeight = averageOverQueries(result.maxWeight, result.levels, result.queries);
  profile.posterior.weightEntropy =
      averageOverQueries(result.weightEntropy, result.levels, result.queries);
  profile.posterior.effectiveSampleSize =
      averageOverQueries(result.effectiveSampleSize, result.levels, result.queries);
  profile.posterior.prunedWeightBound = result.prunedWeightBound;
  profile.posterior.pruneLogRatio = options.pruneLogRatio;

  nlohmann::json parameters = {
      {"levels", options.levels},
      {"sigma_min", options.sigmaMin},
      {"sigma_max", options.sigmaMax},
      {"queries", options.queries},
      {"memory_bytes", options.memoryBytes},
      {"prune_log_ratio", options.pruneLogRatio},
      {"distance_precision", toString(options.distancePrecision)},
      {"query_sampling", querySampling},
  };
  profile.provenance = makeProvenance("noisescope " + kind + " diagnostic", parameters);
  profile.provenance["dataset"] = describeDataset(prior.whole->description());
  profile.provenance["dataset"]["size"] = prior.whole->size();
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
      {"dense_gemm_gflop", result.denseGemmFlop / 1e9},
      {"dense_kernel", result.denseKernel},
      {"float32_distance_rows", result.float32DistanceRows},
      {"float64_distance_rows", result.float64DistanceRows},
      {"distance_logit_error_bound", result.distanceLogitErrorBound},
      {"prior_access", prior.rows->access()},
      {"ranks", prior.communicator ? prior.communicator->worldSize() : 1},
  };
  if (prior.communicator) {
    profile.provenance["execution"]["backend"] = "c10d";
    profile.provenance["execution"]["communicated_bytes_rank0"] = result.communicatedBytes;
  }
  for (const auto& [phase, secs] : result.phaseSeconds)
    profile.provenance["execution"]["seconds_" + phase] = secs;
  // Forced float32 is not held to the proven limit (auto is): say when it went past it, in the
  // file, where both faces show a profile's warnings.
  if (result.distanceLogitErrorBound > kFloat32LogitTolerance) {
    char text[400];
    std::snprintf(text, sizeof text,
                  "float32 distances: their proven logit error bound reached %.3g, beyond the "
                  "%.3g within which the MMSE matches float64's; the small-σ levels may be far "
                  "off (the bound falls as σ grows). Precision auto (float64 where needed) or "
                  "float64 gives the exact profile.",
                  result.distanceLogitErrorBound, kFloat32LogitTolerance);
    profile.provenance["warnings"].push_back(text);
  }
  return profile;
}

// Where the queries' noise draws are expected to land near another point only a few times, the
// normal interval over queries misses the error it has not seen (THEORY §3, "The onset level"):
// both estimates' upper ends are raised to the analytic bound's there, and the file says where.
void raiseOnsetLevels(Profile& profile, const PerQueryPosterior& result) {
  if (result.onsetBound.empty()) return;
  const OnsetTerms terms{result.onsetBound, result.onsetEvents};
  std::vector<int> raised;
  for (MmseEstimate& e : profile.estimates) {
    raised = raiseOnsetUpperEnds(e, terms, result.levels, result.queries);
    if (!raised.empty())
      e.interval = std::string(kMmseInterval) + "; " + onsetIntervalDescription();
  }
  nlohmann::json sigmas = nlohmann::json::array();
  for (int l : raised) sigmas.push_back(profile.sigma[static_cast<size_t>(l)]);
  profile.provenance["interval_onset_sigma"] = sigmas;
}

double secondsSince(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

Profile computeEmpiricalProfile(const Dataset& dataset, const DiagnosticOptions& options,
                                const Progress& progress, const LevelObserver& onLevel) {
  options.validate();
  requireData(dataset);
  const std::unique_ptr<PriorRows> rows = residentPrior(dataset);
  return computeEmpiricalProfile(wholeInMemory(*rows), options, progress, onLevel);
}

Profile computeEmpiricalProfile(const PriorAccess& prior, const DiagnosticOptions& options,
                                const Progress& progress, const LevelObserver& onLevel) {
  options.validate();
  requireData(prior);
  const auto started = std::chrono::steady_clock::now();
  const std::vector<double> sigma =
      logSigmaLevels(options.levels, options.sigmaMin, options.sigmaMax);
  const QuerySet queries = sharedQueries(prior, prior.whole->size(), options);
  PosteriorEngineSettings settings = engineSettings(options, prior);
  settings.onLevel = levelCallback(onLevel, "empirical", sigma, false);
  const PerQueryPosterior result =
      evaluateEmpiricalPosterior(*prior.rows, queries, sigma, settings, progress);

  Profile profile =
      assemble("empirical", prior, options, sigma, result,
               "j uniform over the dataset with replacement; the same (j, eps) at every sigma",
               secondsSince(started));
  profile.estimates.push_back(summarizeEstimate(
      "rao_blackwell", "mean over queries of tr Cov(x0 | y) under the empirical prior",
      result.posteriorVariance, result.levels, result.queries));
  profile.estimates.push_back(
      summarizeEstimate("direct", "mean over queries of |x_j - E[x0 | y_j]|^2", result.squaredError,
                        result.levels, result.queries));
  raiseOnsetLevels(profile, result);
  profile.rates = computeRates(sigma, profile.primary());
  return profile;
}

Profile computeHeldOutProfile(const Dataset& prior, const Dataset& heldOut,
                              const DiagnosticOptions& options, const Progress& progress,
                              const LevelObserver& onLevel, PointRisks* perPoint) {
  options.validate();
  requireData(prior);
  const std::unique_ptr<PriorRows> rows = residentPrior(prior);
  return computeHeldOutProfile(wholeInMemory(*rows), heldOut, options, progress, onLevel, perPoint);
}

Profile computeHeldOutProfile(const PriorAccess& prior, const Dataset& heldOut,
                              const DiagnosticOptions& options, const Progress& progress,
                              const LevelObserver& onLevel, PointRisks* perPoint) {
  options.validate();
  requireData(prior);
  requireData(heldOut);
  const Dataset& about = prior.whole->description();
  if (heldOut.size() < 2 || options.queries < 2)
    throw InputError(heldOut.sourceOrName(),
                     "a held-out profile needs at least two held-out samples "
                     "and two queries (its interval is over the points)");
  if (heldOut.dim() != prior.whole->dim())
    throw InputError(heldOut.sourceOrName(),
                     "held-out samples have D = " + std::to_string(heldOut.dim()) + ", the prior " +
                         about.sourceOrName() + " has D = " + std::to_string(prior.whole->dim()));
  const auto started = std::chrono::steady_clock::now();
  const std::vector<double> sigma =
      logSigmaLevels(options.levels, options.sigmaMin, options.sigmaMax);
  const std::vector<int64_t> order = heldOutOrder(heldOut.size(), options.seed);
  const QuerySet queries = broadcastQueries(
      prior, drawHeldOutQueries(order, prior.whole->dim(), options.queries, options.seed));
  PosteriorEngineSettings settings = engineSettings(options, prior);
  settings.onLevel = levelCallback(onLevel, "held-out", sigma, true, heldOut.size());
  const PerQueryPosterior result =
      evaluateHeldOutPosterior(*prior.rows, heldOut, queries, sigma, settings, progress);

  Profile profile = assemble(
      "held-out", prior, options, sigma, result,
      "each held-out point (not part of the prior) once per level, in a seeded order: query j "
      "starts from point j mod min(queries, H) with its own noise; the same (j, eps) at every "
      "sigma",
      secondsSince(started));
  const PointRisks risks =
      perPointMeans("held-out", result.squaredError, result.levels, result.queries, heldOut.size());
  profile.estimates.push_back(summarizeOverPoints(
      "held_out_risk",
      "mean over held-out points of |x_j - E[x0 | y_j]|^2: risk of the empirical-posterior "
      "denoiser, an upper bound on the population MMSE",
      risks.values, risks.levels, risks.columns()));
  const PointRisks variance = perPointMeans("posterior-variance", result.posteriorVariance,
                                            result.levels, result.queries, heldOut.size());
  profile.estimates.push_back(summarizeOverPoints(
      "posterior_variance",
      "mean over held-out points of tr Cov(x0 | y) under the empirical prior (not a risk)",
      variance.values, variance.levels, variance.columns()));
  profile.provenance["held_out_points_used"] = risks.columns();
  if (perPoint) *perPoint = risks;
  profile.rates = computeRates(sigma, profile.primary());
  profile.provenance["queries_from"] = describeDataset(heldOut);
  return profile;
}

HeldOutSplit splitHeldOut(const Dataset& dataset, double share, uint64_t seed) {
  if (!(share > 0.0 && share < 1.0))
    throw InputError(settings::kHeldOutShare,
                     "the held-out share must lie strictly between 0 and 1");
  const int64_t n = dataset.size();
  if (n < 2)
    throw InputError(dataset.sourceOrName(), "a held-out split needs at least two samples");
  const RowSplit rows = seededSplit(n, heldOutCount(n, share, settings::kHeldOutShare), seed);
  char spec[96];
  std::snprintf(spec, sizeof spec, "held-out split share=%g seed=%llu", share,
                static_cast<unsigned long long>(seed));
  HeldOutSplit out{selectRows(dataset, rows.kept), selectRows(dataset, rows.held)};
  out.prior.transforms.push_back(std::string(spec) + " part=prior");
  out.heldOut.transforms.push_back(std::string(spec) + " part=held-out");
  out.heldOut.split = "held-out";
  return out;
}

}  // namespace noisescope
