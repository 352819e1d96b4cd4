// Statistics: moments and σ_data against hand-computed values, and the GEMM-based nearest-
// neighbour median against a brute-force search in double precision.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include "data/random_source.h"
#include "data/statistics.h"
#include "data/synthetic.h"
#include "fixtures.h"

using namespace noisescope;

namespace {
double bruteForceNearest(const Dataset& d, int64_t q) {
  double best = INFINITY;
  for (int64_t i = 0; i < d.size(); ++i) {
    if (i == q) continue;
    double sum = 0;
    for (int64_t k = 0; k < d.dim(); ++k) {
      const double diff = double(d.sample(q)[k]) - d.sample(i)[k];
      sum += diff * diff;
    }
    best = std::min(best, std::sqrt(sum));
  }
  return best;
}
double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}
}  // namespace

class TestStatistics : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void momentsAndSigmaData() {
    Dataset d;
    d.sampleShape = {2};
    d.values = {1, 10, 3, 10, 5, 10, 7, 10};  // coordinate 0: 1,3,5,7; coordinate 1: constant
    const DatasetStatistics s = computeStatistics(d, 0);
    QCOMPARE(s.count, int64_t{4});
    QCOMPARE(s.dimension, int64_t{2});
    QCOMPARE(s.minValue, 1.0);
    QCOMPARE(s.maxValue, 10.0);
    QCOMPARE(s.mean, 7.0);
    // Population variance over all 8 values: mean of squares 484/8 = 60.5, minus 7² = 11.5.
    QVERIFY(std::abs(s.stddev - std::sqrt(11.5)) < 1e-12);
    // σ_data² = (Var coordinate 0 + Var coordinate 1) / 2 = (5 + 0) / 2.
    QVERIFY(std::abs(s.sigmaData - std::sqrt(2.5)) < 1e-12);
    QCOMPARE(s.nearestNeighbourQueries, int64_t{0});
    QCOMPARE(s.nearestNeighbourMedian, 0.0);
  }

  void nearestNeighbourMatchesBruteForce() {
    // More rows than one chunk (4096), so the search crosses chunk boundaries.
    const Dataset d = makeSynthetic(parseSyntheticSpec("synthetic:gaussian?n=5000&d=6&seed=3"));
    const DatasetStatistics s = computeStatistics(d, 41, 11);
    QCOMPARE(s.nearestNeighbourQueries, int64_t{41});
    // The same queries as the implementation: a partial Fisher–Yates with the same seed.
    std::vector<int64_t> rows(static_cast<size_t>(d.size()));
    for (int64_t i = 0; i < d.size(); ++i) rows[i] = i;
    data_detail::RandomSource random(11);
    std::vector<double> distances;
    for (int64_t i = 0; i < 41; ++i) {
      std::swap(rows[i], rows[i + static_cast<int64_t>(random.below(d.size() - i))]);
      distances.push_back(bruteForceNearest(d, rows[i]));
    }
    QVERIFY2(
        std::abs(s.nearestNeighbourMedian - medianOf(distances)) < 1e-9,
        (std::to_string(s.nearestNeighbourMedian) + " vs " + std::to_string(medianOf(distances)))
            .c_str());
  }

  void highDimensionalQueriesGoInBlocks() {
    // D = 3 000 000: two queries fill a 32 MB block, so the 4 queries take two blocks.
    const Dataset d = makeSynthetic(parseSyntheticSpec("synthetic:hypercube?n=4&d=3000000&seed=4"));
    const DatasetStatistics s = computeStatistics(d, 4, 2);
    QCOMPARE(s.nearestNeighbourQueries, int64_t{4});
    std::vector<double> distances;
    for (int64_t q = 0; q < d.size(); ++q) distances.push_back(bruteForceNearest(d, q));
    QVERIFY(std::abs(s.nearestNeighbourMedian - medianOf(distances)) < 1e-9);
  }

  void duplicatesAreAtDistanceZeroButNotSelf() {
    // Every point appears twice: the nearest other point is its copy.
    const Dataset atoms =
        makeSynthetic(parseSyntheticSpec("synthetic:dirac-mixture?n=200&d=50&k=3&scale=30"));
    QCOMPARE(computeStatistics(atoms, 64).nearestNeighbourMedian, 0.0);
    // Three distinct points on a line: nearest distances 1, 1, 2 → median 1 with all queries.
    Dataset line;
    line.sampleShape = {1};
    line.values = {0, 1, 3};
    const DatasetStatistics s = computeStatistics(line, 10);
    QCOMPARE(s.nearestNeighbourQueries, int64_t{3});
    QCOMPARE(s.nearestNeighbourMedian, 1.0);
    Dataset single;
    single.sampleShape = {1};
    single.values = {4};
    QCOMPARE(computeStatistics(single, 10).nearestNeighbourQueries, int64_t{0});
  }

  void cancellation() {
    const Dataset d = makeSynthetic(parseSyntheticSpec("synthetic:gaussian?n=9000&d=4"));
    auto cancel = std::make_shared<std::atomic<bool>>(true);
    QVERIFY_THROWS_EXCEPTION(Cancelled, computeStatistics(d, 16, 1, Progress({}, cancel)));
  }
};

QTEST_APPLESS_MAIN(TestStatistics)
#include "test_statistics.moc"
