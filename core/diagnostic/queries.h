#pragma once
// Internal to noisescope_diagnostic: used by its engine and white-box tests, not part of its API.
// The Monte Carlo queries y_j = x_{i_j} + σ·ε_j of the diagnostic. One set is drawn per run and
// reused at every σ (common random numbers): differences between levels are then not blurred by
// fresh noise, and the distance GEMMs are done once for all levels.
#include <cstdint>
#include <vector>

namespace noisescope {

struct QuerySet {
  std::vector<int64_t>
      index;                  // which data point each query starts from (uniform, with replacement)
  std::vector<double> noise;  // count × dim standard normal values, query-major
  int64_t dim = 0;
  int64_t count() const { return static_cast<int64_t>(index.size()); }
};

// Reproducible for a given seed (torch's CPU generator, whatever device runs the diagnostic).
QuerySet drawQueries(int64_t datasetSize, int64_t dim, int64_t count, uint64_t seed);

}  // namespace noisescope
