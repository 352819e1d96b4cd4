// The Diagnostic action, from both faces (issue 19): the Diagnostic tab and `noisescope-cli
// diagnose` fill one pipeline::DiagnoseRequest and call pipeline::runDiagnosis, so for the same
// settings they write the same profile files — the empirical profile, every curve of the bracket,
// a TorchScript checkpoint's profile (scored on the same seeded held-out share) and a training
// run's (on the run's own held-out data) — apart from who wrote them, when, and how long it took.
#include <QByteArray>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <functional>

#include "io/profile_io.h"
#include "parity_files.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;
using nlohmann::json;

namespace {

using parity::runCli;
using parity::scrub;

const char* const kData = "synthetic:gaussian?n=300&d=4&seed=1";

json comparable(const std::string& path) {
  std::ifstream in(path);
  json j = json::parse(in);
  scrub(j);
  return j;
}

// Not the defaults, so that every setting is seen to travel (the seed reaches the query draw, the
// held-out split and the spectrum's random fit).
const QStringList kGrid = {"--levels", "6", "--queries", "24", "--seed", "3", "--device", "cpu"};

}  // namespace

class TestGuiCliDiagnose : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  QString run_;  // a short training run of the CLI (its exports are the checkpoints)

  DiagnosticPanel* panel() const { return window_->diagnosticPanel(); }

  // Waits for the panel's job and writes the profiles it added, newest last, under `stem`.
  std::vector<std::string> finishedProfiles(QSignalSpy& finished, size_t count,
                                            const QString& stem) {
    if (finished.isEmpty() && !finished.wait(240000)) return {};
    const auto& all = window_->workbench()->profiles();
    std::vector<std::string> paths;
    for (size_t i = all.size() - count; i < all.size(); ++i) {
      const std::string path =
          dir_.filePath(QStringLiteral("%1-%2.json").arg(stem).arg(i)).toStdString();
      writeProfile(path, *all[i].profile);
      paths.push_back(path);
    }
    return paths;
  }

  // Equal, or the failure names the differences (a JSON patch from the GUI's file to the CLI's).
  void compareFiles(const std::string& gui, const std::string& cli) {
    const json a = comparable(gui), b = comparable(cli);
    QVERIFY2(a == b, qPrintable(QString::fromStdString(gui + " vs " + cli + ": " +
                                                       json::diff(a, b).dump(1).substr(0, 4000))));
  }

  // Starts one of the panel's single-profile jobs, runs `diagnose` with `cliArguments` (plus the
  // grid and --out), and compares the two files; `guiFile` is the panel's, for further checks.
  void oneProfileMatchesCli(const std::function<void()>& start, const QString& stem,
                            const QStringList& cliArguments, std::string& guiFile) {
    QSignalSpy finished(panel(), &DiagnosticPanel::diagnosticFinished);
    start();
    const std::vector<std::string> gui = finishedProfiles(finished, 1, "gui-" + stem);
    QCOMPARE(gui.size(), size_t{1});
    const QString cli = dir_.filePath("cli-" + stem + ".json");
    QByteArray errors;
    QVERIFY2(
        runCli(QStringList{"diagnose", kData} + cliArguments + QStringList{"--out", cli} + kGrid,
               errors),
        errors.constData());
    compareFiles(gui[0], cli.toStdString());
    guiFile = gui[0];
  }

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
    QVERIFY(dir_.isValid());
    window_ = std::make_unique<MainWindow>();
    QSignalSpy loaded(window_.get(), &MainWindow::datasetLoaded);
    window_->openPath(QString::fromLatin1(kData), false);
    QVERIFY(loaded.count() == 1 || loaded.wait(60000));
    panel()->levelsSpin()->setValue(6);
    panel()->queriesSpin()->setValue(24);
    panel()->deviceBox()->setCurrentText(QStringLiteral("cpu"));
    panel()->seedSpin()->setValue(3);

    const QString config = dir_.filePath("train.json");
    run_ = dir_.filePath("run");
    const json settings = {{"dataset", {{"path", kData}}},
                           {"optim", {{"steps", 10}, {"batch_size", 32}, {"device", "cpu"}}},
                           {"checkpoint", {{"every", 10}}},
                           {"eval", {{"every", 10}}}};
    std::ofstream(config.toStdString()) << settings.dump();
    QByteArray errors;
    QVERIFY2(runCli({"train", "--config", config, "--out", run_}, errors), errors.constData());
  }

  void empiricalProfile() {
    std::string gui;
    oneProfileMatchesCli([this] { panel()->runDiagnostic(); }, "empirical", {}, gui);
  }

  void everyCurveOfTheBracket() {
    QSignalSpy finished(panel(), &DiagnosticPanel::diagnosticFinished);
    panel()->runBracket();
    const std::vector<std::string> gui = finishedProfiles(finished, 4, "gui-bracket");
    QCOMPARE(gui.size(), size_t{4});  // empirical, held-out, held-out-wiener, bound
    const QString cli = dir_.filePath("cli.json");
    QByteArray errors;
    QVERIFY2(
        runCli(QStringList{"diagnose", kData, "--kind", "bracket", "--out", cli} + kGrid, errors),
        errors.constData());
    for (const char* kind : {"empirical", "held-out", "held-out-wiener", "bound"}) {
      const std::string cliFile =
          dir_.filePath(QStringLiteral("cli.%1.json").arg(kind)).toStdString();
      const auto match = std::find_if(gui.begin(), gui.end(), [&](const std::string& path) {
        return readProfile(path).kind == kind;
      });
      QVERIFY2(match != gui.end(), kind);
      compareFiles(*match, cliFile);
    }
  }

  void checkpointFileOnTheSameHeldOutShare() {
    const QStringList exports =
        QDir(run_ + "/checkpoints").entryList({QStringLiteral("*.denoiser.pt")}, QDir::Files);
    QCOMPARE(exports.size(), 1);
    const QString model = run_ + "/checkpoints/" + exports.front();
    std::string gui;
    oneProfileMatchesCli([this, model] { panel()->runCheckpoint(model); }, "checkpoint",
                         {"--checkpoint", model}, gui);
    if (QTest::currentTestFailed()) return;
    const Profile profile = readProfile(gui);
    QVERIFY(profile.provenance["parameters"]["evaluation_set"].get<std::string>().find(
                "held-out part: a seeded random") == 0);
  }

  void runDirectoryOnItsOwnHeldOutData() {
    std::string gui;
    oneProfileMatchesCli([this] { panel()->runRunCheckpoint(run_); }, "run", {"--checkpoint", run_},
                         gui);
    if (QTest::currentTestFailed()) return;
    const Profile profile = readProfile(gui);
    QVERIFY(profile.provenance["parameters"]["evaluation_set"].get<std::string>().find(
                "the run's held-out data") == 0);
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestGuiCliDiagnose)
#include "test_gui_cli_diagnose.moc"
