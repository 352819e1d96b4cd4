// Statistics: moments and σ_data against hand-computed values, and the GEMM-based nearest-
// neighbour median against a brute-force search in double precision.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include "data/statistics.h"
#include "data/synthetic.h"
#include "fixtures.h"
#include "util/random_source.h"

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

  void sigmaDataKnownValues() {
    // The one definition (THEORY §1): √(tr Cov / D) with per-coordinate means, 1/N normalisation.
    Dataset d;
    d.sampleShape = {2};
    d.values = {1, 10, 3, 10, 5, 10, 7, 10};  // Var coordinate 0 = 5, coordinate 1 constant
    QVERIFY(std::abs(measureSigmaData(d) - std::sqrt(2.5)) < 1e-15);
    // One-hot DNA in the ±1 scaling, two positions × 4 channels. Position 0 is always A, position
    // 1 is A or C with equal frequency: only channels A and C of position 1 vary (variance 1
    // each), so σ_data² = 2/8 — not the pooled variance 0.75 of "one +1 and three −1".
    Dataset dna;
    dna.sampleShape = {2, 4};
    dna.values = {1, -1, -1, -1, 1,  -1, -1, -1,   // AA
                  1, -1, -1, -1, -1, 1,  -1, -1};  // AC
    QVERIFY(std::abs(measureSigmaData(dna) - std::sqrt(0.25)) < 1e-15);
    // Fewer than two samples: no σ_data, and the message says why.
    Dataset one;
    one.sampleShape = {3};
    one.values = {1, 2, 3};
    one.source = "one.npy";
    EXPECT_INPUT_ERROR(measureSigmaData(one), "at least two samples");
  }

  void sigmaDataIgnoresAConstantShift() {
    // Values on a 1/16 grid, shifted by 1024: every shifted value is exact in float, so the two
    // sets differ only by the constant. σ_data leaves the mean out; E‖x‖²/D does not.
    RandomSource random(5);
    Dataset centred, shifted;
    centred.sampleShape = shifted.sampleShape = {3};
    for (int i = 0; i < 3000; ++i) {
      const float v = static_cast<float>(static_cast<int>(random.below(64)) - 32) / 16.0f;
      centred.values.push_back(v + (i % 3 == 2 ? 0.5f : 0.0f));
      shifted.values.push_back(centred.values.back() + 1024.0f);
    }
    const double a = measureSigmaData(centred), b = measureSigmaData(shifted);
    QVERIFY2(std::abs(a - b) <= 1e-12 * a,
             (std::to_string(a) + " vs " + std::to_string(b)).c_str());
    // E‖x‖²/D = σ_data² + ‖μ‖²/D with μ the mean sample.
    const int64_t n = shifted.size(), dim = shifted.dim();
    std::vector<double> mu(dim, 0.0);
    double squares = 0.0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < dim; ++k) {
        mu[k] += shifted.sample(i)[k] / double(n);
        squares += double(shifted.sample(i)[k]) * shifted.sample(i)[k];
      }
    double muSquares = 0.0;
    for (double m : mu) muSquares += m * m;
    QVERIFY(std::abs(squares / double(n * dim) - (b * b + muSquares / dim)) < 1e-6 * squares / n);
  }

  void computeStatisticsAgreesWithMeasureSigmaData() {
    // Non-centred data with a large offset (a one-pass Σx² − Nμ² loses every digit here), over
    // more rows than one chunk, and a centred set: DatasetStatistics::sigmaData is the same
    // number as measureSigmaData, to 1e-9 relative.
    RandomSource random(9);
    Dataset offset;
    offset.sampleShape = {2};
    for (int i = 0; i < 2 * 5000; ++i)
      offset.values.push_back(1.0e6f + static_cast<float>(random.below(33)) / 16.0f);
    const Dataset gaussian =
        makeSynthetic(parseSyntheticSpec("synthetic:gaussian?n=5000&d=7&scale=0.3&seed=2"));
    for (const Dataset* d : std::vector<const Dataset*>{&offset, &gaussian}) {
      const double measured = measureSigmaData(*d);
      const DatasetStatistics s = computeStatistics(*d, 0);
      QVERIFY2(std::abs(s.sigmaData - measured) <= 1e-9 * measured,
               (std::to_string(s.sigmaData) + " vs " + std::to_string(measured)).c_str());
      QVERIFY(s.sigmaData > 0);
    }
    // The offset set: each coordinate is uniform on 33 values 1/16 apart, variance (33²−1)/12/256.
    const double expected = std::sqrt((33.0 * 33.0 - 1.0) / 12.0) / 16.0;
    QVERIFY(std::abs(measureSigmaData(offset) - expected) < 0.02 * expected);
    // The pooled spread is computed from the same passes: no cancellation either.
    QVERIFY(std::abs(computeStatistics(offset, 0).stddev - expected) < 0.02 * expected);
  }

  void nearestNeighbourMatchesBruteForce() {
    // More rows than one chunk (4096), so the search crosses chunk boundaries.
    const Dataset d = makeSynthetic(parseSyntheticSpec("synthetic:gaussian?n=5000&d=6&seed=3"));
    const DatasetStatistics s = computeStatistics(d, 41, 11);
    QCOMPARE(s.nearestNeighbourQueries, int64_t{41});
    // The same queries as the implementation: a partial Fisher–Yates with the same seed.
    std::vector<int64_t> rows(static_cast<size_t>(d.size()));
    for (int64_t i = 0; i < d.size(); ++i) rows[i] = i;
    RandomSource random(11);
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
