#pragma once
// Internal to noisescope_diagnostic (dense_tile.cpp and its test): the elementwise half of the
// fused dense step on the CPU. dense_tile_kernel.cpp is compiled once per instruction set (the
// namespaces below), with ATen's vector types (at::vec, whose exp is SLEEF's), and dense_tile.cpp
// picks one at run time; the names differ per instruction set, so the copies never collide.
#include <cstdint>

namespace noisescope::dense_kernel {

// One block of prior rows (columns [c0, c0 + cols) of the distance terms) for k active queries,
// read once from memory: per cache-sized segment of a query's row, the segment's largest logit
// z = c1·A + c2·B moves the running max up (rescaling the query's sums by e^(old − new)), then
// one pass over the segment, still in cache, forms e = e^(z − max) (0 at or under the cut),
// W += Σe, T += Σe(z − max), E2 += Σe², WA += ΣeA, and writes e in fp32. At the end of the row
// the segments written under an earlier max are rescaled to the final one, so the block's
// weights are ready for one W·X GEMM.
struct TileRows {
  const double* a = nullptr;  // A, row-major with row stride ld
  const double* b = nullptr;  // B, same layout
  int64_t ld = 0;
  const int64_t* rows = nullptr;  // row of A and B of active query k; null: row k
  int64_t c0 = 0, cols = 0;
  int64_t segment = 0;  // columns per cache segment (0: the whole block)
  double c1 = 0.0, c2 = 0.0;
  double cut = 0.0;  // e^−τ: weights at or under it are exactly 0
  // Per active query, updated in place.
  double* max = nullptr;
  double* w = nullptr;
  double* t = nullptr;
  double* e2 = nullptr;
  double* wa = nullptr;
  double* scale =
      nullptr;           // out: what the sums before the block were multiplied by (1: max stayed)
  float* e32 = nullptr;  // out: [k, cols], row stride lde
  int64_t lde = 0;
};

namespace DEFAULT {
void fuseRows(const TileRows& tile, int64_t first, int64_t last);
}
namespace AVX2 {
void fuseRows(const TileRows& tile, int64_t first, int64_t last);
}

}  // namespace noisescope::dense_kernel
