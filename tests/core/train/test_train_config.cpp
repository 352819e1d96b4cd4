// Training configs: defaults, a round trip through config.json, and every kind of bad input
// (unknown key, wrong type, out-of-range value, missing dataset, bad schedule, bad JSON) rejected
// with an InputError that names the file and the key.
#include <QDir>
#include <QObject>
#include <QString>
#include <QTest>

#include <QTemporaryDir>

#include <fstream>

#include <nlohmann/json.hpp>

#include "train/train_config.h"
#include "train/training_data.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::train;
using nlohmann::json;

namespace {

json minimal() {
  return json{{"dataset", {{"path", "synthetic:two-moons?n=100"}}}};
}

// A float32 .npy file (format 1.0, C order) of the given shape.
void writeFloatNpy(const std::string& path, const std::vector<int64_t>& shape,
                   const std::vector<float>& values) {
  std::string dims;
  for (int64_t s : shape) dims += std::to_string(s) + ", ";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const char length[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
  out.write(length, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * 4));
}

// The InputError message for a config, or "" when it parses.
QString problemWith(const json& config) {
  try {
    parseTrainConfig(config, "run.json");
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestTrainConfig : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void defaultsAndRoundTrip() {
    json j = minimal();
    j["noise"] = {{"sampler", "infonoise"}, {"bins", 32}, {"schedule_params", {{"p_mean", -1.0}}}};
    j["optim"] = {{"seed", 42}, {"lr", 5e-4}};
    const TrainConfig c = parseTrainConfig(j, "run.json");
    QCOMPARE(c.dataset.path, std::string("synthetic:two-moons?n=100"));
    QCOMPARE(c.noise.sampler, std::string("infonoise"));
    QCOMPARE(c.noise.bins, int64_t(32));
    QCOMPARE(c.noise.scheduleParams.at("p_mean"), -1.0);
    QCOMPARE(c.optim.seed, uint64_t(42));
    QCOMPARE(c.optim.batchSize, int64_t(32));  // default (sized for 2 cores)
    QCOMPARE(c.noise.refreshEvery, int64_t(100));
    QCOMPARE(c.eval.reference, std::string("elbo"));
    QCOMPARE(c.optim.threads, int64_t(0));  // the process's count
    QVERIFY(c.dataset.latents.empty());
    json latents = minimal();
    latents["dataset"]["latents"] = "sd-scripts:sdxl";
    QCOMPARE(parseTrainConfig(latents, "run.json").dataset.latents, std::string("sd-scripts:sdxl"));
    QCOMPARE(parseTrainConfig(json::parse(R"({"dataset": {"path": "synthetic:circle"},
                                             "optim": {"threads": 3}})"),
                              "run.json")
                 .optim.threads,
             int64_t(3));
    // config.json (with its format and provenance) parses back to the same settings.
    json written = toJson(c);
    written["provenance"] = {{"producer", "test"}};
    const TrainConfig again = parseTrainConfig(written, "config.json");
    QVERIFY2(toJson(again) == toJson(c), toJson(again).dump().c_str());
  }

  void gateAutoIsASettingAndZeroMeansNoGate() {
    // THEORY §6: c = 0 is "no gate" everywhere; "auto" is its own, named setting (the default).
    json j = minimal();
    QVERIFY(!parseTrainConfig(j, "run.json").noise.gateC.has_value());  // default: auto
    j["noise"] = {{"gate_c", "auto"}};
    QVERIFY(!parseTrainConfig(j, "run.json").noise.gateC.has_value());
    j["noise"] = {{"gate_c", 0}};
    const TrainConfig off = parseTrainConfig(j, "run.json");
    QVERIFY(off.noise.gateC.has_value());
    QCOMPARE(*off.noise.gateC, 0.0);  // an old config's "gate_c": 0 now means no gate
    j["noise"] = {{"gate_c", 0.3}};
    QCOMPARE(parseTrainConfig(j, "run.json").noise.gateC.value_or(-1), 0.3);
    // config.json writes what was set: "auto", or the number (0 included), and reads it back.
    TrainConfig c = parseTrainConfig(minimal(), "run.json");
    QVERIFY(toJson(c)["noise"]["gate_c"] == json("auto"));
    QVERIFY(!parseTrainConfig(toJson(c), "config.json").noise.gateC.has_value());
    c.noise.gateC = 0.0;
    QVERIFY(toJson(c)["noise"]["gate_c"] == json(0.0));
    QCOMPARE(parseTrainConfig(toJson(c), "config.json").noise.gateC.value_or(-1), 0.0);
  }

  void lossWeightKeysAreRecordedAsGiven() {
    // Whether the config named a loss weight matters for a schedule file (docs/training.md).
    json j = minimal();
    TrainConfig c = parseTrainConfig(j, "run.json");
    QVERIFY(!c.noise.lossWeightGiven && !c.noise.minSnrGammaGiven);
    QCOMPARE(c.noise.lossWeight, std::string("edm"));
    j["noise"] = {{"loss_weight", "min-snr"}, {"min_snr_gamma", 3}};
    c = parseTrainConfig(j, "run.json");
    QVERIFY(c.noise.lossWeightGiven && c.noise.minSnrGammaGiven);
    j["noise"] = {{"loss_weight", "flow-v"}};
    QCOMPARE(parseTrainConfig(j, "run.json").noise.lossWeight, std::string("flow-v"));
  }

  void relativePathsFollowTheConfigFile() {
    const QString dir = QDir::tempPath() + "/noisescope_train_config_test";
    QDir().mkpath(dir);
    const std::string path = (dir + "/run.json").toStdString();
    std::ofstream(path) << R"({"dataset": {"path": "data/train.npy"}})";
    const TrainConfig c = readTrainConfig(path);
    QCOMPARE(c.dataset.path, (dir + "/data/train.npy").toStdString());
  }

  void badConfigsNameFileAndKey_data() {
    QTest::addColumn<QString>("patch");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << R"({"optim": {"learning_rate": 0.1}})"
                                 << "key 'optim.learning_rate' is not a known setting";
    QTest::newRow("unknown section") << R"({"optimiser": {}})"
                                     << "key 'optimiser' is not a known setting";
    QTest::newRow("wrong type") << R"({"optim": {"steps": "100"}})"
                                << "key 'optim.steps': expected an integer";
    QTest::newRow("fraction for integer") << R"({"optim": {"batch_size": 12.5}})"
                                          << "key 'optim.batch_size': expected an integer";
    QTest::newRow("out of range") << R"({"noise": {"bins": 1}})"
                                  << "key 'noise.bins': value 1 is out of range";
    QTest::newRow("negative lr") << R"({"optim": {"lr": -1}})"
                                 << "key 'optim.lr'";
    QTest::newRow("bad choice") << R"({"noise": {"sampler": "fancy"}})"
                                << "key 'noise.sampler': 'fancy' is not one of";
    QTest::newRow("section not object") << R"({"eval": 3})"
                                        << "key 'eval': expected an object";
    QTest::newRow("sigma range") << R"({"noise": {"sigma_min": 5, "sigma_max": 1}})"
                                 << "key 'noise.sigma_max'";
    QTest::newRow("schedule neither preset nor file")
        << R"({"noise": {"schedule": "no-such-schedule.json"}})"
        << "key 'noise.schedule'";
    QTest::newRow("bad preset parameter") << R"({"noise": {"schedule_params": {"p_wobble": 1}}})"
                                          << "noise.schedule_params";
    QTest::newRow("odd embedding") << R"({"model": {"embedding": 33}})"
                                   << "key 'model.embedding'";
    QTest::newRow("bad device") << R"({"optim": {"device": "tpu"}})"
                                << "key 'optim.device'";
    QTest::newRow("wrong format") << R"({"format": "noisescope.profile/1"})"
                                  << "key 'format'";
    QTest::newRow("gate word") << R"({"noise": {"gate_c": "off"}})"
                               << "key 'noise.gate_c': expected a number or \"auto\"";
    QTest::newRow("negative gate") << R"({"noise": {"gate_c": -0.1}})"
                                   << "key 'noise.gate_c': value -0.1 is out of range";
    QTest::newRow("gate type") << R"({"noise": {"gate_c": true}})"
                               << "key 'noise.gate_c'";
    QTest::newRow("negative threads") << R"({"optim": {"threads": -2}})"
                                      << "key 'optim.threads': value -2 is out of range [0, 4096]";
    QTest::newRow("fractional threads") << R"({"optim": {"threads": 1.5}})"
                                        << "key 'optim.threads': expected an integer";
    QTest::newRow("unknown latents pair") << R"({"dataset": {"latents": "sd-scripts:nope"}})"
                                          << "key 'dataset.latents': 'sd-scripts:nope' is not";
    QTest::newRow("threads as text") << R"({"optim": {"threads": "all"}})"
                                     << "key 'optim.threads': expected an integer";
  }

  void badConfigsNameFileAndKey() {
    QFETCH(QString, patch);
    QFETCH(QString, expected);
    json j = minimal();
    j.merge_patch(json::parse(patch.toStdString()));
    const QString message = problemWith(j);
    QVERIFY2(message.startsWith("run.json: "), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void missingDatasetIsReported() {
    const QString message = problemWith(json{{"optim", {{"steps", 10}}}});
    QVERIFY2(message.contains("key 'dataset.path': missing"), qPrintable(message));
  }

  void missingDatasetFileNamesConfigAndKey() {
    json j = minimal();
    j["dataset"]["path"] = "/nonexistent/train-images-idx3-ubyte";
    const TrainConfig c = parseTrainConfig(j, "run.json");
    try {
      loadTrainingData(c);
      QFAIL("a missing dataset file was accepted");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith("run.json: key 'dataset.path': "), qPrintable(message));
      QVERIFY2(message.contains("/nonexistent/train-images-idx3-ubyte"), qPrintable(message));
    }
    // A synthetic spec loads, splits off the held-out part and measures σ_data.
    j["dataset"]["path"] = "synthetic:gaussian?n=200&d=3&seed=2";
    const TrainingData data = loadTrainingData(parseTrainConfig(j, "run.json"));
    QCOMPARE(data.train.size() + data.test.size(), int64_t(200));
    QCOMPARE(data.test.size(), int64_t(20));
    QVERIFY(data.sigmaData > 0.5 && data.sigmaData < 1.5);
    QVERIFY(!data.discrete);
  }

  void testPathIsReadOnTheTrainingSetsScale() {
    // Float images on [0, 200] to train on, a test file on [20, 180]: scaled by its own range the
    // test set would be stretched by 200/160; it takes the training set's map instead.
    QTemporaryDir dir;
    const std::string train = dir.filePath("train.npy").toStdString();
    const std::string test = dir.filePath("test.npy").toStdString();
    const std::string unit = dir.filePath("unit.npy").toStdString();
    std::vector<float> trainValues(8 * 16), testValues(4 * 16), unitValues(4 * 16);
    for (size_t i = 0; i < trainValues.size(); ++i) trainValues[i] = float(i * 53 % 201);
    for (size_t i = 0; i < testValues.size(); ++i) testValues[i] = 20.0f + float(i * 29 % 161);
    for (size_t i = 0; i < unitValues.size(); ++i) unitValues[i] = 0.5f * float(i % 3);
    trainValues[1] = 200.0f, testValues[1] = 180.0f;  // both ends taken
    writeFloatNpy(train, {8, 4, 4}, trainValues);
    writeFloatNpy(test, {4, 4, 4}, testValues);
    writeFloatNpy(unit, {4, 4, 4}, unitValues);
    json j = minimal();
    j["dataset"]["path"] = train;
    j["dataset"]["test_path"] = test;
    const TrainingData data = loadTrainingData(parseTrainConfig(j, "run.json"));
    for (size_t i = 0; i < testValues.size(); ++i)
      QCOMPARE(data.test.values[i], float(testValues[i] * (2.0 / 200.0) - 1.0));
    // A test file stored on [0, 1] is not on the training set's scale: refused, both ranges named.
    j["dataset"]["test_path"] = unit;
    try {
      loadTrainingData(parseTrainConfig(j, "run.json"));
      QFAIL("a test set on another scale was accepted");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith("run.json: key 'dataset.test_path': "), qPrintable(message));
      QVERIFY2(message.contains("unit.npy") && message.contains("[0, 1]") &&
                   message.contains("train.npy") && message.contains("[0, 200]"),
               qPrintable(message));
    }
  }

  void unreadableFilesAreReported() {
    QVERIFY_THROWS_EXCEPTION(InputError, readTrainConfig("/nonexistent/run.json"));
    const QString dir = QDir::tempPath() + "/noisescope_train_config_test";
    QDir().mkpath(dir);
    const std::string path = (dir + "/broken.json").toStdString();
    std::ofstream(path) << "{\"dataset\": ";
    try {
      readTrainConfig(path);
      QFAIL("a truncated file was accepted");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("broken.json: not valid JSON"));
    }
  }
};

QTEST_APPLESS_MAIN(TestTrainConfig)
#include "test_train_config.moc"
