#pragma once
// The offline diagnostic: the dataset itself is the prior, and the Bayes-optimal denoiser of that
// prior gives MMSE(σ) and the entropy rates on a log-σ grid (THEORY §2–3).
#include <functional>
#include <string>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "diagnostic/population_bound.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope {

class Communicator;
class PriorRows;

// Where the prior of a diagnostic lives and who shares the work. `whole` may be streamed from disk
// (data/streaming/prior_rows.h); in a sharded run `rows` is this rank's contiguous shard of it
// (priorShard with shardRange), every rank of `communicator` makes the same call, the queries are
// drawn on rank 0 and broadcast, and every rank returns the same profile.
struct PriorAccess {
  PriorRows* whole = nullptr;            // the whole prior: its description and σ_data
  PriorRows* rows = nullptr;             // the rows this process computes with (whole or shard)
  int64_t firstRow = 0;                  // index in `whole` of rows' first row
  Communicator* communicator = nullptr;  // null: one process
};

// A level's primary MMSE estimate as soon as it is known, for drawing a long run level by level.
// Called on the computing thread, in no promised order of levels.
struct LevelEstimate {
  std::string kind;  // the profile kind being computed
  int level = 0;
  double sigma = 0.0, mmse = 0.0, standardError = 0.0, maxWeight = 0.0;
};
using LevelObserver = std::function<void(const LevelEstimate&)>;

// Rao–Blackwellised estimate first (the primary one, rates use it), then the direct estimate.
// Throws InputError for bad options or an empty dataset; Cancelled when progress asks.
Profile computeEmpiricalProfile(const Dataset& dataset, const DiagnosticOptions& options,
                                const Progress& progress = {}, const LevelObserver& onLevel = {});
// The same from a prior that may be streamed and sharded (same queries, same profile).
Profile computeEmpiricalProfile(const PriorAccess& prior, const DiagnosticOptions& options,
                                const Progress& progress = {}, const LevelObserver& onLevel = {});

// The held-out profile (THEORY §10): `prior` is the empirical prior, the queries start from rows
// of `heldOut`, which the prior does not contain: each point once per level, in a seeded order,
// with several noise draws per point when there are more queries than points
// (drawHeldOutQueries). Its primary estimate, "held_out_risk", is the mean over points of
// ‖x_j − E[x0 | y_j]‖²: an unbiased estimate of the population risk of the empirical-posterior
// denoiser, hence of an upper bound on the population MMSE at every σ; its interval is over the
// points (summarizeOverPoints), so it counts the finite held-out set. The posterior variance
// tr Cov(x0 | y) under the prior follows as a second estimate (not a risk: the prior does not
// hold x_j). Kind "held-out"; the provenance records the query set. `perPoint`, when given,
// receives the per-point risks for the population bound. Throws InputError for bad options,
// empty sets or a dimension mismatch.
Profile computeHeldOutProfile(const Dataset& prior, const Dataset& heldOut,
                              const DiagnosticOptions& options, const Progress& progress = {},
                              const LevelObserver& onLevel = {}, PointRisks* perPoint = nullptr);
Profile computeHeldOutProfile(const PriorAccess& prior, const Dataset& heldOut,
                              const DiagnosticOptions& options, const Progress& progress = {},
                              const LevelObserver& onLevel = {}, PointRisks* perPoint = nullptr);

// A seeded random split for data without a test split (seededSplit of util/seeded_split.h):
// round(share·N) rows (at least 1, at most N − 1) become the held-out set, the rest the prior,
// each in the original order. Each part
// records "held-out split share=… seed=…" (part "prior" or "held-out") in its transforms.
// Throws InputError("held-out share", …) unless 0 < share < 1 and N ≥ 2.
struct HeldOutSplit {
  Dataset prior;
  Dataset heldOut;
};
HeldOutSplit splitHeldOut(const Dataset& dataset, double share, uint64_t seed);

}  // namespace noisescope
