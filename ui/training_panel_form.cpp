// The Training panel's settings form: one function per group of rows, in the order the user reads
// (and tabs through) them, then the buttons that start, stop and follow runs.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>

#include <algorithm>

#include "pipeline/defaults.h"
#include "pipeline/environment.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "pipeline/training/schedule_race.h"
#include "train/train_config.h"
#include "ui/torchscript_dialog.h"
#include "ui/training_panel.h"

namespace noisescope::ui {

namespace {

QSpinBox* intSpin(QWidget* parent, int lo, int hi, int value, int step = 1) {
  auto* box = new QSpinBox(parent);
  box->setRange(lo, hi);
  box->setValue(value);
  box->setSingleStep(step);
  return box;
}

}  // namespace

QWidget* TrainingPanel::buildForm() {
  const train::TrainConfig defaults;
  auto* form = new QWidget(this);
  auto* layout = new QFormLayout(form);
  addDatasetRows(form, layout);
  addNetworkRows(form, layout, defaults);
  addOptimiserRows(form, layout, defaults);
  addNoiseSamplerRows(form, layout, defaults);
  addCadenceAndDeviceRows(form, layout, defaults);
  addFeatureNetworkRows(form, layout);
  addRunsFolderRow(form, layout);
  addRunButtons(form, layout);
  return form;
}

void TrainingPanel::addDatasetRows(QWidget* form, QFormLayout* layout) {
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
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Training data"));
    if (!path.isEmpty()) dataset_->setText(path);
  });
}

void TrainingPanel::addNetworkRows(QWidget* form, QFormLayout* layout,
                                   const train::TrainConfig& defaults) {
  model_ = new QComboBox(form);
  model_->addItems({"auto", "mlp", "unet", "conv1d"});
  model_->setToolTip(tr("auto: MLP for flat data, U-Net for images, 1-D conv net for DNA"));
  layout->addRow(tr("Networ&k:"), model_);
  width_ = intSpin(form, 8, 4096, static_cast<int>(defaults.model.width), 32);
  layout->addRow(tr("MLP &width:"), width_);
  channels_ = intSpin(form, 4, 512, static_cast<int>(defaults.model.channels), 8);
  layout->addRow(tr("U-Net / conv &channels:"), channels_);
}

void TrainingPanel::addOptimiserRows(QWidget* form, QFormLayout* layout,
                                     const train::TrainConfig& defaults) {
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
}

void TrainingPanel::addNoiseSamplerRows(QWidget* form, QFormLayout* layout,
                                        const train::TrainConfig& defaults) {
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
  addGateRow(form, layout, defaults);
}

// gate_c: "auto" (pipeline/defaults.h: by the kind of data) or a number, 0 meaning no gate
// (THEORY §6).
void TrainingPanel::addGateRow(QWidget* form, QFormLayout* layout,
                               const train::TrainConfig& defaults) {
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
}

void TrainingPanel::addCadenceAndDeviceRows(QWidget* form, QFormLayout* layout,
                                            const train::TrainConfig& defaults) {
  evalEvery_ = intSpin(form, 0, 10000000, static_cast<int>(defaults.eval.every), 100);
  layout->addRow(tr("E&valuate every:"), evalEvery_);
  checkpointEvery_ = intSpin(form, 1, 10000000, static_cast<int>(defaults.checkpoint.every), 100);
  layout->addRow(tr("Checkpoint every:"), checkpointEvery_);
  device_ = new QComboBox(form);
  for (const std::string& name : pipeline::deviceNames())
    device_->addItem(QString::fromStdString(name));
  layout->addRow(tr("Device:"), device_);
}

// Sample quality for the race (THEORY §11): without a feature network images are scored by the
// held-out error only, so one found beside the data is offered (suggestFeatureNetwork).
void TrainingPanel::addFeatureNetworkRows(QWidget* form, QFormLayout* layout) {
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
  followFeatureNetworkChoice(featureBrowse);
}

// A network the user picks or types replaces the suggestion, and the note says so.
void TrainingPanel::followFeatureNetworkChoice(QPushButton* browse) {
  connect(browse, &QPushButton::clicked, this, [this] {
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
}

void TrainingPanel::addRunsFolderRow(QWidget* form, QFormLayout* layout) {
  runsFolder_ = new QLineEdit(form);
  setRunsFolder(QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                    .filePath(QStringLiteral("runs")));
  layout->addRow(tr("Runs folder:"), runsFolder_);
}

void TrainingPanel::addRunButtons(QWidget* form, QFormLayout* layout) {
  // A button: its label, what it does (on hover) and its action, connected as it is made.
  auto button = [this, form](const QString& text, const QString& tip, auto action) {
    auto* b = new QPushButton(text, form);
    if (!tip.isEmpty()) b->setToolTip(tip);
    connect(b, &QPushButton::clicked, this, action);
    return b;
  };
  auto* start = button(tr("Start ru&n"), {}, [this] { startRun(); });
  auto* race = button(tr("Start &race"),
                      tr("Three runs with the same data, network and budget: static EDM, "
                         "InfoNoise online and √-entropy online"),
                      [this] { startRace(); });
  const QString quickSettings = QString::fromStdString(pipeline::quickLookDescription());
  auto* quick =
      button(tr("&Quick-look race"), tr("The same race on a small budget: %1").arg(quickSettings),
             &TrainingPanel::startQuickLookRace);
  auto* quickNote =
      new QLabel(tr("Quick look: %1. Start race: the settings above.").arg(quickSettings), form);
  quickNote->setWordWrap(true);
  quickNote->setEnabled(false);  // a note, drawn dimmed
  auto* stop = button(tr("Sto&p"), tr("Stop the selected run (it keeps its last checkpoint)"),
                      &TrainingPanel::stopSelected);
  auto* stopRaceButton = button(tr("Stop race"), tr("Stop every run of the selected run's race"),
                                &TrainingPanel::stopRace);
  auto* open = button(tr("&Open run…"), {}, [this] {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Open run directory"), runsFolder_->text());
    if (!dir.isEmpty()) followRun(dir);
  });
  auto* profile = button(
      tr("Profile this run's checkpoint"),
      tr("The selected run's newest exported denoiser, scored on the run's own held-out data; "
         "the profile appears in the Diagnostic list and the Schedules tab"),
      &TrainingPanel::profileSelectedCheckpoint);
  auto* sample = button(
      tr("Race sampling &grids on this run"),
      tr("Opens the Sampling tab on the selected run: which σ steps to sample its model with"),
      &TrainingPanel::raceSelectedSamplingGrids);
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
}

QScrollArea* TrainingPanel::formScrollArea(QWidget* form) {
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(form);
  scroll->setWidgetResizable(true);
  // As wide as the form with the vertical scroll bar beside it: a narrower area covers the
  // form's right edge with its scroll bar (1366×768, test_window_layout).
  const int formWidth = form->minimumSizeHint().width() +
                        scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth();
  scroll->setMinimumWidth(formWidth);
  scroll->setMaximumWidth(std::max(400, formWidth));
  return scroll;
}

}  // namespace noisescope::ui
