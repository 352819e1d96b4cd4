// The sample race's file and table (io/sample_race_io.h): the 95 % Student t interval over seeds,
// the JSON fields a reader relies on, and a table that shows every grid, NFE and the floor, and
// a partial race's finished cells.
#include <QObject>
#include <QTest>

#include <cmath>

#include "io/sample_race_io.h"

using namespace noisescope;

namespace {

SampleRaceResult twoGrids() {
  SampleRaceResult r;
  r.sampler = "heun";
  r.samples = 16;
  r.reference = 20;
  r.seeds = {1, 2, 3};
  r.nfe = {8, 16};
  r.grids = {{"karras?rho=7", "EDM"}, {"log-sigma", "uniform log σ"}};
  for (const auto& g : r.grids)
    for (int64_t n : r.nfe) {
      SampleRaceCell c;
      c.grid = g.name;
      c.nfe = n;
      c.steps = n / 2;
      c.evaluations = n - 1;
      c.sigma = {80.0, 1.0, 0.0};
      c.values["fd"] = {1.0 + double(n), 2.0 + double(n), 3.0 + double(n)};
      r.cells.push_back(c);
    }
  r.floor["fd"] = {0.5, 0.7};
  r.floorCount = 16;
  return r;
}

}  // namespace

class TestSampleRaceIo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void intervalIsStudentT() {
    // {1, 2, 3}: mean 2, sd 1, t(0.975, 2) = 4.3027 → half-width 4.3027/√3.
    const auto m = meanInterval({1.0, 2.0, 3.0});
    QCOMPARE(m.mean, 2.0);
    QVERIFY(std::abs(m.halfWidth - 4.302653 / std::sqrt(3.0)) < 1e-5);
    QVERIFY(std::isnan(meanInterval({4.0}).halfWidth));
    QCOMPARE(meanInterval({4.0}).mean, 4.0);
  }

  void jsonCarriesEveryCellAndTheFloor() {
    const auto j = sampleRaceToJson(twoGrids());
    QCOMPARE(j["format"].get<std::string>(), std::string(kSampleRaceFormat));
    QCOMPARE(j["cells"].size(), size_t(4));
    const auto& c = j["cells"][3];
    QCOMPARE(c["grid"].get<std::string>(), std::string("log-sigma"));
    QCOMPARE(c["evaluations"].get<int>(), 15);
    QCOMPARE(c["summary"]["fd"]["mean"].get<double>(), 18.0);
    QCOMPARE(j["floor"]["fd"]["mean"].get<double>(), 0.6);
    QCOMPARE(j["floor_count"].get<int>(), 16);
  }

  void tableShowsGridsNfeAndFloor() {
    const std::string t = sampleRaceTable(twoGrids());
    for (const char* s : {"karras?rho=7", "log-sigma", "NFE 8 (7)", "NFE 16 (15)",
                          "floor (real vs held-out)", "10 ± 2.5", "FD"})
      QVERIFY2(t.find(s) != std::string::npos, s);
  }

  // A race stopped after one cell: the table keeps that cell, names the others cancelled and
  // says how many finished; the JSON carries the state.
  void partialRaceKeepsItsCells() {
    SampleRaceResult r = twoGrids();
    r.cells.resize(1);
    r.state = SampleRaceState::Cancelled;
    const std::string t = sampleRaceTable(r);
    for (const char* s :
         {"1 of 4 cells finished", "the race was cancelled", "10 ± 2.5", "cancelled  "})
      QVERIFY2(t.find(s) != std::string::npos, s);
    QCOMPARE(sampleRaceToJson(r)["state"].get<std::string>(), std::string("cancelled"));
    r.state = SampleRaceState::Running;
    QVERIFY(sampleRaceTable(r).find("…") != std::string::npos);
    QCOMPARE(sampleRaceToJson(twoGrids())["state"].get<std::string>(), std::string("complete"));
  }
};

QTEST_GUILESS_MAIN(TestSampleRaceIo)
#include "test_sample_race_io.moc"
