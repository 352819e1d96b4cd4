#include "ui/training_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QThread>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

#include "data/dataset.h"
#include "pipeline/training/run_watch.h"
#include "pipeline/training/schedule_race.h"
#include "pipeline/training/train_config_file.h"
#include "profile/profile.h"
#include "train/train_config.h"
#include "ui/curve_chart.h"
#include "ui/feature_network_finder.h"
#include "ui/hidden_redraw.h"
#include "ui/offline_reference.h"
#include "ui/profile_choice.h"
#include "ui/run_list_model.h"
#include "ui/run_monitor.h"
#include "ui/warning_box.h"
#include "ui/wheel_guard.h"
#include "ui/workbench.h"

namespace noisescope::ui {

namespace {

QString defaultCliPath() {
  const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath("noisescope-cli");
  if (QFileInfo(beside).isExecutable()) return beside;
  const QString fromPath = QStandardPaths::findExecutable(QStringLiteral("noisescope-cli"));
  return fromPath.isEmpty() ? beside : fromPath;
}

// The trainer reads a config's relative paths from the config's folder (the runs folder), so a
// file named relative to the workbench's working directory is written out in full.
QString absoluteIfFile(const QString& path) {
  const QFileInfo info(path);
  return !path.isEmpty() && info.isRelative() && info.exists() ? info.absoluteFilePath() : path;
}

QString samplerLabel(const QString& sampler) {
  if (sampler == "infonoise") return QObject::tr("InfoNoise online");
  if (sampler == "sqrt-entropy") return QObject::tr("√-entropy online");
  return QObject::tr("static");
}

// Up to six snapshots spread over the run, plus the latest: how the schedule moved.
std::vector<Curve> scheduleSnapshots(const pipeline::RunRecord& s) {
  const size_t n = s.schedules.size();
  std::vector<size_t> picks;
  for (size_t k = 0; k < 6 && n > 0; ++k) picks.push_back(k * (n - 1) / 5);
  picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
  std::vector<Curve> snapshots;
  int colour = 0;
  for (size_t pick : picks) {
    const auto& snap = s.schedules[pick];
    snapshots.push_back({TrainingPanel::tr("step %1").arg(snap.step),
                         snap.sigma,
                         snap.density,
                         {},
                         {},
                         CurveChart::paletteColor(colour++),
                         pick + 1 != n});
  }
  return snapshots;
}

// The run's own error estimates: the newest training m̂, then the newest held-out evaluation.
std::vector<Curve> trainingErrorCurves(const pipeline::RunRecord& s) {
  std::vector<Curve> errors;
  for (auto it = s.schedules.rbegin(); it != s.schedules.rend(); ++it) {
    if (it->mhat.empty()) continue;
    errors.push_back({TrainingPanel::tr("m̂ (training, step %1)").arg(it->step),
                      it->sigma,
                      it->mhat,
                      {},
                      {},
                      CurveChart::paletteColor(0)});
    break;
  }
  if (!s.evals.empty())
    errors.push_back({TrainingPanel::tr("held-out (step %1)").arg(s.evals.back().step),
                      s.evals.back().sigma,
                      s.evals.back().error,
                      {},
                      {},
                      CurveChart::paletteColor(1)});
  return errors;
}

QString threadsText(int threads) {
  return threads == 1  ? TrainingPanel::tr("1 torch thread")
         : threads > 1 ? TrainingPanel::tr("%1 torch threads").arg(threads)
                       : TrainingPanel::tr("threads not recorded");
}

}  // namespace

TrainingPanel::TrainingPanel(Workbench* workbench, QWidget* parent)
    : QWidget(parent),
      workbench_(workbench),
      hidden_(new HiddenRedraw(this, [this] { redraw(); })),
      cliPath_(defaultCliPath()) {
  QScrollArea* scroll = formScrollArea(buildForm());
  QVBoxLayout* right = buildRunsSide();
  auto* main = new QHBoxLayout(this);
  main->addWidget(scroll);
  main->addLayout(right, 1);
  followWorkbench();
  guardWheel(this);  // the wheel scrolls the form, not the setting under the pointer
  redraw();          // the charts' titles before the first run
}

QVBoxLayout* TrainingPanel::buildRunsSide() {
  buildRunList();
  QGridLayout* charts = buildCharts();
  auto* right = new QVBoxLayout();
  right->addWidget(
      new QLabel(tr("Runs (checked ones are charted; the selected one below):"), this));
  right->addWidget(list_);
  right->addWidget(status_);
  right->addLayout(charts, 1);
  return right;
}

void TrainingPanel::buildRunList() {
  runs_ = new RunListModel(this);
  list_ = new QListView(this);
  list_->setModel(runs_);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->setAccessibleName(tr("Training runs"));
  fitRunListHeight();
  connect(runs_, &QAbstractItemModel::rowsInserted, this, &TrainingPanel::fitRunListHeight);
  connect(runs_, &QAbstractItemModel::rowsRemoved, this, &TrainingPanel::fitRunListHeight);
  connect(runs_, &QAbstractItemModel::modelReset, this, &TrainingPanel::fitRunListHeight);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  connect(runs_, &RunListModel::checkedChanged, this, &TrainingPanel::redraw);
  connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &TrainingPanel::redraw);
}

// As tall as its runs, from 3 to 6 rows (then it scrolls): every empty row it kept was taken from
// the four charts below it, whose axis labels Qt Charts elides to "..." at 1366×768.
void TrainingPanel::fitRunListHeight() {
  const int rows = std::clamp(runs_->rowCount(), 3, 6);
  const int row = std::max(list_->sizeHintForRow(0), list_->fontMetrics().height() + 4);
  list_->setFixedHeight(rows * row + 2 * list_->frameWidth());
}

QGridLayout* TrainingPanel::buildCharts() {
  loss_ = new CurveChart(this);
  loss_->setTitle(tr("Training loss"));
  loss_->setLogAxes(false, true);
  loss_->setAxisTitles(tr("step"), tr("weighted loss"));
  QVBoxLayout* qualityArea = buildQualityArea();
  schedule_ = new CurveChart(this);
  schedule_->setTitle(tr("Live schedule π (selected run)"));
  schedule_->setAxisTitles(tr("noise level σ (log scale)"), tr("π per log σ"));
  QVBoxLayout* errorArea = buildErrorArea();
  auto* charts = new QGridLayout();
  charts->addWidget(loss_, 0, 0);
  charts->addLayout(qualityArea, 0, 1);
  charts->addWidget(schedule_, 1, 0);
  charts->addLayout(errorArea, 1, 1);
  return charts;
}

// The race chart under the choice of what ranks it.
QVBoxLayout* TrainingPanel::buildQualityArea() {
  quality_ = new CurveChart(this);
  quality_->setLogAxes(false, true);
  // Sample quality first: the ELBO-like error ranks the race's samplers in the opposite order
  // (docs/schedule-race.md), so it is only ever the second measure.
  raceMeasure_ = new QComboBox(this);
  // The measures and their order are the pipeline's (pipeline/training/schedule_race.h).
  QStringList sampleQuality;
  for (const auto& m : pipeline::raceMeasures())
    if (m.sampleQuality) sampleQuality << QString::fromStdString(m.name);
  raceMeasure_->addItem(tr("Sample quality (%1)").arg(sampleQuality.join(tr(", else "))));
  raceMeasure_->addItem(tr("Second measure: %1")
                            .arg(QString::fromStdString(
                                pipeline::raceMeasure(pipeline::RaceMeasureId::HeldOut).name)));
  raceMeasure_->setAccessibleName(tr("Race measure"));
  auto* measureLabel = new QLabel(tr("Race ranked b&y:"), this);
  measureLabel->setBuddy(raceMeasure_);
  auto* measureRow = new QHBoxLayout();
  measureRow->addWidget(measureLabel);
  measureRow->addWidget(raceMeasure_, 1);
  auto* qualityArea = new QVBoxLayout();
  qualityArea->addLayout(measureRow);
  qualityArea->addWidget(quality_, 1);
  connect(raceMeasure_, &QComboBox::currentIndexChanged, this, &TrainingPanel::drawQuality);
  return qualityArea;
}

// The per-bin error chart under the choice of the profile drawn as the offline MMSE.
QVBoxLayout* TrainingPanel::buildErrorArea() {
  error_ = new CurveChart(this);
  error_->setTitle(tr("Per-bin x0 error (selected run) vs offline MMSE"));
  error_->setLogY(true);
  error_->setAxisTitles(tr("noise level σ (log scale)"), tr("E‖D − x₀‖²"));
  overlayProfile_ = new ProfileChoice(workbench_, tr("(none)"), this);
  overlayProfile_->setAccessibleName(tr("Profile for the offline MMSE overlay"));
  auto* overlayLabel = new QLabel(tr("Offline MMSE from profile:"), this);
  overlayLabel->setBuddy(overlayProfile_);
  auto* overlayRow = new QHBoxLayout();
  overlayRow->addWidget(overlayLabel);
  overlayRow->addWidget(overlayProfile_, 1);
  auto* errorArea = new QVBoxLayout();
  errorArea->addLayout(overlayRow);
  errorArea->addWidget(error_, 1);
  connect(overlayProfile_, &ProfileChoice::profileChanged, this, &TrainingPanel::redraw);
  return errorArea;
}

// A loaded dataset becomes the next run's data; a changed profile list, the overlay's choices.
void TrainingPanel::followWorkbench() {
  connect(workbench_, &Workbench::datasetChanged, this, [this] {
    if (const auto d = workbench_->dataset()) dataset_->setText(QString::fromStdString(d->source));
    suggestFeatureNetwork();
  });
  connect(workbench_, &Workbench::profilesChanged, this, [this] {
    overlayProfile_->blockSignals(true);
    overlayProfile_->refill();
    overlayProfile_->blockSignals(false);
    redraw();
  });
}

void TrainingPanel::suggestFeatureNetwork() {
  if (!featureFound_ && !featureNetwork_->text().trimmed().isEmpty()) return;  // the user's pick
  const auto dataset = workbench_->dataset();
  std::optional<QString> found;
  if (dataset) found = featureNetworkBeside(QString::fromStdString(dataset->source));
  featureFound_ = false;
  featureSuggested_ = found.value_or(QString());
  featureUse_->setVisible(found.has_value());
  featureNetwork_->clear();
  if (found)
    featureNote_->setText(
        tr("Beside the data: %1. A TorchScript file runs the code inside it when loaded, so it "
           "is loaded only if you choose it.")
            .arg(QFileInfo(*found).fileName()));
  else if (dataset && dataset->kind == SampleKind::Sequence)
    featureNote_->setText(tr("None beside the data: DNA runs are ranked by the k-mer spectrum."));
  else
    featureNote_->setText(
        tr("None beside the data: the race falls back to the ELBO-like error. Make one with "
           "`noisescope-cli quality train-features DATA --out FOLDER/NAME.features.pt`."));
}

void TrainingPanel::useSuggestedFeatureNetwork() {
  const auto dataset = workbench_->dataset();
  if (featureSuggested_.isEmpty() || !dataset) return;
  const CheckedFeatureNetwork checked =
      checkFeatureNetwork(featureSuggested_, dataset->sampleShape);
  featureUse_->setVisible(false);
  if (!checked.problem.isEmpty()) {
    featureNote_->setText(tr("Not used: %1.").arg(checked.problem));
    return;
  }
  featureNetwork_->setText(featureSuggested_);
  featureFound_ = true;
  featureNote_->setText(tr("Chosen by you, from beside the data: %1.").arg(checked.description));
}

void TrainingPanel::setRunsFolder(const QString& path) {
  runsFolder_->setText(path);
}

QString TrainingPanel::runsFolder() const {
  return runsFolder_->text();
}

void TrainingPanel::useScheduleFile(const QString& path, const QString& label) {
  int index = schedulePreset_->findData(path);
  if (index < 0) {
    schedulePreset_->addItem(tr("%1 (Schedules tab)").arg(label), path);
    index = schedulePreset_->count() - 1;
    schedulePreset_->setItemData(index, path, Qt::ToolTipRole);
  }
  schedulePreset_->setCurrentIndex(index);
}

int TrainingPanel::threadShare(int concurrentRuns) {
  return std::max(1, QThread::idealThreadCount() / std::max(1, concurrentRuns));
}

int TrainingPanel::runCount() const {
  return runs_->count();
}

RunMonitor* TrainingPanel::run(int index) const {
  return runs_->entry(index).monitor;
}

int TrainingPanel::currentRun() const {
  const QModelIndex current = list_->currentIndex();
  return current.isValid() ? current.row() : -1;
}

void TrainingPanel::selectRun(int row) {
  list_->setCurrentIndex(runs_->index(row));
}

int TrainingPanel::runningCount() const {
  const auto& entries = runs_->entries();
  return static_cast<int>(std::count_if(entries.begin(), entries.end(),
                                        [](const RunEntry& e) { return e.monitor->isRunning(); }));
}

QString TrainingPanel::startRun(const QString& sampler, int threads) {
  return launch(sampler, threads > 0 ? threads : threadShare(runningCount() + 1), -1,
                RaceRole::None);
}

QString TrainingPanel::launch(const QString& samplerOverride, int threads, int race, RaceRole role,
                              bool quickLook) {
  const QString sampler = samplerOverride.isEmpty() ? sampler_->currentText() : samplerOverride;
  const QString stamp =
      QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
  const QString directory = QDir(runsFolder_->text()).filePath(stamp + QLatin1Char('-') + sampler);
  const QString configPath = directory + QStringLiteral(".config.json");
  if (!writeRunConfig(configPath, sampler, threads, quickLook)) return {};
  auto* monitor = new RunMonitor(directory, this);
  const QString label = QStringLiteral("%1 · %2").arg(samplerLabel(sampler), stamp);
  addMonitor(monitor, quickLook ? tr("%1 · quick look").arg(label) : label, race, role);
  monitor->start(cliPath_, configPath);
  return directory;
}

bool TrainingPanel::writeRunConfig(const QString& configPath, const QString& samplerOverride,
                                   int threads, bool quickLook) {
  const QString sampler = samplerOverride.isEmpty() ? sampler_->currentText() : samplerOverride;
  train::TrainConfig config;
  config.dataset.path = absoluteIfFile(dataset_->text().trimmed()).toStdString();
  config.dataset.transform = transform_->currentText().toStdString();
  config.model.kind = model_->currentText().toStdString();
  config.model.width = width_->value();
  config.model.channels = channels_->value();
  config.optim.steps = steps_->value();
  config.optim.batchSize = batch_->value();
  config.optim.lr = lr_->value();
  config.optim.seed = static_cast<uint64_t>(seed_->value());
  config.optim.device = device_->currentText().toStdString();
  config.optim.threads = threads;
  config.noise.sampler = sampler.toStdString();
  config.noise.schedule = schedulePreset_->currentData().toString().toStdString();
  config.noise.lossWeight = lossWeight_->currentText().toStdString();
  config.noise.warmupSteps = warmup_->value();
  config.noise.refreshEvery = refresh_->value();
  config.noise.bins = bins_->value();
  if (gateAuto_->isChecked())
    config.noise.gateC.reset();
  else
    config.noise.gateC = gateC_->value();
  config.eval.every = evalEvery_->value();
  config.checkpoint.every = checkpointEvery_->value();
  config.eval.featureNetwork = absoluteIfFile(featureNetwork_->text().trimmed()).toStdString();
  if (quickLook) pipeline::applyQuickLook(config);

  const QString folder = QFileInfo(configPath).absolutePath();
  try {
    if (!QDir().mkpath(folder))
      throw std::runtime_error(tr("cannot create the runs folder %1").arg(folder).toStdString());
    pipeline::writeTrainConfigFile(configPath.toStdString(), config);
    return true;
  } catch (const std::exception& e) {
    showWarning(this, tr("Cannot start training"), QString::fromStdString(e.what()));
    return false;
  }
}

void TrainingPanel::startRace() {
  launchRace(false);
}

void TrainingPanel::startQuickLookRace() {
  launchRace(true);
}

void TrainingPanel::launchRace(bool quickLook) {
  // The three run at once: each gets a third of the cores (with any runs already going).
  const auto& entrants = pipeline::scheduleRaceEntrants();
  const int threads = threadShare(runningCount() + static_cast<int>(entrants.size()));
  const int race = races_++;
  for (const pipeline::RaceEntrant& r : entrants) {
    if (launch(QString::fromStdString(r.sampler), threads, race, r.role, quickLook).isEmpty())
      return;
  }
}

int TrainingPanel::stopRace() {
  int race = currentRun() >= 0 ? runs_->entry(currentRun()).race : -1;
  for (int i = runCount() - 1; race < 0 && i >= 0; --i)
    if (runs_->entry(i).race >= 0 && run(i)->isRunning()) race = runs_->entry(i).race;
  int stopped = 0;
  for (int i = 0; race >= 0 && i < runCount(); ++i)
    if (runs_->entry(i).race == race && run(i)->isRunning()) {
      run(i)->stop();
      ++stopped;
    }
  return stopped;
}

void TrainingPanel::followRun(const QString& directory) {
  auto* monitor = new RunMonitor(directory, this);
  addMonitor(monitor, QFileInfo(directory).fileName(), -1, RaceRole::None);
  monitor->poll();
}

void TrainingPanel::addMonitor(RunMonitor* monitor, const QString& label, int race, RaceRole role) {
  RunEntry entry;
  entry.monitor = monitor;
  entry.label = label;
  entry.race = race;
  entry.role = role;
  const int row = runs_->append(std::move(entry));
  connect(monitor, &RunMonitor::updated, this, [this, row] {
    requestReferenceProfiles();
    runs_->refresh(row);
    redraw();
    Q_EMIT runsUpdated();
  });
  connect(monitor, &RunMonitor::processFinished, this, [this, row](int, const QString& message) {
    runs_->setFailure(row, message);
    redraw();
    Q_EMIT runsUpdated();
  });
  selectRun(row);
}

void TrainingPanel::profileSelectedCheckpoint() {
  const int row = currentRun();
  if (row < 0) {
    QMessageBox::information(this, tr("Profile a checkpoint"), tr("Select a run first."));
    return;
  }
  Q_EMIT checkpointProfileRequested(run(row)->runDirectory());
}

void TrainingPanel::raceSelectedSamplingGrids() {
  const int row = currentRun();
  if (row < 0) {
    QMessageBox::information(this, tr("Race sampling grids"), tr("Select a run first."));
    return;
  }
  Q_EMIT samplingRaceRequested(run(row)->runDirectory());
}

void TrainingPanel::stopSelected() {
  if (const int row = currentRun(); row >= 0) run(row)->stop();
}

const train::TrainConfig* TrainingPanel::runConfig(int index) {
  RunEntry& entry = runs_->entry(index);
  if (entry.config) return entry.config.get();
  // The trainer writes the resolved config.json when the run starts (gate c and σ_data filled in).
  const QString path = QDir(entry.monitor->runDirectory()).filePath(QStringLiteral("config.json"));
  if (!entry.monitor->record().started || !QFileInfo::exists(path)) return nullptr;
  try {
    entry.config = std::make_shared<const train::TrainConfig>(
        train::readTrainConfig(QFile::encodeName(path).toStdString()));
  } catch (const std::exception&) {
    return nullptr;  // not a config this version reads: no overlay for the run
  }
  return entry.config.get();
}

int TrainingPanel::referenceProfileIndex(int row) {
  const auto& profiles = workbench_->profiles();
  const int baseline = runs_->find(runs_->entry(row).race, RaceRole::Baseline);
  const std::string edmRun =
      baseline >= 0 ? run(baseline)->runDirectory().toStdString() : std::string();
  int newest = -1;
  for (int k = 0; k < static_cast<int>(profiles.size()); ++k) {
    const Profile& p = *profiles[k].profile;
    if (p.kind != "checkpoint" || p.estimates.empty()) continue;
    newest = k;
    if (!edmRun.empty() && p.provenance.is_object() &&
        p.provenance.value("run_directory", std::string()) == edmRun)
      return k;  // the race's own frozen EDM checkpoint
  }
  return newest;
}

void TrainingPanel::requestReferenceProfiles() {
  for (const auto& named : workbench_->profiles())
    if (named.profile->kind == "checkpoint") return;  // one is loaded: the overlay uses it
  for (int i = 0; i < runCount(); ++i) {
    RunEntry& entry = runs_->entry(i);
    if (entry.role != RaceRole::Baseline || entry.referenceAsked || !entry.monitor->record().ended)
      continue;
    entry.referenceAsked = true;
    Q_EMIT referenceProfileRequested(entry.monitor->runDirectory());
  }
}

void TrainingPanel::drawQuality() {
  if (hidden_->defer()) return;  // behind another tab: drawn when shown
  // The race is judged by sample quality (THEORY §11) when every charted run's evaluations carry
  // the same measure; the held-out error integral only when asked for, or when they carry none.
  // Which measure that is, is the pipeline's choice (pipeline/training/schedule_race.h).
  std::vector<int> charted;
  std::vector<const pipeline::RunRecord*> records;
  for (int i = 0; i < runCount(); ++i)
    if (runs_->entry(i).checked && !run(i)->record().evals.empty()) {
      charted.push_back(i);
      records.push_back(&run(i)->record());
    }
  const bool secondAsked = raceMeasure_->currentIndex() == 1;
  const pipeline::RaceMeasureId measure = pipeline::pickRaceMeasure(records, !secondAsked);
  QString network, reference;
  const std::vector<Curve> qualities = qualityCurves(charted, measure, network, reference);
  const QString yTitle =
      titleQualityChart(measure, charted.empty(), secondAsked, network, reference);
  quality_->setAxisTitles(tr("step"), yTitle);
  quality_->setCurves(qualities);
}

std::vector<Curve> TrainingPanel::qualityCurves(const std::vector<int>& charted,
                                                pipeline::RaceMeasureId measure, QString& network,
                                                QString& reference) {
  std::vector<Curve> qualities;
  for (int i : charted) {
    const pipeline::RunRecord& s = run(i)->record();
    Curve quality{runs_->entry(i).label, {}, {}, {}, {}, CurveChart::paletteColor(i)};
    for (const auto& e : s.evals) {
      const double y = pipeline::raceMeasureValue(measure, e);
      if (!std::isfinite(y)) continue;
      quality.x.push_back(e.step);
      quality.y.push_back(y);
      if (measure == pipeline::RaceMeasureId::Fd && network.isEmpty())
        network = QString::fromStdString(e.featureNetwork);
    }
    qualities.push_back(quality);
    if (!s.reference.empty()) reference = QString::fromStdString(s.reference);
  }
  return qualities;
}

QString TrainingPanel::titleQualityChart(pipeline::RaceMeasureId measure, bool nothingCharted,
                                         bool secondAsked, const QString& network,
                                         const QString& reference) {
  using pipeline::RaceMeasureId;
  // The chart title says which measure in full; the y axis, which has less room, its unit.
  if (nothingCharted && !secondAsked) {
    quality_->setTitle(tr("Sample quality (FD, else k-mer JS), lower is better"));
    quality_->setToolTip(tr("Evaluations of the checked runs appear here as they arrive"));
    return tr("sample quality");
  }
  if (measure == RaceMeasureId::Fd) {
    // The network's name without ".features.pt", so the title fits a small chart.
    QString net = QFileInfo(network).fileName();
    net.chop(net.endsWith(QLatin1String(".features.pt")) ? 12 : net.endsWith(".pt") ? 3 : 0);
    quality_->setTitle(tr("Sample quality: FD in %1, lower is better").arg(net));
    quality_->setToolTip(tr("Fréchet distance between Gaussians fitted to the features of Heun "
                            "samples and of held-out data, in the feature network %1")
                             .arg(network));
    return tr("FD (units²)");
  }
  if (measure == RaceMeasureId::KmerJs) {
    quality_->setTitle(tr("Sample quality: k-mer spectrum distance (k = 1…6), lower is better"));
    quality_->setToolTip(
        tr("Jensen–Shannon divergence between the k-mer spectra of generated "
           "and held-out windows, mean over k = 1…6"));
    return tr("JS (bits)");
  }
  const bool edm = reference == QLatin1String("edm");
  const QString measureName =
      edm ? tr("held-out EDM-weighted error") : tr("held-out ELBO-like error");
  // Say why the second measure is shown: asked for, or no sample-quality score to rank by.
  quality_->setTitle(secondAsked
                         ? tr("Second measure: %1, lower is better").arg(measureName)
                         : tr("Second measure: %1 (no sample-quality score)")
                               .arg(edm ? tr("EDM-weighted error") : tr("ELBO-like error")));
  quality_->setToolTip(
      tr("%1: held-out x0 error integrated with the %2 weighting over log σ. It weighs small σ "
         "heavily and can rank samplers opposite to sample quality (docs/schedule-race.md).%3")
          .arg(measureName)
          .arg(reference.isEmpty() ? tr("reference") : reference)
          .arg(secondAsked ? QString()
                           : tr(" These runs carry no sample-quality score: set a feature "
                                "network to rank by one.")));
  // Short axis title (a long one is cut off by the chart at 1366×768); the title names the measure
  // and the tooltip says what it is.
  return edm ? tr("error (EDM)") : tr("error (nats/dim)");
}

void TrainingPanel::redraw() {
  // Hidden, a run's every poll and every profile change would redraw four charts for no one.
  if (hidden_->defer()) return;
  drawLosses();
  drawQuality();
  const int row = currentRun();
  if (row >= 0) showRunStatus(row);
  drawSchedules(row);
  drawErrors(row);
}

void TrainingPanel::drawLosses() {
  std::vector<Curve> losses;
  for (int i = 0; i < runCount(); ++i) {
    if (!runs_->entry(i).checked) continue;
    const pipeline::RunRecord& s = run(i)->record();
    Curve loss{runs_->entry(i).label, {}, {}, {}, {}, CurveChart::paletteColor(i)};
    for (const auto& p : s.train) loss.x.push_back(p.step), loss.y.push_back(p.loss);
    losses.push_back(loss);
  }
  loss_->setCurves(losses);
}

void TrainingPanel::drawSchedules(int row) {
  std::vector<Curve> curves;
  if (row >= 0) {
    curves = scheduleSnapshots(run(row)->record());
    const std::optional<Curve> reference = offlineReferenceCurve(row);
    if (reference) curves.push_back(*reference);
    schedule_->setTitle(reference ? tr("Live schedule π (selected run); black: offline reference")
                                  : tr("Live schedule π (selected run)"));
  }
  schedule_->setCurves(curves);
}

// Beside the online π, the π its rule gives from a frozen checkpoint's profile (the InfoNoise
// paper's Figure 4 picture); the chart's tooltip says which, or why there is none.
std::optional<Curve> TrainingPanel::offlineReferenceCurve(int row) {
  schedule_->setToolTip(QString());
  const int reference = referenceProfileIndex(row);
  const train::TrainConfig* config = runConfig(row);
  if (run(row)->record().schedules.empty() || reference < 0 || !config) return std::nullopt;
  const auto& named = workbench_->profiles()[reference];
  try {
    const OfflineReference r = offlineReference(*config, *named.profile, named.name);
    schedule_->setToolTip(r.label + QStringLiteral("\n") + r.description);
    return Curve{r.label, r.sigma, r.density, {}, {}, QColor(Qt::black)};
  } catch (const std::exception& e) {
    schedule_->setToolTip(tr("no offline reference: %1").arg(e.what()));
    return std::nullopt;
  }
}

void TrainingPanel::drawErrors(int row) {
  std::vector<Curve> errors;
  if (row >= 0) errors = trainingErrorCurves(run(row)->record());
  const QString overlay = overlayProfile_->profileName();
  if (const auto p = workbench_->profile(overlay); p && !p->estimates.empty())
    errors.push_back({tr("offline MMSE: %1").arg(overlay),
                      p->sigma,
                      p->primary().mean,
                      {},
                      {},
                      CurveChart::paletteColor(2),
                      true});
  error_->setCurves(errors);
}

void TrainingPanel::showRunStatus(int row) {
  const pipeline::RunRecord& s = run(row)->record();
  const QString failure = runs_->entry(row).failure;
  QStringList notes;
  for (const std::string& note : s.notes) notes << QString::fromStdString(note);
  const QString stopped =
      run(row)->stoppedByUser()
          ? tr("Stopped by you at step %1 · ").arg(s.train.empty() ? 0 : s.train.back().step)
          : QString();
  status_->setText(
      !failure.isEmpty() ? failure
      : !s.error.empty()
          ? tr("The run stopped: %1").arg(QString::fromStdString(s.error))
          : tr("%1%2 · sampler %3 · %4 · %5 schedule events · %6 evaluations%7")
                .arg(stopped)
                .arg(run(row)->runDirectory())
                .arg(s.sampler.empty() ? tr("starting") : QString::fromStdString(s.sampler))
                .arg(threadsText(s.threads))
                .arg(s.schedules.size())
                .arg(s.evals.size())
                .arg(notes.isEmpty() ? QString()
                                     : tr(" · %1 unreadable event lines skipped · latest note: %2")
                                           .arg(s.malformedLines)
                                           .arg(notes.last())));
  // Every recent note (skipped lines, a file read again) on hover.
  status_->setToolTip(notes.join(QLatin1Char('\n')));
}

}  // namespace noisescope::ui
