#pragma once
// The bracket of THEORY §10: the dataset's own (empirical) profile beside the members of the
// population bound — denoisers fitted on the prior and scored on held-out points (the
// empirical posterior, the held-out Wiener filter and, for images and sequences, the patch
// Wiener filter) — and the bound chosen among them without bias (diagnostic/population_bound.h).
// Both faces compute it here, so the GUI's curves and the CLI's files are the same numbers.
#include <string>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "diagnostic/empirical_diagnostic.h"
#include "diagnostic/gaussian_profile.h"
#include "diagnostic/patch_wiener.h"
#include "diagnostic/population_bound.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope {

// Whether a seeded `share` of `datasetSize` samples holds enough points for a bracket, counted
// to kBoundMinHeldOut after the split's own rounding (util/seeded_split.h), as the split that
// follows will count them.
bool shareCanBracket(int64_t datasetSize, double share);

struct BracketOptions {
  GaussianSpectrumOptions spectrum;  // of the held-out Wiener member's fit
  PatchWienerOptions patch;
  bool withPatch = true;            // the patch member, where the samples have a patch layout
  int64_t closedFormPoints = 4096;  // held-out points the closed-form members score
};

struct Bracket {
  Profile empirical;  // training queries: the sample's MMSE (memorises at small σ)
  Profile heldOut;    // the empirical posterior's held-out risk
  Profile wiener;     // kind "held-out-wiener": the prior's Wiener filter's held-out risk
  Profile patch;      // kind "held-out-patch" (per level the best width); kind "" when none
  Profile bound;      // the member chosen per level on the selection half, on the evaluation half
};

// `prior` is the empirical prior and the data every member is fitted on; the held-out points
// come from `heldOut`. One grid, seed and query count (options) for all curves. Order: the
// closed-form members first (seconds; `onLevel` sees all their levels at once), then empirical
// and held-out, whose levels `onLevel` sees as each completes. Throws InputError when the
// held-out set has fewer than kBoundMinHeldOut points (population_bound.h).
Bracket computeBracket(const Dataset& prior, const Dataset& heldOut,
                       const DiagnosticOptions& options, const BracketOptions& bracket = {},
                       const Progress& progress = {}, const LevelObserver& onLevel = {});

// Kind "held-out-wiener" (or "held-out-patch" with the per-level choice of width) from per-point
// risks, on the grid and sizes of `like`.
Profile closedFormMemberProfile(const std::string& kind, const std::vector<PointRisks>& members,
                                const Profile& like);

// The test split next to a training file, when there is one: IDX "train-…" → "t10k-…" (also
// "…-train-…" → "…-test-…"), CIFAR "data_batch…" → "test_batch…". Empty when none exists.
std::string findTestSplit(const std::string& path);

}  // namespace noisescope
