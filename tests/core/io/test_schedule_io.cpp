// Schedule files: JSON, CSV and HDF5 round trips, and malformed files rejected with an InputError
// that names the file and the problem.
#include <QFile>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include "io/profile_io.h"
#include "io/provenance.h"
#include "io/schedule_io.h"
#include "schedule/entropic.h"
#include "schedule/families.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::schedule;
using nlohmann::json;

namespace {
std::string tempPath(const QTemporaryDir& dir, const char* name) {
  return dir.filePath(name).toStdString();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The error must be an InputError whose message names the file and contains `fragment`.
bool rejects(const std::string& path, const std::string& fragment) {
  try {
    readSchedule(path);
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.find(path) == std::string::npos || message.find(fragment) == std::string::npos) {
      qWarning("unexpected message: %s", message.c_str());
      return false;
    }
    return true;
  }
  qWarning("no error for %s", path.c_str());
  return false;
}

void compareSchedules(const Schedule& a, const Schedule& b) {
  QCOMPARE(a.isAtomic(), b.isAtomic());
  QCOMPARE(a.info.kind, b.info.kind);
  QCOMPARE(a.lossWeight.name(), b.lossWeight.name());
  QVERIFY(std::abs(a.lossWeight.sigmaData - b.lossWeight.sigmaData) < 1e-15);
  QVERIFY(std::abs(a.info.truncatedMass - b.info.truncatedMass) < 1e-15);
  if (a.isAtomic()) {
    QCOMPARE(a.atoms().size(), b.atoms().size());
    for (std::size_t k = 0; k < a.atoms().size(); ++k) {
      QVERIFY(std::abs(a.atoms()[k].sigma - b.atoms()[k].sigma) < 1e-14 * a.atoms()[k].sigma);
      QVERIFY(std::abs(a.atoms()[k].weight - b.atoms()[k].weight) < 1e-15);
    }
  } else {
    QCOMPARE(a.grid().bins(), b.grid().bins());
    for (int i = 0; i < a.grid().bins(); ++i) {
      QVERIFY(std::abs(a.grid().edges[i] - b.grid().edges[i]) < 1e-14);
      QVERIFY(std::abs(a.binMasses()[i] - b.binMasses()[i]) < 1e-15);
    }
  }
}
}  // namespace

class TestScheduleIo : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void roundTrips();
  void jsonCarriesEverything();
  void malformedJsonRejected();
  void malformedCsvAndHdf5Rejected();
  void tablesAndProfiles();
};

void TestScheduleIo::roundTrips() {
  QTemporaryDir dir;
  const Schedule edm = makePresetSchedule("edm", LogSigmaGrid::uniform(0.002, 80.0, 64));
  Schedule atomic = Schedule::fromAtoms({{0.05, 0.2}, {0.7, 0.5}, {9.0, 0.3}}, 0.002, 80.0);
  atomic.info.kind = "atomic";
  atomic.lossWeight.kind = LossWeight::Kind::MinSnr;
  std::vector<const char*> names = {"s.json", "s.csv"};
#ifdef NOISESCOPE_WITH_HDF5
  names.push_back("s.h5");
#endif
  for (const char* name : names) {
    const std::string path = tempPath(dir, name);
    writeSchedule(path, edm, makeProvenance("test_schedule_io", {{"seed", 3}}));
    const Schedule back = readSchedule(path);
    compareSchedules(edm, back);
    // Parameters and notes travel in every format (CSV keeps them as '#' lines).
    QCOMPARE(back.info.parameter("p_mean", 0.0), -1.2);
    QCOMPARE(back.info.note("preset"), std::string("edm"));
    writeSchedule(path, atomic);
    compareSchedules(atomic, readSchedule(path));
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
  }
  QVERIFY_THROWS_EXCEPTION(InputError, writeSchedule(tempPath(dir, "s.txt"), edm));
}

void TestScheduleIo::jsonCarriesEverything() {
  Schedule s = makePresetSchedule("edm2-img512", LogSigmaGrid::uniform(0.002, 80.0, 32));
  const json j = scheduleToJson(s, makeProvenance("test", {{"preset", "edm2-img512"}}));
  QCOMPARE(j.at("format").get<std::string>(), std::string("noisescope.schedule/1"));
  QCOMPARE(j.at("coordinate").get<std::string>(), std::string("log-sigma"));
  QCOMPARE(j.at("kind").get<std::string>(), std::string("edm"));
  QCOMPARE(j.at("parameters").at("p_mean").get<double>(), -0.4);
  QCOMPARE(j.at("loss_weight").at("kind").get<std::string>(), std::string("edm"));
  QCOMPARE(j.at("cdf").size(), std::size_t(33));
  QCOMPARE(j.at("density").size(), std::size_t(32));
  QCOMPARE(j.at("allocation").size(), std::size_t(32));
  QVERIFY(j.at("provenance").contains("version"));
  QVERIFY(j.at("provenance").contains("time_utc"));
  // density · width = mass, and the allocation integrates to 1.
  double total = 0.0;
  const auto edges = j.at("log_sigma_edges").get<std::vector<double>>();
  for (int b = 0; b < 32; ++b) {
    const double width = edges[b + 1] - edges[b];
    QVERIFY(std::abs(j.at("density")[b].get<double>() * width -
                     j.at("bin_masses")[b].get<double>()) < 1e-15);
    total += j.at("allocation")[b].get<double>() * width;
  }
  QVERIFY(std::abs(total - 1.0) < 1e-12);
}

void TestScheduleIo::malformedJsonRejected() {
  QTemporaryDir dir;
  const std::string path = tempPath(dir, "bad.json");
  const json good = scheduleToJson(makePresetSchedule("edm", LogSigmaGrid::uniform(0.01, 10.0, 8)));
  auto withChange = [&](const std::function<void(json&)>& change) {
    json j = good;
    change(j);
    writeText(path, j.dump());
  };
  writeText(path, "{ \"format\": \"noisescope.schedule/1\", ");
  QVERIFY(rejects(path, "not valid JSON"));
  writeText(path, "[1, 2]");
  QVERIFY(rejects(path, "not an object"));
  withChange([](json& j) { j.erase("format"); });
  QVERIFY(rejects(path, "missing 'format'"));
  withChange([](json& j) { j["format"] = "noisescope.profile/1"; });
  QVERIFY(rejects(path, "not a schedule"));
  withChange([](json& j) { j["format"] = "noisescope.schedule/2"; });
  QVERIFY(rejects(path, "not supported by this version"));
  withChange([](json& j) { j["bin_masses"][2] = -0.1; });
  QVERIFY(rejects(path, "negative"));
  withChange([](json& j) { j["bin_masses"].erase(0); });
  QVERIFY(rejects(path, "bins"));
  withChange([](json& j) { j["bin_masses"][1] = "x"; });
  QVERIFY(rejects(path, "non-number"));
  withChange([](json& j) { j["log_sigma_edges"][3] = j["log_sigma_edges"][2]; });
  QVERIFY(rejects(path, "strictly increasing"));
  withChange([](json& j) { j["cdf"][4] = 0.9; });
  QVERIFY(rejects(path, "'cdf' does not match"));
  withChange([](json& j) { j["loss_weight"]["kind"] = "banana"; });
  QVERIFY(rejects(path, "unknown loss weight"));
  withChange([](json& j) { j["atoms"] = json::array({{{"sigma", 1.0}, {"weight", 1.0}}}); });
  QVERIFY(rejects(path, "exactly one of"));
  withChange([](json& j) {
    j.erase("log_sigma_edges");
    j["atoms"] = json::array({{{"sigma", 100.0}, {"weight", 1.0}}});
  });
  QVERIFY(rejects(path, "outside"));
  withChange([](json& j) {
    for (auto& m : j["bin_masses"]) m = 0.0;
    j.erase("cdf");
  });
  QVERIFY(rejects(path, "sum to zero"));
  withChange([](json& j) { j["coordinate"] = "sigma"; });
  QVERIFY(rejects(path, "coordinate"));
  QVERIFY(rejects(tempPath(dir, "missing.json"), "cannot open"));
}

void TestScheduleIo::malformedCsvAndHdf5Rejected() {
  QTemporaryDir dir;
  const std::string csv = tempPath(dir, "bad.csv");
  writeText(csv, "log_sigma_lo,log_sigma_hi,mass\n0,1,0.5\n1,2,abc\n");
  QVERIFY(rejects(csv, "'abc' is not a finite number"));
  writeText(csv, "log_sigma_lo,log_sigma_hi,mass\n0,1,0.5\n1,2\n");
  QVERIFY(rejects(csv, "cells"));
  writeText(csv, "log_sigma_lo,log_sigma_hi,mass\n0,1,0.5\n1.5,2,0.5\n");
  QVERIFY(rejects(csv, "contiguous"));
  writeText(csv, "a,b\n1,2\n");
  QVERIFY(rejects(csv, "expected columns"));
  writeText(csv, "# format: noisescope.profile/1\nsigma,weight\n1,1\n");
  QVERIFY(rejects(csv, "not noisescope.schedule/1"));
#ifdef NOISESCOPE_WITH_HDF5
  const std::string h5 = tempPath(dir, "bad.h5");
  writeText(h5, "not hdf5 at all");
  QVERIFY(rejects(h5, "not an HDF5 file"));
#endif
  const std::string txt = tempPath(dir, "plain.txt");
  writeText(txt, "hello");
  QVERIFY(rejects(txt, "not a schedule file"));
}

void TestScheduleIo::tablesAndProfiles() {
  QTemporaryDir dir;
  const LogSigmaGrid grid = LogSigmaGrid::uniform(0.01, 10.0, 16);
  // A flat density in log σ, given per unit log σ in the column name.
  const std::string table = tempPath(dir, "table.csv");
  writeText(table, "sigma,density_log-sigma\n0.001,1\n100,1\n");
  const Schedule flat = readTableSchedule(table, grid);
  for (double m : flat.binMasses()) QVERIFY(std::abs(m - 1.0 / 16) < 1e-12);
  QVERIFY(flat.info.truncatedMass > 0.3);
  const std::string tableJson = tempPath(dir, "table.json");
  writeText(tableJson, R"({"sigma": [0.01, 10], "density": [1, 1], "coordinate": "sigma"})");
  const Schedule inSigma = readTableSchedule(tableJson, grid);
  // Flat in σ puts more mass high up than flat in log σ (whose median is √(0.01·10) here).
  const double median = std::sqrt(0.1);
  QVERIFY(std::abs(flat.cdfSigma(median) - 0.5) < 1e-12);
  QVERIFY(inSigma.cdfSigma(median) < 0.4);
  // Rate profiles from a plain table (through the one profile reader) and from malformed ones.
  const std::string profile = tempPath(dir, "profile.csv");
  writeText(profile, "sigma,mmse\n0.1,0.01\n1,0.5\n10,1\n");
  const RateProfile p = rateProfileFrom(readProfile(profile), profile);
  QCOMPARE(p.sigma.size(), std::size_t(3));
  QVERIFY(std::abs(p.rateLogSigma(0.0) - 0.5) < 1e-12);
  writeText(profile, "sigma,mmse\n0.1,0.01\n0.05,0.5\n");
  QVERIFY_THROWS_EXCEPTION(InputError, readProfile(profile));
  const std::string notProfile = tempPath(dir, "profile.json");
  writeText(notProfile, R"({"format": "noisescope.schedule/1"})");
  QVERIFY_THROWS_EXCEPTION(InputError, readProfile(notProfile));
}

QTEST_APPLESS_MAIN(TestScheduleIo)
#include "test_schedule_io.moc"
