// "Export for…" on the Schedules tab: the selected schedule's φ fitted with a trainer's own
// families through pipeline::fitForTool (the CLI's `fit` answers the same), the fitted family
// drawn over the target in the tool's coordinate, the snippet copied and the knobs saved.
#include <QtCharts/QChart>

#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QGuiApplication>
#include <QIODevice>
#include <QLabel>
#include <QListWidget>
#include <QObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

#include "data/formats/latent_spaces.h"
#include "pipeline/schedules/fit_for_tool.h"
#include "schedule/families.h"
#include "screenshot.h"
#include "ui/curve_chart.h"
#include "ui/export_for_dialog.h"
#include "ui/main_window.h"
#include "ui/schedule_panel.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {
// Picks `tool` and waits for its fit.
bool chooseTool(ExportForDialog* dialog, const QString& tool) {
  QSignalSpy done(dialog, &ExportForDialog::fitFinished);
  dialog->toolBox()->setCurrentText(tool);
  return done.wait(60000) && dialog->currentFit() &&
         QString::fromStdString(dialog->currentFit()->tool) == tool;
}
// Picks the model family `model` of the chosen tool and waits for its fit.
bool chooseModel(ExportForDialog* dialog, const QString& model) {
  QSignalSpy done(dialog, &ExportForDialog::fitFinished);
  dialog->modelBox()->setCurrentText(model);
  return done.wait(60000) && dialog->currentFit() &&
         QString::fromStdString(dialog->currentFit()->model) == model;
}
}  // namespace

class TestExportForDialog : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void edmPresetRecoveredDrawnCopiedAndSaved() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    panel->list()->setCurrentRow(0);  // the EDM preset: log-normal (−1.2, 1.2) under EDM's weight
    ExportForDialog* dialog = panel->openExportFor();
    QVERIFY(dialog);
    QCOMPARE(dialog->toolBox()->count(), 9);
    QVERIFY(chooseTool(dialog, "edm"));

    const io::ToolFit& fit = *dialog->currentFit();
    QCOMPARE(dialog->familyTable()->rowCount(), 1);
    QCOMPARE(dialog->familyTable()->item(0, 0)->text(), QString("lognormal"));
    QVERIFY(std::abs(fit.fits[0].parameters[0].second + 1.2) < 0.02);
    QVERIFY(std::abs(fit.fits[0].parameters[1].second - 1.2) < 0.02);
    QVERIFY(fit.fits[0].tv < 0.01);

    // Target and fit, in the tool's coordinate (σ on a log axis), on top of each other.
    const auto& curves = dialog->chart()->curves();
    QCOMPARE(curves.size(), std::size_t(2));
    QVERIFY(dialog->chart()->logX());
    QVERIFY(dialog->chart()->xTitle().contains("σ"));
    QCOMPARE(curves[0].x.size(), curves[1].x.size());
    double peak = 0.0, gap = 0.0;
    for (std::size_t i = 0; i < curves[0].y.size(); ++i) {
      peak = std::max(peak, curves[0].y[i]);
      gap = std::max(gap, std::abs(curves[0].y[i] - curves[1].y[i]));
    }
    QVERIFY2(gap < 0.02 * peak, qPrintable(QString("gap %1 of peak %2").arg(gap).arg(peak)));

    // The snippet is the pipeline's, for the same target: one door for the CLI and the GUI.
    const io::ToolFit direct = pipeline::fitForTool(
        pipeline::fitTargetFromSchedule(*panel->scheduleAt(0), "edm preset"), "edm");
    QCOMPARE(dialog->snippetView()->toPlainText(), QString::fromStdString(direct.fits[0].snippet));
    QVERIFY(dialog->snippetView()->toPlainText().contains("P_mean=-1.2"));
    dialog->copyButton()->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), dialog->snippetView()->toPlainText());

    QTemporaryDir dir;
    QCOMPARE(dialog->saveKnobs(dir.filePath("edm.json")), QString());
    QFile saved(dir.filePath("edm.json"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const auto j = nlohmann::json::parse(saved.readAll().toStdString());
    QCOMPARE(j["tool"].get<std::string>(), std::string("edm"));
    QCOMPARE(j["fits"][0]["snippet"].get<std::string>(), direct.fits[0].snippet);
    const QString missing = dir.filePath("no/such/folder/knobs.txt");
    QVERIFY(dialog->saveKnobs(missing).contains(missing));
    dialog->close();
  }

  // A target from a latent cache read as cached: the summary says which caches that is right for.
  void latentScaleIsSaid() {
    pipeline::FitTarget target = pipeline::fitTargetFromSchedule(
        schedule::makeFamilySchedule("log-uniform", {},
                                     schedule::LogSigmaGrid::uniform(0.002, 80.0, 64)),
        "latents");
    target.latents = kLatentsAsCached;
    ExportForDialog dialog(target, nullptr);  // no job runner: each fit runs at once
    dialog.toolBox()->setCurrentText("sd-scripts");
    dialog.modelBox()->setCurrentText("sdxl");
    QVERIFY(dialog.currentFit() && dialog.currentFit()->model == "sdxl");
    const QString text = dialog.summaryLabel()->text();
    QVERIFY2(text.contains("Latent scale: the profile&#x27;s latents are as cached") ||
                 text.contains("Latent scale: the profile's latents are as cached"),
             qPrintable(text));
    QVERIFY2(text.contains("raw (sd-scripts, onetrainer)"), qPrintable(text));
    dialog.resize(1300, 850);
    dialog.show();
    saveScreenshot(&dialog, "export-for-latent-scale");
  }

  void coordinatesReachAndResolutionFollowTheTool() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    panel->list()->setCurrentRow(1);  // log-uniform over the panel's 0.002 … 80
    ExportForDialog* dialog = panel->openExportFor();
    QVERIFY(dialog);

    // OneTrainer assumes its Flux presets first (flow time); its SDXL model draws on the DDPM
    // table, which stops at σ ≈ 0.029 and 14.6: the dialog says how much is lost.
    QVERIFY(chooseTool(dialog, "onetrainer"));
    QCOMPARE(dialog->modelBox()->currentText(), QString("flux"));
    QVERIFY(dialog->chart()->xTitle().contains("rectified-flow"));
    QVERIFY(dialog->chart()->logX());  // t on a log axis: φ at low noise is not a spike at 0
    QVERIFY(dialog->summaryLabel()->text().contains("training <b>flux</b>"));
    QVERIFY(chooseModel(dialog, "sdxl"));
    QVERIFY(dialog->chart()->xTitle().contains("DDPM"));
    QVERIFY(!dialog->chart()->logX());
    const double reach = dialog->currentFit()->targetMassReachable;
    QVERIFY(reach > 0.5 && reach < 0.75);
    QVERIFY(dialog->summaryLabel()->text().contains(QString::number(100.0 * reach, 'f', 1)));
    for (const double x : dialog->chart()->curves()[0].x) QVERIFY(x >= 0.0 && x <= 1.0);

    // sd-scripts' flux_shift reads the training resolution.
    QVERIFY(chooseTool(dialog, "sd-scripts"));
    QVERIFY(dialog->chart()->xTitle().contains("rectified-flow"));
    QSignalSpy refitted(dialog, &ExportForDialog::fitFinished);
    dialog->widthBox()->setValue(512);
    dialog->heightBox()->setValue(512);
    dialog->refit();
    QVERIFY(refitted.wait(60000));
    bool found = false;
    for (const auto& f : dialog->currentFit()->fits)
      if (f.family == "flux_shift") found = f.snippet.find("512×512") != std::string::npos;
    QVERIFY(found);
    // Another family's row redraws the overlay and the snippet.
    dialog->familyTable()->setCurrentCell(1, 0);
    QVERIFY(dialog->chart()->chart()->title().contains(dialog->familyTable()->item(1, 0)->text()));
    QCOMPARE(dialog->snippetView()->toPlainText(),
             QString::fromStdString(dialog->currentFit()->fits[1].snippet));
    dialog->familyTable()->setCurrentCell(0, 0);
    saveScreenshot(dialog, "export-for-dialog");

    // diffusers' SD3 scripts: x0 loss, no `none` scheme; the models follow the tool.
    QVERIFY(chooseTool(dialog, "diffusers"));
    QVERIFY(chooseModel(dialog, "sd3"));
    QVERIFY(dialog->currentFit()->lossSpace.find("x0") != std::string::npos);
    for (int row = 0; row < dialog->familyTable()->rowCount(); ++row)
      QVERIFY(dialog->familyTable()->item(row, 0)->text() != "none");
    QVERIFY(dialog->snippetView()->toPlainText().contains("--precondition_outputs 1"));
    saveScreenshot(dialog, "export-for-dialog-sd3");

    // ai-toolkit's Wan 2.2 14B: both experts' windows, said in the families' notes.
    QVERIFY(chooseTool(dialog, "ai-toolkit"));
    QVERIFY(chooseModel(dialog, "wan22-14b"));
    QVERIFY(dialog->summaryLabel()->text().contains("wan22-14b"));
    bool experts = false;
    for (const auto& f : dialog->currentFit()->fits)
      experts = experts || f.note.find("two experts on alternate steps") != std::string::npos;
    QVERIFY(experts);
    saveScreenshot(dialog, "export-for-dialog-wan22");
    dialog->close();
  }

  void compareWithMyConfig() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    panel->list()->setCurrentRow(0);
    ExportForDialog* dialog = panel->openExportFor();
    QVERIFY(dialog);
    QVERIFY(chooseTool(dialog, "sd-scripts"));
    QVERIFY(dialog->compareButton()->isVisible());
    QTemporaryDir dir;
    QFile toml(dir.filePath("flux_lora.toml"));
    QVERIFY(toml.open(QIODevice::WriteOnly));
    toml.write(
        "learning_rate = 1e-4\ntimestep_sampling = \"shift\"\ndiscrete_flow_shift = 3.1582\n"
        "model_prediction_type = \"raw\"\n");
    toml.close();
    QSignalSpy compared(dialog, &ExportForDialog::comparisonFinished);
    dialog->compareWith(toml.fileName());
    QVERIFY(compared.count() || compared.wait(60000));
    QCOMPARE(compared.takeFirst().at(0).toBool(), true);
    // The same text as noisescope-cli fit --current (one pipeline function for both).
    const QString text = dialog->comparisonText();
    QVERIFY2(text.contains("with shift") && text.contains("discrete_flow_shift: 3.158 -> "),
             qPrintable(text));
    QVERIFY(text.contains("learning_rate"));  // named as not read
    saveScreenshot(dialog->findChild<QDialog*>(), "export-for-compare");

    // A file that is not valid TOML: a warning naming it, no comparison.
    QFile broken(dir.filePath("broken.toml"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("timestep_sampling = \n");
    broken.close();
    dialog->compareWith(broken.fileName());
    QVERIFY(compared.count() || compared.wait(60000));
    QCOMPARE(compared.takeFirst().at(0).toBool(), false);
    dialog->close();
  }
};

QTEST_MAIN(TestExportForDialog)
#include "test_export_for_dialog.moc"
