// The distance terms' float32 error bound (diagnostic/distance_terms.h), proven against known
// truth: on adversarial near-duplicates (large norms, partners a hair apart, so that
// ‖x‖² + ‖y‖² − 2x·y cancels to a few digits) every float32 term lies within its row's bound of
// the exact value formed from explicit differences, and every logit within logitErrorBound. The
// engine's "auto" precision then keeps float64 exactly where the bound is too loose, and uses
// float32 where it is tight, with results within the bound's consequence.
#include <QObject>
#include <QString>
#include <QTest>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "data/dataset.h"
#include "diagnostic/diagnostic_options.h"
#include "diagnostic/distance_terms.h"
#include "diagnostic/empirical_diagnostic.h"
#include "diagnostic/empirical_posterior.h"
#include "diagnostic/queries.h"
#include "vector_dataset.h"

using namespace noisescope;

namespace {

// Pairs of points: a base with large same-signed entries (every product adds up the same way,
// the worst case for accumulated rounding) scaled by `scale`, and a partner `gap` away per entry.
Dataset nearDuplicates(int64_t pairs, int64_t d, float scale, float gap, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.8f, 0.95f);
  std::normal_distribution<float> tiny(0.0f, gap);
  std::vector<float> v;
  for (int64_t p = 0; p < pairs; ++p) {
    std::vector<float> base(static_cast<size_t>(d));
    for (float& x : base) x = scale * u(rng);
    v.insert(v.end(), base.begin(), base.end());
    for (float& x : base) x += scale * tiny(rng);
    v.insert(v.end(), base.begin(), base.end());
  }
  return makeDataset(2 * pairs, d, std::move(v));
}

struct Worst {
  double aRatio = 0.0, bRatio = 0.0;  // largest |error| / bound
  double aRelative = 0.0;             // largest |error| / A among the near-duplicate entries
  QString firstViolation;             // "" when every entry is within its bound
};

// Checks every entry of float32 terms of `queryRows` (rows of data) against long-double truth.
Worst checkAgainstTruth(const Dataset& data, const std::vector<int64_t>& queryRows, uint32_t seed) {
  const int64_t n = data.size(), d = data.dim();
  const int64_t rows = static_cast<int64_t>(queryRows.size());
  at::Tensor all = at::from_blob(const_cast<float*>(data.values.data()), {n, d}, at::kFloat);
  at::Tensor xj = all.index_select(0, at::tensor(queryRows, at::kLong)).to(at::kDouble);
  at::manual_seed(seed);
  at::Tensor eps = at::randn({rows, d}, at::kDouble);
  const DistanceTerms f32 = distanceTerms(xj, eps, all, at::kFloat, 64, {});
  auto t = f32.terms.accessor<double, 2>();
  auto ea = f32.aError.accessor<double, 1>();
  auto eb = f32.bError.accessor<double, 1>();
  auto e = eps.accessor<double, 2>();
  Worst worst;
  for (int64_t r = 0; r < rows; ++r) {
    const float* q = data.sample(queryRows[static_cast<size_t>(r)]);
    for (int64_t i = 0; i < n; ++i) {
      const float* x = data.sample(i);
      long double a = 0.0L, b = 0.0L;
      for (int64_t k = 0; k < d; ++k) {
        const long double diff = static_cast<long double>(q[k]) - x[k];
        a += diff * diff;
        b += static_cast<long double>(e[r][k]) * diff;
      }
      const double aError = std::abs(t[r][i] - static_cast<double>(a));
      const double bError = std::abs(t[rows + r][i] - static_cast<double>(b));
      if ((aError > ea[r] || bError > eb[r]) && worst.firstViolation.isEmpty()) {
        worst.firstViolation =
            QString("row %1, point %2: |ΔA| = %3 (bound %4), |ΔB| = %5 (bound %6)")
                .arg(r)
                .arg(i)
                .arg(aError)
                .arg(ea[r])
                .arg(bError)
                .arg(eb[r]);
      }
      worst.aRatio = std::max(worst.aRatio, aError / ea[r]);
      worst.bRatio = std::max(worst.bRatio, bError / eb[r]);
      const int64_t partner = queryRows[static_cast<size_t>(r)] ^ 1;
      if (i == partner)
        worst.aRelative = std::max(worst.aRelative, aError / static_cast<double>(a));
    }
  }
  return worst;
}

// The engine's own-point queries: the first member of the first `count` pairs.
std::vector<int64_t> firstMembers(int64_t count) {
  std::vector<int64_t> rows;
  for (int64_t p = 0; p < count; ++p) rows.push_back(2 * p);
  return rows;
}

}  // namespace

class TestDistanceTerms : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { at::set_num_threads(1); }

  void boundCoversFloat32TermsOnAdversarialNearDuplicates_data() {
    QTest::addColumn<int>("dim");
    QTest::addColumn<float>("scale");
    QTest::newRow("D=8") << 8 << 1.0f;
    QTest::newRow("D=64, norms x30") << 64 << 30.0f;
    QTest::newRow("D=784 (Fashion-MNIST)") << 784 << 1.0f;
    QTest::newRow("D=3072 (CIFAR), norms x10") << 3072 << 10.0f;
  }
  void boundCoversFloat32TermsOnAdversarialNearDuplicates() {
    QFETCH(int, dim);
    QFETCH(float, scale);
    const Dataset data = nearDuplicates(24, dim, scale, 1e-3f, 7);
    const Worst w = checkAgainstTruth(data, firstMembers(12), 11);
    QVERIFY2(w.firstViolation.isEmpty(), qPrintable(w.firstViolation));
    qInfo("D=%d: largest |ΔA|/bound %.3g, |ΔB|/bound %.3g; near-duplicate A off by %.3g of itself",
          dim, w.aRatio, w.bRatio, w.aRelative);
    // The case is adversarial: float32 assembly gets the near-duplicates' A visibly wrong.
    QVERIFY2(w.aRelative > 1e-4, "the near-duplicates must be hard for float32");
  }

  // z̃ − z at several σ, from the terms, is within logitErrorBound (the bound the engine uses).
  void logitBoundCoversEveryLogit() {
    const Dataset data = nearDuplicates(16, 784, 1.0f, 1e-3f, 3);
    const int64_t n = data.size(), d = data.dim();
    at::Tensor all = at::from_blob(const_cast<float*>(data.values.data()), {n, d}, at::kFloat);
    at::Tensor xj = all.narrow(0, 0, 8).to(at::kDouble);
    at::manual_seed(5);
    at::Tensor eps = at::randn({8, d}, at::kDouble);
    const DistanceTerms f32 = distanceTerms(xj, eps, all, at::kFloat, 16, {});
    const DistanceTerms f64 = distanceTerms(xj, eps, all, at::kDouble, 16, {});
    for (double sigma : {0.002, 0.05, 1.0, 80.0}) {
      auto logits = [sigma](const DistanceTerms& t) {
        const int64_t rows = t.aError.size(0);
        return t.terms.narrow(0, 0, rows) * (-0.5 / (sigma * sigma)) -
               t.terms.narrow(0, rows, rows) / sigma;
      };
      at::Tensor error = (logits(f32) - logits(f64)).abs().amax(1);
      at::Tensor bound = logitErrorBound(f32.aError, f32.bError, sigma);
      QVERIFY2(error.le(bound).all().item<bool>(),
               qPrintable(QString("σ = %1: logit error %2 over the bound %3")
                              .arg(sigma)
                              .arg(error.max().item<double>())
                              .arg(bound.max().item<double>())));
    }
    QVERIFY(f64.aError.eq(0.0).all().item<bool>());
  }

  // Near-duplicates at σ = 0.002: the bound is far over the limit, so "auto" computes every row
  // in float64 and gives float64's answer; "float32" computes them anyway and says how far off.
  void autoKeepsFloat64WhereTheBoundIsLoose() {
    const Dataset data = nearDuplicates(20, 32, 1.0f, 1.5e-3f, 4);
    const std::vector<double> sigma = {0.002, 0.004, 0.5, 20.0};
    const QuerySet queries = drawQueries(data.size(), data.dim(), 64, 8);
    PosteriorEngineSettings settings;
    settings.device = "cpu";
    settings.distancePrecision = DistancePrecision::Float64;
    const PerQueryPosterior exact = evaluateEmpiricalPosterior(data, queries, sigma, settings);
    settings.distancePrecision = DistancePrecision::Auto;
    const PerQueryPosterior automatic = evaluateEmpiricalPosterior(data, queries, sigma, settings);
    settings.distancePrecision = DistancePrecision::Float32;
    const PerQueryPosterior single = evaluateEmpiricalPosterior(data, queries, sigma, settings);

    QCOMPARE(automatic.float32DistanceRows, int64_t{0});
    QVERIFY(automatic.float64DistanceRows > 0);
    QCOMPARE(automatic.distanceLogitErrorBound, 0.0);
    QCOMPARE(automatic.prunedWeightBound, exact.prunedWeightBound);
    for (size_t i = 0; i < exact.posteriorVariance.size(); ++i) {
      QCOMPARE(automatic.posteriorVariance[i], exact.posteriorVariance[i]);
      QCOMPARE(automatic.squaredError[i], exact.squaredError[i]);
    }
    QVERIFY(single.float32DistanceRows > 0);
    QVERIFY2(
        single.distanceLogitErrorBound > kFloat32LogitTolerance,
        qPrintable(QString("float32's reported bound %1").arg(single.distanceLogitErrorBound)));
  }

  // The same prior through the profile: forced float32 past its proven bound puts a warning in
  // the file (both faces show it); auto, held to the bound, does not.
  void float32PastItsBoundWarnsInTheProfile() {
    const Dataset data = nearDuplicates(20, 32, 1.0f, 1.5e-3f, 4);
    DiagnosticOptions options;
    options.levels = 4;
    options.sigmaMin = 0.002;
    options.sigmaMax = 20.0;
    options.queries = 32;
    options.device = "cpu";
    options.distancePrecision = DistancePrecision::Float32;
    const Profile single = computeEmpiricalProfile(data, options);
    QVERIFY(single.provenance.contains("warnings"));
    QCOMPARE(single.provenance["warnings"].size(), size_t{1});
    QVERIFY(single.provenance["warnings"][0].get<std::string>().rfind("float32 distances", 0) == 0);
    options.distancePrecision = DistancePrecision::Auto;
    QVERIFY(!computeEmpiricalProfile(data, options).provenance.contains("warnings"));
  }

  // A prior whose points are far apart against their norms (the corners of a square): the
  // bound at each row's first σ is under the limit, so "auto" runs float32, and each posterior
  // spread is within a factor e^{±2δ} of float64's (δ the reported bound).
  void autoUsesFloat32WhereTheBoundIsTight() {
    const Dataset data = makeDataset(4, 2, {-1.0f, -1.0f, -1.0f, 1.0f, 1.0f, -1.0f, 1.0f, 1.0f});
    const std::vector<double> sigma = logSigmaLevels(24, 0.002, 80.0);
    const QuerySet queries = drawQueries(data.size(), data.dim(), 64, 2);
    PosteriorEngineSettings settings;
    settings.device = "cpu";
    settings.distancePrecision = DistancePrecision::Float64;
    const PerQueryPosterior exact = evaluateEmpiricalPosterior(data, queries, sigma, settings);
    settings.distancePrecision = DistancePrecision::Auto;
    const PerQueryPosterior automatic = evaluateEmpiricalPosterior(data, queries, sigma, settings);

    QVERIFY2(automatic.float32DistanceRows > 0, "the square's corners must pass the bound");
    const double delta = automatic.distanceLogitErrorBound;
    QVERIFY(delta > 0.0 && delta <= kFloat32LogitTolerance);
    QVERIFY(automatic.prunedWeightBound >= exact.prunedWeightBound);
    const double factor = std::expm1(2.0 * delta);
    for (size_t i = 0; i < exact.posteriorVariance.size(); ++i) {
      const double v = exact.posteriorVariance[i];
      QVERIFY2(std::abs(automatic.posteriorVariance[i] - v) <= factor * v + 1e-14,
               qPrintable(QString("entry %1: %2 against %3 (δ %4)")
                              .arg(i)
                              .arg(automatic.posteriorVariance[i])
                              .arg(v)
                              .arg(delta)));
      // ‖m' − m‖ ≤ (e^{2δ} − 1)·√V moves ‖x_j − m‖² by at most 2√err·that + that².
      const double shift = factor * std::sqrt(v);
      const double err = exact.squaredError[i];
      QVERIFY(std::abs(automatic.squaredError[i] - err) <=
              2.0 * std::sqrt(err) * shift + shift * shift + 1e-14);
    }
  }
};

QTEST_APPLESS_MAIN(TestDistanceTerms)
#include "test_distance_terms.moc"
