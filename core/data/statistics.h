#pragma once
// Summary numbers of a dataset, computed from its values (σ_data is measured, never assumed).
#include <cstdint>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

struct DatasetStatistics {
  int64_t count = 0;
  int64_t dimension = 0;
  double minValue = 0, maxValue = 0;
  double mean = 0;       // over all values
  double stddev = 0;     // over all values
  double sigmaData = 0;  // EDM's σ_data: RMS deviation of a coordinate from the per-coordinate mean
  // Median Euclidean distance from a sampled point to its nearest other point in the whole set;
  // below this σ the empirical prior's posterior is essentially one-hot. 0 when not computed.
  double nearestNeighbourMedian = 0;
  int64_t nearestNeighbourQueries = 0;
};

// EDM's σ_data, the one definition (THEORY §1): sqrt(tr Cov / D), the RMS deviation of each
// coordinate from its own mean over the dataset, computed in two passes (means, then squared
// deviations) in double. For data that is not centred it leaves the mean out:
// E‖x‖²/D = σ_data² + ‖mean‖²/D. Throws InputError when the set has fewer than two samples.
double measureSigmaData(const Dataset& dataset);

// nnQueries = 0 skips the nearest-neighbour estimate.
DatasetStatistics computeStatistics(const Dataset& dataset, int64_t nnQueries = 256,
                                    uint64_t seed = 1, const Progress& progress = {});

}  // namespace noisescope
