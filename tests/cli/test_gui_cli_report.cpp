// The report action, from both faces (issue 19): the workbench's File → Write report folder… and
// `noisescope-cli report` build their request with pipeline::reportRequest and run
// pipeline::writeReport, so on the bundled Fashion-MNIST sample they write the same folder, file
// for file, apart from who wrote it, when, and how long it took. Both at the report's defaults
// (48 levels × 128 queries: a few seconds each on the 500-image sample).
#include <QByteArray>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include "parity_files.h"
#include "test_paths.h"
#include "ui/main_window.h"

using namespace noisescope;
using namespace noisescope::ui;
using nlohmann::json;

namespace {

using parity::contents;
using parity::scrub;

const QString kSample = QString::fromStdString(
    noisescope::test::sourcePath("sample_data/fashion-mnist/t10k-images-idx3-ubyte.gz"));

// The README names its producer and the time in one sentence.
QString withoutMaker(const QByteArray& readme) {
  return QString::fromUtf8(readme).replace(
      QRegularExpression(QStringLiteral("Made by `[^`]*`, NoiseScope [^,]*, [^\\n]*\\.")),
      QStringLiteral("Made by …."));
}

}  // namespace

class TestGuiCliReport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void reportFolderIsTheCli() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(kSample, false);
    QVERIFY(loaded.count() == 1 || loaded.wait(60000));

    const QString gui = dir.filePath("gui");
    QSignalSpy written(&window, &MainWindow::reportWritten);
    QSignalSpy failed(&window, &MainWindow::reportFailed);
    window.writeReportFolder(gui);
    QTRY_VERIFY_WITH_TIMEOUT(!written.isEmpty() || !failed.isEmpty(), 240000);
    if (!failed.isEmpty()) QFAIL(qPrintable(failed[0][0].toString()));

    const QString cli = dir.filePath("cli");
    QProcess process;
    process.start(QString::fromStdString(noisescope::test::cliPath()),
                  {"report", kSample, "--out", cli});
    QVERIFY(process.waitForFinished(240000));
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             process.readAllStandardError().constData());

    const QStringList files = QDir(gui).entryList(QDir::Files, QDir::Name);
    QCOMPARE(files, QDir(cli).entryList(QDir::Files, QDir::Name));
    QVERIFY(files.contains("summary.json") && files.contains("README.md"));
    for (const QString& name : files) {
      const QByteArray a = contents(gui + "/" + name), b = contents(cli + "/" + name);
      QVERIFY2(!a.isEmpty(), qPrintable(name));
      if (name.endsWith(".json")) {
        json ja = json::parse(a.toStdString()), jb = json::parse(b.toStdString());
        scrub(ja);
        scrub(jb);
        QVERIFY2(ja == jb,
                 qPrintable(name + ": " +
                            QString::fromStdString(json::diff(ja, jb).dump(1).substr(0, 3000))));
      } else if (name == "README.md") {
        QCOMPARE(withoutMaker(a), withoutMaker(b));
      } else {
        // CSV tables, PNG and SVG charts: no producer or time in them, so byte for byte.
        QVERIFY2(a == b, qPrintable(name + " differs"));
      }
    }
  }
};

QTEST_MAIN(TestGuiCliReport)
#include "test_gui_cli_report.moc"
