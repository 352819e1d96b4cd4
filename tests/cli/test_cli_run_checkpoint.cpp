// `diagnose DATA --checkpoint RUN_DIR` scores the run's newest export on the run's own held-out
// data, through the same pipeline call as the workbench's Diagnostic tab (pipeline::runDiagnosis;
// test_gui_cli_diagnose drives the tab itself): the same evaluation set, named the same, and the
// same numbers. This one runs without the GUI.
#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "io/profile_io.h"
#include "pipeline/diagnose/diagnose_job.h"
#include "pipeline/diagnose/run_profile.h"
#include "test_paths.h"

using namespace noisescope;

namespace {

const char* const kData = "synthetic:gaussian?n=256&d=4&seed=1";

// Runs the CLI; true when it exits 0 (its stderr is left in `errors`).
bool runCli(const QStringList& arguments, QByteArray& errors) {
  QProcess cli;
  cli.start(QString::fromStdString(noisescope::test::cliPath()), arguments);
  if (!cli.waitForFinished(240000) || cli.exitStatus() != QProcess::NormalExit) return false;
  errors = cli.readAllStandardError();
  return cli.exitCode() == 0;
}

}  // namespace

class TestCliRunCheckpoint : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void cliScoresOnTheRunsHeldOutDataLikeThePipeline() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath("train.json"), run = dir.filePath("run");
    const nlohmann::json settings = {
        {"dataset", {{"path", kData}}},
        {"optim", {{"steps", 10}, {"batch_size", 32}, {"device", "cpu"}}},
        {"checkpoint", {{"every", 10}}},
        {"eval", {{"every", 10}}}};
    std::ofstream(config.toStdString()) << settings.dump();
    QByteArray errors;
    QVERIFY2(runCli({"train", "--config", config, "--out", run}, errors), errors.constData());

    // DATA is the whole training file: a fresh split of it would be other rows than the run's.
    const QString out = dir.filePath("cli.json");
    QVERIFY2(runCli({"diagnose", kData, "--checkpoint", run, "--levels", "6", "--queries", "24",
                     "--seed", "5", "--device", "cpu", "--out", out},
                    errors),
             errors.constData());
    const Profile cli = readProfile(out.toStdString());

    pipeline::DiagnoseRequest request;
    request.kind = "checkpoint";
    request.checkpoint = run.toStdString();
    request.options.levels = 6;
    request.options.queries = 24;
    request.options.seed = 5;
    request.options.device = "cpu";
    const Profile gui = pipeline::runDiagnosis(Dataset{}, "", request).profiles.front();
    const pipeline::RunHeldOutSet held = pipeline::runHeldOutSet(run.toStdString());

    QCOMPARE(cli.datasetSize, held.data.size());
    QCOMPARE(cli.provenance["parameters"]["evaluation_set"].get<std::string>(), held.description);
    QCOMPARE(gui.provenance["parameters"]["evaluation_set"].get<std::string>(), held.description);
    QVERIFY(held.description.find("the run's held-out data") == 0);
    QCOMPARE(cli.primary().mean.size(), gui.primary().mean.size());
    for (size_t l = 0; l < gui.primary().mean.size(); ++l)
      QCOMPARE(cli.primary().mean[l], gui.primary().mean[l]);
  }
};

QTEST_GUILESS_MAIN(TestCliRunCheckpoint)
#include "test_cli_run_checkpoint.moc"
