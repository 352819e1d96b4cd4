// The trainer end to end on small data: a run killed after a checkpoint and resumed ends with
// bit-for-bit the parameters of a straight run; the run directory holds what docs/training.md
// promises; the native checkpoint loads as a THEORY §4 denoiser; the CLI survives kill -9 and
// rejects bad configs with exit code 2.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTest>

#include <signal.h>

#include <torch/script.h>
#include <torch/torch.h>

#include <cmath>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "io/schedule_io.h"
#include "schedule/families.h"
#include "schedule/loss_weight.h"
#include "test_paths.h"
#include "train/checkpoint.h"
#include "train/run_directory.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "util/error.h"

using namespace noisescope;
using namespace noisescope::train;
using nlohmann::json;

namespace {

// Four Gaussian clusters in 4-D: structured enough that the error profile has a shape.
Dataset clusters(int64_t n, uint32_t seed) {
  Dataset d;
  d.name = "clusters";
  d.source = "test";
  d.kind = SampleKind::Points;
  d.sampleShape = {4};
  std::mt19937 engine(seed);
  std::normal_distribution<float> normal(0.0f, 0.1f);
  for (int64_t i = 0; i < n; ++i) {
    const int c = int(i % 4);
    for (int j = 0; j < 4; ++j) d.values.push_back((j == c ? 0.8f : -0.2f) + normal(engine));
  }
  return d;
}

TrainingData smallData() {
  TrainingData data;
  data.train = clusters(512, 1);
  data.test = clusters(128, 2);
  data.testDescription = "separate clusters sample";
  data.sigmaData = measureSigmaData(data.train);
  return data;
}

json smallConfig() {
  return json::parse(R"({
    "dataset": {"path": "synthetic:unused"},
    "model": {"width": 32, "depth": 2, "embedding": 16},
    "optim": {"steps": 2000, "batch_size": 32, "lr": 2e-3, "seed": 9, "device": "cpu"},
    "noise": {"sampler": "infonoise", "warmup_steps": 300, "refresh_every": 100, "min_bin_count": 2},
    "eval": {"every": 1000, "samples": 64, "levels": 8, "sample_quality": "on",
             "swd_samples": 64, "heun_steps": 8},
    "checkpoint": {"every": 250, "keep": 2},
    "log_every": 100})");
}

QString freshDir(const QString& name) {
  const QString dir = QDir::tempPath() + "/noisescope_trainer_test/" + name;
  QDir(dir).removeRecursively();
  QDir().mkpath(dir);
  return dir;
}

std::vector<json> readEvents(const QString& dir) {
  std::vector<json> events;
  std::ifstream in((dir + "/events.jsonl").toStdString());
  for (std::string line; std::getline(in, line);) events.push_back(json::parse(line));
  return events;
}

QString cliPath() {
  return QString::fromStdString(noisescope::test::buildPath()) + "/app/noisescope-cli";
}

}  // namespace

class TestTrainer : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { at::set_num_threads(1); }

  void resumeIsBitwiseIdentical() {
    const TrainConfig config = parseTrainConfig(smallConfig(), "small.json");
    const QString straightDir = freshDir("straight"), resumedDir = freshDir("resumed");

    TrainerOptions options;
    options.runDir = straightDir.toStdString();
    Trainer straight(config, smallData(), options);
    const TrainSummary done = straight.run();
    QCOMPARE(done.step, int64_t(2000));

    // The same run killed at step 1100: its last checkpoint is at 1000, so steps 1001..1100 are
    // lost and redone after the resume.
    options.runDir = resumedDir.toStdString();
    options.stopAfterStep = 1100;
    {
      Trainer first(config, smallData(), options);
      QCOMPARE(first.run().step, int64_t(1100));
    }
    QCOMPARE(RunDirectory(options.runDir).latestCheckpointStep().value_or(-1), int64_t(1000));
    options.stopAfterStep = -1;
    options.requireResume = true;
    Trainer second(config, smallData(), options);
    const TrainSummary resumed = second.run();
    QCOMPARE(resumed.startStep, int64_t(1000));
    QCOMPARE(resumed.step, int64_t(2000));

    const auto a = straight.modelParameters(), b = second.modelParameters();
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      QVERIFY2(torch::equal(a[i].second, b[i].second), a[i].first.c_str());
    const auto ea = straight.emaParameters(), eb = second.emaParameters();
    for (size_t i = 0; i < ea.size(); ++i) QVERIFY(torch::equal(ea[i].second, eb[i].second));
    QCOMPARE(second.sampler().state().dump(), straight.sampler().state().dump());
    QCOMPARE(second.totalStatistics().count, straight.totalStatistics().count);
    QCOMPARE(resumed.lastEvaluation.error, done.lastEvaluation.error);
    QCOMPARE(straight.sampler().refreshCount(), int64_t(18));  // at 300, 400, ..., 2000

    // The resumed events file has no step twice and none of the lost steps' lines.
    int64_t lastTrain = 0;
    bool sawResume = false;
    for (const json& e : readEvents(resumedDir)) {
      if (e["event"] == "resume") sawResume = true;
      if (e["event"] != "train") continue;
      QVERIFY(e["step"].get<int64_t>() > lastTrain);
      lastTrain = e["step"].get<int64_t>();
    }
    QVERIFY(sawResume);
    QCOMPARE(lastTrain, int64_t(2000));
  }

  void runDirectoryHoldsWhatIsDocumented() {
    const QString dir = QDir::tempPath() + "/noisescope_trainer_test/straight";
    const RunDirectory run(dir.toStdString());
    // config.json is a complete, valid config: with it the run can be repeated.
    const TrainConfig again = readTrainConfig(run.configPath());
    QCOMPARE(again.noise.sampler, std::string("infonoise"));
    QVERIFY(again.optim.sigmaData > 0);              // resolved from the data
    QCOMPARE(again.noise.gateC.value_or(-1), 0.15);  // "auto" on continuous data
    QCOMPARE(again.model.kind, std::string("mlp"));
    // Checkpoints: only the newest `keep`, each with its TorchScript export.
    QCOMPARE(run.checkpointSteps(), (std::vector<int64_t>{1750, 2000}));
    QVERIFY(QFile::exists(QString::fromStdString(run.exportPath(2000))));
    const auto schedule = readSchedule(run.schedulesDir() + "/final.schedule.json");
    QCOMPARE(schedule.grid().bins(), 64);

    int trains = 0, schedules = 0, evals = 0, checkpoints = 0, ends = 0;
    for (const json& e : readEvents(dir)) {
      QVERIFY(e.contains("step") && e.contains("time"));
      const std::string kind = e["event"];
      if (kind == "train") {
        ++trains;
        QVERIFY(e["loss"].get<double>() > 0);
        QVERIFY(e["samples_per_s"].get<double>() > 0);
        QCOMPARE(e["bin_error"].size(), size_t(64));
        double count = 0;
        for (const auto& c : e["bin_count"]) count += c.get<double>();
        QCOMPARE(count, 100.0 * 32);  // log_every × batch
      } else if (kind == "schedule") {
        ++schedules;
        double total = 0;
        for (const auto& p : e["pi"]) total += p.get<double>();
        QVERIFY(std::abs(total - 1.0) < 1e-6);
        QCOMPARE(e["log_sigma_edges"].size(), size_t(65));
        if (e["refresh"].get<int>() > 0) QCOMPARE(e["mhat"].size(), size_t(64));
      } else if (kind == "eval") {
        ++evals;
        QCOMPARE(e["error"].size(), size_t(8));
        QVERIFY(e["elbo"].get<double>() > 0 && e["edm"].get<double>() > 0);
        QVERIFY(e["swd"].get<double>() >= 0);
      } else if (kind == "checkpoint") {
        ++checkpoints;
      } else if (kind == "end") {
        ++ends;
      }
    }
    QCOMPARE(trains, 20);
    QCOMPARE(schedules, 19);  // the initial π and 18 refreshes
    QCOMPARE(evals, 2);
    QCOMPARE(checkpoints, 8);
    QCOMPARE(ends, 1);

    const auto loaded = loadCheckpointDenoiser(run.checkpointPath(2000), c10::Device(c10::kCPU));
    QCOMPARE(loaded.step, int64_t(2000));
    QCOMPARE(loaded.spec.kind, std::string("mlp"));
    const auto x = torch::randn({5, 4});
    const auto sigma = torch::tensor({0.01f, 0.1f, 0.5f, 2.0f, 40.0f});
    const auto y = loaded.denoise(x, sigma);
    QCOMPARE(y.sizes().vec(), x.sizes().vec());
    // The native loader and the TorchScript export are the same EMA denoiser.
    auto exported = torch::jit::load(run.exportPath(2000));
    const auto z = exported.forward({x, sigma}).toTensor();
    QVERIFY((y - z).abs().max().item<double>() < 1e-5);
    // A trained denoiser beats the trivial one at mid σ: E‖x0 − D‖² < E‖x0 − x̄‖².
    const auto& e = readEvents(dir);
    json lastEval;
    for (const json& ev : e)
      if (ev["event"] == "eval") lastEval = ev;
    const auto sigmas = lastEval["sigma"].get<std::vector<double>>();
    const auto errors = lastEval["error"].get<std::vector<double>>();
    const double variance = 4.0 * std::pow(again.optim.sigmaData, 2);
    for (size_t i = 0; i < sigmas.size(); ++i)
      if (sigmas[i] > 0.05 && sigmas[i] < 0.5) QVERIFY(errors[i] < 0.2 * variance);
  }

  // One rule for "the run's denoiser": the newest export present, an older one when the newest
  // checkpoint has none (`diagnose`, `quality` and `sample-race` all ask RunDirectory).
  void newestExportFallsBackToAnOlderCheckpoints() {
    const QString dir = QDir::tempPath() + "/noisescope_trainer_test/exports";
    QDir(dir).removeRecursively();
    const RunDirectory run(dir.toStdString());
    run.create();
    QVERIFY(!run.newestExport().has_value());
    auto touch = [](const std::string& path) { std::ofstream(path) << "x"; };
    touch(run.checkpointPath(100));
    touch(run.exportPath(100));
    touch(run.checkpointPath(200));  // its export failed or was not written
    touch(run.exportPath(300));      // an export without its checkpoint is no checkpoint's
    QCOMPARE(run.newestExport().value_or(""), run.exportPath(100));
    touch(run.exportPath(200));
    QCOMPARE(run.newestExport().value_or(""), run.exportPath(200));
    QDir(dir).removeRecursively();
  }

  void gateZeroMeansNoGateAndAutoIsResolved() {
    json j = smallConfig();
    TrainerOptions options;
    options.runDir = freshDir("gate").toStdString();
    {  // gate_c 0: no gate, kept as 0 (it used to be read as "auto")
      j["noise"]["gate_c"] = 0;
      const Trainer trainer(parseTrainConfig(j, "gate.json"), smallData(), options);
      QCOMPARE(trainer.resolvedConfig().noise.gateC.value_or(-1), 0.0);
      QCOMPARE(trainer.sampler().gate(0.002), 1.0);
      QCOMPARE(trainer.sampler().settings().gateC, 0.0);
    }
    {  // "auto" picks 0.15 for continuous data and 0.2 for discrete (±1) data
      j["noise"]["gate_c"] = "auto";
      const Trainer continuous(parseTrainConfig(j, "gate.json"), smallData(), options);
      QCOMPARE(continuous.resolvedConfig().noise.gateC.value_or(-1), 0.15);
      TrainingData discrete = smallData();
      for (float& v : discrete.train.values) v = v > 0 ? 1.0f : -1.0f;
      for (float& v : discrete.test.values) v = v > 0 ? 1.0f : -1.0f;
      discrete.discrete = true;
      discrete.sigmaData = measureSigmaData(discrete.train);
      const Trainer signs(parseTrainConfig(j, "gate.json"), std::move(discrete), options);
      QCOMPARE(signs.resolvedConfig().noise.gateC.value_or(-1), 0.2);
      QVERIFY(std::abs(signs.sampler().gate(0.2) - 0.5) < 1e-15);
    }
  }

  void threadShareIsAppliedAndRecorded() {
    // A run sharing the machine takes optim.threads cores; config.json and the start event say
    // how many it used, and 0 (the default) records the process's own count.
    json j = smallConfig();
    j["optim"]["steps"] = 4;
    j["eval"] = {{"every", 0}, {"samples", 16}, {"levels", 4}, {"sample_quality", "off"}};
    j["log_every"] = 2;
    for (const int asked : {2, 0}) {
      j["optim"]["threads"] = asked;
      const QString dir = freshDir(QStringLiteral("threads-%1").arg(asked));
      TrainerOptions options;
      options.runDir = dir.toStdString();
      Trainer trainer(parseTrainConfig(j, "threads.json"), smallData(), options);
      const int64_t used = asked > 0 ? asked : 1;  // initTestCase set the process to 1
      QCOMPARE(int64_t(at::get_num_threads()), used);
      QCOMPARE(trainer.resolvedConfig().optim.threads, used);
      trainer.run();
      std::ifstream in((dir + "/config.json").toStdString());
      QCOMPARE(json::parse(in)["optim"]["threads"].get<int64_t>(), used);
      const std::vector<json> events = readEvents(dir);
      QCOMPARE(events.front()["event"].get<std::string>(), std::string("start"));
      QCOMPARE(events.front()["threads"].get<int64_t>(), used);
      at::set_num_threads(1);
    }
  }

  void scheduleFileIsTrainedWithItsOwnLossWeight() {
    // A schedule file carries the weight its π was made for; the trainer follows it, and refuses
    // a config that names another weight, with both weights in the message (docs/training.md).
    const QString dir = freshDir("weights");
    const std::string path = (dir + "/minsnr.schedule.json").toStdString();
    schedule::Schedule file = schedule::makePresetSchedule(
        "log-uniform", schedule::LogSigmaGrid::uniform(0.002, 80.0, 64));
    file.lossWeight = schedule::makeLossWeight("min-snr", 0.5, 3.0);
    writeSchedule(path, file, json::object());
    json j = smallConfig();
    j["noise"] = {{"sampler", "static"}, {"schedule", path}};
    TrainerOptions options;
    options.runDir = (dir + "/run").toStdString();
    {
      const Trainer trainer(parseTrainConfig(j, "weights.json"), smallData(), options);
      const auto& w = trainer.sampler().lossWeight();
      QVERIFY(w.kind == schedule::LossWeight::Kind::MinSnr);
      QCOMPARE(w.gamma, 3.0);
      // config.json records the weight that was used, and reads back without a conflict.
      QCOMPARE(trainer.resolvedConfig().noise.lossWeight, std::string("min-snr"));
      QCOMPARE(trainer.resolvedConfig().noise.minSnrGamma, 3.0);
      const TrainConfig again = parseTrainConfig(toJson(trainer.resolvedConfig()), "config.json");
      const Trainer repeated(again, smallData(), options);
      QCOMPARE(repeated.sampler().lossWeight().gamma, 3.0);
    }
    auto refusal = [&](const json& noise) -> QString {
      json k = j;
      k["noise"].update(noise);
      try {
        const Trainer trainer(parseTrainConfig(k, "weights.json"), smallData(), options);
      } catch (const InputError& e) {
        return QString::fromStdString(e.what());
      }
      return {};
    };
    const QString kind = refusal({{"loss_weight", "edm"}});
    QVERIFY2(kind.contains("key 'noise.loss_weight'") && kind.contains("min-SNR-γ (γ = 3)") &&
                 kind.contains("EDM (σ_d = "),
             qPrintable(kind));
    const QString gamma = refusal({{"loss_weight", "min-snr"}, {"min_snr_gamma", 5}});
    QVERIFY2(gamma.contains("key 'noise.min_snr_gamma'") && gamma.contains("γ = 3") &&
                 gamma.contains("γ = 5"),
             qPrintable(gamma));
    QVERIFY(refusal({{"loss_weight", "min-snr"}, {"min_snr_gamma", 3}}).isEmpty());
    // An EDM schedule file keeps its own σ_d in the weight, whatever the data's σ_data.
    file.lossWeight = schedule::makeLossWeight("edm", 0.5);
    writeSchedule(path, file, json::object());
    const TrainingData data = smallData();
    QVERIFY(std::abs(data.sigmaData - 0.5) > 0.01);
    const Trainer edm(parseTrainConfig(j, "weights.json"), smallData(), options);
    QCOMPARE(edm.sampler().lossWeight().sigmaData, 0.5);
    QCOMPARE(edm.resolvedConfig().noise.lossWeight, std::string("edm"));
  }

  void cliSurvivesKillAndResumes() {
    const QString dir = freshDir("cli");
    const QString config = dir + "/run.json";
    std::ofstream(config.toStdString()) << R"({
      "dataset": {"path": "synthetic:gaussian?n=600&d=3&seed=4"},
      "model": {"width": 32, "depth": 1, "embedding": 16},
      "optim": {"steps": 4000, "batch_size": 16},
      "noise": {"sampler": "sqrt-entropy", "warmup_steps": 100, "refresh_every": 100},
      "eval": {"every": 0, "samples": 32, "levels": 6, "sample_quality": "off"},
      "checkpoint": {"every": 200}, "log_every": 100})";
    const QString out = dir + "/run";
    QProcess first;
    first.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    first.start(cliPath(), {"--threads", "1", "train", "--config", config, "--out", out});
    QVERIFY(first.waitForStarted());
    // Wait for a checkpoint, then kill -9 in the middle of training.
    QElapsedTimer timer;
    timer.start();
    while (!RunDirectory(out.toStdString()).latestCheckpointStep() && timer.elapsed() < 60000)
      QTest::qSleep(50);
    QVERIFY(first.state() == QProcess::Running);
    ::kill(pid_t(first.processId()), SIGKILL);
    QVERIFY(first.waitForFinished(10000));
    const int64_t saved = RunDirectory(out.toStdString()).latestCheckpointStep().value_or(-1);
    QVERIFY(saved > 0 && saved < 4000);

    QProcess second;
    second.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    second.start(cliPath(), {"--threads", "1", "train", "--out", out, "--resume"});
    QVERIFY(second.waitForFinished(120000));
    QCOMPARE(second.exitCode(), 0);
    const auto events = readEvents(out);
    bool resumedFromSaved = false;
    for (const json& e : events)
      if (e["event"] == "resume" && e["step"].get<int64_t>() >= saved) resumedFromSaved = true;
    QVERIFY(resumedFromSaved);
    QCOMPARE(events.back()["event"].get<std::string>(), std::string("end"));
    QCOMPARE(events.back()["step"].get<int64_t>(), int64_t(4000));
  }

  void cliRejectsBadInput() {
    const QString dir = freshDir("cli_bad");
    const QString config = dir + "/bad.json";
    std::ofstream(config.toStdString())
        << R"({"dataset": {"path": "synthetic:gaussian"}, "optim": {"stpes": 10}})";
    QProcess p;
    p.start(cliPath(), {"train", "--config", config, "--out", dir + "/run"});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("bad.json") && err.contains("optim.stpes"), qPrintable(err));

    QProcess q;
    q.start(cliPath(), {"train", "--out", dir + "/empty", "--resume"});
    QVERIFY(q.waitForFinished(30000));
    QCOMPARE(q.exitCode(), 2);
    QVERIFY(QString::fromUtf8(q.readAllStandardError()).contains("no checkpoint"));
  }
};

QTEST_APPLESS_MAIN(TestTrainer)
#include "test_trainer.moc"
