#pragma once
// The patch-local member of the population bound (THEORY §10): a convolutional Wiener filter.
// Each value of a clean image (or sequence) is estimated from the k×k (length-k) neighbourhood
// of the noisy sample around it, all channels, by one linear filter shared by every position:
//   x̂_p = μ̂_p + W_σ · patch_p(y − μ̂),   W_σ = S_c (S + σ²I)⁻¹,
// with μ̂ the prior's per-coordinate mean, S the second moment of the prior's centred patches
// (zero outside the sample) pooled over positions and S_c its rows at the centre. Pooling makes
// it far better estimated than the full covariance when N ≲ D, at the price of seeing only
// local structure. Fitted on the prior alone, its held-out risk (closed form in the noise, as
// for the held-out Wiener member) is again an upper bound on the population MMSE.
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "diagnostic/held_out_wiener.h"
#include "diagnostic/population_bound.h"
#include "util/progress.h"

namespace noisescope {

struct PatchWienerOptions {
  std::vector<int> sizes;  // odd neighbourhood widths k; empty: patchSizesFor(dataset)
  int64_t fitRows = 1000;  // prior rows (evenly spaced) whose patches fit S
};

// Whether the dataset has a spatial layout a patch can slide over: images {C, H, W} and
// sequences {L, 4}.
bool hasPatchLayout(const Dataset& dataset);

// The default widths: 3, 5, 7, 9 for grey images, 3, 5, 7 for colour ones, 3, 9, 17, 33 for
// sequences; widths beyond the sample's own extent are left out.
std::vector<int> patchSizesFor(const Dataset& dataset);

// One PointRisks per width k, named "patch-k<k>". Throws InputError when the dataset has no
// patch layout, a width is even or < 1, or the two sets' shapes differ.
std::vector<PointRisks> patchWienerRisks(const Dataset& prior, const Dataset& heldOut,
                                         const HeldOutColumns& points,
                                         const std::vector<double>& sigma,
                                         const PatchWienerOptions& options = {},
                                         const Progress& progress = {});

}  // namespace noisescope
