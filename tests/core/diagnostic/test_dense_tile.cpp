// The fused dense step (diagnostic/dense_tile.h) against a plain fp64 evaluation of the same
// sums: the dispatched vector kernel, the portable kernel and the ATen-ops path (the one other
// devices take) on tiles whose running max moves, with a subset of active queries, a tail shorter
// than a vector, a held-out start (no max yet), an own-point entry (A = 1e30) and the e^−τ cut.
#include <QObject>
#include <QTest>

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "diagnostic/dense_tile.h"
#include "diagnostic/dense_tile_kernel.h"
#include "tensor/device.h"

using namespace noisescope;

namespace {

struct Case {
  at::Tensor a, b, x, startMax;
  std::vector<int64_t> active;
  double sigma = 0.7, cut = std::exp(-40.0);
};

// Plain fp64 sums over the whole chunk relative to its final max (no tiles, no rescaling).
DenseMoments bruteForce(const Case& c) {
  const int64_t k = static_cast<int64_t>(c.active.size());
  const int64_t n = c.a.size(1), d = c.x.size(1);
  DenseMoments m;
  m.max = at::empty({k}, at::kDouble);
  m.w = at::zeros({k}, at::kDouble);
  m.t = at::zeros({k}, at::kDouble);
  m.e2 = at::zeros({k}, at::kDouble);
  m.wa = at::zeros({k}, at::kDouble);
  m.sum = at::zeros({k, d}, at::kDouble);
  auto a = c.a.accessor<double, 2>();
  auto b = c.b.accessor<double, 2>();
  auto x = c.x.accessor<float, 2>();
  for (int64_t r = 0; r < k; ++r) {
    const int64_t row = c.active[static_cast<size_t>(r)];
    double max = c.startMax[r].item<double>();
    std::vector<double> z(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      z[i] = -a[row][i] / (2.0 * c.sigma * c.sigma) - b[row][i] / c.sigma;
      max = std::max(max, z[i]);
    }
    m.max[r] = max;
    double w = 0, t = 0, e2 = 0, wa = 0;
    std::vector<double> sum(static_cast<size_t>(d), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      const double e = std::exp(z[i] - max);
      if (!(e > c.cut)) continue;
      w += e;
      t += e * (z[i] - max);
      e2 += e * e;
      wa += e * a[row][i];
      for (int64_t j = 0; j < d; ++j) sum[j] += e * x[i][j];
    }
    m.w[r] = w;
    m.t[r] = t;
    m.e2[r] = e2;
    m.wa[r] = wa;
    for (int64_t j = 0; j < d; ++j) m.sum[r][j] = sum[j];
  }
  return m;
}

// Rows 0..rows−1 of A grow closer to the query along the chunk, so later tiles hold larger logits
// and the running max moves several times; one entry per row is an own point (A = 1e30).
Case makeCase(int64_t rows, int64_t n, int64_t d, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Case c;
  at::Tensor terms = at::empty({2 * rows, n}, at::kDouble);
  c.a = terms.narrow(0, 0, rows);
  c.b = terms.narrow(0, rows, rows);
  auto a = c.a.accessor<double, 2>();
  auto b = c.b.accessor<double, 2>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < n; ++i) {
      a[r][i] = 6.0 * (1.0 - static_cast<double>(i) / n) + 4.0 * u(rng) + 0.01;
      b[r][i] = 0.5 * (u(rng) - 0.5);
    }
    a[r][(r * 37) % n] = 1e30;
    b[r][(r * 37) % n] = 0.0;
  }
  c.x = at::rand({n, d}, at::kFloat) * 2 - 1;
  for (int64_t r = 0; r < rows; r += 2) c.active.push_back(r);
  c.startMax = at::full({static_cast<int64_t>(c.active.size())}, -1e300, at::kDouble);
  c.startMax[0] = 0.0;  // one query starts from its own point's logit 0
  return c;
}

DenseMoments runFused(const Case& c, int64_t block, bool cpuKernel, bool allRows,
                      int64_t segment = 0) {
  DenseLevelInput in;
  in.a = c.a;
  in.b = c.b;
  in.xc = c.x;
  in.sigma = c.sigma;
  in.cut = c.cut;
  in.blockCols = block;
  in.segmentCols = segment;
  in.useCpuKernel = cpuKernel;
  if (allRows) {
    for (int64_t r = 0; r < c.a.size(0); ++r) in.active.push_back(r);
    in.startMax = at::full({c.a.size(0)}, -1e300, at::kDouble);
  } else {
    in.active = c.active;
    in.activeIndex = at::tensor(c.active, at::TensorOptions().dtype(at::kLong));
    in.startMax = c.startMax;
  }
  DenseTiming timing;
  return denseLevel(in, timing);
}

double relative(const at::Tensor& got, const at::Tensor& want) {
  const at::Tensor g = got.to(at::kDouble), w = want.to(at::kDouble);
  return ((g - w).abs() / (w.abs() + 1e-300)).max().item<double>();
}

void expectClose(const DenseMoments& got, const DenseMoments& want, const char* what) {
  QVERIFY2(relative(got.max, want.max) < 1e-12, what);
  QVERIFY2(relative(got.w, want.w) < 1e-12, what);
  QVERIFY2(relative(got.e2, want.e2) < 1e-12, what);
  QVERIFY2(relative(got.wa, want.wa) < 1e-12, what);
  QVERIFY2(((got.t - want.t).abs() / (want.w * 40.0)).max().item<double>() < 1e-12, what);
  // Σe·x: fp32 weights and GEMM (relative ~1e-6 of the row's Σe|x|).
  const at::Tensor scale = want.w.unsqueeze(1);
  QVERIFY2(((got.sum.to(at::kDouble) - want.sum).abs() / scale).max().item<double>() < 1e-5, what);
}

}  // namespace

class TestDenseTile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { initTorchThreads(2); }

  void vectorKernelMatchesPlainSums() {
    const Case c = makeCase(9, 1027, 5, 3);  // 1027: tiles of 256 leave a 3-wide tail
    const DenseMoments want = bruteForce(c);
    QVERIFY2(want.w.min().item<double>() > 1.0, "the case must keep many weights per query");
    expectClose(runFused(c, 256, true, false), want, "vector kernel, blocks of 256");
    expectClose(runFused(c, 1027, true, false), want, "vector kernel, one block");
    // Segments of 100 (a tail of 3 lanes each, 11 of them): the max moves and earlier segments'
    // weights are rescaled to the final one before the GEMM.
    expectClose(runFused(c, 1027, true, false, 100), want, "vector kernel, segments of 100");
    expectClose(runFused(c, 512, true, false, 100), want, "vector kernel, blocks and segments");
    expectClose(runFused(c, 256, false, false), want, "ATen ops, blocks of 256");
    expectClose(runFused(c, 1027, false, false), want, "ATen ops, one block");
  }

  void everyRowActive() {
    Case c = makeCase(6, 700, 3, 5);
    c.active = {0, 1, 2, 3, 4, 5};
    c.startMax = at::full({6}, -1e300, at::kDouble);
    const DenseMoments want = bruteForce(c);
    expectClose(runFused(c, 256, true, true), want, "vector kernel, all rows");
    expectClose(runFused(c, 700, true, true, 64), want, "vector kernel, all rows, segments");
    expectClose(runFused(c, 300, false, true), want, "ATen ops, all rows");
  }

  // The portable copy of the kernel (the one a CPU without AVX2 runs) against the dispatched one.
  void portableKernelMatchesDispatched() {
    const Case c = makeCase(4, 515, 2, 11);
    const int64_t k = 4, n = 515;
    auto run = [&](void (*fuse)(const dense_kernel::TileRows&, int64_t, int64_t)) {
      std::vector<double> max(k, -1e300), w(k, 0), t(k, 0), e2(k, 0), wa(k, 0), scale(k);
      std::vector<float> e32(static_cast<size_t>(k * n));
      dense_kernel::TileRows tile;
      tile.a = c.a.data_ptr<double>();
      tile.b = c.b.data_ptr<double>();
      tile.ld = c.a.stride(0);
      tile.cols = n;
      tile.c1 = -0.5 / (c.sigma * c.sigma);
      tile.c2 = -1.0 / c.sigma;
      tile.cut = c.cut;
      tile.max = max.data();
      tile.w = w.data();
      tile.t = t.data();
      tile.e2 = e2.data();
      tile.wa = wa.data();
      tile.scale = scale.data();
      tile.e32 = e32.data();
      tile.lde = n;
      fuse(tile, 0, k);
      return std::make_pair(w, e32);
    };
    const auto portable = run(&dense_kernel::DEFAULT::fuseRows);
    Case all = c;
    all.active = {0, 1, 2, 3};
    all.startMax = at::full({4}, -1e300, at::kDouble);
    const DenseMoments want = bruteForce(all);
    for (int64_t r = 0; r < k; ++r)
      QVERIFY(std::abs(portable.first[r] - want.w[r].item<double>()) <=
              1e-12 * want.w[r].item<double>());
    // Own-point entries weigh exactly nothing, and nothing is NaN.
    for (int64_t r = 0; r < k; ++r) QCOMPARE(portable.second[r * n + (r * 37) % n], 0.0f);
    for (float e : portable.second) QVERIFY(std::isfinite(e) && e >= 0.0f && e <= 1.0f);
    QVERIFY(std::string(denseKernelName()) == "avx2" ||
            std::string(denseKernelName()) == "default");
  }

  // Weights at or under e^−τ of the running max are exactly 0 (the certified cut). An entry an
  // earlier tile kept under a max that a later tile raises keeps its exact, tiny weight: the
  // difference from cutting it is within the pruned-weight bound N·e^−τ.
  void cutIsExact() {
    auto logits = [](Case& c, bool largeFirst) {
      auto a = c.a.accessor<double, 2>();
      auto b = c.b.accessor<double, 2>();
      for (int64_t i = 0; i < 64; ++i) {
        const bool large = largeFirst ? i < 4 : i >= 60;
        a[0][i] = 2.0 * c.sigma * c.sigma * (large ? 0.0 : 50.0);  // z = 0 or −50
        b[0][i] = 0.0;
      }
      c.active = {0};
      c.startMax = at::full({1}, -1e300, at::kDouble);
    };
    Case c = makeCase(2, 64, 1, 7);
    logits(c, true);
    for (bool kernel : {true, false}) {
      const DenseMoments m = runFused(c, 16, kernel, false, 8);
      QCOMPARE(m.max[0].item<double>(), 0.0);
      QCOMPARE(m.w[0].item<double>(), 4.0);  // only the four z = 0: the others are cut
    }
    logits(c, false);
    for (bool kernel : {true, false}) {
      const DenseMoments m = runFused(c, 64, kernel, false, 8);
      QCOMPARE(m.max[0].item<double>(), 0.0);
      const double extra = m.w[0].item<double>() - 4.0;
      QVERIFY(extra >= 0.0 && extra <= 64 * std::exp(-40.0));
    }
    // The weights handed to the GEMM see the final max: those written under the earlier one are
    // rescaled and cut (e^−50 would be a normal float, so 0 means they were cut).
    std::vector<double> max{-1e300}, w{0}, t{0}, e2{0}, wa{0}, scale{0};
    std::vector<float> e32(64, -1.0f);
    dense_kernel::TileRows tile;
    tile.a = c.a.data_ptr<double>();
    tile.b = c.b.data_ptr<double>();
    tile.ld = c.a.stride(0);
    tile.cols = 64;
    tile.segment = 8;
    tile.c1 = -0.5 / (c.sigma * c.sigma);
    tile.c2 = -1.0 / c.sigma;
    tile.cut = c.cut;
    tile.max = max.data();
    tile.w = w.data();
    tile.t = t.data();
    tile.e2 = e2.data();
    tile.wa = wa.data();
    tile.scale = scale.data();
    tile.e32 = e32.data();
    tile.lde = 64;
    dense_kernel::DEFAULT::fuseRows(tile, 0, 1);
    for (int i = 0; i < 60; ++i) QCOMPARE(e32[i], 0.0f);
    for (int i = 60; i < 64; ++i) QCOMPARE(e32[i], 1.0f);
  }
};

QTEST_GUILESS_MAIN(TestDenseTile)
#include "test_dense_tile.moc"
