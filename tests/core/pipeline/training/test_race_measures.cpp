// The race's measures and the pick among them: sample quality first (the Fréchet distance in one
// feature network, then the k-mer JS), the held-out error second, in race_stats.py's order.
#include <QObject>
#include <QTest>

#include <cmath>
#include <limits>

#include "pipeline/training/schedule_race.h"

using namespace noisescope::pipeline;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

RunRecord runWith(double fd, double kmerJs, const std::string& network = "net.features.pt") {
  RunRecord r;
  r.evals.push_back({100, 1.5, {0.1}, {0.01}, kNaN, kNaN, ""});  // an eval without sample quality
  r.evals.push_back({200, 1.25, {0.1}, {0.01}, fd, kmerJs, std::isfinite(fd) ? network : ""});
  return r;
}

}  // namespace

class TestRaceMeasures : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void orderIsRaceStatsOrder() {
    // bench/train/race_stats.py, pick_measures: ("fd", "kmer_js") where carried, then "elbo".
    std::vector<std::string> keys;
    for (const RaceMeasure& m : raceMeasures()) keys.push_back(m.key);
    QCOMPARE(keys, (std::vector<std::string>{"fd", "kmer_js", "elbo"}));
    QVERIFY(raceMeasure(RaceMeasureId::Fd).sampleQuality);
    QVERIFY(raceMeasure(RaceMeasureId::KmerJs).sampleQuality);
    QVERIFY(!raceMeasure(RaceMeasureId::HeldOut).sampleQuality);
    QCOMPARE(raceMeasure(RaceMeasureId::HeldOut).name, std::string("held-out ELBO-like error"));
  }

  void valueReadsItsField() {
    const RunRecord r = runWith(40.0, 0.02);
    QCOMPARE(raceMeasureValue(RaceMeasureId::Fd, r.evals[1]), 40.0);
    QCOMPARE(raceMeasureValue(RaceMeasureId::KmerJs, r.evals[1]), 0.02);
    QCOMPARE(raceMeasureValue(RaceMeasureId::HeldOut, r.evals[1]), 1.25);
    QVERIFY(std::isnan(raceMeasureValue(RaceMeasureId::Fd, r.evals[0])));
  }

  void pickPrefersSampleQualityAllRunsCarry() {
    const RunRecord both = runWith(40.0, 0.02), kmerOnly = runWith(kNaN, 0.03),
                    none = runWith(kNaN, kNaN), otherNet = runWith(30.0, 0.01, "other.pt");
    QCOMPARE(pickRaceMeasure({&both}), RaceMeasureId::Fd);
    QCOMPARE(pickRaceMeasure({&both, &kmerOnly}), RaceMeasureId::KmerJs);
    QCOMPARE(pickRaceMeasure({&both, &otherNet}), RaceMeasureId::KmerJs);  // FD not comparable
    QCOMPARE(pickRaceMeasure({&both, &none}), RaceMeasureId::HeldOut);
    QCOMPARE(pickRaceMeasure({}), RaceMeasureId::HeldOut);
    QCOMPARE(pickRaceMeasure({&both}, false), RaceMeasureId::HeldOut);  // the second, asked for
  }
};

QTEST_GUILESS_MAIN(TestRaceMeasures)
#include "test_race_measures.moc"
