// One recipe, one file: `noisescope-cli schedule` and the Schedules panel's export write the same
// schedule (and σ-steps) JSON for the same recipe — a preset, and entropic schedules from a
// profile file in JSON and in CSV, and the panel's atomic design — apart from the provenance's
// producer and time stamp; and `compare` and the panel's table gate the informative band alike.
#include <QByteArray>
#include <QCoreApplication>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include "data/load.h"
#include "diagnostic/empirical_diagnostic.h"
#include "io/profile_io.h"
#include "pipeline/schedules/atomic_design.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "test_paths.h"
#include "ui/main_window.h"
#include "ui/profile_choice.h"
#include "ui/schedule_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;
using nlohmann::json;

namespace {

json readJson(const QString& path) {
  std::ifstream in(path.toStdString());
  return json::parse(in);
}

// The file without what legitimately differs between two runs: who wrote it and when.
json comparable(const QString& path) {
  json j = readJson(path);
  if (!j.contains("provenance")) throw std::runtime_error("no provenance in " + path.toStdString());
  j["provenance"].erase("producer");
  j["provenance"].erase("time_utc");
  return j;
}

// Runs the CLI; returns its exit code and leaves stderr in `errors`.
int cliExitCode(const QStringList& arguments, QByteArray* errors = nullptr) {
  QProcess cli;
  cli.start(QString::fromStdString(noisescope::test::cliPath()), arguments);
  if (!cli.waitForFinished(120000) || cli.exitStatus() != QProcess::NormalExit) return -1;
  if (errors) *errors = cli.readAllStandardError();
  return cli.exitCode();
}

// The mass_in_band column of the first schedule in a `compare --csv` file.
double massInBand(const QString& path) {
  std::ifstream in(path.toStdString());
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  const QStringList names = QString::fromStdString(header).split(',');
  const QStringList values = QString::fromStdString(row).split(',');
  const qsizetype column = names.indexOf("mass_in_band");
  if (column < 0 || column >= values.size()) return -1.0;
  return values[column].toDouble();
}

void runCli(const QStringList& arguments) {
  QByteArray errors;
  QVERIFY2(cliExitCode(arguments, &errors) == 0, errors.constData());
}

}  // namespace

class TestGuiCliSchedules : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
    QVERIFY(dir_.isValid());
    // A profile the diagnostic computed (so it records σ_data), in both file formats.
    const Dataset data = loadDataset("synthetic:dirac-mixture?n=16&d=2&k=4&seed=2");
    DiagnosticOptions options;
    options.levels = 24;
    options.queries = 64;
    options.device = "cpu";
    const Profile profile = computeEmpiricalProfile(data, options);
    QVERIFY(profile.sigmaData > 0.0);
    writeProfile(dir_.filePath("profile.json").toStdString(), profile);
    writeProfileCsv(dir_.filePath("profile.csv").toStdString(), profile);
  }

  void presetFilesAgree() {
    runCli({"schedule", "--preset", "edm", "--output", dir_.filePath("cli-edm.json"), "--steps",
            "18", "--steps-output", dir_.filePath("cli-edm-steps.json")});
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    panel->list()->setCurrentRow(0);  // the panel starts with the EDM preset
    QCOMPARE(panel->exportCurrent(dir_.filePath("gui-edm.json")), QString());
    QCOMPARE(panel->exportSigmaSteps(dir_.filePath("gui-edm-steps.json"), 18), QString());

    const json cli = comparable(dir_.filePath("cli-edm.json"));
    QCOMPARE(cli["provenance"]["parameters"]["recipe"].get<std::string>(), std::string("preset"));
    QCOMPARE(cli["provenance"]["parameters"]["sigma_data_source"].get<std::string>(),
             std::string("default 0.5 (no data known)"));
    QVERIFY(cli == comparable(dir_.filePath("gui-edm.json")));
    QVERIFY(comparable(dir_.filePath("cli-edm-steps.json")) ==
            comparable(dir_.filePath("gui-edm-steps.json")));
    QCOMPARE(readJson(dir_.filePath("gui-edm.json"))["provenance"]["producer"].get<std::string>(),
             std::string("noisescope workbench"));
  }

  void entropicFilesAgree_data() {
    QTest::addColumn<QString>("profileFile");
    QTest::addColumn<QString>("method");
    QTest::newRow("InfoNoise, JSON profile") << "profile.json"
                                             << "infonoise";
    QTest::newRow("InfoNoise, CSV profile") << "profile.csv"
                                            << "infonoise";
    QTest::newRow("sqrt-entropy, CSV profile") << "profile.csv"
                                               << "sqrt-entropy";
  }

  void entropicFilesAgree() {
    QFETCH(QString, profileFile);
    QFETCH(QString, method);
    const QString profile = dir_.filePath(profileFile);
    const QString tag = QString::number(QTest::currentDataTag()[0] == 'I' ? 1 : 2) + profileFile;
    const QString cliOut = dir_.filePath("cli-" + method + tag + ".json");
    const QString cliSteps = dir_.filePath("cli-steps-" + method + tag + ".json");
    QStringList arguments = {"schedule",
                             "--profile",
                             profile,
                             "--method",
                             method,
                             "--output",
                             cliOut,
                             "--steps",
                             "12",
                             "--steps-output",
                             cliSteps,
                             "--grid",
                             "entropic?increment=sqrt-rate"};
    if (method == "sqrt-entropy")
      arguments << "--sqrt-coordinate"
                << "lambda";
    runCli(arguments);

    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    QCOMPARE(panel->loadProfileFile(profile), QString());
    const std::string name = window.workbench()->profiles().back().name.toStdString();
    const int row = panel->addRecipe(
        method == "infonoise" ? pipeline::infoNoiseRecipe(name)
                              : pipeline::sqrtEntropyRecipe(schedule::Coordinate::Lambda, name));
    QVERIFY2(panel->errorAt(row).isEmpty(), qPrintable(panel->errorAt(row)));
    const QString guiOut = dir_.filePath("gui-" + method + tag + ".json");
    const QString guiSteps = dir_.filePath("gui-steps-" + method + tag + ".json");
    QCOMPARE(panel->exportCurrent(guiOut), QString());
    QCOMPARE(panel->exportSigmaSteps(guiSteps, 12, "entropic?increment=sqrt-rate"), QString());

    const json cli = comparable(cliOut);
    const json& parameters = cli["provenance"]["parameters"];
    QCOMPARE(parameters["profile"].get<std::string>(), profile.toStdString());
    QVERIFY(parameters["sigma_data_source"].get<std::string>().rfind("from profile ", 0) == 0);
    QVERIFY(cli == comparable(guiOut));
    const json steps = comparable(cliSteps);
    // The entropic grid follows the schedule's own profile in both faces.
    QVERIFY(steps["grid"].get<std::string>().rfind("entropic?increment=sqrt-rate", 0) == 0);
    QCOMPARE(steps["source"].get<std::string>(), profile.toStdString());
    QVERIFY(steps == comparable(guiSteps));
  }

  // The panel's atomic design (its quick settings) and `schedule --atomic` given the same
  // settings make one request (pipeline::atomicRequest), so they write the same file.
  void atomicDesignFilesAgree() {
    const QString dataset = "synthetic:dirac-mixture?n=8&d=2&k=4&seed=3";
    const pipeline::AtomicSettings quick = pipeline::AtomicSettings::quick();
    auto number = [](double v) { return QString::number(v, 'g', 17); };
    const QString cliOut = dir_.filePath("cli-atomic.json");
    runCli({"schedule", "--atomic", "--dataset", dataset, "--levels", number(quick.levels),
            "--features", number(quick.features), "--samples", number(quick.samples), "--gap",
            number(quick.gapTolerance), "--max-iterations", number(quick.maxIterations),
            "--merge-spacing", number(quick.mergeSpacing), "--output", cliOut});
    if (QTest::currentTestFailed()) return;  // no CLI file to compare with

    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(dataset, false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    SchedulePanel* panel = window.schedulePanel();
    QSignalSpy designed(panel, &SchedulePanel::atomicDesignFinished);
    panel->designAtomic();
    // A wait, not a speed check: under AddressSanitizer beside a build it took 62 s.
    QTRY_COMPARE_WITH_TIMEOUT(designed.count(), 1, 300000);
    panel->list()->setCurrentRow(panel->scheduleCount() - 1);
    const QString guiOut = dir_.filePath("gui-atomic.json");
    QCOMPARE(panel->exportCurrent(guiOut), QString());

    const json cli = comparable(cliOut), gui = comparable(guiOut);
    const json& parameters = cli["provenance"]["parameters"];
    QCOMPARE(parameters["recipe"].get<std::string>(), std::string("atomic"));
    QCOMPARE(parameters["settings"]["name"].get<std::string>(), std::string("quick"));
    // Both record the dataset by what it was read from, not by what either face was given.
    QCOMPARE(parameters["dataset"].get<std::string>(), loadDataset(dataset.toStdString()).source);
    QVERIFY(!cli["atoms"].empty());
    QVERIFY2(cli == gui, json::diff(cli, gui).dump(1).c_str());
  }

  // The comparison's informative band is gated by one rule (pipeline/defaults.h): the workbench
  // and `compare` give an empirical profile's band the same gate, so the same mass lies in it.
  void comparisonBandGateAgrees() {
    const QString profile = dir_.filePath("profile.json");
    const QString csv = dir_.filePath("compare.csv"), gated = dir_.filePath("compare-gated.csv");
    // log-uniform carries the uniform weight, so σ_data (the CLI's from the profile, the panel's
    // the default) does not enter its φ.
    runCli({"compare", "log-uniform", "--profile", profile, "--csv", csv});
    runCli({"compare", "log-uniform", "--profile", profile, "--gate-c", "0.15", "--csv", gated});

    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    // The Schedules tab current, as a user reading its table has it: a hidden tab defers its
    // comparison until shown (ui/hidden_redraw.h).
    window.findChild<QTabWidget*>()->setCurrentWidget(panel);
    QCOMPARE(panel->loadProfileFile(profile), QString());
    const QString name = window.workbench()->profiles().back().name;
    QCOMPARE(panel->bandProfileBox()->profileName(), name);
    const pipeline::ScheduleRecipe recipe = pipeline::presetRecipe("log-uniform");
    panel->addRecipe(recipe);
    const QTableWidget* table = panel->metricsTable();
    double gui = -1.0;
    for (int row = 0; row < table->rowCount(); ++row)
      if (table->item(row, 0)->text() == QString::fromStdString(recipe.name))
        gui = table->item(row, 6)->text().toDouble();  // "mass in band", 4 digits
    QVERIFY(gui >= 0.0);
    const double cli = massInBand(csv), cliGated = massInBand(gated);
    QVERIFY2(std::abs(gui - cli) <= 1e-3 * cli,
             qPrintable(QString("GUI %1, CLI %2").arg(gui).arg(cli)));
    // The gate matters for this profile, so the agreement above is the rule's, not chance.
    QVERIFY2(std::abs(cliGated - cli) > 1e-2 * cli,
             qPrintable(QString("gated %1, ungated %2").arg(cliGated).arg(cli)));
  }

  void cliRecordsWhereSigmaDataCameFrom() {
    const QString given = dir_.filePath("given.json"), measured = dir_.filePath("measured.json");
    runCli({"schedule", "--preset", "edm", "--sigma-data", "0.3", "--output", given});
    runCli({"schedule", "--preset", "edm", "--dataset", "synthetic:gaussian?n=64&d=2&scale=2",
            "--output", measured});
    const json g = readJson(given), m = readJson(measured);
    QCOMPARE(g["loss_weight"]["sigma_data"].get<double>(), 0.3);
    QCOMPARE(g["notes"]["sigma_data_source"].get<std::string>(), std::string("given"));
    QCOMPARE(m["notes"]["sigma_data_source"].get<std::string>(),
             std::string("measured from synthetic:gaussian?n=64&d=2&scale=2"));
    const double value = m["loss_weight"]["sigma_data"].get<double>();
    QCOMPARE(m["provenance"]["parameters"]["sigma_data"].get<double>(), value);
    QVERIFY(std::abs(value - 0.5) > 0.5);  // scale 2: not the old assumed 0.5

    // A malformed profile is refused with the file's name.
    const QString bad = dir_.filePath("descending.csv");
    std::ofstream(bad.toStdString()) << "sigma,mmse\n1,0.2\n0.5,0.1\n";
    QByteArray errors;
    QVERIFY(cliExitCode({"schedule", "--profile", bad}, &errors) != 0);
    QVERIFY2(errors.contains(bad.toUtf8()) && errors.contains("ascending"), errors.constData());
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiCliSchedules)
#include "test_gui_cli_schedules.moc"
