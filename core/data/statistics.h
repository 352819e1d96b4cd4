#pragma once
// Summary numbers of a dataset, computed from its values (σ_data is measured, never assumed).
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "util/progress.h"

namespace noisescope {

class PriorRows;

struct DatasetStatistics {
  int64_t count = 0;
  int64_t dimension = 0;
  double minValue = 0, maxValue = 0;
  double mean = 0;       // over all values
  double stddev = 0;     // over all values, about their common mean
  double sigmaData = 0;  // measureSigmaData's value (two passes); 0 for a single sample
  // Median Euclidean distance from a sampled point to its nearest other point in the whole set;
  // below this σ the empirical prior's posterior is essentially one-hot. 0 when not computed.
  double nearestNeighbourMedian = 0;
  int64_t nearestNeighbourQueries = 0;
};

// EDM's σ_data, the one definition (THEORY §1): √(tr Cov / D), the root-mean-square deviation of
// each coordinate from its own mean over the dataset, computed in two passes (per-coordinate
// means, then squared deviations from them) in double, with the population normalisation 1/N.
// Data that is not centred: the mean is left out, so shifting every sample by a constant vector
// leaves σ_data unchanged, and E‖x‖²/D = σ_data² + ‖μ‖²/D with μ the mean sample. Every place that
// needs σ_data calls this (DatasetStatistics::sigmaData is the same two passes). Throws
// InputError naming the dataset when it has fewer than two samples.
double measureSigmaData(const Dataset& dataset, const Progress& progress = {});
// The same two passes over a prior read row by row (data/streaming/prior_rows.h): the set need not
// fit in memory, and for a loaded dataset the value is the same to the last bit.
double measureSigmaData(PriorRows& prior, const Progress& progress = {});

// The two passes above, for a prior split across processes (the sharded diagnostic sums each
// pass over its ranks between them): per-coordinate sums over the rows (and optionally the value
// range), the squared deviations Σ_i Σ_k (x_ik − μ_k)² from given means, and σ_data from the total.
std::vector<double> coordinateSums(PriorRows& rows, const Progress& progress = {},
                                   double* lo = nullptr, double* hi = nullptr);
double squaredDeviations(PriorRows& rows, const std::vector<double>& means,
                         const Progress& progress = {});
double sigmaDataFromSquares(double squares, int64_t n, int64_t d);

// nnQueries = 0 skips the nearest-neighbour estimate.
DatasetStatistics computeStatistics(const Dataset& dataset, int64_t nnQueries = 256,
                                    uint64_t seed = 1, const Progress& progress = {});

}  // namespace noisescope
