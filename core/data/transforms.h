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
// A set on the [−1, 1] scale whose every value is exactly −1 or +1 (a file of black-and-white
// images, a ±1 array) is binary data, whatever file it came in: its scaling becomes "{-1,+1}",
// as binarize would have made it, so the ±1 rules (the sampling rate's coordinate bound, the ±1
// gate) apply to it too. Any other set is returned unchanged.
Dataset recognisePlusMinusOne(Dataset dataset);
// A seeded random subset of n samples, in the order of seededPermutation (util/seeded_split.h);
// n >= N returns a shuffled copy.
Dataset randomSubset(const Dataset& dataset, int64_t n, uint64_t seed);
// Seeded split into (train, test) with the given test fraction in (0, 1): seededSplit of
// util/seeded_split.h, each part in row order.
std::pair<Dataset, Dataset> trainTestSplit(const Dataset& dataset, double testFraction,
                                           uint64_t seed);

}  // namespace noisescope
