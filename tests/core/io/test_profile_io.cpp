// Profile files: a written profile reads back equal from JSON and from CSV (σ_data included), the
// CSV has one row per σ, a minimal sigma,mmse table reads, and every kind of malformed file is
// refused with an InputError that names the file and the field.
#include <QFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <random>

#include "data/dataset.h"
#include "data/statistics.h"
#include "diagnostic/empirical_diagnostic.h"
#include "io/profile_io.h"
#include "tensor/device.h"
#include "util/error.h"

using namespace noisescope;
using nlohmann::json;

namespace {

Dataset smallDataset() {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Dataset data;
  data.name = "points";
  data.source = "test:points";
  data.sampleShape = {3};
  data.values.resize(60 * 3);
  for (float& v : data.values) v = 0.3f + 2.0f * u(rng);  // not centred, σ_data ≠ 0.5
  return data;
}

Profile smallProfile() {
  const Dataset data = smallDataset();
  DiagnosticOptions options;
  options.levels = 6;
  options.queries = 40;
  options.device = "cpu";
  return computeEmpiricalProfile(data, options);
}

std::string writeText(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString()) << text;
  return path.toStdString();
}

}  // namespace

class TestProfileIo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    initTorchThreads(1);
    QVERIFY(dir_.isValid());
    profile_ = smallProfile();
    good_ = profileToJson(profile_);
  }

  void roundTrip() {
    const std::string path = dir_.filePath("profile.json").toStdString();
    writeProfile(path, profile_);
    QVERIFY(!QFile::exists(QString::fromStdString(path) + ".tmp"));
    const Profile back = readProfile(path);
    QCOMPARE(back.kind, profile_.kind);
    QCOMPARE(back.sigma, profile_.sigma);
    QCOMPARE(back.dim, profile_.dim);
    QCOMPARE(back.datasetSize, profile_.datasetSize);
    // The diagnostic records the data's σ_data and the file keeps it.
    QCOMPARE(profile_.sigmaData, measureSigmaData(smallDataset()));
    QVERIFY(std::abs(profile_.sigmaData - 0.5) > 0.1);
    QCOMPARE(back.sigmaData, profile_.sigmaData);
    QCOMPARE(back.estimates.size(), size_t{2});
    QCOMPARE(back.primary().mean, profile_.primary().mean);
    QCOMPARE(back.estimate("direct")->standardError, profile_.estimate("direct")->standardError);
    QCOMPARE(back.posterior.effectiveSampleSize, profile_.posterior.effectiveSampleSize);
    QCOMPARE(back.rate("lambda")->value, profile_.rate("lambda")->value);
    QCOMPARE(back.provenance["dataset"]["size"].get<int64_t>(), int64_t{60});
    QCOMPARE(back.provenance["version"].get<std::string>(), std::string(NOISESCOPE_VERSION));
    QCOMPARE(good_["format"].get<std::string>(), std::string("noisescope.profile/1"));
    QVERIFY(good_["mmse"]["estimators"][0]["per_dimension"]["mean"].size() == 6);
  }

  void csvHasOneRowPerSigma() {
    const std::string csv = profileToCsv(profile_);
    QStringList lines = QString::fromStdString(csv).trimmed().split('\n');
    QVERIFY(lines.first().startsWith("# format: noisescope.profile/1"));
    while (lines.first().startsWith('#')) lines.removeFirst();  // metadata
    QCOMPARE(lines.size(), 7);
    const QStringList header = lines[0].split(',');
    QCOMPARE(header[0], QString("sigma"));
    QVERIFY(header.contains("rao_blackwell_mmse_se"));
    QVERIFY(header.contains("direct_mmse_per_dim"));
    QVERIFY(header.contains("rate_log_sigma"));
    QVERIFY(header.contains("effective_sample_size"));
    for (int r = 1; r < lines.size(); ++r) {
      const QStringList cells = lines[r].split(',');
      QCOMPARE(cells.size(), header.size());
      QCOMPARE(cells[0].toDouble(), profile_.sigma[r - 1]);
      const int column = header.indexOf("rao_blackwell_mmse");
      QCOMPARE(cells[column].toDouble(), profile_.primary().mean[r - 1]);
    }
  }

  void csvRoundTrip() {
    const std::string path = dir_.filePath("profile.csv").toStdString();
    writeProfileCsv(path, profile_);
    const Profile back = readProfile(path);
    QCOMPARE(back.kind, profile_.kind);
    QCOMPARE(back.sigma, profile_.sigma);
    QCOMPARE(back.dim, profile_.dim);
    QCOMPARE(back.datasetSize, profile_.datasetSize);
    QCOMPARE(back.queries, profile_.queries);
    QCOMPARE(back.sigmaData, profile_.sigmaData);
    QCOMPARE(back.estimates.size(), profile_.estimates.size());
    QCOMPARE(back.primary().name, profile_.primary().name);
    QCOMPARE(back.primary().mean, profile_.primary().mean);
    QCOMPARE(back.primary().standardError, profile_.primary().standardError);
    QCOMPARE(back.estimate("direct")->ciHigh, profile_.estimate("direct")->ciHigh);
    QCOMPARE(back.posterior.effectiveSampleSize, profile_.posterior.effectiveSampleSize);
    QCOMPARE(back.posterior.pruneLogRatio, profile_.posterior.pruneLogRatio);
    QCOMPARE(back.rate("log_sigma")->value, profile_.rate("log_sigma")->value);
    // CSV → JSON → the same profile again.
    const std::string json = dir_.filePath("from-csv.json").toStdString();
    writeProfile(json, back);
    QCOMPARE(readProfile(json).primary().mean, profile_.primary().mean);
  }

  void minimalTable() {
    const std::string path =
        writeText(dir_.filePath("table.CSV"), "sigma,mmse\n0.1,0.01\n1,0.5\n10,1.0\n");
    const Profile p = readProfile(path);
    QCOMPARE(p.kind, std::string("table"));
    QCOMPARE(p.sigma, (std::vector<double>{0.1, 1.0, 10.0}));
    QCOMPARE(p.primary().mean, (std::vector<double>{0.01, 0.5, 1.0}));
    QCOMPARE(p.sigmaData, 0.0);  // a plain table records none
    QVERIFY(std::abs(p.rate("log_sigma")->value[1] - 0.5) < 1e-12);
    const std::string jsonTable =
        writeText(dir_.filePath("table.json"), R"({"sigma": [0.1, 1], "mmse": [0.01, 0.5]})");
    QCOMPARE(readProfile(jsonTable).primary().mean, (std::vector<double>{0.01, 0.5}));
  }

  void malformedCsvIsRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("problem");
    QTest::newRow("empty") << ""
                           << "no header row";
    QTest::newRow("header only") << "sigma,mmse\n"
                                 << "no data rows";
    QTest::newRow("no mmse column") << "sigma,density\n0.1,1\n1,2\n"
                                    << "missing column 'mmse'";
    QTest::newRow("no sigma column") << "s,mmse\n0.1,1\n1,2\n"
                                     << "missing column 'sigma'";
    QTest::newRow("not a number") << "sigma,mmse\n0.1,abc\n1,2\n"
                                  << "'abc' is not a finite number";
    QTest::newRow("descending sigma") << "sigma,mmse\n1,0.1\n0.5,0.2\n"
                                      << "strictly ascending";
    QTest::newRow("equal sigma") << "sigma,mmse\n1,0.1\n1,0.2\n"
                                 << "strictly ascending";
    QTest::newRow("negative sigma") << "sigma,mmse\n-1,0.1\n1,0.2\n"
                                    << "sigma must be > 0";
    QTest::newRow("negative mmse") << "sigma,mmse\n0.5,-0.1\n1,0.2\n"
                                   << "mmse must be ≥ 0";
    QTest::newRow("one level") << "sigma,mmse\n1,0.1\n"
                               << "at least 2";
    QTest::newRow("ragged") << "sigma,mmse\n1,0.1\n2\n"
                            << "has 1 cells";
    QTest::newRow("other format") << "# format: noisescope.schedule/1\nsigma,mmse\n1,0\n2,1\n"
                                  << "not noisescope.profile/1";
  }

  void malformedCsvIsRefused() {
    QFETCH(QString, text);
    QFETCH(QString, problem);
    const std::string path = writeText(
        dir_.filePath(QString("bad-%1.csv").arg(QTest::currentDataTag())).replace(' ', '_'),
        text.toStdString());
    try {
      readProfile(path);
      QFAIL("a malformed CSV profile was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(path));
      QVERIFY2(QString::fromStdString(e.problem()).contains(problem),
               qPrintable(QString::fromStdString(e.what())));
    }
  }

  void malformedFilesAreRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("problem");
    auto edit = [this](auto change) {
      json copy = good_;
      change(copy);
      return QString::fromStdString(copy.dump());
    };
    QTest::newRow("not json") << "{\"format\": "
                              << "not valid JSON";
    QTest::newRow("empty") << ""
                           << "not valid JSON";
    QTest::newRow("array") << "[1, 2]"
                           << "not a JSON object";
    QTest::newRow("no format") << edit([](json& j) { j.erase("format"); }) << "no \"format\"";
    QTest::newRow("other kind of file")
        << edit([](json& j) { j["format"] = "noisescope.schedule/1"; })
        << "not a NoiseScope profile";
    QTest::newRow("future version")
        << edit([](json& j) { j["format"] = "noisescope.profile/2"; }) << "not supported";
    QTest::newRow("no grid") << edit([](json& j) { j.erase("grid"); }) << "field 'grid' is missing";
    QTest::newRow("short series") << edit([](json& j) {
      j["mmse"]["estimators"][1]["mean"].erase(0);
    }) << "mmse.estimators[1].mean' has 5 values, expected 6";
    QTest::newRow("text in series")
        << edit([](json& j) { j["posterior"]["max_weight"][2] = "high"; })
        << "posterior.max_weight[2]' is not a finite number";
    QTest::newRow("null in series")
        << edit([](json& j) { j["mmse"]["estimators"][0]["standard_error"][0] = nullptr; })
        << "is not a finite number";
    QTest::newRow("negative se") << edit([](json& j) {
      j["mmse"]["estimators"][0]["standard_error"][1] = -1.0;
    }) << "is negative";
    QTest::newRow("sigma order") << edit([](json& j) {
      std::swap(j["grid"]["sigma"][1], j["grid"]["sigma"][2]);
    }) << "is not increasing";
    QTest::newRow("sigma zero") << edit([](json& j) { j["grid"]["sigma"][0] = 0.0; })
                                << "is not positive";
    QTest::newRow("bad kind") << edit([](json& j) { j["kind"] = "guess"; }) << "field 'kind'";
    QTest::newRow("primary mismatch")
        << edit([](json& j) { j["mmse"]["primary"] = "direct"; }) << "mmse.primary";
    QTest::newRow("no estimators")
        << edit([](json& j) { j["mmse"]["estimators"] = json::array(); }) << "non-empty array";
    QTest::newRow("dimension text")
        << edit([](json& j) { j["dimension"] = "three"; }) << "field 'dimension'";
    QTest::newRow("no posterior") << edit([](json& j) { j.erase("posterior"); })
                                  << "field 'posterior' is missing";
  }

  void malformedFilesAreRefused() {
    QFETCH(QString, text);
    QFETCH(QString, problem);
    const std::string path = writeText(
        dir_.filePath(QString("bad-%1.json").arg(QTest::currentDataTag())).replace(' ', '_'),
        text.toStdString());
    try {
      readProfile(path);
      QFAIL("a malformed profile was accepted");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.source()), QString::fromStdString(path));
      QVERIFY2(QString::fromStdString(e.problem()).contains(problem),
               qPrintable(QString::fromStdString(e.what())));
    }
  }

  void missingFile() {
    QVERIFY_THROWS_EXCEPTION(InputError, readProfile(dir_.filePath("absent.json").toStdString()));
  }

 private:
  QTemporaryDir dir_;
  Profile profile_;
  json good_;
};

QTEST_APPLESS_MAIN(TestProfileIo)
#include "test_profile_io.moc"
