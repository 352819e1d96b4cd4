// The "fit a trainer's knobs" action, from both faces (issue 19): the Schedules tab's "Export
// for…" dialog and `noisescope-cli fit` both take a pipeline::FitTarget (fit_for_tool.h) of the
// same input and call pipeline::fitForTool and writeToolFit, so the knobs file the dialog saves
// is the CLI's --output file byte for byte (it carries no producer or time stamp). Checked for a
// schedule file and for a profile's InfoNoise schedule, in JSON and text, and with a non-default
// training resolution (sd-scripts' flux_shift reads it).
#include <QByteArray>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QListWidget>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include "parity_files.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "ui/export_for_dialog.h"
#include "ui/main_window.h"
#include "ui/schedule_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {

using parity::contents;
using parity::runCli;

// Picks `tool` (the first one is already picked when the dialog opens) and waits for its fit.
bool fitFor(ExportForDialog* dialog, const QString& tool) {
  auto fitted = [dialog, &tool] {
    return dialog->currentFit() && QString::fromStdString(dialog->currentFit()->tool) == tool;
  };
  QSignalSpy done(dialog, &ExportForDialog::fitFinished);
  if (dialog->toolBox()->currentText() != tool)
    dialog->toolBox()->setCurrentText(tool);
  else if (fitted())
    return true;
  return done.wait(60000) && fitted();
}

// One tool at one resolution: the file name's extension picks JSON or text in both faces.
struct Case {
  QString tool, file;
  int width, height;
};
const std::vector<Case> kCases = {{"diffusers", "diffusers.json", 1024, 1024},
                                  {"edm2", "edm2.txt", 1024, 1024},
                                  {"sd-scripts", "sd-scripts.json", 512, 768}};

}  // namespace

class TestGuiCliFit : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString profile_, schedule_;

  // Saves each case's knobs from `dialog` and compares them with `fit <cliTarget> --for TOOL`.
  void dialogSavesTheCliFile(ExportForDialog* dialog, const QString& stem,
                             const QStringList& cliTarget) {
    for (const Case& c : kCases) {
      dialog->widthBox()->setValue(c.width);
      dialog->heightBox()->setValue(c.height);
      if (dialog->toolBox()->currentText() == c.tool) {
        QSignalSpy refitted(dialog, &ExportForDialog::fitFinished);
        dialog->refit();
        QVERIFY(refitted.wait(60000));
      } else {
        QVERIFY2(fitFor(dialog, c.tool), qPrintable(c.tool));
      }
      const QString gui = dir_.filePath("gui-" + stem + "-" + c.file);
      QCOMPARE(dialog->saveKnobs(gui), QString());
      const QString cli = dir_.filePath("cli-" + stem + "-" + c.file);
      QByteArray errors;
      QVERIFY2(runCli(QStringList{"fit"} + cliTarget +
                          QStringList{"--for", c.tool, "--resolution",
                                      QStringLiteral("%1x%2").arg(c.width).arg(c.height),
                                      "--output", cli},
                      errors),
               errors.constData());
      const QByteArray fromGui = contents(gui), fromCli = contents(cli);
      QVERIFY2(!fromGui.isEmpty(), qPrintable(gui));
      QVERIFY2(fromGui == fromCli, qPrintable(gui + " differs from " + cli));
    }
  }

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
    QVERIFY(dir_.isValid());
    // The inputs, written by the CLI: a small profile and a schedule file with its own grid.
    profile_ = dir_.filePath("P.json");
    schedule_ = dir_.filePath("S.json");
    QByteArray errors;
    QVERIFY2(runCli({"diagnose", "synthetic:gaussian?n=300&d=4&seed=1", "--levels", "8",
                     "--queries", "32", "--device", "cpu", "--out", profile_},
                    errors),
             errors.constData());
    QVERIFY2(runCli({"schedule", "--preset", "sd3", "--bins", "96", "-o", schedule_}, errors),
             errors.constData());
  }

  void scheduleFile() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    QCOMPARE(panel->loadScheduleFile(schedule_), QString());
    ExportForDialog* dialog = panel->openExportFor();
    QVERIFY(dialog);
    dialogSavesTheCliFile(dialog, "schedule", {schedule_});
    dialog->close();
  }

  void profileInfoNoise() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    QCOMPARE(panel->loadProfileFile(profile_), QString());
    const QString name = window.workbench()->profiles().back().name;
    panel->addRecipe(pipeline::infoNoiseRecipe(name.toStdString()));
    QCOMPARE(panel->errorAt(panel->list()->currentRow()), QString());
    ExportForDialog* dialog = panel->openExportFor();
    QVERIFY(dialog);
    dialogSavesTheCliFile(dialog, "profile", {"--profile", profile_, "--method", "infonoise"});
    dialog->close();
  }
};

QTEST_MAIN(TestGuiCliFit)
#include "test_gui_cli_fit.moc"
