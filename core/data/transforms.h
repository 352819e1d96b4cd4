#pragma once
// Transforms that return a new dataset and record what they did in its provenance.
#include <cstdint>
#include <utility>

#include "data/dataset.h"

namespace noisescope {

// Maps values affinely to [−1, 1] using the range the source type implies (uint8: 0..255) or,
// for float data, the observed min/max. Sets scaling = "[-1,1]".
Dataset scaleToSymmetricUnit(const Dataset& dataset);
// Values above the threshold (after scaling to [−1, 1]) become +1, the rest −1.
Dataset binarize(const Dataset& dataset, float threshold = 0.0f);
// A seeded random subset of n samples, in the order of seededPermutation (util/seeded_split.h);
// n >= N returns a shuffled copy.
Dataset randomSubset(const Dataset& dataset, int64_t n, uint64_t seed);
// Seeded split into (train, test) with the given test fraction in (0, 1): seededSplit of
// util/seeded_split.h, each part in row order.
std::pair<Dataset, Dataset> trainTestSplit(const Dataset& dataset, double testFraction,
                                           uint64_t seed);

}  // namespace noisescope
