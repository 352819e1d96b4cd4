#pragma once
// The empirical optimal denoiser (THEORY §3) evaluated for a set of queries at a row of σ values.
// This is the engine under the offline diagnostic and the GUI's single-sample probe: it returns,
// per level and query, the posterior variance tr Cov(x0 | y) (Rao–Blackwellised MMSE term), the
// squared error ‖x_j − m(y)‖² (direct term) and the posterior's shape (max weight, entropy, ESS).
//
// Every data point is part of the prior (no subsampling). Work is organised so that
//  * the distance GEMMs x_j·Xᵀ and ε_j·Xᵀ are done once for all levels (common random numbers);
//  * the logits of each level cost O(queries × N) from them;
//  * queries whose posterior is provably one-hot on their own point at a level (every other
//    weight below e^−τ of it) skip that level; sparse posteriors are gathered, dense ones use a
//    GEMM;
//  * extra memory stays under `memoryBytes` whatever N is (tiles merged by streaming log-sum-exp);
//  * the prior is read tile by tile (data/streaming/prior_rows.h), so it need not be in memory: a
//  streamed
//    prior costs one tile of rows (and the queries' own points) beyond `memoryBytes`;
//  * sharded across processes (settings.communicator): each rank holds a contiguous shard of the
//    prior, and before a level of a query chunk is finished the ranks merge their partial
//    statistics (largest logit, weight sums, first and second moments) with c10d collectives.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/chunk_plan.h"
#include "diagnostic/diagnostic_options.h"
#include "diagnostic/queries.h"
#include "util/progress.h"

namespace noisescope {

class Communicator;
class PriorRows;

// One σ level's per-query values, handed out (on the computing thread) as soon as every query
// has finished that level, so that a face can draw a long run level by level.
struct LevelResult {
  int level = 0;
  std::vector<double> posteriorVariance, squaredError, maxWeight;  // one per query
};
using LevelCallback = std::function<void(const LevelResult&)>;

struct PosteriorEngineSettings {
  std::string device = "auto";
  int64_t memoryBytes = int64_t{1024} << 20;
  double pruneLogRatio = 40.0;  // τ: weights below e^−τ of the largest are dropped
  DistancePrecision distancePrecision = DistancePrecision::Auto;
  bool keepPosteriorMeans = false;  // fill PerQueryPosterior::posteriorMean (levels×queries×D)
  LevelCallback onLevel;            // optional: called once per level when it is complete
  // Sharded run: the prior handed to the engine is rows [firstRow, firstRow + its size) of the
  // whole prior, and every rank of `communicator` calls the engine with the same queries, σ and
  // `planRows` (the shard size the chunk plan is made for, so that all ranks cut the queries
  // alike). Query indices are global. Null communicator: one process, the whole prior.
  Communicator* communicator = nullptr;
  int64_t firstRow = 0;
  int64_t planRows = 0;  // 0: this prior's own size
};

struct PerQueryPosterior {
  int levels = 0;
  int64_t queries = 0;
  int64_t dim = 0;
  // Index [level * queries + query].
  std::vector<double> posteriorVariance;  // tr Cov(x0 | y) = Σ w_i ‖x_i − m‖²
  std::vector<double> squaredError;       // ‖x_j − m(y)‖²
  std::vector<double> maxWeight;
  std::vector<double> weightEntropy;        // nats
  std::vector<double> effectiveSampleSize;  // 1 / Σ w_i²
  std::vector<float> posteriorMean;         // [level][query][dim], only with keepPosteriorMeans

  ChunkPlan plan;
  std::string device;
  // Upper bound on the total weight dropped per query: (N − 1)·e^−τ (weights are normalised),
  // times e^{2δ} when float32 terms were used (δ below), at most 1.
  double prunedWeightBound = 0.0;
  // Distance terms (diagnostic/distance_terms.h): (query, tile) rows assembled from float32 and
  // from float64 GEMMs, and δ, the largest proven error of a float32-assembled logit at any
  // σ level it was used at (0 when none was).
  int64_t float32DistanceRows = 0;
  int64_t float64DistanceRows = 0;
  double distanceLogitErrorBound = 0.0;
  // How the (level, tile) pieces were handled: skipped as one-hot, gathered, or by GEMM.
  int64_t oneHotSkips = 0;
  int64_t sparseSteps = 0;
  int64_t denseSteps = 0;
  // Flops of the dense steps' W·X GEMMs (2·k·cols·D per step), for the achieved GEMM rate.
  double denseGemmFlop = 0.0;
  std::string denseKernel;  // the fused dense step's CPU kernel ("avx2", "default")
  // Sharded runs: payload bytes this rank handed to collectives (queries, merges, counters).
  int64_t communicatedBytes = 0;
  // Queries from the prior's own points only (empty for held-out queries), [level * queries +
  // query]: the analytic bound U_j(σ) on the query's expected posterior variance and its expected
  // off-own-point events (diagnostic/onset_bound.h), from each query's nearest neighbours.
  std::vector<double> onsetBound, onsetEvents;
  // Wall seconds per phase (CPU timings; on a GPU they measure launch, not completion).
  std::vector<std::pair<std::string, double>> phaseSeconds;

  size_t at(int level, int64_t query) const {
    return static_cast<size_t>(level) * static_cast<size_t>(queries) + static_cast<size_t>(query);
  }
};

// `sigmas` must be positive. Throws InputError for an empty dataset or a bad device / memory
// setting, Cancelled when `progress` asks for it, DistributedError when a rank is lost.
PerQueryPosterior evaluateEmpiricalPosterior(PriorRows& prior, const QuerySet& queries,
                                             const std::vector<double>& sigmas,
                                             const PosteriorEngineSettings& settings,
                                             const Progress& progress = {});
PerQueryPosterior evaluateEmpiricalPosterior(const Dataset& dataset, const QuerySet& queries,
                                             const std::vector<double>& sigmas,
                                             const PosteriorEngineSettings& settings,
                                             const Progress& progress = {});

// The same posterior of the prior `dataset`, for queries whose clean points x_j are rows of
// `querySource` (held-out samples, THEORY §10): queries.index points into querySource, and x_j
// is not part of the prior. Without an own point in the prior no level can be certified one-hot,
// so every query is evaluated at every level; squaredError is then the held-out risk of the
// empirical-posterior denoiser. Same shape, dimension and outputs as above.
PerQueryPosterior evaluateHeldOutPosterior(PriorRows& prior, const Dataset& querySource,
                                           const QuerySet& queries,
                                           const std::vector<double>& sigmas,
                                           const PosteriorEngineSettings& settings,
                                           const Progress& progress = {});
PerQueryPosterior evaluateHeldOutPosterior(const Dataset& dataset, const Dataset& querySource,
                                           const QuerySet& queries,
                                           const std::vector<double>& sigmas,
                                           const PosteriorEngineSettings& settings,
                                           const Progress& progress = {});

}  // namespace noisescope
