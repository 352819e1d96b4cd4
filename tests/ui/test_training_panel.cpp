// The Training panel starts a real `noisescope-cli train` child process, and its events stream
// into the charts: loss, the live schedule π and its refreshes, held-out quality. Stopping the
// child leaves the workbench running; a bad setting is refused before anything starts.
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "screenshot.h"
#include "ui/curve_chart.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/run_monitor.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope::ui;

class TestTrainingPanel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
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
    panel->setCliPath(NOISESCOPE_BINARY_DIR "/app/noisescope-cli");
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
    QTRY_VERIFY_WITH_TIMEOUT(run->state().ended, 240000);
    QTRY_VERIFY_WITH_TIMEOUT(!run->isRunning(), 10000);
    QVERIFY2(run->state().train.size() >= 2, qPrintable(run->log()));
    QVERIFY(run->state().schedules.size() >= 3);  // initial + refreshes after warm-up
    QVERIFY(!run->state().evals.empty());
    QCOMPARE(panel->lossChart()->curves().size(), size_t(1));
    QVERIFY(panel->lossChart()->curves()[0].x.size() >= 2);
    QVERIFY(panel->scheduleChart()->curves().size() >= 2);  // history, not one snapshot
    QVERIFY(!panel->qualityChart()->curves()[0].y.empty());
    QVERIFY(panel->qualityChart()->yTitle().contains("held-out"));
    saveScreenshot(&window, "training-panel");

    // Following the finished run from its folder reads the same events.
    panel->followRun(dir);
    QCOMPARE(panel->run(1)->state().train.size(), run->state().train.size());

    // From the run to a checkpoint profile in one step: its newest export on its held-out data,
    // listed with the workbench's profiles (so the Diagnostic and Schedules tabs both have it).
    const size_t before = window.workbench()->profiles().size();
    window.diagnosticPanel()->levelsSpin()->setValue(6);
    panel->findChild<QListWidget*>()->setCurrentRow(0);
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
    panel.setCliPath(NOISESCOPE_BINARY_DIR "/app/noisescope-cli");
    panel.setRunsFolder(runs.path());
    panel.datasetEdit()->setText("synthetic:circle?n=500");
    panel.stepsSpin()->setValue(1000000);
    QVERIFY(!panel.startRun().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(panel.run(0)->state().started, 60000);
    panel.stopSelected();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.run(0)->isRunning(), 10000);
    QVERIFY(!panel.run(0)->state().ended);  // stopped, not finished
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
