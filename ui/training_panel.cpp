#include "ui/training_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
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
#include "pipeline/defaults.h"
#include "pipeline/environment.h"
#include "pipeline/schedules/schedule_recipe.h"
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
#include "ui/torchscript_dialog.h"
#include "ui/warning_box.h"
#include "ui/wheel_guard.h"
#include "ui/workbench.h"

namespace noisescope::ui {

namespace {

QSpinBox* intSpin(QWidget* parent, int lo, int hi, int value, int step = 1) {
  auto* box = new QSpinBox(parent);
  box->setRange(lo, hi);
  box->setValue(value);
  box->setSingleStep(step);
  return box;
}

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

}  // namespace

TrainingPanel::TrainingPanel(Workbench* workbench, QWidget* parent)
    : QWidget(parent),
      workbench_(workbench),
      hidden_(new HiddenRedraw(this, [this] { redraw(); })),
      cliPath_(defaultCliPath()) {
  const train::TrainConfig defaults;
  auto* form = new QWidget(this);
  auto* layout = new QFormLayout(form);
  dataset_ = new QLineEdit(form);
  dataset_->setPlaceholderText(tr("dataset file, folder or synthetic: spec"));
  auto* browse = new QPushButton(tr("…"), form);
  browse->setToolTip(tr("Choose a dataset file"));
  auto* datasetRow = new QHBoxLayout();
  datasetRow->addWidget(dataset_, 1);
  datasetRow->addWidget(browse);
  auto* datasetLabel = new QLabel(tr("Dataset:"), form);
  datasetLabel->setBuddy(dataset_);
  layout->addRow(datasetLabel, datasetRow);
  transform_ = new QComboBox(form);
  transform_->addItems({"none", "binarize"});
  layout->addRow(tr("Tr&ansform:"), transform_);
  model_ = new QComboBox(form);
  model_->addItems({"auto", "mlp", "unet", "conv1d"});
  model_->setToolTip(tr("auto: MLP for flat data, U-Net for images, 1-D conv net for DNA"));
  layout->addRow(tr("Networ&k:"), model_);
  width_ = intSpin(form, 8, 4096, static_cast<int>(defaults.model.width), 32);
  layout->addRow(tr("MLP &width:"), width_);
  channels_ = intSpin(form, 4, 512, static_cast<int>(defaults.model.channels), 8);
  layout->addRow(tr("U-Net / conv &channels:"), channels_);
  steps_ = intSpin(form, 1, 10000000, static_cast<int>(defaults.optim.steps), 1000);
  layout->addRow(tr("Steps:"), steps_);
  batch_ = intSpin(form, 1, 65536, static_cast<int>(defaults.optim.batchSize), 32);
  layout->addRow(tr("&Batch size:"), batch_);
  lr_ = new QDoubleSpinBox(form);
  lr_->setDecimals(6);
  lr_->setRange(1e-6, 1.0);
  lr_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  lr_->setValue(defaults.optim.lr);
  layout->addRow(tr("&Learning rate:"), lr_);
  seed_ = intSpin(form, 0, 1 << 30, static_cast<int>(defaults.optim.seed));
  layout->addRow(tr("S&eed:"), seed_);
  sampler_ = new QComboBox(form);
  sampler_->addItems({"static", "infonoise", "sqrt-entropy"});
  sampler_->setToolTip(
      tr("static: the schedule below throughout; infonoise / sqrt-entropy: "
         "warm up with it, then adapt to the measured per-bin error"));
  layout->addRow(tr("Noise sampler:"), sampler_);
  schedulePreset_ = new QComboBox(form);
  for (const auto& p : schedule::presets())
    schedulePreset_->addItem(QString::fromStdString(p.label), QString::fromStdString(p.name));
  layout->addRow(tr("Schedule (or warm-up):"), schedulePreset_);
  lossWeight_ = new QComboBox(form);
  lossWeight_->addItems({"edm", "uniform", "epsilon", "v", "min-snr"});
  layout->addRow(tr("Loss weight:"), lossWeight_);
  // A preset is trained with the weight chosen here; a schedule file with the one it carries.
  connect(schedulePreset_, &QComboBox::currentIndexChanged, this, [this] {
    const bool file =
        !train::isSchedulePreset(schedulePreset_->currentData().toString().toStdString());
    lossWeight_->setEnabled(!file);
    lossWeight_->setToolTip(file ? tr("A schedule file is trained with the loss weight it carries")
                                 : QString());
  });
  warmup_ = intSpin(form, 0, 10000000, static_cast<int>(defaults.noise.warmupSteps), 100);
  layout->addRow(tr("Warm-up steps:"), warmup_);
  refresh_ = intSpin(form, 1, 1000000, static_cast<int>(defaults.noise.refreshEvery), 50);
  layout->addRow(tr("Refresh every (steps):"), refresh_);
  bins_ = intSpin(form, 4, 1024, static_cast<int>(defaults.noise.bins));
  layout->addRow(tr("log-σ bins K:"), bins_);
  // gate_c: "auto" (pipeline/defaults.h: by the kind of data) or a number, 0 meaning no gate
  // (THEORY §6).
  auto* gateRow = new QWidget(form);
  auto* gateLayout = new QHBoxLayout(gateRow);
  gateLayout->setContentsMargins(0, 0, 0, 0);
  gateAuto_ = new QCheckBox(tr("auto"), gateRow);
  gateAuto_->setToolTip(
      tr("auto: c = %1 for continuous data, %2 for discrete data (DNA, binarised images). "
         "Off: the value on the right; 0 means no gate.")
          .arg(pipeline::defaults::autoGateC(false))
          .arg(pipeline::defaults::autoGateC(true)));
  gateAuto_->setChecked(!defaults.noise.gateC.has_value());
  gateC_ = new QDoubleSpinBox(gateRow);
  gateC_->setRange(0.0, 10.0);
  gateC_->setDecimals(3);
  gateC_->setSingleStep(0.05);
  gateC_->setValue(defaults.noise.gateC.value_or(pipeline::defaults::kGateC));
  gateC_->setSpecialValueText(tr("0 (no gate)"));
  gateC_->setEnabled(!gateAuto_->isChecked());
  connect(gateAuto_, &QCheckBox::toggled, gateC_, [this](bool on) { gateC_->setEnabled(!on); });
  gateLayout->addWidget(gateAuto_);
  gateLayout->addWidget(gateC_, 1);
  layout->addRow(tr("Gate c:"), gateRow);
  evalEvery_ = intSpin(form, 0, 10000000, static_cast<int>(defaults.eval.every), 100);
  layout->addRow(tr("E&valuate every:"), evalEvery_);
  checkpointEvery_ = intSpin(form, 1, 10000000, static_cast<int>(defaults.checkpoint.every), 100);
  layout->addRow(tr("Checkpoint every:"), checkpointEvery_);
  device_ = new QComboBox(form);
  for (const std::string& name : pipeline::deviceNames())
    device_->addItem(QString::fromStdString(name));
  layout->addRow(tr("Device:"), device_);
  // Sample quality for the race (THEORY §11): without a feature network images are scored by the
  // held-out error only, so one found beside the data is filled in (suggestFeatureNetwork).
  featureNetwork_ = new QLineEdit(form);
  featureNetwork_->setPlaceholderText(tr("none"));
  featureNetwork_->setToolTip(
      tr("TorchScript feature network from `noisescope-cli quality train-features`. Each "
         "evaluation then scores Heun samples by the Fréchet distance in its features, and the "
         "race chart plots it. A *.features.pt file beside the loaded dataset is offered; being "
         "TorchScript, it runs code when loaded, so it is loaded only once you choose it. DNA "
         "runs also get the k-mer spectrum distance without one."));
  auto* featureBrowse = new QPushButton(tr("…"), form);
  featureBrowse->setToolTip(tr("Choose a feature network file"));
  auto* featureRow = new QHBoxLayout();
  featureRow->addWidget(featureNetwork_, 1);
  featureRow->addWidget(featureBrowse);
  auto* featureLabel = new QLabel(tr("Feature network:"), form);
  featureLabel->setBuddy(featureNetwork_);
  layout->addRow(featureLabel, featureRow);
  // The note a widget row of its own, the form's full width, and its button on the next row
  // (hidden, the row takes no room): beside the button in one row layout the wrapped note was
  // given too little height and cut (1366×768, test_window_layout).
  featureNote_ = new QLabel(form);
  featureNote_->setWordWrap(true);
  featureNote_->setEnabled(false);  // a note, drawn dimmed
  layout->addRow(featureNote_);
  featureUse_ = new QPushButton(tr("&Use it"), form);
  featureUse_->setToolTip(tr("Load the feature network named above (it runs the code inside)"));
  featureUse_->setVisible(false);
  layout->addRow(static_cast<QWidget*>(nullptr), featureUse_);
  runsFolder_ = new QLineEdit(form);
  setRunsFolder(QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                    .filePath(QStringLiteral("runs")));
  layout->addRow(tr("Runs folder:"), runsFolder_);

  auto* start = new QPushButton(tr("Start ru&n"), form);
  auto* race = new QPushButton(tr("Start &race"), form);
  race->setToolTip(
      tr("Three runs with the same data, network and budget: static EDM, "
         "InfoNoise online and √-entropy online"));
  auto* quick = new QPushButton(tr("&Quick-look race"), form);
  const QString quickSettings = QString::fromStdString(pipeline::quickLookDescription());
  quick->setToolTip(tr("The same race on a small budget: %1").arg(quickSettings));
  auto* quickNote =
      new QLabel(tr("Quick look: %1. Start race: the settings above.").arg(quickSettings), form);
  quickNote->setWordWrap(true);
  quickNote->setEnabled(false);  // a note, drawn dimmed
  auto* stop = new QPushButton(tr("Sto&p"), form);
  stop->setToolTip(tr("Stop the selected run (it keeps its last checkpoint)"));
  auto* stopRaceButton = new QPushButton(tr("Stop race"), form);
  stopRaceButton->setToolTip(tr("Stop every run of the selected run's race"));
  auto* open = new QPushButton(tr("&Open run…"), form);
  auto* profile = new QPushButton(tr("Profile this run's checkpoint"), form);
  profile->setToolTip(
      tr("The selected run's newest exported denoiser, scored on the run's own held-out data; "
         "the profile appears in the Diagnostic list and the Schedules tab"));
  auto* sample = new QPushButton(tr("Race sampling &grids on this run"), form);
  sample->setToolTip(
      tr("Opens the Sampling tab on the selected run: which σ steps to sample its model with"));
  auto* buttons = new QGridLayout();
  buttons->addWidget(start, 0, 0);
  buttons->addWidget(race, 0, 1);
  buttons->addWidget(quick, 1, 1);
  buttons->addWidget(open, 1, 0);
  buttons->addWidget(quickNote, 2, 0, 1, 2);
  buttons->addWidget(stop, 3, 0);
  buttons->addWidget(stopRaceButton, 3, 1);
  buttons->addWidget(profile, 4, 0, 1, 2);
  buttons->addWidget(sample, 5, 0, 1, 2);
  layout->addRow(buttons);

  auto* scroll = new QScrollArea(this);
  scroll->setWidget(form);
  scroll->setWidgetResizable(true);
  // As wide as the form with the vertical scroll bar beside it: a narrower area covers the
  // form's right edge with its scroll bar (1366×768, test_window_layout).
  const int formWidth = form->minimumSizeHint().width() +
                        scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth();
  scroll->setMinimumWidth(formWidth);
  scroll->setMaximumWidth(std::max(400, formWidth));

  runs_ = new RunListModel(this);
  list_ = new QListView(this);
  list_->setModel(runs_);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->setAccessibleName(tr("Training runs"));
  list_->setMaximumHeight(130);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  loss_ = new CurveChart(this);
  loss_->setTitle(tr("Training loss"));
  loss_->setLogAxes(false, true);
  loss_->setAxisTitles(tr("step"), tr("weighted loss"));
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
  schedule_ = new CurveChart(this);
  schedule_->setTitle(tr("Live schedule π (selected run)"));
  schedule_->setAxisTitles(tr("noise level σ (log scale)"), tr("π (density per unit log σ)"));
  error_ = new CurveChart(this);
  error_->setTitle(tr("Per-bin x0 error (selected run) vs offline MMSE"));
  error_->setLogY(true);
  error_->setAxisTitles(tr("noise level σ (log scale)"), tr("E‖D(y;σ) − x₀‖²"));
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
  auto* charts = new QGridLayout();
  charts->addWidget(loss_, 0, 0);
  charts->addLayout(qualityArea, 0, 1);
  charts->addWidget(schedule_, 1, 0);
  charts->addLayout(errorArea, 1, 1);

  auto* right = new QVBoxLayout();
  right->addWidget(
      new QLabel(tr("Runs (checked ones are charted; the selected one below):"), this));
  right->addWidget(list_);
  right->addWidget(status_);
  right->addLayout(charts, 1);
  auto* main = new QHBoxLayout(this);
  main->addWidget(scroll);
  main->addLayout(right, 1);

  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Training data"));
    if (!path.isEmpty()) dataset_->setText(path);
  });
  connect(featureBrowse, &QPushButton::clicked, this, [this] {
    const QString path = chooseTorchScriptFile(this, tr("Feature network"));
    if (path.isEmpty()) return;
    featureNetwork_->setText(path);
    featureFound_ = false;
    featureUse_->setVisible(false);
    featureNote_->setText(tr("Chosen by you."));
  });
  connect(featureUse_, &QPushButton::clicked, this, &TrainingPanel::useSuggestedFeatureNetwork);
  connect(featureNetwork_, &QLineEdit::textEdited, this, [this] {
    featureFound_ = false;
    featureUse_->setVisible(false);
    featureNote_->setText(featureNetwork_->text().trimmed().isEmpty()
                              ? tr("None: DNA runs are ranked by the k-mer spectrum, other "
                                   "data by the ELBO-like error only.")
                              : tr("Chosen by you."));
  });
  connect(start, &QPushButton::clicked, this, [this] { startRun(); });
  connect(race, &QPushButton::clicked, this, [this] { startRace(); });
  connect(quick, &QPushButton::clicked, this, &TrainingPanel::startQuickLookRace);
  connect(stop, &QPushButton::clicked, this, &TrainingPanel::stopSelected);
  connect(stopRaceButton, &QPushButton::clicked, this, &TrainingPanel::stopRace);
  connect(profile, &QPushButton::clicked, this, &TrainingPanel::profileSelectedCheckpoint);
  connect(sample, &QPushButton::clicked, this, &TrainingPanel::raceSelectedSamplingGrids);
  connect(open, &QPushButton::clicked, this, [this] {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Open run directory"), runsFolder_->text());
    if (!dir.isEmpty()) followRun(dir);
  });
  connect(runs_, &RunListModel::checkedChanged, this, &TrainingPanel::redraw);
  connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &TrainingPanel::redraw);
  connect(workbench_, &Workbench::datasetChanged, this, [this] {
    if (const auto d = workbench_->dataset()) dataset_->setText(QString::fromStdString(d->source));
    suggestFeatureNetwork();
  });
  connect(raceMeasure_, &QComboBox::currentIndexChanged, this, &TrainingPanel::drawQuality);
  connect(overlayProfile_, &ProfileChoice::profileChanged, this, &TrainingPanel::redraw);
  connect(workbench_, &Workbench::profilesChanged, this, [this] {
    overlayProfile_->blockSignals(true);
    overlayProfile_->refill();
    overlayProfile_->blockSignals(false);
    redraw();
  });
  guardWheel(this);  // the wheel scrolls the form, not the setting under the pointer
  redraw();          // the charts' titles before the first run
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
  using pipeline::RaceMeasureId;
  std::vector<int> charted;
  std::vector<const pipeline::RunRecord*> records;
  for (int i = 0; i < runCount(); ++i)
    if (runs_->entry(i).checked && !run(i)->record().evals.empty()) {
      charted.push_back(i);
      records.push_back(&run(i)->record());
    }
  const bool secondAsked = raceMeasure_->currentIndex() == 1;
  const RaceMeasureId measure = pipeline::pickRaceMeasure(records, !secondAsked);
  QString network;  // the feature network of the Fréchet distances drawn
  std::vector<Curve> qualities;
  QString reference;
  for (int i : charted) {
    const pipeline::RunRecord& s = run(i)->record();
    Curve quality{runs_->entry(i).label, {}, {}, {}, {}, CurveChart::paletteColor(i)};
    for (const auto& e : s.evals) {
      const double y = pipeline::raceMeasureValue(measure, e);
      if (!std::isfinite(y)) continue;
      quality.x.push_back(e.step);
      quality.y.push_back(y);
      if (measure == RaceMeasureId::Fd && network.isEmpty())
        network = QString::fromStdString(e.featureNetwork);
    }
    qualities.push_back(quality);
    if (!s.reference.empty()) reference = QString::fromStdString(s.reference);
  }
  // The chart title says which measure in full; the y axis, which has less room, its unit.
  QString title;
  if (charted.empty() && !secondAsked) {
    quality_->setTitle(tr("Sample quality (FD, else k-mer JS), lower is better"));
    title = tr("sample quality");
    quality_->setToolTip(tr("Evaluations of the checked runs appear here as they arrive"));
  } else if (measure == RaceMeasureId::Fd) {
    // The network's name without ".features.pt", so the title fits a small chart.
    QString net = QFileInfo(network).fileName();
    net.chop(net.endsWith(QLatin1String(".features.pt")) ? 12 : net.endsWith(".pt") ? 3 : 0);
    quality_->setTitle(tr("Sample quality: FD in %1, lower is better").arg(net));
    title = tr("FD (feature units²)");
    quality_->setToolTip(tr("Fréchet distance between Gaussians fitted to the features of Heun "
                            "samples and of held-out data, in the feature network %1")
                             .arg(network));
  } else if (measure == RaceMeasureId::KmerJs) {
    quality_->setTitle(tr("Sample quality: k-mer spectrum distance (k = 1…6), lower is better"));
    title = tr("JS divergence (bits)");
    quality_->setToolTip(
        tr("Jensen–Shannon divergence between the k-mer spectra of generated "
           "and held-out windows, mean over k = 1…6"));
  } else {
    const QString measureName = reference == QLatin1String("edm")
                                    ? tr("held-out EDM-weighted error")
                                    : tr("held-out ELBO-like error");
    // Say why the second measure is shown: asked for, or no sample-quality score to rank by.
    quality_->setTitle(secondAsked
                           ? tr("Second measure: %1, lower is better").arg(measureName)
                           : tr("Second measure: %1 (no sample-quality score)")
                                 .arg(reference == QLatin1String("edm") ? tr("EDM-weighted error")
                                                                        : tr("ELBO-like error")));
    // Short axis title (a long one is cut off by the chart); the meaning goes in the tooltip.
    title = reference == QLatin1String("edm") ? tr("held-out error (edm)")
                                              : tr("held-out error (ELBO-like, nats/dim)");
    quality_->setToolTip(
        tr("%1: held-out x0 error integrated with the %2 weighting over log σ. It weighs small σ "
           "heavily and can rank samplers opposite to sample quality (docs/schedule-race.md).%3")
            .arg(measureName)
            .arg(reference.isEmpty() ? tr("reference") : reference)
            .arg(secondAsked ? QString()
                             : tr(" These runs carry no sample-quality score: set a feature "
                                  "network to rank by one.")));
  }
  quality_->setAxisTitles(tr("step"), title);
  quality_->setCurves(qualities);
}

void TrainingPanel::redraw() {
  // Hidden, a run's every poll and every profile change would redraw four charts for no one.
  if (hidden_->defer()) return;
  std::vector<Curve> losses;
  for (int i = 0; i < runCount(); ++i) {
    if (!runs_->entry(i).checked) continue;
    const pipeline::RunRecord& s = run(i)->record();
    Curve loss{runs_->entry(i).label, {}, {}, {}, {}, CurveChart::paletteColor(i)};
    for (const auto& p : s.train) loss.x.push_back(p.step), loss.y.push_back(p.loss);
    losses.push_back(loss);
  }
  loss_->setCurves(losses);
  drawQuality();

  const int row = currentRun();
  std::vector<Curve> snapshots, errors;
  if (row >= 0) {
    const pipeline::RunRecord& s = run(row)->record();
    const QString failure = runs_->entry(row).failure;
    // Up to six snapshots spread over the run, plus the latest: how the schedule moved.
    const size_t n = s.schedules.size();
    std::vector<size_t> picks;
    for (size_t k = 0; k < 6 && n > 0; ++k) picks.push_back(k * (n - 1) / 5);
    picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    int colour = 0;
    for (size_t pick : picks) {
      const auto& snap = s.schedules[pick];
      snapshots.push_back({tr("step %1").arg(snap.step),
                           snap.sigma,
                           snap.density,
                           {},
                           {},
                           CurveChart::paletteColor(colour++),
                           pick + 1 != n});
    }
    // Beside the online π, the π its rule gives from a frozen checkpoint's profile (the InfoNoise
    // paper's Figure 4 picture).
    schedule_->setToolTip(QString());
    bool overlaid = false;
    const int reference = referenceProfileIndex(row);
    const train::TrainConfig* config = runConfig(row);
    if (n > 0 && reference >= 0 && config) {
      const auto& named = workbench_->profiles()[reference];
      try {
        const OfflineReference r = offlineReference(*config, *named.profile, named.name);
        snapshots.push_back({r.label, r.sigma, r.density, {}, {}, QColor(Qt::black)});
        overlaid = true;
        schedule_->setToolTip(r.label + QStringLiteral("\n") + r.description);
      } catch (const std::exception& e) {
        schedule_->setToolTip(tr("no offline reference: %1").arg(e.what()));
      }
    }
    schedule_->setTitle(overlaid ? tr("Live schedule π (selected run); black: offline reference")
                                 : tr("Live schedule π (selected run)"));
    for (auto it = s.schedules.rbegin(); it != s.schedules.rend(); ++it) {
      if (it->mhat.empty()) continue;
      errors.push_back({tr("m̂ (training, step %1)").arg(it->step),
                        it->sigma,
                        it->mhat,
                        {},
                        {},
                        CurveChart::paletteColor(0)});
      break;
    }
    if (!s.evals.empty())
      errors.push_back({tr("held-out (step %1)").arg(s.evals.back().step),
                        s.evals.back().sigma,
                        s.evals.back().error,
                        {},
                        {},
                        CurveChart::paletteColor(1)});
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
                  .arg(s.threads == 1  ? tr("1 torch thread")
                       : s.threads > 1 ? tr("%1 torch threads").arg(s.threads)
                                       : tr("threads not recorded"))
                  .arg(s.schedules.size())
                  .arg(s.evals.size())
                  .arg(notes.isEmpty()
                           ? QString()
                           : tr(" · %1 unreadable event lines skipped · latest note: %2")
                                 .arg(s.malformedLines)
                                 .arg(notes.last())));
    // Every recent note (skipped lines, a file read again) on hover.
    status_->setToolTip(notes.join(QLatin1Char('\n')));
  }
  const QString overlay = overlayProfile_->profileName();
  if (const auto p = workbench_->profile(overlay); p && !p->estimates.empty())
    errors.push_back({tr("offline MMSE: %1").arg(overlay),
                      p->sigma,
                      p->primary().mean,
                      {},
                      {},
                      CurveChart::paletteColor(2),
                      true});
  schedule_->setCurves(snapshots);
  error_->setCurves(errors);
}

}  // namespace noisescope::ui
