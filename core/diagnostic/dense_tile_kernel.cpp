// Compiled once per CPU_CAPABILITY (core/CMakeLists.txt): DEFAULT, and AVX2 with -mavx2 -mfma,
// where at::vec::Vectorized<double>::exp is SLEEF's 4-lane exp.
#include "diagnostic/dense_tile_kernel.h"

#include <ATen/cpu/vec/vec.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#if defined(CPU_CAPABILITY_AVX2)
#include <immintrin.h>
#endif

namespace noisescope::dense_kernel {
namespace CPU_CAPABILITY {

namespace {

using Vec = at::vec::Vectorized<double>;
constexpr int64_t kLanes = Vec::size();

double laneMax(const Vec& v) {
  double lanes[kLanes];
  v.store(lanes);
  return *std::max_element(lanes, lanes + kLanes);
}

double laneSum(const Vec& v) {
  double lanes[kLanes];
  v.store(lanes);
  double s = 0.0;
  for (int64_t i = 0; i < kLanes; ++i) s += lanes[i];
  return s;
}

void storeFloat(const Vec& e, float* out, int64_t count) {
#if defined(CPU_CAPABILITY_AVX2)
  if (count == kLanes) {
    _mm_storeu_ps(out, _mm256_cvtpd_ps(e));
    return;
  }
#endif
  double lanes[kLanes];
  e.store(lanes);
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<float>(lanes[i]);
}

struct Sums {
  Vec w{0.0}, t{0.0}, e2{0.0}, wa{0.0};
};

// e = e^(z − max) for one vector of the row, cut, accumulated and written out; lanes at or past
// `count` weigh nothing.
inline void accumulate(const Vec& av, const Vec& bv, const Vec& c1, const Vec& c2, const Vec& max,
                       const Vec& cut, Sums& s, float* out, int64_t count) {
  const Vec zero(0.0);
  const Vec z = at::vec::fmadd(c1, av, c2 * bv) - max;
  Vec e = z.exp();
  e = Vec::blendv(zero, e, e > cut);
  if (count < kLanes) e = Vec::set(zero, e, count);
  s.w = s.w + e;
  s.t = at::vec::fmadd(e, z, s.t);
  s.e2 = at::vec::fmadd(e, e, s.e2);
  s.wa = at::vec::fmadd(e, av, s.wa);
  storeFloat(e, out, count);
}

// The row's largest logit over columns [c, c + cols).
double segmentMax(const double* a, const double* b, int64_t cols, const Vec& c1, const Vec& c2) {
  const Vec lowest(-std::numeric_limits<double>::infinity());
  const int64_t whole = cols - cols % kLanes;
  Vec top = lowest;
  for (int64_t c = 0; c < whole; c += kLanes)
    top = at::vec::maximum(top, at::vec::fmadd(c1, Vec::loadu(a + c), c2 * Vec::loadu(b + c)));
  if (whole < cols) {
    const int64_t n = cols - whole;
    const Vec z = at::vec::fmadd(c1, Vec::loadu(a + whole, n), c2 * Vec::loadu(b + whole, n));
    top = at::vec::maximum(top, Vec::set(lowest, z, n));
  }
  return laneMax(top);
}

// Weights written relative to an earlier max, brought to the row's final one (and cut again, so
// that no fp32 denormal reaches the GEMM).
void rescaleWeights(float* e, int64_t cols, float factor, float cut) {
  using VecF = at::vec::Vectorized<float>;
  constexpr int64_t lanes = VecF::size();
  const VecF f(factor), floor(cut), zero(0.0f);
  int64_t c = 0;
  for (; c + lanes <= cols; c += lanes) {
    VecF v = VecF::loadu(e + c) * f;
    VecF::blendv(zero, v, v > floor).store(e + c);
  }
  if (c < cols) {
    const int64_t n = cols - c;
    VecF v = VecF::loadu(e + c, n) * f;
    VecF::blendv(zero, v, v > floor).store(e + c, n);
  }
}

}  // namespace

void fuseRows(const TileRows& tile, int64_t first, int64_t last) {
  const Vec c1(tile.c1), c2(tile.c2), cut(tile.cut);
  const int64_t cols = tile.cols;
  const int64_t segment = tile.segment > 0 ? std::min(tile.segment, cols) : cols;
  const int64_t segments = (cols + segment - 1) / segment;
  std::vector<double> used(static_cast<size_t>(segments));  // the max each segment was written at
  for (int64_t k = first; k < last; ++k) {
    const int64_t row = tile.rows ? tile.rows[k] : k;
    const double* a = tile.a + row * tile.ld + tile.c0;
    const double* b = tile.b + row * tile.ld + tile.c0;
    float* out = tile.e32 + k * tile.lde;
    const double start = tile.max[k];
    double max = start;
    double w = tile.w[k], t = tile.t[k], e2 = tile.e2[k], wa = tile.wa[k];
    for (int64_t s = 0; s < segments; ++s) {
      const int64_t c0 = s * segment;
      const int64_t n = std::min(segment, cols - c0);
      // The segment's largest logit first (its rows stay in cache for the second pass).
      const double top = segmentMax(a + c0, b + c0, n, c1, c2);
      if (top > max) {
        // Streaming log-sum-exp: the sums so far were relative to the old max.
        const double shift = max - top;
        const double scale = std::exp(shift);
        t = (t + w * shift) * scale;
        w *= scale;
        e2 *= scale * scale;
        wa *= scale;
        max = top;
      }
      used[static_cast<size_t>(s)] = max;
      const Vec vmax(max);
      Sums sums;
      const int64_t whole = n - n % kLanes;
      for (int64_t c = c0; c < c0 + whole; c += kLanes)
        accumulate(Vec::loadu(a + c), Vec::loadu(b + c), c1, c2, vmax, cut, sums, out + c, kLanes);
      if (whole < n) {
        const int64_t c = c0 + whole;
        accumulate(Vec::loadu(a + c, n - whole), Vec::loadu(b + c, n - whole), c1, c2, vmax, cut,
                   sums, out + c, n - whole);
      }
      w += laneSum(sums.w);
      t += laneSum(sums.t);
      e2 += laneSum(sums.e2);
      wa += laneSum(sums.wa);
    }
    for (int64_t s = 0; s < segments; ++s) {
      if (used[static_cast<size_t>(s)] == max) continue;
      const int64_t c0 = s * segment;
      rescaleWeights(out + c0, std::min(segment, cols - c0),
                     static_cast<float>(std::exp(used[static_cast<size_t>(s)] - max)),
                     static_cast<float>(tile.cut));
    }
    tile.max[k] = max;
    tile.scale[k] = max > start ? std::exp(start - max) : 1.0;
    tile.w[k] = w;
    tile.t[k] = t;
    tile.e2[k] = e2;
    tile.wa[k] = wa;
  }
}

}  // namespace CPU_CAPABILITY
}  // namespace noisescope::dense_kernel
