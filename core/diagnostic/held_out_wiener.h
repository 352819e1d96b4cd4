#pragma once
// The held-out Wiener member of the population bound (THEORY §10). The linear denoiser
// f(y) = μ̂ + A(y − μ̂), A = Σ̂(Σ̂ + σ²I)⁻¹, is fitted on the prior (its mean μ̂ and covariance Σ̂)
// and scored on held-out points x. Its noise expectation has a closed form,
//   r(x, σ) = ‖(I − A)(x − μ̂)‖² + σ²‖A‖²_F,
// computed in the prior's eigenbasis. Directions the prior does not span (rank N − 1 < D, or
// beyond the top `rank` Ritz vectors when D is large) are left unshrunk — A is 0 there — and
// count in full. Being a fixed estimator, its mean over held-out points is an unbiased estimate
// of a population risk, and so of an upper bound on the population MMSE; only the variation
// over points is left, and summarizeOverPoints counts it.
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/gaussian_profile.h"
#include "diagnostic/population_bound.h"
#include "util/progress.h"

namespace noisescope {

// The risk of each held-out point in `points` (rows of `heldOut`, with their positions in the
// held-out order) at every σ. Member name "wiener". Throws InputError for a dimension mismatch
// or fewer than two prior samples.
struct HeldOutColumns {
  std::vector<int64_t> rows;      // rows of the held-out set
  std::vector<int64_t> position;  // their positions in the held-out order
};
PointRisks heldOutWienerRisks(const Dataset& prior, const Dataset& heldOut,
                              const HeldOutColumns& points, const std::vector<double>& sigma,
                              const GaussianSpectrumOptions& spectrum = {},
                              const Progress& progress = {});

// The first min(H, limit) points of `order`: the closed-form members score those.
HeldOutColumns leadingColumns(const std::vector<int64_t>& order, int64_t limit);

}  // namespace noisescope
