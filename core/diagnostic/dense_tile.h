#pragma once
// Internal to noisescope_diagnostic (the engine and its white-box tests): the fused dense step.
// One σ level of the posterior of k queries over one chunk of prior rows, when many weights
// survive the cut. Per block of prior rows: the logits z = −A/(2σ²) − B/σ, the running max, the
// weights e^(z − max) (rescaling the sums when the max moves), their sums and moments, and then
// the weighted sum of the block's rows by one GEMM. The same function serves every device and
// every prior access (in memory, streamed, sharded). On the CPU the elementwise part is one
// vectorised pass over the distance terms, cache segment by cache segment (dense_tile_kernel.h);
// on other devices it is ATen ops on the block.
//
// Why blocks and not one GEMM per cache tile: on the shared two-core machine, every switch
// between the elementwise pass and the BLAS threads costs a scheduling round, and with tiles of
// 1 024 rows the dense steps took 2.5× as long under load as with the whole chunk as one block
// (bench/diagnostic/RESULTS.md). The weights of a block stay in the last-level cache.
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

namespace noisescope {

// Relative to `max` (the running largest logit, at least the one handed in):
// W = Σe, T = Σe(z − max), E2 = Σe², WA = ΣeA, sum = Σe·x (fp32, [k, D]).
struct DenseMoments {
  at::Tensor max, w, t, e2, wa, sum;
};

struct DenseLevelInput {
  at::Tensor a, b;  // [rows, cols] fp64 distance terms of the query chunk against the prior chunk
  // Active queries: rows of a and b (host copy always; device copy unless all rows are active).
  std::vector<int64_t> active;
  at::Tensor activeIndex;  // undefined: every row is active, in order
  at::Tensor xc;           // [cols, D] fp32 prior rows
  at::Tensor startMax;     // [k] fp64: the running max before this chunk
  double sigma = 1.0;
  double cut = 0.0;          // e^−τ
  int64_t blockCols = 0;     // prior rows per GEMM block (0: the whole chunk)
  int64_t segmentCols = 0;   // CPU kernel: prior rows per cache segment (0: the whole block)
  bool useCpuKernel = true;  // false: ATen ops even on the CPU (the other devices' path)
  at::Tensor e32;            // optional fp32 buffer of at least k × blockCols, reused
};

// Seconds spent in the elementwise part and in the GEMMs, and the GEMM flops done.
struct DenseTiming {
  double elementwiseSeconds = 0.0, gemmSeconds = 0.0, gemmFlop = 0.0;
};

DenseMoments denseLevel(const DenseLevelInput& in, DenseTiming& timing);

// Which vectorised kernel the CPU path runs on this machine ("avx2" or "default").
const char* denseKernelName();

}  // namespace noisescope
