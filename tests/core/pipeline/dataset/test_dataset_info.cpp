// The "open a dataset" wing: the statistics every face shows are the data's own (checked against
// sums written out here), the nearest-neighbour estimate is seeded and optional, and `info`'s
// description carries the provenance the reader recorded.
#include <QObject>
#include <QTest>

#include <cmath>
#include <nlohmann/json.hpp>

#include "pipeline/dataset/dataset_info.h"

using namespace noisescope;
using namespace noisescope::pipeline;

namespace {

// Six 2-D points on two clusters: their sums are easy to check by hand.
Dataset twoClusters() {
  Dataset d;
  d.name = "two clusters";
  d.source = "written by the test";
  d.kind = SampleKind::Points;
  d.sampleShape = {2};
  d.values = {-1.0f, 0.0f, -1.1f, 0.1f, -0.9f, -0.1f, 1.0f, 0.0f, 1.1f, 0.1f, 0.9f, -0.1f};
  d.notes = {"a note from the reader"};
  d.validate();
  return d;
}

}  // namespace

class TestDatasetInfo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void statisticsAreTheDatasOwn() {
    const Dataset d = twoClusters();
    const DatasetStatistics s = datasetStatistics(d, {0, 1});
    QCOMPARE(s.count, int64_t{6});
    QCOMPARE(s.dimension, int64_t{2});
    double sum = 0.0, squares = 0.0;
    for (float v : d.values) sum += v;
    const double mean = sum / d.values.size();
    for (float v : d.values) squares += (v - mean) * (v - mean);
    QVERIFY(std::abs(s.mean - mean) < 1e-9);
    QVERIFY(std::abs(s.stddev - std::sqrt(squares / d.values.size())) < 1e-6);
    QCOMPARE(s.minValue, double{-1.1f});
    QCOMPARE(s.maxValue, double{1.1f});
    // σ_data: per-coordinate means (x: 0, y: 0), so √(mean of squares over both coordinates).
    double perCoordinate = 0.0;
    for (float v : d.values) perCoordinate += double(v) * v;
    QVERIFY(std::abs(s.sigmaData - std::sqrt(perCoordinate / d.values.size())) < 1e-6);
    QCOMPARE(s.nearestNeighbourQueries, int64_t{0});  // not asked for
  }

  void nearestNeighbourIsSeededAndWithinTheCluster() {
    const Dataset d = twoClusters();
    const DatasetStatistics a = datasetStatistics(d, {4, 7});
    const DatasetStatistics b = datasetStatistics(d, {4, 7});
    QVERIFY(a.nearestNeighbourQueries > 0);
    QCOMPARE(a.nearestNeighbourMedian, b.nearestNeighbourMedian);
    // Every point's nearest other point is in its own cluster, at most √0.08 away.
    QVERIFY(a.nearestNeighbourMedian > 0.0);
    QVERIFY(a.nearestNeighbourMedian <= std::sqrt(0.08) + 1e-6);
  }

  void infoJsonCarriesProvenanceAndStatistics() {
    const Dataset d = twoClusters();
    const DatasetStatistics s = datasetStatistics(d, {4, 1});
    const nlohmann::json info = datasetInfoJson(d, s);
    QCOMPARE(info.at("name").get<std::string>(), d.name);
    QCOMPARE(info.at("N").get<int64_t>(), int64_t{6});
    QCOMPARE(info.at("D").get<int64_t>(), int64_t{2});
    QCOMPARE(info.at("kind").get<std::string>(), std::string(toString(SampleKind::Points)));
    QCOMPARE(info.at("has_labels").get<bool>(), false);
    QCOMPARE(info.at("notes").at(0).get<std::string>(), std::string("a note from the reader"));
    QCOMPARE(info.at("sigma_data").get<double>(), s.sigmaData);
    QCOMPARE(info.at("nearest_neighbour_median").get<double>(), s.nearestNeighbourMedian);
    QVERIFY(!info.contains("source_range"));  // the reader recorded none
    QVERIFY(!datasetInfoJson(d, datasetStatistics(d, {0, 1})).contains("nearest_neighbour_median"));
  }
};

QTEST_GUILESS_MAIN(TestDatasetInfo)
#include "test_dataset_info.moc"
