// The empirical profile's interval at the onset level (THEORY §3, "The onset level"). On ±1 data
// the error first appears at a σ where only a few of 256 queries' noise lands near another point,
// often none, and the normal interval over queries then lies below the truth. The analytic bound
// of diagnostic/onset_bound.h raises the upper end there. Checked against a ±1 chain whose
// empirical MMSE is measured with 256 times the queries: per level over 40 query seeds.
#include <QObject>
#include <QString>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <random>

#include "diagnostic/empirical_diagnostic.h"
#include "diagnostic/empirical_posterior.h"
#include "diagnostic/onset_bound.h"
#include "diagnostic/queries.h"
#include "vector_dataset.h"

using namespace noisescope;

namespace {

constexpr int kSeeds = 40;
// Where the bound raises the upper end: a level covered in ≥ 95 % of seeds fails 34 of 40 with
// probability 0.004; one at 0.6 passes with probability < 10⁻⁴. Elsewhere the plain normal
// interval stands, which covers 0.89–0.95 on these skewed per-query values (docs/profiles.md):
// a floor of 30 there catches a broken interval without failing that.
constexpr int kPassPerLevel = 34;
constexpr int kFloorElsewhere = 30;
constexpr int64_t kQueries = 256;

// 64 strings of 12 ±1 letters from a chain that flips with probability 0.25: neighbours one
// letter apart (A = 4) are common, and so are repeats.
Dataset plusMinusOneChain() {
  std::mt19937 rng(11);
  std::bernoulli_distribution flip(0.25), coin(0.5);
  const int64_t n = 64, d = 12;
  std::vector<float> v(static_cast<size_t>(n * d));
  for (int64_t i = 0; i < n; ++i) {
    float x = coin(rng) ? 1.0f : -1.0f;
    for (int64_t k = 0; k < d; ++k) {
      if (k > 0 && flip(rng)) x = -x;
      v[static_cast<size_t>(i * d + k)] = x;
    }
  }
  return makeDataset(n, d, std::move(v));
}

std::vector<double> grid() {
  return logSigmaLevels(24, 0.05, 5.0);
}

PerQueryPosterior run(const Dataset& data, int64_t queries, uint64_t seed) {
  PosteriorEngineSettings settings;
  settings.device = "cpu";
  return evaluateEmpiricalPosterior(data, drawQueries(data.size(), data.dim(), queries, seed),
                                    grid(), settings);
}

}  // namespace

class TestOnsetInterval : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // With every neighbour kept the terms are the direct sums; with fewer kept, the points left
  // out are bounded by the farthest kept, so the terms can only grow.
  void termsAreTheSumOrBoundIt() {
    const std::vector<double> all = {4.0, 8.0, 8.0, 16.0, 36.0};
    const std::vector<double> sigma = {0.1, 0.5, 1.0, 3.0};
    const OnsetTerms exact = onsetTerms(all, 5, {0.0}, sigma);
    const OnsetTerms cut = onsetTerms({4.0, 8.0}, 2, {3.0}, sigma);
    for (size_t l = 0; l < sigma.size(); ++l) {
      double u = 0.0, e = 0.0;
      for (double a : all) {
        const double tail = std::erfc(std::sqrt(a) / (2.0 * sigma[l]) / std::sqrt(2.0));
        u += a * tail;
        e += tail;
      }
      QVERIFY2(std::abs(exact.bound[l] / u - 1.0) < 1e-12, qPrintable(QString::number(l)));
      QVERIFY(std::abs(exact.events[l] / e - 1.0) < 1e-12);
      QVERIFY(cut.bound[l] >= exact.bound[l] * (1.0 - 1e-12));
      QVERIFY(cut.events[l] >= exact.events[l] * (1.0 - 1e-12));
    }
  }

  // Per level, the share of query seeds whose interval holds the chain's empirical MMSE: the
  // plain normal interval misses at the onset, the raised one covers at every level, and the
  // analytic bound itself lies above the truth everywhere.
  void intervalCoversAtTheOnset() {
    const Dataset data = plusMinusOneChain();
    const std::vector<double> sigma = grid();
    const int levels = static_cast<int>(sigma.size());
    const PerQueryPosterior truthRun = run(data, kQueries * 256, 999);
    const MmseEstimate truth =
        summarizeEstimate("t", "", truthRun.posteriorVariance, levels, truthRun.queries);
    const OnsetTerms allQueries{truthRun.onsetBound, truthRun.onsetEvents};
    std::vector<int> plain(levels, 0), raised(levels, 0), rare(levels, 0);
    for (int seed = 1; seed <= kSeeds; ++seed) {
      const PerQueryPosterior r = run(data, kQueries, seed);
      MmseEstimate e = summarizeEstimate("e", "", r.posteriorVariance, levels, kQueries);
      auto covers = [&](const MmseEstimate& x, int l) {
        return x.ciLow[l] <= truth.mean[l] && truth.mean[l] <= x.ciHigh[l];
      };
      for (int l = 0; l < levels; ++l) plain[l] += covers(e, l);
      for (int l : raiseOnsetUpperEnds(e, {r.onsetBound, r.onsetEvents}, levels, kQueries))
        ++rare[l];
      for (int l = 0; l < levels; ++l) raised[l] += covers(e, l);
    }
    int worstPlain = kSeeds;
    for (int l = 0; l < levels; ++l) {
      double bound = 0.0;
      for (int64_t q = 0; q < truthRun.queries; ++q)
        bound += allQueries.bound[l * truthRun.queries + q];
      bound /= static_cast<double>(truthRun.queries);
      std::printf(
          "σ = %.4f  MMSE %.4g  bound %.4g  covered: plain %d, raised %d of %d (%d raised)\n",
          sigma[l], truth.mean[l], bound, plain[l], raised[l], kSeeds, rare[l]);
      QVERIFY2(bound >= truth.mean[l] - 3.0 * truth.standardError[l],
               qPrintable(QString("σ = %1: bound %2 below the MMSE %3")
                              .arg(sigma[l])
                              .arg(bound)
                              .arg(truth.mean[l])));
      QVERIFY2(raised[l] >= (rare[l] > 0 ? kPassPerLevel : kFloorElsewhere),
               qPrintable(QString("σ = %1 covered in %2 of %3 seeds (%4 raised)")
                              .arg(sigma[l])
                              .arg(raised[l])
                              .arg(kSeeds)
                              .arg(rare[l])));
      worstPlain = std::min(worstPlain, plain[l]);
    }
    // The defect this guards against is visible on these draws: the plain interval misses in
    // most seeds at the onset.
    QVERIFY2(worstPlain < kSeeds / 2, qPrintable(QString::number(worstPlain)));
  }

  // The profile file says which levels were raised and how.
  void profileNamesTheRaisedLevels() {
    DiagnosticOptions o;
    o.levels = 24;
    o.sigmaMin = 0.05;
    o.sigmaMax = 5.0;
    o.queries = kQueries;
    o.device = "cpu";
    const Profile p = computeEmpiricalProfile(plusMinusOneChain(), o);
    const auto& raised = p.provenance.at("interval_onset_sigma");
    QVERIFY(!raised.empty());
    QVERIFY(raised.front().get<double>() == p.sigma.front());  // the smallest σ sees no error
    QVERIFY(QString::fromStdString(p.primary().interval).contains("analytic bound"));
    QVERIFY(p.primary().ciHigh.front() > 0.0);
  }
};

QTEST_GUILESS_MAIN(TestOnsetInterval)
#include "test_onset_interval.moc"
