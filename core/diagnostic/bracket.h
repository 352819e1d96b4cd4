#pragma once
// The bracket of THEORY §10: the dataset's own (empirical) profile beside the two population
// upper bounds that need only data — held-out and Gaussian — and the tighter of the two. Both
// faces compute it here, so the GUI's four curves and the CLI's four files are the same numbers.
#include <string>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "diagnostic/empirical_diagnostic.h"
#include "diagnostic/gaussian_profile.h"
#include "profile/profile.h"
#include "util/progress.h"

namespace noisescope {

struct Bracket {
  Profile empirical;  // training queries: the sample's MMSE (memorises at small σ)
  Profile heldOut;    // held-out queries: upper bound on the population MMSE
  Profile gaussian;   // Wiener MMSE of the covariance: upper bound, exact for Gaussian data
  Profile bound;      // min(held-out, gaussian) level by level
};

// Kind "bound": per level the smaller of the two means, with that curve's standard error and
// interval (0 where the Gaussian curve is the smaller); "source" in the provenance lists, per
// level, which curve it took. Throws std::invalid_argument when the grids differ.
Profile tighterBound(const Profile& heldOut, const Profile& gaussian);

// `prior` is the empirical prior (and the data of the Gaussian curve); the held-out queries come
// from `heldOut`. One grid, seed and query count (options) for all curves. Order: the Gaussian
// curve first (seconds; `onLevel` sees all its levels at once), then empirical and held-out,
// whose levels `onLevel` sees as each completes.
Bracket computeBracket(const Dataset& prior, const Dataset& heldOut,
                       const DiagnosticOptions& options,
                       const GaussianSpectrumOptions& spectrum = {}, const Progress& progress = {},
                       const LevelObserver& onLevel = {});

// The test split next to a training file, when there is one: IDX "train-…" → "t10k-…" (also
// "…-train-…" → "…-test-…"), CIFAR "data_batch…" → "test_batch…". Empty when none exists.
std::string findTestSplit(const std::string& path);

}  // namespace noisescope
