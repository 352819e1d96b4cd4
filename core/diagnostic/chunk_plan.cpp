#include "diagnostic/chunk_plan.h"

#include <algorithm>

#include "util/error.h"
#include "util/setting_names.h"

namespace noisescope {

namespace {

struct Sizes {
  int64_t n, d, m;
  int levels;
};

// Per-query memory that does not depend on the tile: query rows, their noise, the running
// posterior mean and moments of each level held at once, and scratch of the same size.
int64_t queryBytes(const Sizes& s, int64_t rows, int stateLevels) {
  const int64_t perLevel = s.d * 8 + 6 * 8;
  return rows * (stateLevels * perLevel + 6 * s.d * 8);
}

ChunkPlan finish(const Sizes& s, int64_t rows, int64_t cols, int stateLevels, int64_t budget,
                 int64_t streamedRowBytes) {
  ChunkPlan plan;
  plan.queryChunk = rows;
  plan.dataChunk = cols;
  plan.stateLevels = stateLevels;
  const int64_t sideBudget = budget / 8;
  plan.gemmRows = std::clamp<int64_t>(sideBudget / (s.d * 8 + 2 * rows * 8), 1, cols);
  plan.gatherRows = std::max<int64_t>(1, sideBudget / (3 * s.d * 8));
  plan.denseTile = std::min(cols, kDenseSegmentBytes / 16);
  plan.estimatedBytes = rows * cols * kTileBytesPerEntry + queryBytes(s, rows, stateLevels) +
                        plan.gemmRows * (s.d * 8 + 2 * rows * 8) + plan.gatherRows * 3 * s.d * 8 +
                        cols * streamedRowBytes;
  return plan;
}

}  // namespace

ChunkPlan planChunks(int64_t datasetSize, int64_t dim, int64_t queries, int levels,
                     int64_t memoryBytes, int64_t streamedRowBytes) {
  const Sizes s{datasetSize, dim, queries, levels};
  const int64_t sideBytes = 2 * (memoryBytes / 8);  // fp64 GEMM staging + sparse gathers
  const int64_t tileBudget = memoryBytes - sideBytes;
  const int64_t widest = std::min<int64_t>(queries, 256);

  // Preferred: one tile covers the whole dataset, so accumulators are needed for one level only.
  const int64_t wideEnough = std::min<int64_t>(queries, 64);
  for (int64_t rows = widest; rows >= wideEnough; rows /= 2) {
    const int64_t need = rows * datasetSize * kTileBytesPerEntry + queryBytes(s, rows, 1) +
                         datasetSize * streamedRowBytes;
    if (need <= tileBudget) return finish(s, rows, datasetSize, 1, memoryBytes, streamedRowBytes);
  }
  // Otherwise tile the dataset and keep running accumulators for every level.
  for (int64_t rows = widest; rows >= 1; rows /= 2) {
    const int64_t rest = tileBudget - queryBytes(s, rows, levels);
    if (rest <= 0) continue;
    const int64_t cols =
        std::min(datasetSize, rest / (rows * kTileBytesPerEntry + streamedRowBytes));
    if (cols >= std::min<int64_t>(datasetSize, 256) || (rows == 1 && cols >= 1))
      return finish(s, rows, cols, levels, memoryBytes, streamedRowBytes);
  }
  const int64_t minimum =
      (queryBytes(s, 1, levels) + kTileBytesPerEntry + streamedRowBytes) * 4 / 3 + 1;
  throw InputError(settings::kMemory, "too small for D = " + std::to_string(dim) + " and " +
                                          std::to_string(levels) + " levels: need at least " +
                                          std::to_string(minimum / 1024 + 1) + " KiB");
}

}  // namespace noisescope
