// The Diagnostic panel runs the optimal-denoiser diagnostic in the background, overlays profiles
// with labelled axes, switches the rate coordinate, round-trips a profile file, and draws the
// one-sample posterior strip. A profile keeps its colour when another is unchecked; a dataset
// every curve shares is not repeated in each legend entry.
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QLabel>
#include <QListWidget>
#include <QObject>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QString>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>

#include <torch/script.h>

#include "io/profile_io.h"
#include "profile/profile.h"
#include "screenshot.h"
#include "ui/chart_export.h"
#include "ui/curve_chart.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/posterior_strip.h"
#include "ui/workbench.h"

using namespace noisescope::ui;

class TestDiagnosticPanel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NoiseScopeTest");
  }

  void runsOverlaysAndProbes() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath("synthetic:gaussian?n=400&d=16&seed=2", false);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);

    DiagnosticPanel* panel = window.diagnosticPanel();
    window.tabs()->setCurrentWidget(panel);
    panel->levelsSpin()->setValue(24);
    panel->queriesSpin()->setValue(64);
    QSignalSpy finished(panel, &DiagnosticPanel::diagnosticFinished);
    panel->runDiagnostic();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);

    QCOMPARE(window.workbench()->profiles().size(), size_t(1));
    QCOMPARE(panel->mmseChart()->curves().size(), size_t(1));
    const Curve& mmse = panel->mmseChart()->curves().front();
    QCOMPARE(mmse.x.size(), size_t(24));
    QCOMPARE(mmse.lower.size(), size_t(24));
    // MMSE per dimension grows with σ towards the data's per-coordinate variance.
    QVERIFY(mmse.y.back() > mmse.y.front());
    QVERIFY(panel->mmseChart()->xTitle().contains("σ"));

    const QString logTitle = panel->rateChart()->yTitle();
    panel->rateCoordinate()->setCurrentIndex(2);
    QVERIFY(panel->rateChart()->yTitle().contains("λ"));
    QVERIFY(panel->rateChart()->yTitle() != logTitle);
    panel->rateCoordinate()->setCurrentIndex(0);

    // Save the profile, load it back: a second, identical curve is overlaid.
    QTemporaryDir dir;
    const QString path = dir.filePath("profile.json");
    noisescope::writeProfile(path.toStdString(), *window.workbench()->profiles().front().profile);
    QCOMPARE(panel->loadProfile(path), QString());
    QCOMPARE(panel->mmseChart()->curves().size(), size_t(2));
    QCOMPARE(panel->mmseChart()->curves()[1].y, panel->mmseChart()->curves()[0].y);
    QVERIFY(panel->loadProfile(dir.filePath("missing.json")).contains("missing.json"));

    // A TorchScript denoiser that is exactly the posterior mean of N(0, I): its profile lies on
    // the closed form D·σ²/(1+σ²) and overlays the empirical one.
    torch::jit::Module model("__torch__.GaussianPosterior");
    model.define("def forward(self, x, sigma):\n    return x / (1.0 + sigma.view(-1, 1) ** 2)\n");
    const QString modelPath = dir.filePath("gaussian.pt");
    model.save(modelPath.toStdString());
    panel->runCheckpoint(modelPath);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
    QVERIFY(finished.last().at(0).toString().contains("checkpoint"));
    QCOMPARE(panel->mmseChart()->curves().size(), size_t(3));
    const Curve& checkpoint = panel->mmseChart()->curves()[2];
    const double sigma = checkpoint.x.back();
    QVERIFY(std::abs(checkpoint.y.back() - sigma * sigma / (1 + sigma * sigma)) < 0.1);

    QSignalSpy probed(panel->strip(), &PosteriorStrip::probeFinished);
    panel->strip()->sampleSpin()->setValue(5);
    panel->strip()->probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 30000);
    QCOMPARE(panel->strip()->shownLevels(), 8);
    saveScreenshot(&window, "diagnostic-panel");

    // Every chart exports as PNG and SVG.
    for (const QString file : {"mmse.png", "mmse.svg"}) {
      QCOMPARE(exportWidgetImage(panel->mmseChart(), dir.filePath(file)), QString());
      QVERIFY(QFileInfo(dir.filePath(file)).size() > 1000);
    }
    QFile svg(dir.filePath("mmse.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(exportWidgetImage(panel->mmseChart(), dir.filePath("chart.bmp"))
                .contains("unknown image type"));

    // A profile the engine warned about (forced float32 past its proven bound) says so, in red,
    // under its summary, from the file's provenance.
    noisescope::Profile warned = *window.workbench()->profiles().front().profile;
    warned.provenance["warnings"] = {"float32 distances: their proven logit error bound reached 3"};
    const QString warnedPath = dir.filePath("warned.json");
    noisescope::writeProfile(warnedPath.toStdString(), warned);
    QCOMPARE(panel->loadProfile(warnedPath), QString());
    panel->profileList()->setCurrentRow(panel->profileList()->count() - 1);
    QVERIFY2(panel->summaryLabel()->text().contains("Warning:") &&
                 panel->summaryLabel()->text().contains("float32 distances"),
             qPrintable(panel->summaryLabel()->text()));
    panel->profileList()->setCurrentRow(0);
    QVERIFY(!panel->summaryLabel()->text().contains("Warning:"));
    panel->profileList()->setCurrentRow(panel->profileList()->count() - 1);
    saveScreenshot(&window, "diagnostic-panel-warning");

    // Unchecking a profile leaves every other profile's colour as it was, on each chart (issue
    // 35: colours by position made every later curve change colour), and checking it again
    // gives it back its own.
    auto colours = [](const CurveChart* chart) {
      std::map<QString, QColor> byName;
      for (const Curve& c : chart->curves()) byName[c.name] = c.color;
      return byName;
    };
    const auto mmseBefore = colours(panel->mmseChart()), rateBefore = colours(panel->rateChart());
    QCOMPARE(mmseBefore.size(), size_t(4));
    QVERIFY(rateBefore.size() >= 3);  // every profile but perhaps the checkpoint's has a rate
    QListWidgetItem* first = panel->profileList()->item(0);
    first->setCheckState(Qt::Unchecked);
    const auto mmseAfter = colours(panel->mmseChart()), rateAfter = colours(panel->rateChart());
    QCOMPARE(mmseAfter.size(), size_t(3));
    QVERIFY(!mmseAfter.count(first->text()));
    for (const auto& [name, colour] : mmseAfter) QCOMPARE(colour, mmseBefore.at(name));
    for (const auto& [name, colour] : rateAfter) QCOMPARE(colour, rateBefore.at(name));
    first->setCheckState(Qt::Checked);
    QVERIFY(colours(panel->mmseChart()) == mmseBefore);
  }

  // A " · dataset" every checked profile shares is said once (the charts' tooltips), not in each
  // legend entry: five curves of one bracket took seven legend lines at 1366×768. Profiles of two
  // datasets keep their whole names.
  void legendsSayTheSharedDatasetOnce() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    DiagnosticPanel* panel = window.diagnosticPanel();
    window.tabs()->setCurrentWidget(panel);
    auto profile = [](const std::string& kind) {
      auto p = std::make_shared<noisescope::Profile>();
      p->kind = kind;
      p->sigma = {0.1, 1.0, 10.0};
      p->dim = 4;
      p->queries = 2;
      p->estimates.push_back(
          noisescope::summarizeEstimate("direct", "test", {0.01, 0.02, 0.5, 0.6, 3, 3.2}, 3, 2));
      return p;
    };
    window.workbench()->addProfiles({{"empirical · fashion", profile("empirical")},
                                     {"population bound · fashion", profile("bound")}});
    auto names = [&] {
      QStringList shown;
      for (const Curve& c : panel->mmseChart()->curves()) shown << c.name;
      return shown;
    };
    QCOMPARE(names(), QStringList({"empirical", "population bound"}));
    QVERIFY2(panel->mmseChart()->toolTip().contains("“ · fashion”"),
             qPrintable(panel->mmseChart()->toolTip()));
    QCOMPARE(panel->rateChart()->toolTip(), panel->mmseChart()->toolTip());

    window.workbench()->addProfiles({{"empirical · dna", profile("empirical")}});
    QCOMPARE(names(),
             QStringList({"empirical · fashion", "population bound · fashion", "empirical · dna"}));
    QVERIFY(panel->mmseChart()->toolTip().isEmpty());
  }
};

QTEST_MAIN(TestDiagnosticPanel)
#include "test_diagnostic_panel.moc"
