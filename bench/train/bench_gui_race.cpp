// The quick race as a new user starts it: the Training tab with its defaults, a dataset, the
// binarize transform, "Start race". Offscreen; measures, never passes or fails. For each run: its
// torch threads, the wall time from the click to its first schedule refresh (the first "schedule"
// event after warm-up; the static EDM run has none) and to its end, its training rate, and how
// the time splits into training steps and the rest (evaluations, checkpoints, start-up); then
// the race's wall time, the core count and the load average. Prints a Markdown table.
//
// With RACE "quick" it clicks "Quick-look race" instead (the pipeline's quick-look budget,
// pipeline/training/schedule_race.h); TRANSFORM (default binarize) and FEATURES (a feature network,
// default none: no Fréchet distance) set the form as a user would.
//
// usage: bench_gui_race CLI DATASET [MAX_SECONDS] [RACE] [TRANSFORM] [FEATURES]
//        (bench/train/gui_race.sh runs it)
#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "train/train_config.h"
#include "ui/run_monitor.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {

QString loadAverage() {
  QFile file(QStringLiteral("/proc/loadavg"));
  if (!file.open(QIODevice::ReadOnly)) return QStringLiteral("unknown");
  const QList<QByteArray> parts = file.readAll().split(' ');
  return parts.size() >= 3 ? QString::fromLatin1(parts[0] + " " + parts[1] + " " + parts[2])
                           : QStringLiteral("unknown");
}

struct Timing {
  double firstRefresh = -1, finished = -1;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CLI DATASET [MAX_SECONDS]\n", argv[0]);
    return 2;
  }
  const QString cli = QString::fromLocal8Bit(argv[1]);
  const QString dataset = QString::fromLocal8Bit(argv[2]);
  const double maxSeconds = argc > 3 ? std::atof(argv[3]) : 1800.0;
  const bool quickLook = argc > 4 && QString::fromLocal8Bit(argv[4]) == QStringLiteral("quick");
  const QString transform = argc > 5 ? QString::fromLocal8Bit(argv[5]) : QStringLiteral("binarize");
  const QString features = argc > 6 ? QString::fromLocal8Bit(argv[6]) : QString();
  if (!QFile::exists(cli) || !QFile::exists(dataset)) {
    std::fprintf(stderr, "error: %s or %s does not exist\n", argv[1], argv[2]);
    return 2;
  }

  QTemporaryDir runs;
  Workbench workbench;
  TrainingPanel panel(&workbench);
  panel.setCliPath(cli);
  panel.setRunsFolder(runs.path());
  panel.datasetEdit()->setText(dataset);
  panel.transformBox()->setCurrentText(transform);
  panel.featureNetworkEdit()->setText(features);
  const QString button =
      quickLook ? QStringLiteral("Quick-look race") : QStringLiteral("Start race");
  QPushButton* race = nullptr;
  for (QPushButton* b : panel.findChildren<QPushButton*>())
    if (b->text().remove(QLatin1Char('&')) == button) race = b;
  if (!race) {
    std::fprintf(stderr, "error: no %s button\n", qPrintable(button));
    return 1;
  }

  const QString loadBefore = loadAverage();
  QElapsedTimer clock;
  clock.start();
  race->click();
  if (panel.runCount() != 3) {
    std::fprintf(stderr, "error: the race started %d runs\n", panel.runCount());
    return 1;
  }
  std::vector<Timing> timings(3);
  QTimer poll;
  poll.setInterval(200);
  QObject::connect(&poll, &QTimer::timeout, [&] {
    const double now = clock.elapsed() / 1000.0;
    bool running = false;
    for (int i = 0; i < 3; ++i) {
      RunMonitor* run = panel.run(i);
      run->poll();
      const pipeline::RunRecord& s = run->record();
      if (timings[i].firstRefresh < 0)
        for (const auto& snap : s.schedules)
          if (snap.refresh >= 1) timings[i].firstRefresh = now;
      if (timings[i].finished < 0 && (s.ended || !run->isRunning())) timings[i].finished = now;
      running = running || run->isRunning();
    }
    if (!running || now > maxSeconds) app.quit();
  });
  poll.start();
  app.exec();
  const double wall = clock.elapsed() / 1000.0;
  const QString loadAfter = loadAverage();

  // What the runs trained: the first run's own config as the panel wrote it.
  const train::TrainConfig used = train::readTrainConfig(
      QFile::encodeName(panel.run(0)->runDirectory() + ".config.json").toStdString());
  std::printf(
      "%s from the Training tab: %s (%s), %lld steps, batch %lld, "
      "U-Net channels %lld, warm-up %lld, refresh every %lld, eval every %lld (%lld "
      "samples × %lld levels; %s), log every %lld\n\n",
      quickLook ? "Quick-look race" : "Race with the form's defaults", qPrintable(dataset),
      qPrintable(transform), (long long)used.optim.steps, (long long)used.optim.batchSize,
      (long long)used.model.channels, (long long)used.noise.warmupSteps,
      (long long)used.noise.refreshEvery, (long long)used.eval.every, (long long)used.eval.samples,
      (long long)used.eval.levels,
      features.isEmpty() ? "no feature network"
                         : qPrintable(QStringLiteral("FD of %1 Heun samples in %2")
                                          .arg(used.eval.qualitySamples)
                                          .arg(QFileInfo(features).fileName())),
      (long long)used.logEvery);
  std::printf(
      "| run | torch threads | first refresh (s) | end (s) | steps done | train steps/s "
      "(median) | in training steps (s) | rest: evals, checkpoints, start (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < 3; ++i) {
    const pipeline::RunRecord& s = panel.run(i)->record();
    std::vector<double> rates;
    for (const auto& p : s.train) rates.push_back(p.stepsPerSecond);
    const double steps = s.train.empty() ? 0 : s.train.back().step;
    const double rate = median(rates);
    const double inSteps = rate > 0 ? steps / rate : 0;
    const double end = timings[i].finished;
    const bool ended = s.ended;
    std::printf(
        "| %s | %d | %s | %s | %.0f / %.0f | %.2f | %.0f | %s |\n",
        qPrintable(QFileInfo(panel.run(i)->runDirectory()).fileName().section('-', 3)), s.threads,
        timings[i].firstRefresh < 0 ? "— (static: none)"
                                    : qPrintable(QString::number(timings[i].firstRefresh, 'f', 0)),
        ended ? qPrintable(QString::number(end, 'f', 0))
              : qPrintable(QStringLiteral("not finished (%1)")
                               .arg(panel.run(i)->isRunning() ? "stopped at limit" : "failed")),
        steps, s.totalSteps, rate, inSteps,
        ended ? qPrintable(QString::number(end - inSteps, 'f', 0)) : "—");
  }
  std::printf("\nrace wall time: %.0f s; cores: %d; load average before: %s, after: %s\n", wall,
              QThread::idealThreadCount(), qPrintable(loadBefore), qPrintable(loadAfter));
  for (int i = 0; i < 3; ++i)
    if (!panel.run(i)->record().ended)
      std::fprintf(stderr, "run %d log tail:\n%s\n", i,
                   qPrintable(panel.run(i)->log().right(1500)));
  return 0;
}
