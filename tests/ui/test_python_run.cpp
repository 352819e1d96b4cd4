// The Training panel follows a run written by the Python package (integrations/python): the run
// directory of examples/train_tiny.py (written by the ctest test_python_train_tiny, the fixture
// python_run) is read line for line like a C++ run, its schedule events are charted, and a run
// that is still being written is followed live.
#include <QCoreApplication>
#include <QFileInfo>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include "test_paths.h"
#include "ui/curve_chart.h"
#include "ui/run_monitor.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope::ui;

namespace {
const QString kExample = QString::fromStdString(
    noisescope::test::sourcePath("integrations/python/examples/train_tiny.py"));
const QString kFixture =
    QString::fromStdString(noisescope::test::buildPath("tests/fixtures/python-run"));
}  // namespace

class TestPythonRun : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void finishedRunIsCharted() {
    QVERIFY2(QFileInfo::exists(kFixture + "/events.jsonl"),
             "run the fixture test test_python_train_tiny first");
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.followRun(kFixture);
    QCOMPARE(panel.runCount(), 1);
    RunMonitor* run = panel.run(0);
    QTRY_VERIFY_WITH_TIMEOUT(run->record().ended, 10000);
    const noisescope::pipeline::RunRecord& s = run->record();
    QCOMPARE(s.malformedLines, 0);  // every line the package wrote passes the C++ reader
    QVERIFY(s.started);
    QCOMPARE(s.totalSteps, 300.0);
    QCOMPARE(s.sampler, std::string("infonoise"));
    // 300 steps, warm-up 100, a refresh every 50: the warm-up π and refreshes at 100 … 300.
    QCOMPARE(s.schedules.size(), size_t(6));
    QCOMPARE(s.schedules.front().refresh, 0);
    QVERIFY(s.schedules.front().mhat.empty());
    QCOMPARE(s.schedules.back().refresh, 5);
    QCOMPARE(s.schedules.back().step, 300.0);
    QCOMPARE(s.schedules.back().mhat.size(), size_t(48));
    QCOMPARE(s.train.size(), size_t(12));  // a loss every 25 steps

    // The schedule chart shows the history, the latest π last, as a density per unit log σ.
    const auto& curves = panel.scheduleChart()->curves();
    QVERIFY(curves.size() >= 2);
    QCOMPARE(curves.back().y, s.schedules.back().density);
    const double width = std::log(curves.back().x[1] / curves.back().x[0]);
    double mass = 0;
    for (double d : curves.back().y) mass += d * width;
    QVERIFY2(std::abs(mass - 1.0) < 1e-9, qPrintable(QString::number(mass)));
    // m̂ of the latest refresh on the error chart, the loss on the loss chart.
    QVERIFY(!panel.errorChart()->curves().empty());
    QCOMPARE(panel.errorChart()->curves()[0].y, s.schedules.back().mhat);
    QCOMPARE(panel.lossChart()->curves()[0].x.size(), size_t(12));
  }

  void runBeingWrittenIsFollowedLive() {
    QTemporaryDir scratch;
    const QString dir = scratch.filePath("live");
    Workbench workbench;
    TrainingPanel panel(&workbench);
    panel.followRun(dir);  // before the run exists: the reader waits for the file
    RunMonitor* run = panel.run(0);
    bool seenLive = false;  // refreshed schedules charted while the run had not ended
    connect(run, &RunMonitor::updated, this, [&] {
      if (run->record().schedules.size() >= 2 && !run->record().ended &&
          panel.scheduleChart()->curves().size() >= 2)
        seenLive = true;
    });
    QProcess python;
    python.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    python.start("/usr/bin/python3", {kExample, "--steps", "800", "--warmup", "100", "--refresh",
                                      "50", "--batch", "128", "--out", dir});
    QVERIFY(python.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(python.state() == QProcess::NotRunning, 120000);
    QCOMPARE(python.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(run->record().ended, 10000);
    QVERIFY2(seenLive, "no refreshed schedule was charted before the run ended");
    QCOMPARE(run->record().schedules.size(), size_t(1 + 15));
    QCOMPARE(run->record().malformedLines, 0);
  }
};

QTEST_MAIN(TestPythonRun)
#include "test_python_run.moc"
