// The Training panel starts a real `noisescope-cli train` child process, and its events stream
// into the charts: loss, the live schedule π and its refreshes, held-out quality. Stopping the
// child leaves the workbench running, and one click on Stop race stops a whole race, every run
// "stopped", not failed; a bad setting is refused before anything starts. Concurrent runs share
// the cores, the quick-look race trains the pipeline's budget, the run list shows an ETA from a
// smoothed rate and then the finishing phase, the race chart plots sample quality when the
// evaluations carry it, and the schedule chart overlays the offline reference π from a frozen
// checkpoint's profile (the latter driven by event files written here, with a stand-in child).
#include <QAbstractItemModel>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QIODevice>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QModelIndex>
#include <QObject>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QWidget>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "io/schedule_io.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "pipeline/training/schedule_race.h"
#include "profile/profile.h"
#include "screenshot.h"
#include "test_paths.h"
#include "train/train_config.h"
#include "ui/curve_chart.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/run_list_model.h"
#include "ui/run_monitor.h"
#include "ui/schedule_list_view.h"
#include "ui/schedule_panel.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;
using nlohmann::json;

namespace {

// A child that never writes anything: the test writes the run's events itself.
QString standInCli(const QTemporaryDir& dir) {
  const QString path = dir.filePath("stand-in-cli.sh");
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write("#!/bin/sh\nexec sleep 60\n");
  file.close();
  file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

// A Training panel whose runs go to a temporary folder and whose child is the stand-in.
struct StandInPanel {
  QTemporaryDir runs;
  Workbench workbench;
  TrainingPanel panel{&workbench};
  StandInPanel() {
    panel.setCliPath(standInCli(runs));
    panel.setRunsFolder(runs.path());
    panel.datasetEdit()->setText("synthetic:circle?n=500");
  }
};

json readJson(const QString& path) {
  std::ifstream in(QFile::encodeName(path).toStdString());
  return json::parse(in);
}

void appendEvents(const QString& runDir, const std::vector<json>& events) {
  QDir().mkpath(runDir);
  std::ofstream out(QFile::encodeName(runDir + "/events.jsonl").toStdString(), std::ios::app);
  for (const json& e : events) out << e.dump() << "\n";
}

// Events as core/train writes them (docs/training.md).
json startEvent(int steps, double time) {
  return {{"event", "start"},    {"step", 0},
          {"time", time},        {"steps", steps},
          {"world_size", 1},     {"device", "cpu"},
          {"threads", 1},        {"network", {{"kind", "mlp"}}},
          {"parameters", 1000},  {"sigma_data", 0.5},
          {"discrete", false},   {"train_samples", 900},
          {"test_samples", 100}, {"test", "held-out 10 %"},
          {"bins", 16}};
}
json trainEvent(int step, double time) {
  return {{"event", "train"},    {"step", step},       {"time", time},
          {"loss", 10.0 / step}, {"lr", 1e-3},         {"samples_per_s", 160.0},
          {"steps_per_s", 5.0},  {"bin_error", {0.1}}, {"bin_count", {4}}};
}
json scheduleEvent(const train::TrainConfig& c, int step) {
  const int K = int(c.noise.bins);
  const double a = std::log(c.noise.sigmaMin), b = std::log(c.noise.sigmaMax);
  json edges = json::array(), sigma = json::array(), pi = json::array();
  for (int k = 0; k <= K; ++k) edges.push_back(a + (b - a) * k / K);
  for (int k = 0; k < K; ++k) sigma.push_back(std::exp(a + (b - a) * (k + 0.5) / K));
  for (int k = 0; k < K; ++k) pi.push_back(1.0 / K);
  return {{"event", "schedule"},
          {"step", step},
          {"time", 1700000000.0 + step},
          {"sampler", c.noise.sampler},
          {"refresh", step > 0 ? 1 : 0},
          {"log_sigma_edges", edges},
          {"sigma", sigma},
          {"pi", pi}};
}
json evalEvent(int step, double fd) {
  json e{{"event", "eval"},     {"step", step},         {"time", 1700000000.0 + step},
         {"sigma", {0.1, 1.0}}, {"error", {0.01, 0.2}}, {"elbo", 1.5},
         {"edm", 0.7},          {"quality", 1.5},       {"reference", "elbo"}};
  if (std::isfinite(fd)) {
    e["fd"] = fd;
    e["quality_samples"] = 256;
    e["heun_steps"] = 32;
    e["feature_network"] = "/models/fashion-features.pt";
  }
  return e;
}

// A frozen checkpoint's profile: the x0 error of Gaussian data N(0, 0.5² I₂) on 24 levels.
std::shared_ptr<Profile> checkpointProfile() {
  auto p = std::make_shared<Profile>();
  p->kind = "checkpoint";
  p->dim = 2;
  MmseEstimate m;
  m.name = "x0_error";
  for (int k = 0; k < 24; ++k) {
    const double sigma = 0.002 * std::pow(80.0 / 0.002, k / 23.0);
    p->sigma.push_back(sigma);
    m.mean.push_back(2 * 0.25 * sigma * sigma / (0.25 + sigma * sigma));
    m.standardError.push_back(0.0);
    m.ciLow.push_back(m.mean.back());
    m.ciHigh.push_back(m.mean.back());
  }
  p->estimates.push_back(m);
  return p;
}

// Opens a dataset (a file, or a synthetic: spec) in the window; false if it did not load.
bool openSample(MainWindow& window, const QString& path) {
  QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
  window.openPath(path, false);
  return loaded.count() == 1 || loaded.wait(30000);
}

const Curve* curveStartingWith(const CurveChart* chart, const QString& prefix) {
  for (const Curve& c : chart->curves())
    if (c.name.startsWith(prefix)) return &c;
  return nullptr;
}

}  // namespace

class TestTrainingPanel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // A schedule built on the Schedules tab goes to the Training tab in one click: written into the
  // runs folder, chosen as the run's schedule, and named by the config a run starts with.
  void scheduleFromTheSchedulesTabIsTrained() {
    QTemporaryDir runs, elsewhere;
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    TrainingPanel* panel = window.trainingPanel();
    panel->setCliPath(standInCli(runs));
    panel->setRunsFolder(runs.path());
    QVERIFY(openSample(window, QString::fromStdString(noisescope::test::sourcePath()) +
                                   "/sample_data/fashion-mnist/train-images-idx3-ubyte.gz"));
    SchedulePanel* schedules = window.schedulePanel();
    window.tabs()->setCurrentWidget(schedules);
    schedules->list()->setCurrentRow(1);
    QPushButton* trainWith = nullptr;
    for (QPushButton* b : schedules->findChildren<QPushButton*>())
      if (b->text() == "Train &with it") trainWith = b;
    QVERIFY(trainWith);
    const int presets = panel->scheduleBox()->count();
    QVERIFY(panel->lossWeightBox()->isEnabled());
    saveScreenshot(&window, "schedules-train-with-it");

    trainWith->click();
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(panel));
    QCOMPARE(panel->scheduleBox()->count(), presets + 1);
    const QString path = panel->scheduleBox()->currentData().toString();
    QVERIFY2(path.startsWith(runs.path() + "/schedules/") && path.endsWith(".schedule.json"),
             qPrintable(path));
    QVERIFY2(panel->scheduleBox()->currentText().endsWith("(Schedules tab)"),
             qPrintable(panel->scheduleBox()->currentText()));
    // The file is the selected schedule, as the panel's own export writes it.
    const QString again = elsewhere.filePath("same.json");
    QCOMPARE(schedules->exportCurrent(again), QString());
    QCOMPARE(readSchedule(path.toStdString()).binMasses(),
             readSchedule(again.toStdString()).binMasses());
    // A file carries its own loss weight.
    QVERIFY(!panel->lossWeightBox()->isEnabled());
    const QString dir = panel->startRun();
    QVERIFY(!dir.isEmpty());
    QCOMPARE(readJson(dir + ".config.json")["noise"]["schedule"].get<std::string>(),
             path.toStdString());
    panel->run(0)->stop();

    // Once more: the same entry, not a second one; a preset turns the loss weight back on.
    window.tabs()->setCurrentWidget(schedules);
    trainWith->click();
    QCOMPARE(panel->scheduleBox()->count(), presets + 1);
    panel->scheduleBox()->setCurrentIndex(0);
    QVERIFY(panel->lossWeightBox()->isEnabled());
    panel->scheduleBox()->setCurrentIndex(presets);
    saveScreenshot(&window, "training-schedule-from-schedules-tab");
  }

  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void shortRunStreamsIntoCharts() {
    QTemporaryDir runs;
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    TrainingPanel* panel = window.trainingPanel();
    window.tabs()->setCurrentWidget(panel);
    panel->setCliPath(QString::fromStdString(noisescope::test::cliPath()));
    panel->setRunsFolder(runs.path());
    panel->datasetEdit()->setText("synthetic:two-moons?n=1000&seed=1");
    panel->stepsSpin()->setValue(240);
    panel->samplerBox()->setCurrentText("infonoise");
    // Small and quick: MLP width 32, batch 64, warm-up 40, refresh 40, eval/checkpoint every 80.
    auto setSpin = [panel](int index, int value) {
      panel->findChildren<QSpinBox*>().at(index)->setValue(value);
    };
    // Order of the spin boxes in the form: width, channels, steps, batch, seed, warm-up, refresh,
    // bins, eval every, checkpoint every.
    setSpin(0, 32);
    setSpin(3, 64);
    setSpin(5, 40);
    setSpin(6, 40);
    setSpin(7, 32);
    setSpin(8, 80);
    setSpin(9, 80);

    const QString dir = panel->startRun();
    QVERIFY(!dir.isEmpty());
    QCOMPARE(panel->runCount(), 1);
    RunMonitor* run = panel->run(0);
    QTRY_VERIFY_WITH_TIMEOUT(run->record().ended, 240000);
    QTRY_VERIFY_WITH_TIMEOUT(!run->isRunning(), 10000);
    QVERIFY2(run->record().train.size() >= 2, qPrintable(run->log()));
    QVERIFY(run->record().schedules.size() >= 3);  // initial + refreshes after warm-up
    QVERIFY(!run->record().evals.empty());
    QCOMPARE(panel->lossChart()->curves().size(), size_t(1));
    QVERIFY(panel->lossChart()->curves()[0].x.size() >= 2);
    QVERIFY(panel->scheduleChart()->curves().size() >= 2);  // history, not one snapshot
    QVERIFY(!panel->qualityChart()->curves()[0].y.empty());
    QCOMPARE(panel->qualityChart()->yTitle(), QString("error (nats/dim)"));
    saveScreenshot(&window, "training-panel");

    // Following the finished run from its folder reads the same events.
    panel->followRun(dir);
    QCOMPARE(panel->run(1)->record().train.size(), run->record().train.size());

    // From the run to a checkpoint profile in one step: its newest export on its held-out data,
    // listed with the workbench's profiles (so the Diagnostic and Schedules tabs both have it).
    const size_t before = window.workbench()->profiles().size();
    window.diagnosticPanel()->levelsSpin()->setValue(6);
    panel->selectRun(0);
    panel->profileSelectedCheckpoint();
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.diagnosticPanel()));
    QTRY_VERIFY_WITH_TIMEOUT(window.workbench()->profiles().size() == before + 1, 120000);
    const auto& added = *window.workbench()->profiles().back().profile;
    QCOMPARE(added.kind, std::string("checkpoint"));
    QCOMPARE(added.levels(), 6);
    QCOMPARE(added.provenance["run_directory"].get<std::string>(), dir.toStdString());
    QVERIFY(added.provenance.dump().find("held-out") != std::string::npos);
  }

  void stopKeepsWorkbenchAlive() {
    QTemporaryDir runs;
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.setCliPath(QString::fromStdString(noisescope::test::cliPath()));
    panel.setRunsFolder(runs.path());
    panel.datasetEdit()->setText("synthetic:circle?n=500");
    panel.stepsSpin()->setValue(1000000);
    QVERIFY(!panel.startRun().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(panel.run(0)->record().started, 60000);
    panel.stopSelected();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.run(0)->isRunning(), 10000);
    QVERIFY(!panel.run(0)->record().ended);  // stopped, not finished
    // The real trainer dies of the SIGTERM: still "stopped by you", not "failed … signal 15".
    QVERIFY2(panel.runList()->text(0).contains("stopped by you at step"),
             qPrintable(panel.runList()->text(0)));
  }

  void raceChildrenShareTheCores() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    panel.startRace();
    QCOMPARE(panel.runCount(), 3);
    QCOMPARE(panel.runningCount(), 3);
    // One row per run: checked (charted), its folder as tooltip, its race and role, the newest
    // current.
    RunListModel* list = panel.runList();
    QCOMPARE(panel.runListView()->model(), static_cast<QAbstractItemModel*>(list));
    QCOMPARE(list->rowCount(), 3);
    const RaceRole roles[] = {RaceRole::Baseline, RaceRole::InfoNoise, RaceRole::SqrtEntropy};
    const QString labels[] = {"static · ", "InfoNoise online · ", "√-entropy online · "};
    for (int i = 0; i < 3; ++i) {
      const QModelIndex row = list->index(i);
      QCOMPARE(list->entry(i).role, roles[i]);
      QCOMPARE(list->entry(i).race, 0);
      QVERIFY2(row.data().toString().startsWith(labels[i]), qPrintable(row.data().toString()));
      QCOMPARE(row.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
      QVERIFY(list->flags(row) & Qt::ItemIsUserCheckable);
      QCOMPARE(row.data(Qt::ToolTipRole).toString(), panel.run(i)->runDirectory());
    }
    QCOMPARE(panel.currentRun(), 2);
    QSignalSpy checked(list, &RunListModel::checkedChanged);
    QVERIFY(list->setData(list->index(1), Qt::Unchecked, Qt::CheckStateRole));
    QCOMPARE(checked.count(), 1);
    QVERIFY(!list->entry(1).checked);
    const int cores = QThread::idealThreadCount();
    QCOMPARE(TrainingPanel::threadShare(3), std::max(1, cores / 3));
    for (int i = 0; i < 3; ++i) {
      const json config = readJson(panel.run(i)->runDirectory() + ".config.json");
      QCOMPARE(config["optim"]["threads"].get<int>(), std::max(1, cores / 3));
    }
    // A fourth run started while the race goes on gets its share of the four.
    const QString fourth = panel.startRun();
    QCOMPARE(list->entry(3).role, RaceRole::None);
    QCOMPARE(list->entry(3).race, -1);
    QCOMPARE(readJson(fourth + ".config.json")["optim"]["threads"].get<int>(),
             std::max(1, cores / 4));
    // An explicit count is written as given.
    QCOMPARE(readJson(panel.startRun({}, 3) + ".config.json")["optim"]["threads"].get<int>(), 3);
  }

  void runListShowsEtaAndFeatureNetworkReachesConfig() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    panel.featureNetworkEdit()->setText("/models/fashion-features.pt");
    const QString dir = panel.startRun();
    QVERIFY(!dir.isEmpty());
    QCOMPARE(readJson(dir + ".config.json")["eval"]["feature_network"].get<std::string>(),
             std::string("/models/fashion-features.pt"));
    QTRY_VERIFY(panel.run(0)->isRunning());

    const double t0 = 1700000000.0;
    appendEvents(dir, {startEvent(1100, t0), trainEvent(50, t0 + 10)});
    panel.run(0)->poll();
    QVERIFY2(panel.runList()->text(0).contains("ETA estimating…"),
             qPrintable(panel.runList()->text(0)));
    // 50 steps in 10 s of wall time: 1000 steps left take 200 s.
    appendEvents(dir, {trainEvent(100, t0 + 20)});
    panel.run(0)->poll();
    QVERIFY2(panel.runList()->text(0).contains("step 100 of 1100 · ETA 3 min 20 s"),
             qPrintable(panel.runList()->text(0)));
    panel.resize(1400, 900);
    panel.show();
    QTest::qWait(300);
    saveScreenshot(&panel, "training-panel-eta");
    panel.stopSelected();
    QTRY_VERIFY(!panel.run(0)->isRunning());
  }

  // Stop race stops every run of the race in one click, and a run stopped by the user is
  // "stopped" in the run list and the status line, never "failed … signal 15" (issue 35, item 4).
  void stopRaceStopsEveryRunInOneClick() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    panel.startRace();
    QCOMPARE(panel.runCount(), 3);
    QTRY_COMPARE(panel.runningCount(), 3);
    const double t0 = 1700000000.0;
    appendEvents(panel.run(0)->runDirectory(), {startEvent(2000, t0), trainEvent(50, t0 + 10)});
    panel.run(0)->poll();
    // A run started alone is not part of the race and keeps running.
    panel.startRun();
    panel.selectRun(1);
    QPushButton* stopRace = nullptr;
    for (QPushButton* b : panel.findChildren<QPushButton*>())
      if (b->text() == "Stop race") stopRace = b;
    QVERIFY(stopRace);
    stopRace->click();
    QTRY_COMPARE(panel.runningCount(), 1);
    QVERIFY(panel.run(3)->isRunning());
    for (int i = 0; i < 3; ++i) {
      const QString row = panel.runList()->text(i);
      QVERIFY2(row.contains("stopped by you at step") && !row.contains("failed"), qPrintable(row));
      QVERIFY(panel.run(i)->stoppedByUser());
      QVERIFY(panel.runList()->entry(i).failure.isEmpty());
    }
    QVERIFY2(panel.runList()->text(0).endsWith("stopped by you at step 50"),
             qPrintable(panel.runList()->text(0)));
    // The status line of the selected run says so too.
    panel.selectRun(0);
    bool statusSaysStopped = false;
    for (QLabel* label : panel.findChildren<QLabel*>())
      statusSaysStopped =
          statusSaysStopped || label->text().startsWith("Stopped by you at step 50");
    QVERIFY(statusSaysStopped);
    // The per-run Stop labels its run the same way.
    panel.selectRun(3);
    panel.stopSelected();
    QTRY_VERIFY(!panel.run(3)->isRunning());
    QVERIFY2(panel.runList()->text(3).contains("stopped by you"),
             qPrintable(panel.runList()->text(3)));
    // The stop is recorded in the run's folder: reopened later (a new workbench), the run reads
    // "stopped by you", not "stopped" by who knows what.
    Workbench later;
    TrainingPanel reopened(&later);
    reopened.followRun(panel.run(0)->runDirectory());
    QVERIFY2(reopened.runList()->text(0).endsWith("stopped by you at step 50"),
             qPrintable(reopened.runList()->text(0)));
    bool reopenedSaysStopped = false;
    for (QLabel* label : reopened.findChildren<QLabel*>())
      reopenedSaysStopped =
          reopenedSaysStopped || label->text().startsWith("Stopped by you at step 50");
    QVERIFY(reopenedSaysStopped);
  }

  // After the last step the run still evaluates and writes its checkpoint and schedule: the run
  // list names that phase instead of "ETA 0 s" (issue 35, item 4).
  void runListNamesTheFinishingPhase() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    const QString dir = panel.startRun();
    QTRY_VERIFY(panel.run(0)->isRunning());
    const double t0 = 1700000000.0;
    appendEvents(dir, {startEvent(300, t0), trainEvent(250, t0 + 50), trainEvent(300, t0 + 60)});
    panel.run(0)->poll();
    QString row = panel.runList()->text(0);
    QVERIFY2(row.contains("step 300 of 300 · finishing: final evaluation…"), qPrintable(row));
    QVERIFY2(!row.contains("ETA"), qPrintable(row));
    appendEvents(dir, {evalEvent(300, NAN)});
    panel.run(0)->poll();
    row = panel.runList()->text(0);
    QVERIFY2(row.contains("finishing: writing checkpoint and export…"), qPrintable(row));
    appendEvents(dir, {json{{"event", "checkpoint"},
                            {"step", 300},
                            {"time", t0 + 90},
                            {"path", "checkpoints/step-300.ckpt"}}});
    panel.run(0)->poll();
    row = panel.runList()->text(0);
    QVERIFY2(row.contains("finishing: writing the final schedule…"), qPrintable(row));
    panel.stopSelected();
    QTRY_VERIFY(!panel.run(0)->isRunning());
  }

  // The run list's ETA comes from a smoothed rate: with jittered step times and a long
  // evaluation pause every 1000 steps, the finish it predicts stays within 35 % of the real one
  // from the first report after the pause on (the last-ten-intervals rate it replaced swung by up
  // to 58 %: "4 → 31 → 19 min", issue 35, item 4).
  void runListEtaStaysInABand() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    const QString dir = panel.startRun();
    QTRY_VERIFY(panel.run(0)->isRunning());
    const double t0 = 1700000000.0;
    std::vector<std::pair<int, double>> reports;  // (step, time)
    double t = t0;
    for (int step = 50; step <= 3000; step += 50) {
      const double jitter = std::fmod(std::abs(std::sin(step * 12.9898)) * 43758.5453, 1.0);
      t += 5.0 + 10.0 * jitter;
      reports.push_back({step, t});
      if (step % 1000 == 0 && step < 3000) t += 150.0;
    }
    const double end = reports.back().second;
    appendEvents(dir, {startEvent(3000, t0)});
    const QRegularExpression eta("ETA (?:(\\d+) min )?(\\d+) s");
    int checked = 0;
    for (const auto& [step, at] : reports) {
      if (step == 3000) break;
      appendEvents(dir, {trainEvent(step, at)});
      if (step < 1100) continue;
      panel.run(0)->poll();
      const QString row = panel.runList()->text(0);
      const QRegularExpressionMatch m = eta.match(row);
      QVERIFY2(m.hasMatch(), qPrintable(row));
      const double left = m.captured(1).toDouble() * 60 + m.captured(2).toDouble();
      QVERIFY2(std::abs((at + left - t0) / (end - t0) - 1.0) < 0.35,
               qPrintable(QStringLiteral("%1 (real finish after %2 s)").arg(row).arg(end - t0)));
      ++checked;
    }
    QCOMPARE(checked, 38);
    panel.stopSelected();
    QTRY_VERIFY(!panel.run(0)->isRunning());
  }

  // The quick-look race trains every entrant on the pipeline's quick-look budget over the form's
  // settings, and the Training tab names those settings (issue 35, item 4).
  void quickLookRaceUsesThePipelineBudget() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    panel.stepsSpin()->setValue(5000);
    panel.featureNetworkEdit()->setText("/models/fashion-features.pt");
    QPushButton* quick = nullptr;
    for (QPushButton* b : panel.findChildren<QPushButton*>())
      if (b->text().remove('&') == "Quick-look race") quick = b;
    QVERIFY(quick);
    const QString settings = QString::fromStdString(pipeline::quickLookDescription());
    QVERIFY(quick->toolTip().contains(settings));
    bool named = false;
    for (QLabel* label : panel.findChildren<QLabel*>())
      named = named || label->text().contains(settings);
    QVERIFY(named);
    quick->click();
    QCOMPARE(panel.runCount(), 3);
    const pipeline::QuickLookRace& budget = pipeline::quickLookRace();
    const train::TrainConfig defaults;
    for (int i = 0; i < 3; ++i) {
      QVERIFY(panel.runList()->text(i).contains("quick look"));
      const json config = readJson(panel.run(i)->runDirectory() + ".config.json");
      QCOMPARE(config["optim"]["steps"].get<int64_t>(), budget.steps);
      QCOMPARE(config["eval"]["every"].get<int64_t>(), budget.evalEvery);
      QCOMPARE(config["eval"]["quality_samples"].get<int64_t>(), budget.qualitySamples);
      QCOMPARE(config["noise"]["warmup_steps"].get<int64_t>(), budget.warmupSteps);
      QCOMPARE(config["model"]["channels"].get<int64_t>(), defaults.model.channels);
      // What the budget does not name stays the user's.
      QCOMPARE(config["eval"]["feature_network"].get<std::string>(),
               std::string("/models/fashion-features.pt"));
    }
    QCOMPARE(panel.stopRace(), 3);
    QTRY_COMPARE(panel.runningCount(), 0);
  }

  // The trainer reads a config's relative paths from the runs folder: files named relative to
  // the workbench's working directory (`noisescope sample_data/...`) are written in full.
  void relativePathsReachTheConfigInFull() {
    StandInPanel fixture;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(QString::fromStdString(noisescope::test::sourcePath())));
    fixture.panel.datasetEdit()->setText("sample_data/fashion-mnist/train-images-idx3-ubyte.gz");
    fixture.panel.featureNetworkEdit()->setText(
        "sample_data/fashion-mnist/fashion-mnist.features.pt");
    const QString dir = fixture.panel.startRun();
    QDir::setCurrent(before);
    QVERIFY(!dir.isEmpty());
    const json config = readJson(dir + ".config.json");
    const std::string root = noisescope::test::sourcePath();
    QCOMPARE(config["dataset"]["path"].get<std::string>(),
             root + "/sample_data/fashion-mnist/train-images-idx3-ubyte.gz");
    QCOMPARE(config["eval"]["feature_network"].get<std::string>(),
             root + "/sample_data/fashion-mnist/fashion-mnist.features.pt");
    fixture.panel.stopSelected();
  }

  void raceChartsSampleQualityAndOfflineReference() {
    QTemporaryDir runs;
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.resize(1400, 900);
    panel.show();
    // A finished InfoNoise run: its resolved config.json, π snapshots and evaluations with fd.
    train::TrainConfig config;
    config.dataset.path = "synthetic:circle?n=500";
    config.noise.sampler = "infonoise";
    config.noise.bins = 16;
    config.noise.gateC = 0.5;  // not the default 0.15: the overlay must take the run's gate
    config.noise.gateN = 2.0;
    config.optim.sigmaData = 0.5;
    const QString dir = runs.filePath("20250101-000000-000-infonoise");
    QDir().mkpath(dir);
    {
      std::ofstream out(QFile::encodeName(dir + "/config.json").toStdString());
      out << train::toJson(config).dump(2);
    }
    appendEvents(dir, {startEvent(500, 1700000000.0), scheduleEvent(config, 0),
                       evalEvent(250, 40.0), scheduleEvent(config, 300), evalEvent(500, 25.0)});
    panel.followRun(dir);
    QCOMPARE(panel.runCount(), 1);
    panel.selectRun(0);

    // The race chart plots the Fréchet distance and says in which network.
    QCOMPARE(panel.raceMeasureBox()->currentIndex(), 0);  // sample quality by default
    QCOMPARE(panel.qualityChart()->chart()->title(),
             QString("Sample quality: FD in fashion-features, lower is better"));
    QCOMPARE(panel.qualityChart()->yTitle(), QString("FD (units²)"));
    QCOMPARE(panel.qualityChart()->curves()[0].y, (std::vector<double>{40.0, 25.0}));
    // The ELBO-like error is there when asked for, named as the second measure.
    panel.raceMeasureBox()->setCurrentIndex(1);
    QCOMPARE(panel.qualityChart()->chart()->title(),
             QString("Second measure: held-out ELBO-like error, lower is better"));
    QCOMPARE(panel.qualityChart()->yTitle(), QString("error (nats/dim)"));
    QCOMPARE(panel.qualityChart()->curves()[0].y, (std::vector<double>{1.5, 1.5}));
    panel.raceMeasureBox()->setCurrentIndex(0);
    QVERIFY(panel.qualityChart()->chart()->title().startsWith("Sample quality: FD"));

    // No checkpoint profile loaded: no reference.
    QVERIFY(!curveStartingWith(panel.scheduleChart(), "offline reference"));
    const QString name = workbench.addProfile("frozen-edm · checkpoint", checkpointProfile());
    const Curve* overlay = curveStartingWith(
        panel.scheduleChart(), "offline reference: InfoNoise π from checkpoint profile " + name);
    QVERIFY(overlay);
    // The allocation is buildSchedule's InfoNoise with this run's gate, weight and bins.
    pipeline::ScheduleRecipe recipe = pipeline::infoNoiseRecipe();
    recipe.gateC = 0.5;
    recipe.gateN = 2.0;
    recipe.sigmaData = 0.5;
    pipeline::RecipeContext context;
    context.profile = workbench.profile(name).get();
    const auto grid = schedule::LogSigmaGrid::uniform(0.002, 80.0, 16);
    const auto built = pipeline::buildSchedule(recipe, grid, context);
    QCOMPARE(overlay->y.size(), size_t(16));
    for (int b = 0; b < 16; ++b)
      QVERIFY(std::abs(overlay->y[b] - built.schedule.binMasses()[b] / grid.width(b)) <
              1e-12 * (1 + overlay->y[b]));
    pipeline::ScheduleRecipe defaultGate = pipeline::infoNoiseRecipe();  // c = 0.15: differs
    defaultGate.sigmaData = 0.5;
    const auto other = pipeline::buildSchedule(defaultGate, grid, context);
    double largest = 0, gap = 0;
    for (int b = 0; b < 16; ++b) {
      largest = std::max(largest, overlay->y[b]);
      gap = std::max(gap, std::abs(other.schedule.binMasses()[b] / grid.width(b) - overlay->y[b]));
    }
    QVERIFY(gap > 0.05 * largest);
    QVERIFY(panel.scheduleChart()->toolTip().contains("checkpoint profile"));
    QTest::qWait(300);  // let the charts' scenes repaint before the picture
    saveScreenshot(&panel, "training-panel-race-reference");

    workbench.removeProfile(name);
    QVERIFY(!curveStartingWith(panel.scheduleChart(), "offline reference"));

    // A second run without fd: the runs no longer share the measure, so the chart falls back to
    // the held-out error.
    const QString plain = runs.filePath("20250101-000001-000-static");
    appendEvents(plain, {startEvent(500, 1700000000.0), evalEvent(500, NAN)});
    panel.followRun(plain);
    QCOMPARE(panel.qualityChart()->yTitle(), QString("error (nats/dim)"));
    QVERIFY2(panel.qualityChart()->chart()->title().contains("(no sample-quality score)"),
             qPrintable(panel.qualityChart()->chart()->title()));
  }

  // The bundled data has its feature networks beside it: offered by name, used once the user
  // chooses it (it is code), and a real run scored in it charts the Fréchet distance, not the ELBO.
  void raceDefaultsToSampleQualityOnTheSampleData() {
    QTemporaryDir runs;
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    TrainingPanel* panel = window.trainingPanel();
    panel->setCliPath(standInCli(runs));
    panel->setRunsFolder(runs.path());
    const QString sample = QString::fromStdString(noisescope::test::sourcePath()) + "/sample_data/";
    QVERIFY(openSample(window, sample + "fashion-mnist/train-images-idx3-ubyte.gz"));
    const QString fashionNet = sample + "fashion-mnist/fashion-mnist.features.pt";
    // Named, not loaded (a TorchScript file runs code): the field fills once the user uses it.
    QCOMPARE(panel->featureNetworkEdit()->text(), QString());
    QVERIFY2(panel->featureNetworkNote()->text().startsWith(
                 "Beside the data: fashion-mnist.features.pt. A TorchScript file runs the code"),
             qPrintable(panel->featureNetworkNote()->text()));
    QVERIFY(panel->featureNetworkUseButton()->isVisibleTo(panel));
    panel->featureNetworkUseButton()->click();
    QCOMPARE(panel->featureNetworkEdit()->text(), fashionNet);
    QVERIFY2(panel->featureNetworkNote()->text().startsWith(
                 "Chosen by you, from beside the data: classifier"),
             qPrintable(panel->featureNetworkNote()->text()));
    QVERIFY(!panel->featureNetworkUseButton()->isVisibleTo(panel));
    panel->startRace();
    QCOMPARE(panel->runCount(), 3);
    for (int i = 0; i < 3; ++i)
      QCOMPARE(readJson(panel->run(i)->runDirectory() + ".config.json")["eval"]["feature_network"]
                   .get<std::string>(),
               fashionNet.toStdString());
    for (int i = 0; i < 3; ++i) panel->run(i)->stop();

    // DNA windows of the default 200 bases get theirs; synthetic data has none, and says so.
    QVERIFY(openSample(window, sample + "dna/lambda_phage.fa"));
    QCOMPARE(panel->featureNetworkEdit()->text(), QString());  // the accepted one was Fashion's
    panel->featureNetworkUseButton()->click();
    QCOMPARE(panel->featureNetworkEdit()->text(), sample + "dna/lambda_phage-w200.features.pt");
    QVERIFY(openSample(window, "synthetic:circle?n=200"));
    QCOMPARE(panel->featureNetworkEdit()->text(), QString());
    QVERIFY(panel->featureNetworkNote()->text().startsWith("None beside the data"));
    QVERIFY(!panel->featureNetworkUseButton()->isVisibleTo(panel));
    // A network the user typed is theirs: loading other data leaves it.
    panel->featureNetworkEdit()->setText("/models/mine.features.pt");
    Q_EMIT panel->featureNetworkEdit()->textEdited("/models/mine.features.pt");
    QVERIFY(openSample(window, sample + "fashion-mnist/train-images-idx3-ubyte.gz"));
    QCOMPARE(panel->featureNetworkEdit()->text(), QString("/models/mine.features.pt"));
    panel->featureNetworkEdit()->clear();
    Q_EMIT panel->featureNetworkEdit()->textEdited(QString());
    QVERIFY(openSample(window, sample + "fashion-mnist/train-images-idx3-ubyte.gz"));
    QCOMPARE(panel->featureNetworkEdit()->text(), QString());
    panel->featureNetworkUseButton()->click();
    QCOMPARE(panel->featureNetworkEdit()->text(), fashionNet);

    // A short real run on the sample: the trainer loads the shipped network and every evaluation
    // carries its Fréchet distance, which the race chart plots by default.
    panel->setCliPath(QString::fromStdString(noisescope::test::cliPath()));
    panel->stepsSpin()->setValue(20);
    auto setSpin = [panel](int index, int value) {
      panel->findChildren<QSpinBox*>().at(index)->setValue(value);
    };
    setSpin(3, 16);  // batch
    setSpin(5, 10);  // warm-up
    setSpin(8, 20);  // eval every
    setSpin(9, 20);  // checkpoint every
    for (int i = 0; i < panel->runCount(); ++i)
      // The stand-in runs: not charted (unchecked as the view's check box does).
      panel->runList()->setData(panel->runList()->index(i), Qt::Unchecked, Qt::CheckStateRole);
    const QString dir = panel->startRun(QStringLiteral("infonoise"));
    QVERIFY(!dir.isEmpty());
    RunMonitor* run = panel->run(panel->runCount() - 1);
    // A wait, not a speed check: under AddressSanitizer beside a build it took over 300 s.
    QTRY_VERIFY_WITH_TIMEOUT(run->record().ended, 600000);
    QVERIFY2(!run->record().evals.empty(), qPrintable(run->log()));
    for (const auto& e : run->record().evals) {
      QVERIFY(std::isfinite(e.fd) && e.fd >= 0.0);
      QCOMPARE(e.featureNetwork, fashionNet.toStdString());
    }
    // Behind the Dataset tab the charts wait (ui/hidden_redraw.h); shown, they draw the run.
    window.tabs()->setCurrentWidget(panel);
    QVERIFY2(panel->qualityChart()->chart()->title().startsWith(
                 "Sample quality: FD in fashion-mnist, lower is better"),
             qPrintable(panel->qualityChart()->chart()->title()));
    QCOMPARE(panel->qualityChart()->curves().size(), size_t(1));
    QCOMPARE(panel->qualityChart()->curves()[0].y.back(), run->record().evals.back().fd);
    QTest::qWait(300);
    saveScreenshot(&window, "training-race-sample-quality");
  }

  void finishedRaceEdmRunAsksForItsCheckpointProfile() {
    StandInPanel fixture;
    TrainingPanel& panel = fixture.panel;
    QSignalSpy asked(&panel, &TrainingPanel::referenceProfileRequested);
    panel.startRace();
    // The race knows its EDM baseline by the role it launched it with, not by its folder name or
    // its config.json (not written here).
    QCOMPARE(panel.runList()->entry(0).role, RaceRole::Baseline);
    const QString edm = panel.run(0)->runDirectory();
    appendEvents(edm, {startEvent(100, 1700000000.0)});
    panel.run(0)->poll();
    QCOMPARE(asked.count(), 0);  // not finished yet
    appendEvents(
        edm, {json{{"event", "end"}, {"step", 100}, {"time", 1700000100.0}, {"seconds", 100.0}}});
    panel.run(0)->poll();
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).toString(), edm);
    panel.run(0)->poll();
    QCOMPARE(asked.count(), 1);  // once

    // The race's InfoNoise run overlays the baseline's own frozen checkpoint — found by its race
    // role — even when a newer checkpoint profile is loaded.
    const QString info = panel.run(1)->runDirectory();
    QVERIFY(QDir().mkpath(info));
    QVERIFY(QFile::copy(info + ".config.json", info + "/config.json"));
    const train::TrainConfig infoConfig =
        train::readTrainConfig(QFile::encodeName(info + "/config.json").toStdString());
    appendEvents(info, {startEvent(100, 1700000000.0), scheduleEvent(infoConfig, 0)});
    panel.run(1)->poll();
    auto frozen = checkpointProfile();
    frozen->provenance = {{"run_directory", edm.toStdString()}};
    const QString frozenName = fixture.workbench.addProfile("race edm · checkpoint", frozen);
    const QString newerName =
        fixture.workbench.addProfile("other · checkpoint", checkpointProfile());
    panel.selectRun(1);
    QVERIFY(
        curveStartingWith(panel.scheduleChart(),
                          "offline reference: InfoNoise π from checkpoint profile " + frozenName));
    QVERIFY(
        !curveStartingWith(panel.scheduleChart(),
                           "offline reference: InfoNoise π from checkpoint profile " + newerName));
  }

  // A race seen at 1366×768 (the smallest screen of issue 35): every chart of the tab keeps its
  // axis labels and titles whole. The run list used to keep 130 px for three rows, and the race
  // chart, under its measure box, was left so little height that Qt Charts elided its step
  // labels and axis title to "...".
  void raceChartsKeepTheirLabelsAt1366x768() {
    QTemporaryDir runs;
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    TrainingPanel* panel = window.trainingPanel();
    window.tabs()->setCurrentWidget(panel);
    train::TrainConfig config;
    config.dataset.path = "synthetic:circle?n=500";
    config.noise.bins = 16;
    const double t0 = 1700000000.0;
    for (const char* sampler : {"static", "infonoise", "sqrt-entropy"}) {
      config.noise.sampler = sampler;
      const QString dir = runs.filePath(QStringLiteral("20261206-223525-931-") + sampler);
      QDir().mkpath(dir);
      {
        std::ofstream out(QFile::encodeName(dir + "/config.json").toStdString());
        out << train::toJson(config).dump(2);
      }
      appendEvents(dir,
                   {startEvent(400, t0), scheduleEvent(config, 0), trainEvent(100, t0 + 10),
                    trainEvent(200, t0 + 20), evalEvent(200, 120.0), scheduleEvent(config, 300),
                    trainEvent(400, t0 + 40), evalEvent(400, 90.0)});
      panel->followRun(dir);
    }
    QCOMPARE(panel->runCount(), 3);
    panel->selectRun(2);
    for (CurveChart* chart : {panel->lossChart(), panel->qualityChart()})
      QTRY_VERIFY(!chart->chart()->series().isEmpty());
    QTest::qWait(200);  // the charts lay out after their series
    QStringList elided;
    for (CurveChart* chart : panel->findChildren<CurveChart*>()) {
      for (QGraphicsItem* item : chart->scene()->items()) {
        if (!item->isVisible()) continue;
        QString text;
        if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) text = rich->toPlainText();
        if (auto* plain = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = plain->text();
        if (text.contains(QStringLiteral("..."))) elided << chart->chart()->title() + ": " + text;
      }
    }
    saveScreenshot(&window, "training-race-1366x768");
    QVERIFY2(elided.isEmpty(), qPrintable(elided.join(" | ")));
  }

  void badSettingIsRefused() {
    QTemporaryDir runs;
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.setRunsFolder(runs.path());
    panel.datasetEdit()->setText("");  // no dataset
    // The refusal shows a message box; close it as soon as it appears.
    QTimer closer;
    connect(&closer, &QTimer::timeout, [] {
      if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
    });
    closer.start(20);
    QCOMPARE(panel.startRun(), QString());
    QCOMPARE(panel.runCount(), 0);
  }
};

QTEST_MAIN(TestTrainingPanel)
#include "test_training_panel.moc"
