// The "open a dataset" action, from both faces: the workbench's statistics of a loaded file (what
// its Statistics box and status bar show) and `noisescope-cli info --json` of the same file are
// one description, field for field, since both ask pipeline::datasetStatistics (issue 19).
#include <QCoreApplication>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

#include "pipeline/dataset/dataset_info.h"
#include "test_paths.h"
#include "ui/main_window.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;
using nlohmann::json;

class TestGuiCliDatasetInfo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void guiStatisticsAreTheCliInfo_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("Fashion-MNIST sample") << QString::fromStdString(
        noisescope::test::sourcePath("sample_data/fashion-mnist/train-images-idx3-ubyte.gz"));
    QTest::newRow("λ-phage DNA") << QString::fromStdString(
        noisescope::test::sourcePath("sample_data/dna/lambda_phage.fa"));
    QTest::newRow("two moons") << QStringLiteral("synthetic:two-moons?n=2000&seed=1");
  }

  void guiStatisticsAreTheCliInfo() {
    QFETCH(QString, path);
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(path, false);
    QVERIFY(loaded.count() == 1 || loaded.wait(60000));
    Workbench* workbench = window.workbench();
    QTRY_VERIFY_WITH_TIMEOUT(workbench->hasStatistics(), 60000);
    const json gui = pipeline::datasetInfoJson(*workbench->dataset(), workbench->statistics());

    QProcess cli;
    cli.start(QString::fromStdString(noisescope::test::cliPath()),
              {QStringLiteral("info"), path, "--json"});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0,
             cli.readAllStandardError().constData());
    const json fromCli = json::parse(cli.readAllStandardOutput().toStdString());

    QVERIFY(gui.contains("nearest_neighbour_median"));  // the defaults' estimate is in both
    QCOMPARE(QString::fromStdString(gui.dump(1)), QString::fromStdString(fromCli.dump(1)));
  }
};

QTEST_MAIN(TestGuiCliDatasetInfo)
#include "test_gui_cli_dataset_info.moc"
