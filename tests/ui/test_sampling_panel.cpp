// The Sampling tab (issue 23): a tiny DNA run trained here in seconds is raced on two grids from
// the GUI. The tab resolves the run, offers the race's default grids, draws each grid's σ steps
// at the chosen NFE over the run's π, refuses a bad spec and a bad model with the reason, shows
// progress with an ETA while it samples in the background, can be cancelled, and gives the same
// numbers as pipeline::runSampleRace (the call `noisescope-cli sample-race` makes). Its table
// fills cell by cell on the race page, which a race turns to, and keeps the finished cells on
// cancel; it offers the session's profiles and
// a quick look (issue 35).
#include <QByteArray>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QIODevice>
#include <QLabel>
#include <QLineEdit>
#include <QObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QString>
#include <QStringList>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QWidget>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>

#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "pipeline/sampling/sample_race.h"
#include "screenshot.h"
#include "test_paths.h"
#include "train/train_config.h"
#include "train/trainer.h"
#include "train/training_data.h"
#include "ui/curve_chart.h"
#include "ui/diagnostic_panel.h"
#include "ui/grid_picker.h"
#include "ui/job_runner.h"
#include "ui/main_window.h"
#include "ui/sampling_panel.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {
// The labels under `root` that print a mnemonic's "&": one without a buddy shows it literally.
QStringList literalAmpersands(const QWidget* root) {
  QStringList shown;
  for (const QLabel* label : root->findChildren<QLabel*>()) {
    const QString text = label->text();
    const bool rich = label->textFormat() == Qt::RichText ||
                      (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
    if (rich || label->buddy()) continue;  // an entity in rich text; a mnemonic with a buddy
    if (QString(text).remove(QStringLiteral("&&")).contains(QLatin1Char('&'))) shown << text;
  }
  return shown;
}
}  // namespace

class TestSamplingPanel : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString run_;

  void prepare(SamplingPanel& panel) {
    panel.setModel(run_);
    panel.setNfe(QStringLiteral("4 8"));
    panel.setSeeds(QStringLiteral("1 2"));
    panel.setSamples(16);
    panel.setElbo(false);
    GridPicker* grids = panel.gridPicker();
    for (const QString& spec : grids->allSpecs())
      grids->setChecked(spec, spec == "karras?rho=7" || spec == "log-sigma");
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    run_ = dir_.filePath(QStringLiteral("run"));
    const nlohmann::json j = {
        {"dataset",
         {{"path", noisescope::test::sourcePath() + "/sample_data/dna/lambda_phage.fa"},
          {"fasta_window", 32},
          {"fasta_stride", 32},
          {"test_fraction", 0.1}}},
        {"model", {{"kind", "conv1d"}, {"channels", 8}, {"blocks", 2}, {"embedding", 16}}},
        {"optim", {{"steps", 30}, {"batch_size", 32}, {"lr", 2e-3}, {"lr_warmup_steps", 5}}},
        {"noise", {{"sampler", "infonoise"}, {"warmup_steps", 10}, {"refresh_every", 10}}},
        {"eval", {{"every", 0}, {"samples", 32}}},
        {"checkpoint", {{"every", 30}}}};
    const train::TrainConfig config = train::parseTrainConfig(j, "sampling-panel test");
    train::TrainerOptions options;
    options.runDir = run_.toStdString();
    train::Trainer trainer(config, train::loadTrainingData(config), options);
    trainer.run();
  }

  void refusesWhatItCannotRace() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    QVERIFY2(panel.planText().contains("Choose"), qPrintable(panel.planText()));
    const QString missing = dir_.filePath(QStringLiteral("no-such-model.pt"));
    panel.setModel(missing);
    QVERIFY2(panel.planText().contains(missing), qPrintable(panel.planText()));
    // A TorchScript file without its config is refused with the reason.
    panel.setModel(run_ + "/checkpoints/step-000000030.denoiser.pt");
    QVERIFY2(panel.planText().contains("--config") || panel.planText().contains("config"),
             qPrintable(panel.planText()));
    panel.setConfig(run_ + "/config.json");
    QVERIFY2(panel.planText().contains("heun"), qPrintable(panel.planText()));
    // A bad spec is refused by the CLI's parser and does not join the list.
    const int before = panel.gridPicker()->allSpecs().size();
    QVERIFY(!panel.gridPicker()->addSpec(QStringLiteral("karras?rho=-1")));
    QVERIFY2(panel.gridPicker()->errorText().contains("rho"),
             qPrintable(panel.gridPicker()->errorText()));
    QCOMPARE(panel.gridPicker()->allSpecs().size(), before);
    QVERIFY(panel.gridPicker()->addSpec(QStringLiteral("karras?rho=5")));
    QVERIFY(panel.gridPicker()->checkedSpecs().contains("karras?rho=5"));
  }

  // Files that are empty, cut short or of the wrong kind: named with their problem, nothing raced.
  void namesBadFiles() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    const QString pt = run_ + "/checkpoints/step-000000030.denoiser.pt";
    auto write = [this](const QString& name, const QByteArray& bytes) {
      const QString path = dir_.filePath(name);
      QFile file(path);
      file.open(QIODevice::WriteOnly);
      file.write(bytes);
      return path;
    };
    // A config that is not JSON.
    const QString config = write("config.txt", "not a config\n");
    panel.setModel(pt);
    panel.setConfig(config);
    QVERIFY2(panel.planText().contains(config), qPrintable(panel.planText()));
    // An empty profile: the model still plans, the preview says what is wrong with the profile.
    const QString profile = write("empty.profile.json", "");
    panel.setConfig(run_ + "/config.json");
    panel.setProfile(profile);
    QVERIFY2(panel.planText().contains("heun"), qPrintable(panel.planText()));
    QVERIFY2(panel.statusText().contains(profile), qPrintable(panel.statusText()));
    // A TorchScript file cut short: the race fails naming it, and the tab can race again.
    QFile whole(pt);
    QVERIFY(whole.open(QIODevice::ReadOnly));
    const QString truncated = write("truncated.pt", whole.read(whole.size() / 2));
    panel.setProfile(QString());
    panel.setModel(truncated);
    panel.setNfe(QStringLiteral("4"));
    panel.setSamples(8);
    QSignalSpy finished(&panel, &SamplingPanel::raceFinished);
    panel.startRace();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(panel.statusText().contains(truncated), qPrintable(panel.statusText()));
    QVERIFY(!panel.racing());
    QVERIFY(!panel.result());
  }

  void drawsTheGridsOverThePi() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    panel.setModel(run_);
    QVERIFY2(panel.planText().contains("step-000000030.denoiser.pt"), qPrintable(panel.planText()));
    const QStringList specs = panel.gridPicker()->allSpecs();
    for (const char* expected : {"karras?rho=7", "ddpm?spacing=trailing", "quantiles?of=pi"})
      QVERIFY2(specs.contains(expected), qPrintable(specs.join(", ")));
    // NFE 8 with Heun: 4 σ steps per grid, Karras from σ_max = 80 down; the π drawn under them.
    int grids = 0;
    bool pi = false;
    for (const Curve& c : panel.gridChart()->curves()) {
      if (c.name.startsWith("training π")) pi = true;
      if (!c.markers) continue;
      ++grids;
      QCOMPARE(int(c.x.size()), 4);
      for (size_t i = 1; i < c.x.size(); ++i) QVERIFY(c.x[i] < c.x[i - 1]);
      if (c.name.startsWith("karras?rho=7 ")) QCOMPARE(c.x.front(), 80.0);
    }
    QVERIFY(pi);
    QCOMPARE(grids, specs.size());
    panel.resize(1200, 700);
    panel.show();
    saveScreenshot(&panel, "sampling-grids");
  }

  // An NFE typed and committed replans the race: the grids the user unchecked stay unchecked, and
  // so do they when the same model is chosen again (issue 35, item 5).
  void keepsChecksAcrossReplans() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    panel.setModel(run_);  // before show(): a field with focus is being typed, and waits
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    GridPicker* grids = panel.gridPicker();
    const QStringList specs = grids->allSpecs();
    QVERIFY2(specs.size() >= 3, qPrintable(specs.join(", ")));
    grids->setChecked(specs[0], false);
    grids->setChecked(specs[2], false);
    const QStringList checked = grids->checkedSpecs();
    QCOMPARE(checked.size(), specs.size() - 2);

    QLineEdit* nfe = panel.nfeField();
    nfe->setFocus();
    nfe->selectAll();
    QTest::keyClicks(nfe, QStringLiteral("4 16"));
    QTest::keyClick(nfe, Qt::Key_Return);
    QVERIFY2(panel.gridChart()->chart()->title().contains("NFE 4"),
             qPrintable(panel.gridChart()->chart()->title()));
    QCOMPARE(grids->allSpecs(), specs);
    QCOMPARE(grids->checkedSpecs(), checked);
    nfe->clearFocus();
    panel.setModel(QString());
    QVERIFY2(panel.planText().contains("Choose"), qPrintable(panel.planText()));
    panel.setModel(run_);
    QCOMPARE(grids->checkedSpecs(), checked);
  }

  // Every label on the tab shows its text as written: no literal "&" (issue 35, item 5).
  void labelsPrintNoMnemonicAmpersand() {
    MainWindow window;
    window.tabs()->setCurrentWidget(window.samplingPanel());
    const QStringList shown = literalAmpersands(window.samplingPanel());
    QVERIFY2(shown.isEmpty(), qPrintable(shown.join(" | ")));
    const QStringList anywhere = literalAmpersands(&window);
    QVERIFY2(anywhere.isEmpty(), qPrintable(anywhere.join(" | ")));
  }

  // One grid that fails (FD 100× the others') no longer sets the race chart's y-range: the chart
  // takes the rate chart's informative-range rule (a log y, a window of two decades), so the grids
  // that agree at the largest NFE and the floor stay in view, every point of theirs, and the
  // outlier is marked ▲ where it leaves the range and named so in the legend.
  void raceChartKeepsTheGoodGridsReadable() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    // Shown as a user meets it: the race drawn while its tab is behind the grids' one.
    panel.resize(1400, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    CurveChart* chart = panel.raceChart();
    QVERIFY(chart->logY());
    const std::vector<double> nfe = {4, 8, 16, 32, 64};
    auto grid = [&](const QString& name, std::vector<double> fd) {
      Curve c;
      c.name = name;
      c.x = nfe;
      c.y = fd;
      for (double v : fd) c.lower.push_back(0.8 * v), c.upper.push_back(1.2 * v);
      return c;
    };
    std::vector<Curve> curves = {
        grid("karras?rho=7", {60, 30, 15, 9, 7}), grid("entropic", {45, 22, 12, 8, 7}),
        grid("loguniform", {80, 40, 20, 10, 8}), grid("broken", {9000, 7000, 6000, 5000, 4000})};
    Curve floor;
    floor.name = "floor (real against real)";
    floor.x = {4, 64};
    floor.y = {2.5, 2.5};
    floor.dashed = true;
    curves.push_back(floor);
    chart->setCurves(curves);
    const auto* axis = qobject_cast<QLogValueAxis*>(chart->chart()->axes(Qt::Vertical).first());
    QVERIFY(axis);
    const QString range = QString("y-range %1 … %2").arg(axis->min()).arg(axis->max());
    QVERIFY2(axis->max() < 1000 && axis->min() <= 2.5, qPrintable(range));
    const std::vector<OffRange>& off = chart->offRange();
    QCOMPARE(off.size(), curves.size());
    for (size_t i = 0; i < curves.size(); ++i)
      if (curves[i].name != "broken") QVERIFY2(!off[i].any(), qPrintable(curves[i].name));
    QCOMPARE(off[3].above, 5);
    QCOMPARE(off[3].aboveMarks.size(), 1);
    QVERIFY2(chart->legendLabel()->text().contains("above&nbsp;the&nbsp;range"),
             qPrintable(chart->legendLabel()->text()));
    for (QTabWidget* views : panel.findChildren<QTabWidget*>())
      for (int i = 0; i < views->count(); ++i)
        if (views->tabText(i) == "Race") views->setCurrentIndex(i);
    QTRY_VERIFY(chart->isVisible());
    // One axis of each kind: the log y set when the tab was built and the NFE axis given with the
    // data replaced the first ones, and none of those is left drawn in the chart's corner (its
    // labels 0.01 … 100 would show).
    QCOMPARE(chart->chart()->axes(Qt::Vertical).size(), 1);
    QCOMPARE(chart->chart()->axes(Qt::Horizontal).size(), 1);
    panel.grab();  // laid out and painted, as on screen
    QStringList texts;
    for (QGraphicsItem* item : chart->scene()->items()) {
      if (!item->isVisible()) continue;
      if (const auto* t = dynamic_cast<QGraphicsTextItem*>(item)) texts << t->toPlainText();
      if (const auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) texts << t->text();
    }
    QVERIFY2(texts.contains("16") && texts.contains("10"), qPrintable(texts.join(" | ")));
    QVERIFY2(!texts.contains("0.01") && !texts.contains("0.1"), qPrintable(texts.join(" | ")));
    saveScreenshot(&panel, "sampling-race-outlier");

    // Grids that agree within a decade draw on a linear axis, as before.
    chart->setCurves({grid("karras?rho=7", {12, 10, 9, 8, 7}), grid("entropic", {11, 9, 8, 8, 7})});
    QVERIFY(qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Vertical).first()));
  }

  // A log y-axis shows positive values only: a race whose measure is not positive everywhere (a
  // continuous model's ELBO in nats can be negative) is drawn on a linear axis with every point,
  // and a positive measure on the log axis.
  void raceOfANegativeMeasureIsDrawnLinear() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    panel.resize(1400, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto race = [](const std::string& measure, std::vector<double> perNfe) {
      auto r = std::make_shared<SampleRaceResult>();
      r->sampler = "heun";
      r->seeds = {1, 2};
      r->nfe = {4, 8, 16};
      r->grids = {{"karras?rho=7", "EDM"}};
      for (size_t k = 0; k < r->nfe.size(); ++k) {
        SampleRaceCell c;
        c.grid = "karras?rho=7";
        c.nfe = r->nfe[k];
        c.steps = c.nfe / 2;
        c.evaluations = c.nfe - 1;
        c.sigma = {80.0, 1.0, 0.0};
        c.values[measure] = {perNfe[k], 1.1 * perNfe[k]};
        r->cells.push_back(c);
      }
      return r;
    };
    CurveChart* chart = panel.raceChart();
    panel.showRace(race("elbo", {-0.5, -1.5, -2.0}));
    QVERIFY(!chart->logY());
    const auto* linear = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Vertical).first());
    QVERIFY(linear);
    QVERIFY2(linear->min() <= -2.2 && linear->max() >= -0.55,
             qPrintable(QString("y-range %1 … %2").arg(linear->min()).arg(linear->max())));

    panel.showRace(race("fd", {900, 60, 8}));
    QVERIFY(chart->logY());
    QVERIFY(qobject_cast<QLogValueAxis*>(chart->chart()->axes(Qt::Vertical).first()));
  }

  // The status line joins the progress message and the ETA with a dash only when both say
  // something: a report without a message reads "ETA …", not "— ETA …".
  void statusLineHasNoDanglingDash() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    Q_EMIT workbench.jobs()->progressChanged("sample-race", 0.1, QString());
    QVERIFY2(panel.statusText().startsWith("ETA"), qPrintable(panel.statusText()));
    Q_EMIT workbench.jobs()->progressChanged("sample-race", 0.2, "  ");
    QVERIFY2(panel.statusText().startsWith("ETA"), qPrintable(panel.statusText()));
    Q_EMIT workbench.jobs()->progressChanged("sample-race", 0.3, "grid 2 of 4");
    QVERIFY2(panel.statusText().startsWith("grid 2 of 4 — ETA"), qPrintable(panel.statusText()));
    // Another job's progress is not the race's.
    Q_EMIT workbench.jobs()->progressChanged("bracket", 0.5, "other");
    QVERIFY(panel.statusText().startsWith("grid 2 of 4"));
  }

  void racesInTheBackgroundLikeTheCli() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    prepare(panel);
    QStringList statuses;
    connect(workbench.jobs(), &JobRunner::progressChanged, this,
            [&] { statuses << panel.statusText(); });
    // The table while the race runs: the cells finished so far, the rest "…".
    std::vector<size_t> shownCells;
    QStringList runningTables;
    connect(&panel, &SamplingPanel::raceUpdated, this, [&] {
      if (!panel.racing()) return;
      shownCells.push_back(panel.result()->cells.size());
      runningTables << panel.tableText();
    });
    QSignalSpy finished(&panel, &SamplingPanel::raceFinished);
    QVERIFY(!panel.raceShown());  // the grids' preview, until a race starts
    panel.startRace();
    QVERIFY(panel.racing());
    QVERIFY(panel.raceShown());  // the cells are seen as they finish
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY2(statuses.filter("ETA").size() > 0, qPrintable(statuses.join("\n")));
    for (const QString& status : statuses)
      QVERIFY2(!status.startsWith("—") && !status.endsWith("—") && !status.startsWith(" "),
               qPrintable(status));
    const SampleRaceResult* r = panel.result();
    QVERIFY(r);
    QCOMPARE(int(r->grids.size()), 2);
    QCOMPARE(int(r->cells.size()), 4);
    QVERIFY(r->state == SampleRaceState::Complete);
    QVERIFY2(panel.tableText().contains("karras?rho=7") && panel.tableText().contains("floor"),
             qPrintable(panel.tableText()));
    // Shown as they came: the floor first with no cell, then one more cell each time.
    QCOMPARE(shownCells, (std::vector<size_t>{0, 1, 2, 3, 4}));
    QVERIFY2(runningTables[2].contains("2 of 4 cells finished; the race is running") &&
                 runningTables[2].contains("…  "),
             qPrintable(runningTables[2]));
    QVERIFY(!panel.tableText().contains("cells finished"));
    bool floor = false;
    int lines = 0;
    for (const Curve& c : panel.raceChart()->curves()) {
      if (c.dashed && c.name.startsWith("floor")) floor = true;
      if (!c.dashed) {
        ++lines;
        QCOMPARE(int(c.x.size()), 2);
        QCOMPARE(c.lower.size(), c.x.size());
      }
    }
    QVERIFY(floor);
    QCOMPARE(lines, 2);

    // One door: the CLI's call with the same settings gives the same numbers.
    pipeline::SampleRaceOptions o;
    o.model = run_.toStdString();
    o.grids = {"karras?rho=7", "log-sigma"};
    o.nfe = {4, 8};
    o.seeds = {1, 2};
    o.samples = 16;
    o.elbo = false;
    const SampleRaceResult cli = pipeline::runSampleRace(o);
    QCOMPARE(cli.cells.size(), r->cells.size());
    for (size_t i = 0; i < cli.cells.size(); ++i) {
      QCOMPARE(cli.cells[i].sigma, r->cells[i].sigma);
      QCOMPARE(cli.cells[i].values, r->cells[i].values);
    }
    QCOMPARE(cli.floor, r->floor);
    // Its files are the CLI's: the JSON as sampleRaceToJson writes it, the chart as SVG.
    const QString json = dir_.filePath(QStringLiteral("race.json"));
    QVERIFY(panel.saveJsonAs(json));
    std::ifstream in(json.toStdString());
    QCOMPARE(nlohmann::json::parse(in).dump(), sampleRaceToJson(*r).dump());
    const QString svg = dir_.filePath(QStringLiteral("race.svg"));
    QVERIFY(panel.saveChartAs(svg));
    QVERIFY(QFile(svg).size() > 0);
    QVERIFY(!panel.saveChartAs(dir_.filePath(QStringLiteral("race.gif"))));  // warns, no file
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("race.gif"))));
    panel.resize(1200, 700);
    panel.show();
    panel.findChild<QTabWidget*>()->setCurrentIndex(1);  // the Race view
    saveScreenshot(&panel, "sampling-race");
  }

  void opensFromTheTrainingTab() {
    MainWindow window;
    window.trainingPanel()->followRun(run_);
    window.trainingPanel()->raceSelectedSamplingGrids();
    auto* tabs = window.findChild<QTabWidget*>();
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.samplingPanel()));
    QVERIFY2(window.samplingPanel()->planText().contains("step-000000030.denoiser.pt"),
             qPrintable(window.samplingPanel()->planText()));
  }

  // Cancelled once the first cell is in: that cell stays in the table and the chart, the cells
  // not raced say so, and the JSON records the race as cancelled.
  void cancelKeepsTheFinishedCells() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    prepare(panel);
    panel.setSamples(64);
    QSignalSpy finished(&panel, &SamplingPanel::raceFinished);
    connect(&panel, &SamplingPanel::raceUpdated, &panel, [&panel] {
      if (panel.racing() && !panel.result()->cells.empty()) panel.cancelRace();
    });
    panel.startRace();
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(!panel.racing());
    const SampleRaceResult* r = panel.result();
    QVERIFY(r);
    QVERIFY(r->state == SampleRaceState::Cancelled);
    QVERIFY2(!r->cells.empty() && r->cells.size() < 4, qPrintable(panel.tableText()));
    const SampleRaceCell& first = r->cells.front();
    QCOMPARE(first.nfe, int64_t(4));  // budget by budget: the cheapest first
    QCOMPARE(int(first.values.at("kmer_js").size()), 2);
    QVERIFY2(panel.statusText().startsWith("Race cancelled.") &&
                 panel.statusText().contains(
                     QStringLiteral("%1 of 4 cells finished and kept").arg(r->cells.size())),
             qPrintable(panel.statusText()));
    QVERIFY2(panel.tableText().contains("the race was cancelled") &&
                 panel.tableText().contains("cancelled  ") && !panel.tableText().contains("…  "),
             qPrintable(panel.tableText()));
    bool drawn = false;
    for (const Curve& c : panel.raceChart()->curves())
      if (!c.dashed && c.name == QString::fromStdString(first.grid)) drawn = c.x.size() == 1;
    QVERIFY(drawn);
    const QString json = dir_.filePath(QStringLiteral("cancelled.json"));
    QVERIFY(panel.saveJsonAs(json));
    std::ifstream in(json.toStdString());
    const nlohmann::json saved = nlohmann::json::parse(in);
    QCOMPARE(saved["state"].get<std::string>(), std::string("cancelled"));
    QCOMPARE(saved["cells"].size(), r->cells.size());
    panel.resize(1200, 700);
    panel.show();
    panel.findChild<QTabWidget*>()->setCurrentIndex(1);  // the Race view
    saveScreenshot(&panel, "sampling-race-cancelled");
    // A new race starts from an empty table.
    panel.startRace();
    QVERIFY(!panel.result());
    panel.cancelRace();
    QVERIFY(finished.wait(120000));
  }

  // The quick look: the pipeline's quick settings on the tab's model, named on the tab, the
  // fields left as the user set them.
  void quickLookRacesThePipelinesQuickSettings() {
    Workbench workbench;
    SamplingPanel panel(&workbench);
    prepare(panel);
    const pipeline::SampleRaceOptions quick = pipeline::SampleRaceOptions::quick();
    const QString named = QString::fromStdString(pipeline::sampleRaceSettingsText(quick));
    QVERIFY2(panel.quickLookText().contains(named) &&
                 panel.quickLookText().contains("karras?rho=7, log-sigma"),
             qPrintable(panel.quickLookText()));
    QSignalSpy finished(&panel, &SamplingPanel::raceFinished);
    panel.startQuickLook();
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.first().first().toBool(), true);
    const SampleRaceResult* r = panel.result();
    QVERIFY(r);
    QCOMPARE(r->nfe, quick.nfe);
    QCOMPARE(r->seeds, quick.seeds);
    QCOMPARE(r->samples, quick.samples);
    QCOMPARE(r->elboSamples, int64_t(0));
    QCOMPARE(r->grids.front().name, std::string("karras?rho=7"));
    QCOMPARE(r->cells.size(), r->grids.size() * quick.nfe.size());
    QCOMPARE(panel.nfeField()->text(), QStringLiteral("4 8"));  // the form as it was
  }

  // The session's profiles are offered: after a bracket on the Diagnostic tab and a loaded
  // profile, the tab lists them; the bracket's bound, picked, is written with its siblings into
  // the runs folder, its rate drawn under the grids, and a race uses it (auto reads the bracket).
  void offersTheSessionsProfiles() {
    MainWindow window;
    const QString runs = dir_.filePath(QStringLiteral("runs"));
    window.trainingPanel()->setRunsFolder(runs);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::datasetLoaded);
    window.openPath(QStringLiteral("synthetic:gaussian?n=300&d=4&seed=3"), false);
    QVERIFY(loaded.count() == 1 || loaded.wait(30000));
    DiagnosticPanel* diagnostic = window.diagnosticPanel();
    diagnostic->levelsSpin()->setValue(6);
    diagnostic->queriesSpin()->setValue(16);
    QSignalSpy measured(diagnostic, &DiagnosticPanel::diagnosticFinished);
    diagnostic->bracketButton()->click();
    QVERIFY(measured.wait(120000));

    SamplingPanel* panel = window.samplingPanel();
    QComboBox* box = panel->sessionProfileBox();
    QString bound;
    for (const auto& named : window.workbench()->profiles()) {
      QVERIFY2(box->findData(named.name) > 0, qPrintable(named.name));
      if (named.profile->kind == "bound") bound = named.name;
    }
    QVERIFY(!bound.isEmpty());
    prepare(*panel);
    panel->chooseSessionProfile(bound);
    QCOMPARE(box->currentData().toString(), bound);
    const QDir folder(QDir(runs).filePath(QStringLiteral("profiles")));
    const QStringList files = folder.entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY2(files.size() == int(window.workbench()->profiles().size()),
             qPrintable(files.join(", ")));
    QVERIFY2(files.filter(".bound.json").size() == 1 && files.filter(".empirical.json").size() == 1,
             qPrintable(files.join(", ")));
    QCOMPARE(panel->profilePath(), folder.filePath(files.filter(".bound.json").front()));
    // The profile's rate under the grids, and the data-driven grid offered with it.
    bool rate = false;
    for (const Curve& c : panel->gridChart()->curves())
      rate = rate || c.name.startsWith("profile rate");
    QVERIFY(rate);
    QVERIFY2(panel->gridPicker()->allSpecs().filter("auto").size() == 1,
             qPrintable(panel->gridPicker()->allSpecs().join(", ")));
    GridPicker* grids = panel->gridPicker();
    for (const QString& spec : grids->allSpecs())
      grids->setChecked(spec, spec == "karras?rho=7" || spec.startsWith("auto"));
    QSignalSpy finished(panel, &SamplingPanel::raceFinished);
    panel->startRace();
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.first().first().toBool(), true);
    QCOMPARE(int(panel->result()->grids.size()), 2);
    QVERIFY(panel->result()->grids.back().name.rfind("auto", 0) == 0);

    // A loaded profile is offered too; typing another file leaves the session profile.
    const QString boundFile = folder.filePath(files.filter(".bound.json").front());
    QVERIFY(diagnostic->loadProfile(boundFile).isEmpty());
    const QString loadedName = window.workbench()->profiles().back().name;
    QVERIFY(box->findData(loadedName) > 0);
    QCOMPARE(box->currentData().toString(), bound);  // the pick stays through the refill
    panel->setProfile(QString());
    QCOMPARE(box->currentIndex(), 0);
    panel->chooseSessionProfile(loadedName);
    QCOMPARE(box->currentData().toString(), loadedName);
    QVERIFY2(panel->planText().contains("heun"), qPrintable(panel->planText()));
    window.resize(1366, 768);
    window.tabs()->setCurrentWidget(panel);
    saveScreenshot(&window, "sampling-session-profile");
  }
};

QTEST_MAIN(TestSamplingPanel)
#include "test_sampling_panel.moc"
