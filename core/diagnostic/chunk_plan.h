#pragma once
// Internal to noisescope_diagnostic: used by its engine and white-box tests, not part of its API.
// How the diagnostic cuts its work so that its extra memory stays under a budget whatever N is:
// queries are processed in chunks, the dataset in tiles, and each tile's posterior is merged into
// running per-level accumulators (streaming log-sum-exp), so no step ever holds all N weights of
// all queries at once.
#include <cstdint>

namespace noisescope {

struct ChunkPlan {
  int64_t queryChunk = 0;      // queries processed together
  int64_t dataChunk = 0;       // data points per tile
  int64_t gemmRows = 0;        // data rows converted to fp64 per distance GEMM
  int64_t gatherRows = 0;      // (query, point) pairs gathered at once on the sparse path
  int64_t denseTile = 0;       // prior rows per cache segment of the fused dense step (CPU)
  int stateLevels = 0;         // levels whose accumulators are held at once (1: one tile covers N)
  int64_t estimatedBytes = 0;  // what the plan expects to allocate at most
};

// Bytes the engine allocates per (query, data point) entry of a tile: the fp64 distance terms
// A and B plus the per-level work buffers.
constexpr int64_t kTileBytesPerEntry = 56;

// The fused dense step reads a query's A and B (fp64) one segment at a time, twice (its largest
// logit, then the weights); a segment of both is meant to stay in a core's L1/L2 in between.
constexpr int64_t kDenseSegmentBytes = int64_t{64} << 10;

// Throws InputError("memory", ...) when even one query against one data point does not fit.
// `streamedRowBytes` > 0: the prior is read from disk into a tile buffer of that many bytes per
// row, which the plan counts inside the budget too.
ChunkPlan planChunks(int64_t datasetSize, int64_t dim, int64_t queries, int levels,
                     int64_t memoryBytes, int64_t streamedRowBytes = 0);

}  // namespace noisescope
