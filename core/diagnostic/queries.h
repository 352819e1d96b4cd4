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

namespace noisescope {

// The order in which held-out points are used: a seeded permutation of 0 … H − 1. A point's
// position in it decides its split: even positions select a bound's member, odd ones evaluate it
// (diagnostic/population_bound.h), so every member of a bracket splits the same points the same
// way.
std::vector<int64_t> heldOutOrder(int64_t heldOutSize, uint64_t seed);

// Held-out queries that use each point once per level (THEORY §10): the first U = min(count, H)
// points of `order`, query j starting from order[j mod U], each with its own noise. With more
// queries than points a point gets ⌊count/U⌋ or one more noise draws, never a repeat of a draw.
QuerySet drawHeldOutQueries(const std::vector<int64_t>& order, int64_t dim, int64_t count,
                            uint64_t seed);

}  // namespace noisescope
