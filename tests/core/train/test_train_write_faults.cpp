// A training run's writes under injected I/O faults (libfiu), and damaged run directories:
// - the k-th open/write/pwrite/fsync/close/rename call of a whole run fails with ENOSPC or EIO,
//   for every k up to the number of calls the run makes: the run stops with an error naming the
//   file and the system error, leaves no temporary or torn file, records the stop in events.jsonl
//   unless that is the file that failed, and `train` on the same directory then ends with
//   bit-for-bit the parameters of the uninterrupted run;
// - a checkpoint cut short or damaged (footer, or an old unsealed one without its zip end) is
//   skipped with a note and never loaded; a torn event line is dropped on resume with a note;
// - the CLI: a disk that fails mid-run ends `train` with exit code 2 and the error on stderr, and
//   the resumed run matches the straight one.
//
// Runs with LD_PRELOAD=fiu_posix_preload.so (tests/CMakeLists.txt); the CLI cases start the CLI
// under fiu-run and switch the failure on from outside with fiu-ctrl once a checkpoint exists.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTest>

#include <fiu-control.h>
#include <fiu.h>

#include <torch/torch.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/run_events.h"
#include "test_paths.h"
#include "train/checkpoint.h"
#include "train/run_directory.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "util/error.h"
#include "util/file_seal.h"

using namespace noisescope;
using namespace noisescope::train;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* const kPoints[] = {"posix/io/oc/open",    "posix/io/rw/write", "posix/io/rw/pwrite",
                               "posix/io/sync/fsync", "posix/io/oc/close", "posix/io/dir/rename"};

bool armed = false;
int calls = 0;
int failAt = 0;  // 0: count only

int decide(const char*, int*, void**, unsigned int*) {
  if (!armed) return 0;
  ++calls;
  return calls == failAt ? 1 : 0;
}

void enableAll(int error) {
  for (const char* name : kPoints) {
    fiu_disable(name);
    fiu_enable_external(name, 1, reinterpret_cast<void*>(static_cast<intptr_t>(error)), 0, decide);
  }
}

Dataset points(int64_t n, uint32_t seed) {
  Dataset d;
  d.name = "points";
  d.source = "test";
  d.kind = SampleKind::Points;
  d.sampleShape = {3};
  std::mt19937 engine(seed);
  std::normal_distribution<float> normal(0.0f, 0.3f);
  for (int64_t i = 0; i < n * 3; ++i) d.values.push_back(normal(engine) + (i % 3 == 0 ? 0.5f : 0));
  return d;
}

TrainingData tinyData() {
  TrainingData data;
  data.train = points(128, 1);
  data.test = points(32, 2);
  data.testDescription = "separate sample";
  data.sigmaData = measureSigmaData(data.train);
  return data;
}

// Small enough that a run takes milliseconds, with every kind of write: events, checkpoints with
// their TorchScript export and the latest schedule, pruning, the final schedule and evaluation.
TrainConfig tinyConfig() {
  return parseTrainConfig(json::parse(R"({
    "dataset": {"path": "synthetic:unused"},
    "model": {"width": 16, "depth": 1, "embedding": 8},
    "optim": {"steps": 30, "batch_size": 8, "lr": 2e-3, "seed": 5, "device": "cpu"},
    "noise": {"sampler": "infonoise", "bins": 16, "warmup_steps": 10, "refresh_every": 10,
              "min_bin_count": 1},
    "eval": {"every": 0, "samples": 16, "levels": 4, "sample_quality": "off"},
    "checkpoint": {"every": 10, "keep": 2},
    "log_every": 10})"),
                          "tiny.json");
}

using Parameters = std::vector<std::pair<std::string, at::Tensor>>;

bool sameParameters(const Parameters& a, const Parameters& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!torch::equal(a[i].second, b[i].second)) return false;
  return true;
}

QString freshDir(const QString& name) {
  const QString dir = QDir::tempPath() + "/noisescope_train_faults/" + name;
  QDir(dir).removeRecursively();
  QDir().mkpath(dir);
  return dir;
}

// Files in the run directory that a write left half-done: temporaries, or a checkpoint that
// does not pass its check. Empty when the directory is clean.
QStringList tornFiles(const std::string& dir) {
  QStringList out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) out << QString::fromStdString(name);
    if (entry.path().extension() == ".ckpt") {
      try {
        readCheckpointFile(entry.path().string());
      } catch (const InputError& e) {
        out << QString::fromStdString(e.what());
      }
    }
  }
  std::ifstream events(RunDirectory(dir).eventsPath(), std::ios::binary);
  std::string line;
  int64_t number = 0;
  while (std::getline(events, line)) {
    const RunEventParse parsed = parseRunEvent(line, "events.jsonl", ++number);
    if (!parsed.note.empty()) out << QString::fromStdString(parsed.note);
  }
  return out;
}

std::vector<json> readEvents(const std::string& dir) {
  std::vector<json> events;
  std::ifstream in(RunDirectory(dir).eventsPath());
  for (std::string line; std::getline(in, line);) events.push_back(json::parse(line));
  return events;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

QString cliPath() {
  return QString::fromStdString(noisescope::test::buildPath()) + "/app/noisescope-cli";
}

// The CLI's environment without the test's own preload: fiu-run sets up its own.
QProcessEnvironment cleanEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("LD_PRELOAD");
  return env;
}

// fiu-ctrl's remote command to a process started by fiu-run: "" once it is delivered, else
// what fiu-ctrl said. The script talks to the process over two FIFOs; on a loaded machine its
// shell was seen to die by a signal before the reply (QProcess::execute −1, about 1 run in 3
// at -j3), so a command that did not complete is sent again — enabling a point is idempotent.
QString sendFiuCommand(const QString& prefix, const QString& command, qint64 pid) {
  QString last;
  for (int attempt = 0; attempt < 5; ++attempt) {
    QProcess ctrl;
    ctrl.start(FIU_CTRL, {"-f", prefix, "-c", command, QString::number(pid)});
    const bool done = ctrl.waitForFinished(20000);
    const QString said = QString::fromLocal8Bit(ctrl.readAll() + ctrl.readAllStandardError());
    if (done && ctrl.exitStatus() == QProcess::NormalExit && ctrl.exitCode() == 0 &&
        !said.contains("error") && !said.contains("Error"))
      return {};
    if (!done) ctrl.kill(), ctrl.waitForFinished(1000);
    last = QString("fiu-ctrl attempt %1: %2, exit %3: %4")
               .arg(attempt + 1)
               .arg(done ? (ctrl.exitStatus() == QProcess::NormalExit ? "exited" : "crashed")
                         : "timed out")
               .arg(ctrl.exitCode())
               .arg(said);
    qInfo("%s", qPrintable(last));
    QTest::qSleep(100);
  }
  return last;
}

}  // namespace

class TestTrainWriteFaults : public QObject {
  Q_OBJECT

  Parameters straightModel_, straightEma_;

 private Q_SLOTS:
  void initTestCase() {
    at::set_num_threads(1);
    QVERIFY(fiu_init(0) == 0);
    enableAll(ENOSPC);
    TrainerOptions options;
    options.runDir = freshDir("straight").toStdString();
    Trainer straight(tinyConfig(), tinyData(), options);
    QCOMPARE(straight.run().step, int64_t(30));
    straightModel_ = straight.modelParameters();
    straightEma_ = straight.emaParameters();
  }

  void everyWriteOfARunFails() {
    const TrainConfig config = tinyConfig();
    // How many calls a whole run makes.
    TrainerOptions options;
    options.runDir = freshDir("count").toStdString();
    calls = 0;
    failAt = 0;
    armed = true;
    Trainer(config, tinyData(), options).run();
    armed = false;
    const int total = calls;
    QVERIFY2(total > 40, qPrintable(QString("%1 calls").arg(total)));
    qInfo("a run makes %d open/write/pwrite/fsync/close/rename calls", total);

    int stopped = 0;
    for (int error : {ENOSPC, EIO}) {
      enableAll(error);
      for (int k = 1; k <= total; ++k) {
        const QString where =
            QString("call %1 of %2 fails with %3").arg(k).arg(total).arg(std::strerror(error));
        options.runDir = freshDir("fault").toStdString();
        std::string message;
        calls = 0;
        failAt = k;
        armed = true;
        try {
          Trainer(config, tinyData(), options).run();
        } catch (const InputError& e) {
          message = e.what();
        } catch (const std::exception& e) {
          armed = false;
          QFAIL(qPrintable(where + ": not an InputError: " + e.what()));
        }
        armed = false;
        failAt = 0;
        const QStringList torn = tornFiles(options.runDir);
        QVERIFY2(torn.isEmpty(), qPrintable(where + ": " + torn.join("; ")));
        // Every call of the run is one whose failure it notices.
        QVERIFY2(!message.empty(), qPrintable(where + ": the run did not notice"));
        ++stopped;
        QVERIFY2(message.find(options.runDir) != std::string::npos &&
                     message.find(std::strerror(error)) != std::string::npos,
                 qPrintable(where + ": " + QString::fromStdString(message)));
        // The stop is in events.jsonl, unless events.jsonl is what failed (then the message
        // says so) or the run failed before it had an events file.
        const std::vector<json> events = readEvents(options.runDir);
        const bool recorded = !events.empty() && events.back()["event"] == "error";
        const bool saysWhy = message.find("events.jsonl") != std::string::npos ||
                             message.find("config.json") != std::string::npos ||
                             message.find("run directory") != std::string::npos;
        QVERIFY2(recorded || saysWhy, qPrintable(where + ": " + QString::fromStdString(message)));
        if (recorded) {
          const std::string text = events.back()["message"];
          QVERIFY2(text.find(std::strerror(error)) != std::string::npos, text.c_str());
        }

        // The same directory, with a working disk, ends as the straight run.
        TrainerOptions again;
        again.runDir = options.runDir;
        Trainer resumed(config, tinyData(), again);
        const TrainSummary summary = resumed.run();
        QCOMPARE(summary.step, int64_t(30));
        QVERIFY2(sameParameters(resumed.modelParameters(), straightModel_), qPrintable(where));
        QVERIFY2(sameParameters(resumed.emaParameters(), straightEma_), qPrintable(where));
        QVERIFY2(tornFiles(options.runDir).isEmpty(), qPrintable(where));
      }
    }
    QCOMPARE(stopped, 2 * total);
  }

  void damagedCheckpointsAreSkipped() {
    const TrainConfig config = tinyConfig();
    struct Damage {
      const char* name;
      std::function<std::string(const std::string&)> apply;
      const char* says;
    };
    const std::vector<Damage> damages = {
        {"cut short", [](const std::string& b) { return b.substr(0, b.size() / 2); }, "cut short"},
        {"one byte flipped",
         [](const std::string& b) {
           std::string out = b;
           out[out.size() / 3] ^= 0x10;
           return out;
         },
         "checksum"},
        {"footer's length wrong",
         [](const std::string& b) { return b.substr(0, 100) + b.substr(b.size() - kSealBytes); },
         "footer"},
        {"old and cut short",
         [](const std::string& b) { return b.substr(0, (b.size() - kSealBytes) * 2 / 3); },
         "cut short"},
    };
    for (const Damage& damage : damages) {
      TrainerOptions options;
      options.runDir = freshDir("damaged").toStdString();
      options.stopAfterStep = 25;  // checkpoints at 10 and 20, as if killed at 25
      Trainer(config, tinyData(), options).run();
      const RunDirectory run(options.runDir);
      QCOMPARE(run.checkpointSteps(), (std::vector<int64_t>{10, 20}));
      const std::string newest = run.checkpointPath(20);
      spit(newest, damage.apply(slurp(newest)));
      // Refused by every reader, naming the file and the damage.
      try {
        loadCheckpointDenoiser(newest, c10::Device(c10::kCPU));
        QFAIL(damage.name);
      } catch (const InputError& e) {
        const std::string what = e.what();
        QVERIFY2(
            what.find(newest) != std::string::npos && what.find(damage.says) != std::string::npos,
            what.c_str());
      }
      std::vector<std::string> seen;
      options.stopAfterStep = -1;
      options.note = [&seen](const std::string& text) { seen.push_back(text); };
      Trainer resumed(config, tinyData(), options);
      const TrainSummary summary = resumed.run();
      QCOMPARE(summary.startStep, int64_t(10));  // the damaged step 20 was not loaded
      QVERIFY2(sameParameters(resumed.modelParameters(), straightModel_), damage.name);
      QCOMPARE(seen.size(), size_t(1));
      QVERIFY2(seen[0].find("step-000000020.ckpt") != std::string::npos &&
                   seen[0].find(damage.says) != std::string::npos,
               seen[0].c_str());
      QVERIFY(QFile::exists(QString::fromStdString(newest + ".damaged")));
      bool noted = false;
      for (const json& e : readEvents(options.runDir))
        if (e["event"] == "note" && e["message"].get<std::string>() == seen[0]) noted = true;
      QVERIFY2(noted, damage.name);
    }
  }

  void oldUnsealedCheckpointsStillLoad() {
    TrainerOptions options;
    options.runDir = freshDir("unsealed").toStdString();
    options.stopAfterStep = 15;
    Trainer(tinyConfig(), tinyData(), options).run();
    const RunDirectory run(options.runDir);
    const std::string path = run.checkpointPath(10);
    const std::string sealed = slurp(path);
    QCOMPARE(unsealBytes(sealed).state, Unsealed::State::Sealed);
    spit(path, sealed.substr(0, sealed.size() - kSealBytes));  // as versions before seals wrote
    QCOMPARE(loadCheckpointDenoiser(path, c10::Device(c10::kCPU)).step, int64_t(10));
    options.stopAfterStep = -1;
    Trainer resumed(tinyConfig(), tinyData(), options);
    QCOMPARE(resumed.run().startStep, int64_t(10));
    QVERIFY(sameParameters(resumed.modelParameters(), straightModel_));
  }

  void tornEventLineIsDroppedWithANote() {
    TrainerOptions options;
    options.runDir = freshDir("torn_event").toStdString();
    options.stopAfterStep = 15;
    Trainer(tinyConfig(), tinyData(), options).run();
    const RunDirectory run(options.runDir);
    std::ofstream(run.eventsPath(), std::ios::app) << R"({"event": "train", "step": 1)";
    std::vector<std::string> seen;
    options.stopAfterStep = -1;
    options.note = [&seen](const std::string& text) { seen.push_back(text); };
    Trainer resumed(tinyConfig(), tinyData(), options);
    resumed.run();
    QCOMPARE(seen.size(), size_t(1));
    QVERIFY2(seen[0].find("events.jsonl") != std::string::npos &&
                 seen[0].find("not valid JSON") != std::string::npos,
             seen[0].c_str());
    QVERIFY(tornFiles(options.runDir).isEmpty());
  }

  void cliStopsWithExitTwoAndResumes() {
    const QString dir = freshDir("cli");
    const QString config = dir + "/run.json";
    std::ofstream(config.toStdString()) << R"({
      "dataset": {"path": "synthetic:gaussian?n=400&d=3&seed=4"},
      "model": {"width": 16, "depth": 1, "embedding": 8},
      "optim": {"steps": 1500, "batch_size": 8, "seed": 3},
      "noise": {"sampler": "sqrt-entropy", "warmup_steps": 100, "refresh_every": 100},
      "eval": {"every": 0, "samples": 16, "levels": 4, "sample_quality": "off"},
      "checkpoint": {"every": 100}, "log_every": 50})";

    QProcess straight;
    straight.setProcessEnvironment(cleanEnvironment());
    straight.start(cliPath(),
                   {"--threads", "1", "train", "--config", config, "--out", dir + "/straight"});
    QVERIFY(straight.waitForFinished(180000));
    QCOMPARE(straight.exitCode(), 0);
    const auto reference =
        loadCheckpointDenoiser(RunDirectory((dir + "/straight").toStdString()).checkpointPath(1500),
                               c10::Device(c10::kCPU));

    // Two failing disks: one where renames fail (events.jsonl still takes the error), one where
    // nothing can be opened any more (the error is on stderr only).
    struct Case {
      const char* name;
      const char* command;
      const char* recorded;  // in events.jsonl; nullptr: not
    };
    const Case cases[] = {
        {"rename", "enable name=posix/io/dir/rename,failinfo=28", "No space left on device"},
        {"open", "enable name=posix/io/oc/open,failinfo=5", nullptr},
    };
    for (const Case& c : cases) {
      const QString out = dir + "/" + c.name;
      QProcess first;
      first.setProcessEnvironment(cleanEnvironment());
      first.start(FIU_RUN, {"-x", "-f", dir + "/fiu-ctrl", cliPath(), "--threads", "1", "train",
                            "--config", config, "--out", out});
      QVERIFY(first.waitForStarted());
      QElapsedTimer timer;
      timer.start();
      // A whole checkpoint: its event is written after all of its files.
      auto checkpointed = [&out] {
        std::ifstream in(RunDirectory(out.toStdString()).eventsPath());
        for (std::string line; std::getline(in, line);)
          if (line.find("\"event\":\"checkpoint\"") != std::string::npos) return true;
        return false;
      };
      while (!checkpointed() && timer.elapsed() < 60000) QTest::qSleep(20);
      QVERIFY2(first.state() == QProcess::Running, c.name);
      const int64_t saved = RunDirectory(out.toStdString()).latestCheckpointStep().value_or(-1);
      const QString sent = sendFiuCommand(dir + "/fiu-ctrl", c.command, first.processId());
      QVERIFY2(sent.isEmpty(), qPrintable(sent));
      QVERIFY(first.waitForFinished(120000));
      const QString err = QString::fromUtf8(first.readAllStandardError());
      QVERIFY2(
          first.exitCode() == 2,
          qPrintable(
              QString("%1: exit %2: %3").arg(c.name).arg(first.exitCode()).arg(err.right(2000))));
      const QString strerr = c.recorded ? c.recorded : "Input/output error";
      QVERIFY2(err.contains(out) && err.contains(strerr) && err.contains("resumes from it"),
               qPrintable(err.right(2000)));
      const int64_t kept = RunDirectory(out.toStdString()).latestCheckpointStep().value_or(-1);
      QVERIFY2(kept >= saved && kept < 1500, qPrintable(QString::number(kept)));
      const std::vector<json> events = readEvents(out.toStdString());
      QVERIFY(!events.empty());
      if (c.recorded) {
        QCOMPARE(events.back()["event"].get<std::string>(), std::string("error"));
        QVERIFY(events.back()["message"].get<std::string>().find(c.recorded) != std::string::npos);
        QCOMPARE(
            events.back()["last_checkpoint"].get<std::string>(),
            "checkpoints/" +
                fs::path(RunDirectory(out.toStdString()).checkpointPath(kept)).filename().string());
      } else {
        QVERIFY2(err.contains("not in events.jsonl") || err.contains("which is what failed"),
                 qPrintable(err.right(2000)));
      }
      QVERIFY(tornFiles(out.toStdString()).isEmpty());

      QProcess second;
      second.setProcessEnvironment(cleanEnvironment());
      second.start(cliPath(), {"--threads", "1", "train", "--out", out});
      QVERIFY(second.waitForFinished(180000));
      QVERIFY2(second.exitCode() == 0, second.readAllStandardError().right(2000).constData());
      const auto resumed = loadCheckpointDenoiser(
          RunDirectory(out.toStdString()).checkpointPath(1500), c10::Device(c10::kCPU));
      QVERIFY2(
          sameParameters(resumed.network->namedParameters(), reference.network->namedParameters()),
          c.name);
    }
  }
};

QTEST_GUILESS_MAIN(TestTrainWriteFaults)
#include "test_train_write_faults.moc"
