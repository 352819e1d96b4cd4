// Comparison metrics on the effective allocation, and schedule specs.
#include <QObject>
#include <QTest>

#include <cmath>

#include "io/comparison_io.h"
#include "io/schedule_spec.h"
#include "schedule/compare.h"
#include "schedule/entropic.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;

namespace {
std::vector<double> logSpaced(double lo, double hi, int n) {
  std::vector<double> out(n);
  for (int i = 0; i < n; ++i)
    out[i] = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * i / (n - 1));
  return out;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

class TestScheduleCompare : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void identicalAndDisjoint();
  void klOfShiftedNormals();
  void bandAndLowRateMasses();
  void specs();
};

void TestScheduleCompare::identicalAndDisjoint() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 128);
  ComparisonOptions options;
  options.grid = grid;
  const Schedule low =
      scheduleFromSpec("family:log-uniform?sigma_low=0.01&sigma_high=0.1", grid, 0.5);
  const Schedule high = scheduleFromSpec("family:log-uniform?sigma_low=1&sigma_high=10", grid, 0.5);
  const Comparison c = compareSchedules({low, low, high}, options);
  QCOMPARE(c.metrics[1].klToReference, 0.0);
  QCOMPARE(c.metrics[1].totalVariation, 0.0);
  QVERIFY(std::isinf(c.metrics[2].klToReference) && std::isinf(c.metrics[2].klFromReference));
  QVERIFY(std::abs(c.metrics[2].totalVariation - 1.0) < 1e-12);
  QVERIFY(std::abs(c.metrics[2].hellinger - 1.0) < 1e-12);
  QVERIFY(c.labels[1] != c.labels[0]);  // duplicates are told apart
  QVERIFY(std::abs(c.metrics[2].sigmaMedian - std::sqrt(10.0)) < 1e-9);
  QVERIFY(std::isnan(c.metrics[0].massInBand));  // no profile, no band
  const std::string table = formatComparisonTable(c);
  QVERIFY(table.find("Log-uniform") != std::string::npos);
  QCOMPARE(count(comparisonToCsv(c), "\n"), 4);
}

void TestScheduleCompare::klOfShiftedNormals() {
  // Two log-normals with a uniform weight: KL = (m1 − m2)²/(2s²) both ways (truncation negligible).
  const LogSigmaGrid grid = LogSigmaGrid::uniform(1e-4, 1e4, 2000);
  const Schedule a = scheduleFromSpec("family:edm?p_mean=-0.5&p_std=1", grid, 0.5);
  const Schedule b = scheduleFromSpec("family:edm?p_mean=0.5&p_std=1", grid, 0.5);
  ComparisonOptions options;
  options.grid = grid;
  const Comparison c = compareSchedules({a, b}, options);
  QVERIFY(std::abs(c.metrics[1].klToReference - 0.5) < 1e-3);
  QVERIFY(std::abs(c.metrics[1].klFromReference - 0.5) < 1e-3);
  // TV of two unit normals 1 apart: 2Φ(1/2) − 1.
  QVERIFY(std::abs(c.metrics[1].totalVariation - (std::erf(0.5 / std::sqrt(2.0)))) < 1e-3);
  // The effective allocation is what is compared: with the EDM weight the same π moves down in σ.
  Schedule weighted = a;
  weighted.lossWeight = makeLossWeight("edm");
  const Comparison cw = compareSchedules({a, weighted}, options);
  QVERIFY(cw.metrics[1].sigmaMedian < cw.metrics[0].sigmaMedian);
  QVERIFY(std::abs(cw.metrics[0].sigmaMedian - std::exp(-0.5)) < 1e-3);
}

void TestScheduleCompare::bandAndLowRateMasses() {
  const RateProfile profile = gaussianProfile(0.5, 4, logSpaced(0.002, 80.0, 200));
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 256);
  InfoNoiseOptions info;
  info.gateC = 0.15;
  info.weight = makeLossWeight("uniform");
  const Schedule rho = infoNoiseSchedule(profile, grid, info);
  ComparisonOptions options;
  options.grid = grid;
  options.profile = &profile;
  options.bandGateC = 0.15;
  const Comparison c = compareSchedules({rho, makePresetSchedule("sd3", grid)}, options);
  QVERIFY(c.hasProfile);
  QVERIFY(std::abs(c.metrics[0].massInBand - 0.9) < 1e-9);  // ρ itself has 90 % in its band
  QVERIFY(c.bandLow < 0.5 && c.bandHigh > 0.5);
  // Rate s²/(s²+σ²) < 1 % of its peak for σ > ~5: SD3 (shifted to larger σ) puts more there.
  QVERIFY(c.metrics[1].massLowRate > c.metrics[0].massLowRate);
  QVERIFY(c.metrics[0].massLowRate < 0.01);
}

void TestScheduleCompare::specs() {
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.002, 80.0, 64);
  const Schedule s =
      scheduleFromSpec("family:edm?p_mean=-1&p_std=1.4&weight=min-snr&gamma=3", grid, 0.5);
  QCOMPARE(s.info.parameter("p_mean", 0), -1.0);
  QCOMPARE(s.info.parameter("p_std", 0), 1.4);
  QCOMPARE(s.lossWeight.name(), std::string("min-snr"));
  QCOMPARE(s.lossWeight.gamma, 3.0);
  QCOMPARE(scheduleFromSpec("edm2-img64", grid, 0.5).info.parameter("p_std", 0), 1.6);
  QCOMPARE(scheduleFromSpec("preset:sd3", grid, 0.5).lossWeight.name(), std::string("flow-v"));
  QVERIFY_THROWS_EXCEPTION(InputError, scheduleFromSpec("family:edm?p_mean=abc", grid, 0.5));
  QVERIFY_THROWS_EXCEPTION(InputError, scheduleFromSpec("family:edm?p_mean", grid, 0.5));
  QVERIFY_THROWS_EXCEPTION(InputError, scheduleFromSpec("edm?weight=heavy", grid, 0.5));
  QVERIFY_THROWS_EXCEPTION(InputError, scheduleFromSpec("/no/such/file.json", grid, 0.5));
}

QTEST_APPLESS_MAIN(TestScheduleCompare)
#include "test_schedule_compare.moc"
