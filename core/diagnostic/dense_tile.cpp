#include "diagnostic/dense_tile.h"

#include <ATen/Parallel.h>

#include <chrono>

#include "diagnostic/dense_tile_kernel.h"

namespace noisescope {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

using FuseRows = void (*)(const dense_kernel::TileRows&, int64_t, int64_t);

struct Kernel {
  FuseRows fuse = &dense_kernel::DEFAULT::fuseRows;
  const char* name = "default";
};

// The widest kernel this CPU runs, chosen once.
const Kernel& cpuKernel() {
  static const Kernel kernel = [] {
    Kernel k;
#if NOISESCOPE_DENSE_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
      k.fuse = &dense_kernel::AVX2::fuseRows;
      k.name = "avx2";
    }
#endif
    return k;
  }();
  return kernel;
}

// Elementwise part on the CPU: one vectorised pass per query and block, queries split over
// threads; the GEMM accumulator of earlier blocks follows a moved max.
void cpuTile(const DenseLevelInput& in, DenseMoments& m, int64_t c0, int64_t cols, at::Tensor& e32,
             at::Tensor& scale) {
  const int64_t k = static_cast<int64_t>(in.active.size());
  dense_kernel::TileRows tile;
  tile.a = in.a.data_ptr<double>();
  tile.b = in.b.data_ptr<double>();
  tile.ld = in.a.stride(0);
  tile.rows = in.activeIndex.defined() ? in.active.data() : nullptr;
  tile.c0 = c0;
  tile.cols = cols;
  tile.c1 = -0.5 / (in.sigma * in.sigma);
  tile.c2 = -1.0 / in.sigma;
  tile.cut = in.cut;
  tile.segment = in.segmentCols;
  tile.max = m.max.data_ptr<double>();
  tile.w = m.w.data_ptr<double>();
  tile.t = m.t.data_ptr<double>();
  tile.e2 = m.e2.data_ptr<double>();
  tile.wa = m.wa.data_ptr<double>();
  tile.scale = scale.data_ptr<double>();
  tile.e32 = e32.data_ptr<float>();
  tile.lde = cols;
  const FuseRows fuse = cpuKernel().fuse;
  at::parallel_for(0, k, 4, [&](int64_t first, int64_t last) { fuse(tile, first, last); });
  const double* s = tile.scale;
  for (int64_t r = 0; r < k; ++r) {
    if (s[r] != 1.0) {
      m.sum.mul_(scale.to(at::kFloat).unsqueeze(1));
      break;
    }
  }
}

// The same on any device with ATen ops on the tile.
void tensorTile(const DenseLevelInput& in, DenseMoments& m, int64_t c0, int64_t cols,
                at::Tensor& e32) {
  at::Tensor a = in.a.narrow(1, c0, cols);
  at::Tensor b = in.b.narrow(1, c0, cols);
  if (in.activeIndex.defined()) {
    a = a.index_select(0, in.activeIndex);
    b = b.index_select(0, in.activeIndex);
  }
  at::Tensor z = a * (-0.5 / (in.sigma * in.sigma));
  z.add_(b, -1.0 / in.sigma);
  at::Tensor max = at::maximum(m.max, z.amax(1));
  at::Tensor shift = m.max - max;  // ≤ 0
  at::Tensor scale = shift.exp();
  m.t = (m.t + m.w * shift) * scale;
  m.w = m.w * scale;
  m.e2 = m.e2 * scale * scale;
  m.wa = m.wa * scale;
  m.sum.mul_(scale.to(at::kFloat).unsqueeze(1));
  m.max = max;
  z.sub_(max.unsqueeze(1));
  at::Tensor e = z.exp();
  at::threshold_(e, in.cut, 0.0);
  m.w = m.w + e.sum(1);
  m.t = m.t + (e * z).sum(1);
  m.e2 = m.e2 + (e * e).sum(1);
  m.wa = m.wa + (e * a).sum(1);
  e32.copy_(e);
}

}  // namespace

const char* denseKernelName() {
  return cpuKernel().name;
}

DenseMoments denseLevel(const DenseLevelInput& in, DenseTiming& timing) {
  const int64_t k = static_cast<int64_t>(in.active.size());
  const int64_t n = in.a.size(1);
  const int64_t d = in.xc.size(1);
  const bool cpu = in.a.device().is_cpu() && in.useCpuKernel;
  const int64_t width = in.blockCols > 0 ? std::min(n, in.blockCols) : n;
  const auto f64 = in.a.options();
  DenseMoments m;
  m.max = in.startMax.to(f64, /*non_blocking=*/false, /*copy=*/true).contiguous();
  m.w = at::zeros({k}, f64);
  m.t = at::zeros({k}, f64);
  m.e2 = at::zeros({k}, f64);
  m.wa = at::zeros({k}, f64);
  m.sum = at::empty({k, d}, f64.dtype(at::kFloat));
  at::Tensor e32Buffer = in.e32.defined() && in.e32.numel() >= k * width
                             ? in.e32
                             : at::empty({k * width}, f64.dtype(at::kFloat));
  at::Tensor scale = cpu ? at::empty({k}, f64) : at::Tensor();
  for (int64_t c0 = 0; c0 < n; c0 += width) {
    const int64_t cols = std::min(width, n - c0);
    at::Tensor e32 = e32Buffer.narrow(0, 0, k * cols).view({k, cols});
    auto start = Clock::now();
    if (cpu) {
      cpuTile(in, m, c0, cols, e32, scale);
    } else {
      tensorTile(in, m, c0, cols, e32);
    }
    timing.elementwiseSeconds += since(start);
    start = Clock::now();
    if (c0 == 0) {
      at::mm_out(m.sum, e32, in.xc.narrow(0, c0, cols));
    } else {
      m.sum.addmm_(e32, in.xc.narrow(0, c0, cols));
    }
    timing.gemmSeconds += since(start);
    timing.gemmFlop += 2.0 * static_cast<double>(k) * static_cast<double>(cols) * d;
  }
  return m;
}

}  // namespace noisescope
