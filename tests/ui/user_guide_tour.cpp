// The user guide's screenshots: the main job walked through in the real workbench on the bundled
// Fashion-MNIST sample (open and look across σ, bracket, schedules from the bound beside EDM,
// Export for…, train with the InfoNoise schedule, the quick-look schedule race, the quick-look
// sampling race of its InfoNoise run on the bracket's grids), each step checked before its window
// is saved. Run by tests/ui/user_guide_tour.sh; not a ctest suite (the steps are tested one by one
// in test_dataset_explorer, test_diagnostic_bracket, test_schedule_panel, test_export_for_dialog,
// test_training_panel and test_sampling_panel). The runs go to a temporary folder.
//   user_guide_tour SAMPLE_DIR OUT_DIR [WIDTHxHEIGHT]
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtCharts/QChart>
#include <QtCharts/QLogValueAxis>

#include <cstdio>
#include <functional>
#include <stdexcept>

#include "pipeline/schedules/schedule_recipe.h"
#include "ui/curve_chart.h"
#include "ui/dataset_panel.h"
#include "ui/diagnostic_panel.h"
#include "ui/export_for_dialog.h"
#include "ui/main_window.h"
#include "ui/run_monitor.h"
#include "ui/sampling_panel.h"
#include "ui/schedule_panel.h"
#include "ui/sigma_control.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {

void require(bool condition, const char* what) {
  if (!condition) throw std::runtime_error(what);
}

// Runs the event loop until `done` holds (a background job finished), or fails after `seconds`.
void waitFor(const std::function<bool()>& done, int seconds, const char* what) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    require(clock.elapsed() < seconds * 1000LL, what);
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  for (int i = 0; i < 10; ++i) QApplication::processEvents();  // let layouts and charts settle
}

// Saves the widget as the user sees it, after half a second of events (charts lay out late), and
// fails when a chart in it elides any text.
void requireNoElidedChartText(QWidget* window);

void save(QWidget* widget, const QDir& out, const QString& name) {
  QElapsedTimer settle;
  settle.start();
  while (settle.elapsed() < 500) QApplication::processEvents(QEventLoop::AllEvents, 20);
  const QString path = out.filePath(name + ".png");
  require(widget->grab().save(path), "a screenshot could not be written");
  std::printf("%s\n", qPrintable(path));
  requireNoElidedChartText(widget);  // after the picture, which shows what was elided
}

// A log-y chart shows no linear axis's labels: axes replaced before a chart's first layout used
// to stay drawn in its corner (a small 0 … 1 chart over the Training tab's loss chart).
void requireNoStrayAxis(QWidget* panel) {
  for (CurveChart* chart : panel->findChildren<CurveChart*>()) {
    const auto vertical = chart->chart()->axes(Qt::Vertical);
    if (vertical.size() != 1 || !qobject_cast<QLogValueAxis*>(vertical.front())) continue;
    for (QGraphicsItem* item : chart->scene()->items())
      if (auto* text = dynamic_cast<QGraphicsTextItem*>(item))
        require(!(text->isVisible() && text->toPlainText() == "0.8"),
                "a chart shows a stray linear axis in its corner");
  }
}

// No chart label, title or legend entry elided to "...": Qt Charts cuts what its height leaves no
// room for (the race chart's step labels at 1366×768 once did).
void requireNoElidedChartText(QWidget* window) {
  for (CurveChart* chart : window->findChildren<CurveChart*>()) {
    if (!chart->isVisible()) continue;
    for (QGraphicsItem* item : chart->scene()->items()) {
      if (!item->isVisible()) continue;
      QString text;
      if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) text = rich->toPlainText();
      if (auto* plain = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = plain->text();
      if (text.contains(QStringLiteral("...")))
        throw std::runtime_error(
            qPrintable("a chart elides '" + text + "' (" + chart->chart()->title() + ")"));
    }
  }
}

QPushButton* buttonNamed(QWidget* parent, const QString& text) {
  for (QPushButton* b : parent->findChildren<QPushButton*>())
    if (b->text().remove('&') == text) return b;
  return nullptr;
}

void tour(const QString& sampleDir, const QDir& out, QSize size) {
  MainWindow window;
  window.resize(size);
  window.show();
  Workbench* workbench = window.workbench();

  // 1. Open the sample and look at it at σ = 1, signal-scaled.
  window.openPath(sampleDir + "/train-images-idx3-ubyte.gz", false);
  waitFor([&] { return workbench->dataset() != nullptr; }, 60, "the sample did not load");
  waitFor([&] { return workbench->statistics().count == 2000; }, 120,
          "the sample's statistics were not computed");
  require(workbench->dataset()->size() == 2000, "the sample is not the bundled 2 000 images");
  DatasetPanel* dataset = window.datasetPanel();
  dataset->sigmaControl()->setSigma(1.0);
  dataset->signalScaledBox()->setChecked(true);
  save(&window, out, "01-dataset");

  // 2. The bracket: the empirical profile and the population bound from held-out points.
  DiagnosticPanel* diagnostic = window.diagnosticPanel();
  window.tabs()->setCurrentWidget(diagnostic);
  diagnostic->levelsSpin()->setValue(24);
  diagnostic->queriesSpin()->setValue(48);
  bool finished = false;
  QObject::connect(diagnostic, &DiagnosticPanel::diagnosticFinished, [&] { finished = true; });
  diagnostic->bracketButton()->click();
  waitFor([&] { return finished; }, 900, "the bracket did not finish");
  require(workbench->profiles().size() == 5, "the bracket did not give five profiles");
  const std::string bound = workbench->profiles().back().name.toStdString();
  require(workbench->profiles().back().profile->kind == "bound",
          "the last profile is not the bound");
  save(&window, out, "02-diagnostic");

  // 3. InfoNoise and √-entropy from the bound, beside the presets, compared on φ.
  SchedulePanel* schedules = window.schedulePanel();
  window.tabs()->setCurrentWidget(schedules);
  const int infoNoise = schedules->addRecipe(pipeline::infoNoiseRecipe(bound));
  schedules->addRecipe(pipeline::sqrtEntropyRecipe(schedule::Coordinate::LogSigma, bound));
  require(schedules->scheduleCount() >= 4, "the Schedules tab lacks its schedules");
  require(schedules->errorAt(infoNoise).isEmpty(), "the InfoNoise schedule did not build");
  schedules->list()->setCurrentRow(infoNoise);
  save(&window, out, "03-schedules");

  // 4. Export for…: the InfoNoise φ in a trainer's own knobs.
  ExportForDialog* exportFor = schedules->openExportFor();
  require(exportFor != nullptr, "Export for… did not open");
  waitFor([&] { return exportFor->isVisible() && exportFor->currentFit() != nullptr; }, 120,
          "Export for… did not fit the schedule");
  save(exportFor, out, "04-export-for");
  exportFor->close();

  // 5. Train with it: the Training tab offered the Schedules tab's InfoNoise schedule.
  QPushButton* trainWith = buttonNamed(schedules, "Train with it");
  require(trainWith && trainWith->isEnabled(), "Train with it is not offered");
  trainWith->click();
  TrainingPanel* training = window.trainingPanel();
  waitFor([&] { return window.tabs()->currentWidget() == training; }, 10,
          "Train with it did not open the Training tab");
  require(training->scheduleBox()->currentText().contains("Schedules tab"),
          "the Training tab did not choose the schedule");
  requireNoStrayAxis(training);
  save(&window, out, "05-training");

  // 6. The quick-look schedule race: the static EDM baseline beside InfoNoise and √-entropy online,
  // ranked by FD in the sample's feature network, with the noisescope-cli built beside this tour.
  QTemporaryDir runs;
  require(runs.isValid(), "no temporary folder for the runs");
  training->setRunsFolder(runs.path());
  training->setCliPath(
      QDir(QApplication::applicationDirPath()).filePath("../../app/noisescope-cli"));
  const int edm = training->scheduleBox()->findData(QStringLiteral("edm"));
  require(edm >= 0, "the Training tab lacks the EDM preset");
  training->scheduleBox()->setCurrentIndex(edm);
  // The sample's feature network, found beside it, loads only once the user chooses it.
  require(training->featureNetworkUseButton()->isEnabled(), "no feature network beside the sample");
  training->featureNetworkUseButton()->click();
  require(!training->featureNetworkEdit()->text().isEmpty(), "the feature network was not chosen");
  training->startQuickLookRace();
  require(training->runCount() == 3, "the quick-look race did not start three runs");
  waitFor([&] { return training->runningCount() == 0; }, 1200, "the quick-look race did not end");
  QString infoNoiseRun;
  for (int i = 0; i < training->runCount(); ++i) {
    const pipeline::RunRecord& record = training->run(i)->record();
    require(
        record.ended && record.error.empty(),
        qPrintable("a run of the quick-look race failed: " + QString::fromStdString(record.error)));
    if (training->run(i)->runDirectory().endsWith("-infonoise"))
      infoNoiseRun = training->run(i)->runDirectory();
  }
  require(!infoNoiseRun.isEmpty(), "the race has no InfoNoise run");
  waitFor([&] { return !training->qualityChart()->chart()->series().isEmpty(); }, 60,
          "the race chart shows no quality");
  requireNoStrayAxis(training);
  save(&window, out, "06-training-race");

  // 7. The Sampling tab on the InfoNoise run with the session's bracket: a quick look at the
  // grids (Karras ρ = 7, log σ and auto) drawn on the race chart's log axis.
  SamplingPanel* sampling = window.samplingPanel();
  window.tabs()->setCurrentWidget(sampling);
  require(sampling->sessionProfileBox()->count() > 1, "the Sampling tab lists no profile");
  sampling->setModel(infoNoiseRun);
  sampling->chooseSessionProfile(QString::fromStdString(bound));
  require(!sampling->profilePath().isEmpty(), "the bracket was not written for the Sampling tab");
  bool raced = false, succeeded = false;
  QObject::connect(sampling, &SamplingPanel::raceFinished, [&](bool ok) {
    raced = true;
    succeeded = ok;
  });
  sampling->startQuickLook();
  waitFor([&] { return raced; }, 900, "the quick look did not finish");
  require(succeeded, qPrintable("the quick look failed: " + sampling->statusText()));
  require(sampling->result() && !sampling->result()->cells.empty(), "the quick look has no cell");
  require(sampling->raceShown(), "the race page is not shown after the race");
  requireNoStrayAxis(sampling);
  save(&window, out, "07-sampling");
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("NoiseScopeTour");  // leaves the user's settings alone
  if (argc < 3) {
    std::fprintf(stderr, "usage: user_guide_tour SAMPLE_DIR OUT_DIR [WIDTHxHEIGHT]\n");
    return 2;
  }
  QSize size(1600, 1000);
  if (argc > 3) {
    const QStringList parts = QString(argv[3]).split('x');
    if (parts.size() != 2 || parts[0].toInt() < 640 || parts[1].toInt() < 480) {
      std::fprintf(stderr, "user_guide_tour: size '%s' is not WIDTHxHEIGHT (at least 640x480)\n",
                   argv[3]);
      return 2;
    }
    size = QSize(parts[0].toInt(), parts[1].toInt());
  }
  const QDir out(QString::fromLocal8Bit(argv[2]));
  if (!QDir().mkpath(out.path())) {
    std::fprintf(stderr, "user_guide_tour: cannot create %s\n", argv[2]);
    return 2;
  }
  try {
    tour(QString::fromLocal8Bit(argv[1]), out, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "user_guide_tour: %s\n", e.what());
    return 1;
  }
  return 0;
}
