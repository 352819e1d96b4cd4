// The Schedules panel: presets and families overlaid on φ, editors that redraw as values change,
// coordinate and curve switches with labelled axes, entropic schedules from a workbench profile,
// an atomic design in the background, schedule files written and read back, and hidden panels
// that redraw only when shown.
#include <QAbstractButton>
#include <QAction>
#include <QButtonGroup>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QIODevice>
#include <QLabel>
#include <QMenu>
#include <QObject>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QString>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

#include "data/statistics.h"
#include "diagnostic/empirical_diagnostic.h"
#include "io/profile_io.h"
#include "io/sigma_steps_io.h"
#include "screenshot.h"
#include "ui/curve_chart.h"
#include "ui/dataset_panel.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/sampling_grid_dialog.h"
#include "ui/schedule_list_model.h"
#include "ui/schedule_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {
// Mass of a drawn density over its x grid (trapezoid): a normalised density integrates to ~1.
double integrate(const Curve& c) {
  double total = 0;
  for (size_t i = 1; i < c.x.size(); ++i)
    total += 0.5 * (c.y[i] + c.y[i - 1]) * (c.x[i] - c.x[i - 1]);
  return std::abs(total);
}

// The loaded dataset's empirical profile on 16 levels × 64 queries, added to the session as
// `name`; returns the name the session gave it.
QString addEmpiricalProfile(MainWindow& window, const QString& name) {
  DiagnosticOptions options;
  options.levels = 16;
  options.queries = 64;
  auto profile =
      std::make_shared<Profile>(computeEmpiricalProfile(*window.workbench()->dataset(), options));
  return window.workbench()->addProfile(name, profile);
}
}  // namespace

class TestSchedulePanel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void editsRedrawAndCoordinatesLabel() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    // Its tab current: a panel behind another tab redraws only when shown (ui/hidden_redraw.h).
    window.tabs()->setCurrentWidget(panel);
    QCOMPARE(panel->scheduleCount(), 2);  // EDM and log-uniform to start from
    const auto& curves = panel->chart()->curves();
    QCOMPARE(curves.size(), size_t(2));
    QVERIFY(std::abs(integrate(curves[0]) - 1.0) < 0.02);  // φ is normalised per unit log σ
    QVERIFY(panel->chart()->yTitle().contains("log σ"));

    // Typing a new P_mean moves EDM's mode: the chart follows at once.
    panel->list()->setCurrentRow(0);
    const std::vector<double> before = panel->chart()->curves()[0].y;
    auto spins = panel->editor()->findChildren<QDoubleSpinBox*>();
    QVERIFY(!spins.isEmpty());
    spins.first()->setValue(spins.first()->value() + 1.0);
    QVERIFY(panel->chart()->curves()[0].y != before);

    panel->coordinateBox()->setCurrentIndex(2);  // λ
    QVERIFY(panel->chart()->xTitle().contains("λ"));
    QVERIFY(panel->chart()->yTitle().contains("per unit λ"));
    panel->curveButtons()->button(3)->click();  // CDF
    QCOMPARE(panel->chart()->yTitle(), QString("CDF P(σ′ ≤ σ)"));
    QCOMPARE(panel->metricsTable()->rowCount(), 2);
    // Row 0 is the selected reference: zero divergence from itself, positive from log-uniform.
    QCOMPARE(panel->metricsTable()->item(0, 4)->text(), QString("0"));
    QVERIFY(panel->metricsTable()->item(1, 4)->text().toDouble() > 0.1);
  }

  // Switching the coordinate away and back leaves the x-axis on the curves' own range, not on a
  // range left over from the log-σ axis in between (issue 35, item 5).
  void coordinateRoundTripKeepsXRange() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    SchedulePanel* panel = window.schedulePanel();
    window.tabs()->setCurrentWidget(panel);
    auto xRange = [panel] {
      const auto* axis =
          qobject_cast<const QValueAxis*>(panel->chart()->chart()->axes(Qt::Horizontal).value(0));
      return axis ? std::pair{axis->min(), axis->max()} : std::pair{0.0, 0.0};
    };
    auto curvesSpan = [panel] {
      double lo = 1e300, hi = -1e300;
      for (const Curve& c : panel->chart()->curves())
        for (double x : c.x) lo = std::min(lo, x), hi = std::max(hi, x);
      return std::pair{lo, hi};
    };
    const auto [first, last] = curvesSpan();  // log σ over [σ_min, σ_max]
    QVERIFY(first < -5 && last > 4);
    const auto before = xRange();
    QVERIFY(before.first <= first && before.second >= last);
    for (int index = 1; index < panel->coordinateBox()->count(); ++index) {
      panel->coordinateBox()->setCurrentIndex(index);
      panel->coordinateBox()->setCurrentIndex(0);
      QCoreApplication::processEvents();
      const auto after = xRange();
      QVERIFY2(after == before, qPrintable(QString("after coordinate %1: x %2 … %3, was %4 … %5")
                                               .arg(index)
                                               .arg(after.first)
                                               .arg(after.second)
                                               .arg(before.first)
                                               .arg(before.second)));
    }
  }

  // The list is an item model: its check boxes hide curves, and what the panel hands out (built
  // schedules, the editor's row) stays right while rows are rebuilt and removed.
  void listModelChecksRebuildsAndRemoves() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    window.tabs()->setCurrentWidget(panel);
    ScheduleListModel* model = panel->model();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->data(model->index(1), Qt::ToolTipRole).toString(),
             QString::fromStdString(panel->builtAt(1)->schedule.lossWeight.label()));
    QVERIFY(model->setData(model->index(1), Qt::Unchecked, Qt::CheckStateRole));
    QCOMPARE(panel->chart()->curves().size(), size_t(1));
    QCOMPARE(panel->chart()->curves()[0].name, model->name(0));
    QVERIFY(model->setData(model->index(1), Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(panel->chart()->curves().size(), size_t(2));

    // An edit rebuilds the row; a schedule handed out before keeps its old values.
    panel->list()->setCurrentRow(0);
    const auto before = panel->builtAt(0);
    auto spins = panel->editor()->findChildren<QDoubleSpinBox*>();
    QVERIFY(!spins.isEmpty());
    spins.first()->setValue(spins.first()->value() + 1.0);
    QVERIFY(panel->builtAt(0) != before);
    QVERIFY(before->schedule.grid().edges == panel->builtAt(0)->schedule.grid().edges);
    QVERIFY(before->parameters != panel->builtAt(0)->parameters);

    // Removing the first row: the editor now edits the row that took its place.
    const QString second = model->name(1);
    panel->removeCurrent();
    QCOMPARE(panel->scheduleCount(), 1);
    QCOMPARE(panel->list()->currentRow(), 0);
    QCOMPARE(model->name(0), second);
    const auto logUniform = panel->builtAt(0);
    spins = panel->editor()->findChildren<QDoubleSpinBox*>();
    QVERIFY(!spins.isEmpty());
    spins.first()->setValue(spins.first()->value() * 0.5);
    QCOMPARE(model->name(0), second);
    QVERIFY(panel->builtAt(0)->parameters != logUniform->parameters);
  }

  // A profile added while the Diagnostic and Schedules tabs are behind the Dataset tab costs
  // them no redraw (ui/hidden_redraw.h); each draws it, and the Add menu lists it, once shown.
  void hiddenPanelsRedrawWhenShown() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:dirac-mixture?n=8&d=2&k=8&seed=4", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    window.tabs()->setCurrentWidget(window.datasetPanel());
    SchedulePanel* panel = window.schedulePanel();
    DiagnosticPanel* diagnostic = window.diagnosticPanel();
    QPushButton* add = nullptr;
    for (QPushButton* b : panel->findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("&Add")) add = b;
    QVERIFY(add && add->menu());
    auto listed = [add](const QString& name) {
      for (QAction* a : add->menu()->findChildren<QAction*>())
        if (a->text().startsWith(QStringLiteral("InfoNoise")) && a->text().contains(name))
          return true;
      return false;
    };
    const QString name = addEmpiricalProfile(window, "dirac");
    QCOMPARE(diagnostic->mmseChart()->curves().size(), size_t(0));
    QVERIFY(!listed(name));
    window.tabs()->setCurrentWidget(diagnostic);
    QCOMPARE(diagnostic->mmseChart()->curves().size(), size_t(1));
    QVERIFY(!listed(name));  // the Schedules tab is still hidden
    window.tabs()->setCurrentWidget(panel);
    QVERIFY(listed(name));
  }

  // √-entropy from a profile, as the Add menu builds it, has InfoNoise's default gate: ungated,
  // a bound's looseness at small σ took about 30 % of its φ (issue 35, item 7).
  // At 1366×768 an InfoNoise schedule's editor, taller than its column, scrolls vertically only
  // and keeps every line inside the column: a vertical bar used to leave the form at its earlier
  // width, with a horizontal bar and each wrapped line (the kind, the caveat) cut on the right.
  void editorFitsItsColumnAt1366x768() {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:dirac-mixture?n=8&d=2&k=8&seed=4", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    const QString name = addEmpiricalProfile(window, "population bound · a long dataset name");
    SchedulePanel* panel = window.schedulePanel();
    window.tabs()->setCurrentWidget(panel);
    const int row = panel->addRecipe(pipeline::infoNoiseRecipe(name.toStdString()));
    panel->list()->setCurrentRow(row);
    QWidget* editor = panel->editor();
    QVERIFY(editor);
    auto* area = qobject_cast<QScrollArea*>(editor->parentWidget()->parentWidget());
    QVERIFY(area);
    QTRY_VERIFY(area->verticalScrollBar()->isVisible());  // taller than the column
    QTRY_VERIFY(editor->width() <= area->viewport()->width());
    QVERIFY(!area->horizontalScrollBar()->isVisible());
    for (QWidget* field : editor->findChildren<QWidget*>()) {
      if (!field->isVisible()) continue;
      const QRect inEditor(field->mapTo(editor, QPoint(0, 0)), field->size());
      QVERIFY2(inEditor.right() <= area->viewport()->width(),
               qPrintable(QString("%1 ends at %2, the column at %3")
                              .arg(field->metaObject()->className())
                              .arg(inEditor.right())
                              .arg(area->viewport()->width())));
    }
    saveScreenshot(&window, "schedule-editor-1366x768");
  }

  void sqrtEntropyFromMenuIsGatedLikeInfoNoise() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:dirac-mixture?n=8&d=2&k=8&seed=4", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    const QString name = addEmpiricalProfile(window, "dirac");
    SchedulePanel* panel = window.schedulePanel();
    window.tabs()->setCurrentWidget(panel);
    QPushButton* add = nullptr;
    for (QPushButton* b : panel->findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("&Add")) add = b;
    QVERIFY(add && add->menu());
    auto gateOf = [&](const QString& prefix) {
      for (QAction* a : add->menu()->findChildren<QAction*>())
        if (a->text().startsWith(prefix) && a->text().contains(name)) {
          a->trigger();
          const int row = panel->scheduleCount() - 1;
          return panel->builtAt(row)->parameters.value("gate_c", -1.0);
        }
      return -2.0;
    };
    const double info = gateOf(QStringLiteral("InfoNoise"));
    QCOMPARE(info, pipeline::infoNoiseRecipe().gateC);
    QVERIFY(info > 0);
    QCOMPARE(gateOf(QStringLiteral("√-entropy")), info);
  }

  void entropicAtomicAndFiles() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:dirac-mixture?n=8&d=2&k=8&seed=4", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    DiagnosticOptions options;
    options.levels = 32;
    options.queries = 128;
    auto profile =
        std::make_shared<Profile>(computeEmpiricalProfile(*window.workbench()->dataset(), options));
    const QString name = window.workbench()->addProfile("dirac", profile);

    SchedulePanel* panel = window.schedulePanel();
    window.tabs()->setCurrentWidget(panel);
    ScheduleRecipe info;
    info.kind = ScheduleRecipe::Kind::InfoNoise;
    info.name = "InfoNoise";
    info.profileName = name.toStdString();
    info.gateC = 0.0;  // an empirical profile needs no gate
    const int row = panel->addRecipe(info);
    QVERIFY2(panel->errorAt(row).isEmpty(), qPrintable(panel->errorAt(row)));

    // Without the profile the recipe reports the problem instead of drawing stale numbers.
    window.workbench()->removeProfile(name);
    QVERIFY(panel->errorAt(row).contains("is not loaded"));
    window.workbench()->addProfile("dirac", profile);
    QVERIFY(panel->errorAt(row).isEmpty());
    // With a profile in the workbench the table gains the informative-band columns.
    QVERIFY(panel->metricsTable()->item(row, 6)->text() != QString("—"));

    QSignalSpy designed(panel, &SchedulePanel::atomicDesignFinished);
    panel->designAtomic();
    QTRY_COMPARE_WITH_TIMEOUT(designed.count(), 1, 120000);
    QVERIFY(panel->scheduleAt(panel->scheduleCount() - 1));
    const schedule::Schedule atomic = *panel->scheduleAt(panel->scheduleCount() - 1);
    QVERIFY(atomic.isAtomic());
    QVERIFY(!atomic.atoms().empty());
    saveScreenshot(&window, "schedule-panel");

    QTemporaryDir dir;
    for (const QString file : {"atomic.json", "atomic.csv"}) {
      panel->list()->setCurrentRow(panel->scheduleCount() - 1);
      QCOMPARE(panel->exportCurrent(dir.filePath(file)), QString());
      const int before = panel->scheduleCount();
      QCOMPARE(panel->loadScheduleFile(dir.filePath(file)), QString());
      QCOMPARE(panel->scheduleCount(), before + 1);
      const auto back = panel->scheduleAt(before);
      QCOMPARE(back->atoms().size(), atomic.atoms().size());
      QVERIFY(std::abs(back->atoms().front().sigma - atomic.atoms().front().sigma) < 1e-9);
    }
    QFile broken(dir.filePath("broken.json"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format\": \"noisescope.schedule/1\", \"kind\": ");
    broken.close();
    QVERIFY(panel->loadScheduleFile(dir.filePath("broken.json")).contains("broken.json"));
  }

  // A second dataset does not mix two datasets in one comparison: with profiles of the first in
  // use, σ_data stays on the first and a note says so, until the user moves it; with none, every
  // schedule follows the new data (issue 35, item 5).
  void secondDatasetKeepsTheComparisonOnOneDataset() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    SchedulePanel* panel = window.schedulePanel();
    window.tabs()->setCurrentWidget(panel);
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    auto open = [&](const QString& spec) -> std::shared_ptr<const Dataset> {
      const int before = loaded.count();
      window.openPath(spec, false);
      if (!QTest::qWaitFor([&] { return loaded.count() == before + 1; }, 20000)) return nullptr;
      return window.workbench()->dataset();
    };
    auto edmSource = [panel] { return panel->builtAt(0)->sigmaData.source; };
    QVERIFY(open("synthetic:circle?n=100"));
    const auto first = open("synthetic:gaussian?n=64&d=2&scale=3&seed=1");
    QVERIFY(first);
    QCOMPARE(edmSource(), "measured from " + first->name);  // no profiles: all follow
    QVERIFY(panel->datasetNote()->isHidden());

    DiagnosticOptions options;
    options.levels = 16;
    options.queries = 32;
    window.workbench()->addProfile(
        "gauss", std::make_shared<Profile>(computeEmpiricalProfile(*first, options)));
    const int row = panel->addRecipe(pipeline::infoNoiseRecipe("gauss"));
    const auto second = open("synthetic:two-moons?n=200&seed=3");
    QVERIFY(second && second->name != first->name);
    QCOMPARE(edmSource(), "measured from " + first->name);
    QVERIFY(panel->builtAt(row)->sigmaData.source.rfind("from profile", 0) == 0);
    QVERIFY(!panel->datasetNote()->isHidden());
    QVERIFY(panel->datasetNote()->text().contains(QString::fromStdString(first->name)));
    QVERIFY(panel->datasetNote()->text().contains(QString::fromStdString(second->name)));
    saveScreenshot(&window, "schedule-panel-second-dataset");

    panel->useLoadedDatasetButton()->click();
    QCOMPARE(edmSource(), "measured from " + second->name);
    QVERIFY(panel->datasetNote()->isHidden());
  }

  void measuredSigmaDataAndCsvProfiles() {
    MainWindow window;
    SchedulePanel* panel = window.schedulePanel();
    // No dataset yet: the EDM preset says its σ_data is the default.
    QCOMPARE(panel->builtAt(0)->sigmaData.source, std::string("default 0.5 (no data known)"));
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:gaussian?n=64&d=2&scale=3&seed=1", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    const Dataset& data = *window.workbench()->dataset();
    // Loading a dataset rebuilds every schedule with its measured σ_data.
    const auto edm = panel->builtAt(0);
    QCOMPARE(edm->sigmaData.source, "measured from " + data.name);
    QCOMPARE(edm->schedule.lossWeight.sigmaData, measureSigmaData(data));
    QVERIFY(std::abs(edm->schedule.lossWeight.sigmaData - 0.5) > 1.0);

    // "Load a profile" reads CSV: the diagnostic's table, and refuses a broken one by name.
    DiagnosticOptions options;
    options.levels = 16;
    options.queries = 32;
    QTemporaryDir dir;
    const QString csv = dir.filePath("gauss.csv");
    writeProfileCsv(csv.toStdString(), computeEmpiricalProfile(data, options));
    QCOMPARE(panel->loadProfileFile(csv), QString());
    const std::string name = window.workbench()->profiles().back().name.toStdString();
    const int row = panel->addRecipe(pipeline::infoNoiseRecipe(name));
    QVERIFY2(panel->errorAt(row).isEmpty(), qPrintable(panel->errorAt(row)));
    QCOMPARE(panel->builtAt(row)->parameters["profile"].get<std::string>(), csv.toStdString());
    QCOMPARE(panel->builtAt(row)->sigmaData.source, "from profile " + csv.toStdString());
    QFile broken(dir.filePath("broken.csv"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("sigma,rate\n0.1,1\n1,2\n");
    broken.close();
    const QString error = panel->loadProfileFile(broken.fileName());
    QVERIFY(error.contains("broken.csv") && error.contains("mmse"));

    // The σ-steps file: the default grid (Karras ρ = 7) with its rule; the entropic grid takes
    // the schedule's own profile; quantiles its π.
    const QString steps = dir.filePath("steps.json");
    QCOMPARE(panel->exportSigmaSteps(steps, 10), QString());
    const SigmaSteps back = readSigmaSteps(steps.toStdString());
    QVERIFY(back.grid.rfind("karras?rho=7", 0) == 0);
    QVERIFY(back.warnings.empty());
    QCOMPARE(back.sigma.size(), size_t{10});
    const SigmaSteps entropic = panel->currentSigmaSteps(10, "entropic?gate_c=0.15");
    QCOMPARE(entropic.source, csv.toStdString());
    QVERIFY(entropic.largestRatio > 1.0);
    const SigmaSteps quantiles = panel->currentSigmaSteps(10, "quantiles");
    QCOMPARE(quantiles.source, panel->builtAt(row)->schedule.info.label);
    QVERIFY(panel->exportSigmaSteps(steps, 10, "karras?rho=-1").contains("rho"));

    // The dialog starts on the default, previews the rule, and flags long steps.
    SamplingGridDialog dialog(
        [&](const std::string& spec, int n) { return panel->currentSigmaSteps(n, spec); },
        QStringLiteral("InfoNoise"));
    QCOMPARE(dialog.spec(), QString::fromUtf8(pipeline::defaults::kSamplingGrid));
    QCOMPARE(dialog.steps(), pipeline::defaults::kSamplingSteps);
    QVERIFY(dialog.acceptable());
    QVERIFY(dialog.previewText().contains("Karras"));
    QVERIFY(dialog.warningText().isEmpty());
    dialog.show();
    saveScreenshot(&dialog, "sampling-grid-default");
    dialog.setSpec(QStringLiteral("uniform-sigma"));
    QVERIFY(dialog.acceptable());
    QVERIFY(dialog.warningText().contains("above the limit"));
    saveScreenshot(&dialog, "sampling-grid-warning");
    dialog.setSpec(QStringLiteral("uniform-sigma?guard=cap"));
    QVERIFY(dialog.warningText().isEmpty());
    // auto on a table profile (not a bound): Karras ρ = 7, and the preview says why.
    dialog.setSpec(QStringLiteral("auto"));
    QVERIFY(dialog.acceptable());
    QVERIFY(dialog.previewText().contains("auto: no sampling rate"));
    dialog.setSpec(QStringLiteral("no-such-grid"));
    QVERIFY(!dialog.acceptable());
    QVERIFY(dialog.warningText().contains("no-such-grid"));
  }
};

QTEST_MAIN(TestSchedulePanel)
#include "test_schedule_panel.moc"
