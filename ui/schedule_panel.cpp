#include "ui/schedule_panel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <tuple>

#include "io/profile_io.h"
#include "io/sigma_steps_io.h"
#include "pipeline/defaults.h"
#include "pipeline/schedules/atomic_design.h"
#include "pipeline/schedules/compare_job.h"
#include "pipeline/schedules/fit_for_tool.h"
#include "pipeline/schedules/schedule_files.h"
#include "schedule/allocation.h"
#include "ui/coordinate_titles.h"
#include "ui/curve_chart.h"
#include "ui/export_for_dialog.h"
#include "ui/hidden_redraw.h"
#include "ui/profile_choice.h"
#include "ui/recipe_editor.h"
#include "ui/sampling_grid_dialog.h"
#include "ui/schedule_list_model.h"
#include "ui/schedule_spin_box.h"
#include "ui/torchscript_dialog.h"
#include "ui/warning_box.h"
#include "ui/workbench.h"

namespace noisescope::ui {

using namespace noisescope::schedule;
using namespace noisescope::pipeline;

namespace {
const QString kAtomicTag = QStringLiteral("atomic design");

const Coordinate kScheduleCoordinates[] = {Coordinate::LogSigma, Coordinate::Sigma,
                                           Coordinate::Lambda, Coordinate::VpTime,
                                           Coordinate::FlowTime};
enum CurveKind { kAllocation, kSampling, kWeight, kCdf };

}  // namespace

SchedulePanel::SchedulePanel(Workbench* workbench, QWidget* parent)
    : QWidget(parent), workbench_(workbench), hidden_(new HiddenRedraw(this, [this] {
        redraw();
        addMenuActions();
      })) {
  // The common grid every schedule is discretised on and compared over.
  auto* gridBox = new QGroupBox(tr("Grid"), this);
  auto* gridForm = new QFormLayout(gridBox);
  sigmaMin_ = numberSpin(gridBox, 1e-4, 1e3, pipeline::defaults::kSigmaMin);
  sigmaMax_ = numberSpin(gridBox, 1e-3, 1e4, pipeline::defaults::kSigmaMax);
  bins_ = new QSpinBox(gridBox);
  bins_->setRange(8, 4096);
  bins_->setValue(pipeline::defaults::kBins);
  gridForm->addRow(tr("σ mi&n:"), sigmaMin_);
  gridForm->addRow(tr("σ ma&x:"), sigmaMax_);
  gridForm->addRow(tr("&Bins (log σ):"), bins_);

  auto* listBox = new QGroupBox(tr("Schedules (checked ones are drawn)"), this);
  auto* listLayout = new QVBoxLayout(listBox);
  model_ = new ScheduleListModel(workbench_, this);
  model_->setGrid(grid());
  list_ = new ScheduleListView(listBox);
  list_->setModel(model_);
  list_->setAccessibleName(tr("Schedules"));
  add_ = new QPushButton(tr("&Add"), listBox);
  add_->setMenu(new QMenu(add_));
  remove_ = new QPushButton(tr("&Remove"), listBox);
  export_ = new QPushButton(tr("&Export…"), listBox);
  export_->setToolTip(tr("Write the selected schedule as JSON, CSV or HDF5 (by extension)"));
  samplingGrid_ = new QPushButton(tr("Sampling &grid…"), listBox);
  samplingGrid_->setToolTip(
      tr("Inference σ steps to sample with: Karras ρ = 7 by default, or DDPM, flow, entropic or "
         "quantile grids, checked against the step-ratio limit"));
  exportFor_ = new QPushButton(tr("Export f&or…"), listBox);
  exportFor_->setToolTip(
      tr("Another trainer's own knobs (diffusers, sd-scripts, OneTrainer, EDM, "
         "…) fitted to the selected allocation φ"));
  auto* listButtons = new QHBoxLayout();
  for (QPushButton* b : {add_, remove_, export_}) listButtons->addWidget(b);
  trainWith_ = new QPushButton(tr("Train &with it"), listBox);
  trainWith_->setToolTip(
      tr("Train a model on the loaded data with the selected schedule (static), or warm up with "
         "it (online): the schedule is written to the runs folder and chosen on the Training tab"));
  auto* exportButtons = new QHBoxLayout();
  for (QPushButton* b : {samplingGrid_, exportFor_, trainWith_}) exportButtons->addWidget(b);
  listLayout->addWidget(list_, 1);
  listLayout->addLayout(listButtons);
  listLayout->addLayout(exportButtons);

  editorScroll_ = new QScrollArea(this);
  editorScroll_->setWidgetResizable(true);
  // Only vertical scrolling: the editor's wrapped lines follow the column's width.
  editorScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  editorScroll_->viewport()->installEventFilter(this);
  auto* editorBox = new QGroupBox(tr("Selected schedule"), this);
  auto* editorLayout = new QVBoxLayout(editorBox);
  editorLayout->addWidget(editorScroll_);

  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(gridBox);
  leftLayout->addWidget(listBox, 2);
  leftLayout->addWidget(editorBox, 3);
  left->setMaximumWidth(420);

  // The overlay chart and what it shows.
  coordinate_ = new QComboBox(this);
  for (Coordinate c : kScheduleCoordinates) coordinate_->addItem(coordinateTitle(c));
  coordinate_->setAccessibleName(tr("Chart coordinate"));
  auto* coordinateLabel = new QLabel(tr("&Coordinate:"), this);
  coordinateLabel->setBuddy(coordinate_);
  curves_ = new QButtonGroup(this);
  auto* curveRow = new QHBoxLayout();
  curveRow->addWidget(coordinateLabel);
  curveRow->addWidget(coordinate_);
  curveRow->addSpacing(16);
  const std::pair<int, QString> curveNames[] = {{kAllocation, tr("φ = π·w (effecti&ve)")},
                                                {kSampling, tr("π (sampling)")},
                                                {kWeight, tr("w (loss weight)")},
                                                {kCdf, tr("CDF of π")}};
  for (const auto& [id, label] : curveNames) {
    auto* button = new QRadioButton(label, this);
    curves_->addButton(button, id);
    curveRow->addWidget(button);
  }
  curves_->button(kAllocation)->setChecked(true);
  curveRow->addStretch(1);

  chart_ = new CurveChart(this);
  metrics_ = new QTableWidget(this);
  metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  metrics_->setAccessibleName(tr("Schedule metrics"));
  metricsNote_ = new QLabel(this);
  metricsNote_->setWordWrap(true);
  metricsNote_->setEnabled(false);

  // Shown while the schedules stay on an earlier dataset than the one loaded (onDatasetChanged).
  datasetNote_ = new QLabel(this);
  datasetNote_->setWordWrap(true);
  datasetNote_->setTextFormat(Qt::RichText);
  datasetNote_->setStyleSheet(QStringLiteral("color: #a04000;"));
  useLoadedDataset_ = new QPushButton(tr("Use the loaded dataset's σ_data"), this);
  useLoadedDataset_->setToolTip(
      tr("Measure σ_data on the loaded dataset for every schedule without a profile of its own"));
  auto* datasetRow = new QHBoxLayout();
  datasetRow->addWidget(datasetNote_, 1);
  datasetRow->addWidget(useLoadedDataset_, 0, Qt::AlignTop);
  datasetNote_->hide();
  useLoadedDataset_->hide();

  auto* chartArea = new QWidget(this);
  auto* chartLayout = new QVBoxLayout(chartArea);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->addLayout(datasetRow);
  chartLayout->addLayout(curveRow);
  chartLayout->addWidget(chart_, 1);
  auto* metricsArea = new QWidget(this);
  auto* metricsLayout = new QVBoxLayout(metricsArea);
  metricsLayout->setContentsMargins(0, 0, 0, 0);
  bandProfile_ = new ProfileChoice(workbench_, tr("(none)"), metricsArea);
  bandProfile_->setAccessibleName(tr("Profile for the informative band"));
  auto* bandRow = new QHBoxLayout();
  auto* bandLabel = new QLabel(tr("Informative band from profile:"), metricsArea);
  bandLabel->setBuddy(bandProfile_);
  bandRow->addWidget(bandLabel);
  bandRow->addWidget(bandProfile_, 1);
  metricsLayout->addLayout(bandRow);
  metricsLayout->addWidget(metricsNote_);
  metricsLayout->addWidget(metrics_, 1);
  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(chartArea);
  right->addWidget(metricsArea);
  right->setSizes({520, 260});

  auto* layout = new QHBoxLayout(this);
  layout->addWidget(left);
  layout->addWidget(right, 1);

  addMenuActions();
  connect(remove_, &QPushButton::clicked, this, &SchedulePanel::removeCurrent);
  auto* deleteKey = new QShortcut(QKeySequence::Delete, list_);
  deleteKey->setContext(Qt::WidgetShortcut);
  connect(deleteKey, &QShortcut::activated, this, &SchedulePanel::removeCurrent);
  connect(export_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export schedule"), QStringLiteral("schedule.json"),
        tr("NoiseScope schedule (*.json);;CSV table (*.csv);;HDF5 (*.h5)"));
    if (!path.isEmpty()) exportCurrentAs(path);
  });
  connect(samplingGrid_, &QPushButton::clicked, this, &SchedulePanel::exportSamplingGrid);
  connect(exportFor_, &QPushButton::clicked, this, [this] { openExportFor(); });
  connect(trainWith_, &QPushButton::clicked, this, [this] {
    const int row = list_->currentRow();
    const auto current = builtAt(row);
    if (!current || current->schedule.empty()) {
      showWarning(this, tr("Train with it"), tr("Select a schedule without errors first."));
      return;
    }
    Q_EMIT trainWithRequested(QString::fromStdString(model_->recipe(row).name));
  });
  connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
    showEditor();
    updateMetrics();
  });
  connect(model_, &ScheduleListModel::drawnChanged, this, &SchedulePanel::redraw);
  connect(coordinate_, &QComboBox::currentIndexChanged, this, &SchedulePanel::redraw);
  connect(curves_, &QButtonGroup::idClicked, this, &SchedulePanel::redraw);
  for (QDoubleSpinBox* box : {sigmaMin_, sigmaMax_})
    connect(box, &QDoubleSpinBox::valueChanged, this, &SchedulePanel::rebuildAll);
  connect(bins_, &QSpinBox::valueChanged, this, &SchedulePanel::rebuildAll);
  connect(bandProfile_, &ProfileChoice::profileChanged, this, &SchedulePanel::updateMetrics);
  connect(workbench_, &Workbench::profilesChanged, this, [this] {
    // The user's pick stays; without one, the band follows the newest bound (ProfileChoice).
    bandProfile_->blockSignals(true);
    bandProfile_->refill();
    bandProfile_->blockSignals(false);
    rebuildAll();
    addMenuActions();
  });
  connect(workbench_, &Workbench::datasetChanged, this, &SchedulePanel::onDatasetChanged);
  connect(useLoadedDataset_, &QPushButton::clicked, this, [this] {
    useLoadedDataset();
    showEditor();
    redraw();
  });

  // Start with the schedules people compare against first.
  addRecipe(presetRecipe("edm"));
  addRecipe(presetRecipe("log-uniform"));
  list_->setCurrentRow(0);
}

void SchedulePanel::addMenuActions() {
  if (hidden_->defer()) return;  // one entry pair per profile: rebuilt when shown
  QMenu* menu = add_->menu();
  menu->clear();
  QMenu* presetsMenu = menu->addMenu(tr("&Preset"));
  for (const Preset& p : presets()) {
    const std::string name = p.name;
    presetsMenu->addAction(QString::fromStdString(p.label),
                           [this, name] { addRecipe(presetRecipe(name)); });
  }
  QMenu* familyMenu = menu->addMenu(tr("&Family"));
  for (const FamilyDescriptor& f : families()) {
    const std::string name = f.name;
    familyMenu->addAction(QString::fromStdString(f.label),
                          [this, name] { addRecipe(familyRecipe(name)); });
  }
  QMenu* entropic = menu->addMenu(tr("From a &profile"));
  const auto& profiles = workbench_->profiles();
  entropic->setEnabled(!profiles.empty());
  if (profiles.empty()) entropic->setTitle(tr("From a profile (run or load one in Diagnostic)"));
  // Listed by kind, each under a heading saying what its curve is (profile.h).
  for (const char* kind : kProfileKinds) {
    bool headed = false;
    for (const auto& named : profiles) {
      if (!named.profile || named.profile->kind != kind) continue;
      if (!headed) {
        entropic->addSection(
            QString::fromStdString(std::string(kind) + ": " + profileKindMeaning(kind)));
        headed = true;
      }
      const std::string profile = named.name.toStdString();
      entropic->addAction(tr("InfoNoise ∝ rate · gate — %1").arg(named.name),
                          [this, profile] { addRecipe(infoNoiseRecipe(profile)); });
      entropic->addAction(tr("√-entropy ∝ √(rate · gate) — %1").arg(named.name), [this, profile] {
        addRecipe(sqrtEntropyRecipe(Coordinate::LogSigma, profile));
      });
    }
  }
  menu->addAction(tr("Load a profile &file for the entropic schedules…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load profile"), QString(),
                                                      tr("Profiles (*.json *.csv);;All files (*)"));
    if (path.isEmpty()) return;
    const QString error = loadProfileFile(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot load profile"), error);
  });
  QAction* atomic = menu->addAction(tr("&Atomic design on the dataset (random features)…"), this,
                                    [this] { designAtomic(); });
  atomic->setEnabled(workbench_->dataset() != nullptr);
  QAction* fromCheckpoint =
      menu->addAction(tr("Atomic design from a &checkpoint's output layer…"), this, [this] {
        const QString path = chooseTorchScriptFile(this, tr("TorchScript denoiser"));
        if (path.isEmpty()) return;
        // The Jacobian is that of the x0 estimate: the model's own output goes through its adapter.
        bool ok = false;
        const QString prediction = QInputDialog::getItem(
            this, tr("What the model predicts"), tr("The checkpoint's network predicts:"),
            {QStringLiteral("x0"), QStringLiteral("eps"), QStringLiteral("v")}, 0, false, &ok);
        if (ok) designAtomic(path, prediction);
      });
  fromCheckpoint->setEnabled(workbench_->dataset() != nullptr);
  menu->addAction(tr("From a &file…"), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open schedule"), QString(),
                                     tr("Schedules (*.json *.csv *.h5 *.hdf5);;All files (*)"));
    if (path.isEmpty()) return;
    const QString error = loadScheduleFile(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot open schedule"), error);
  });
}

std::pair<double, double> SchedulePanel::sigmaRange() const {
  return {std::min(sigmaMin_->value(), sigmaMax_->value() * 0.999), sigmaMax_->value()};
}

LogSigmaGrid SchedulePanel::grid() const {
  const auto [lo, hi] = sigmaRange();
  return LogSigmaGrid::uniform(lo, hi, bins_->value());
}

int SchedulePanel::addRecipe(const ScheduleRecipe& recipe) {
  const int row = model_->add(recipe);
  list_->setCurrentRow(row);
  redraw();
  return row;
}

void SchedulePanel::removeCurrent() {
  const int row = list_->currentRow();
  if (row < 0 || row >= scheduleCount()) return;
  model_->remove(row);
  list_->setCurrentRow(std::min(row, scheduleCount() - 1));
  redraw();
}

int SchedulePanel::scheduleCount() const {
  return model_->rowCount();
}

std::shared_ptr<const BuiltSchedule> SchedulePanel::builtAt(int row) const {
  return model_->built(row);
}

std::shared_ptr<const Schedule> SchedulePanel::scheduleAt(int row) const {
  const auto built = builtAt(row);
  return built ? std::shared_ptr<const Schedule>(built, &built->schedule) : nullptr;
}

QString SchedulePanel::errorAt(int row) const {
  return model_->error(row);
}

void SchedulePanel::rebuildAll() {
  model_->setGrid(grid());
  showEditor();  // the editor shows the σ_data and caveat of the rebuilt schedule
  redraw();
}

void SchedulePanel::onDatasetChanged() {
  const auto loaded = workbench_->dataset();
  // The profiles (entropic schedules, the informative band) were measured on the earlier data and
  // are not recomputed here: moving only the EDM weight's σ_data would mix two datasets in one
  // comparison. With none, nothing is left on the earlier data and all of it follows.
  const QString name = loaded ? QString::fromStdString(loaded->name) : QString();
  if (!loaded || comparedOn_.isEmpty() || comparedOn_ == name || workbench_->profiles().empty())
    useLoadedDataset();
  else
    showDatasetNote(name);
  showEditor();
  redraw();
  addMenuActions();
}

void SchedulePanel::useLoadedDataset() {
  const auto loaded = workbench_->dataset();
  comparedOn_ = loaded ? QString::fromStdString(loaded->name) : QString();
  model_->setDataset(loaded.get());
  datasetNote_->hide();
  useLoadedDataset_->hide();
}

void SchedulePanel::showDatasetNote(const QString& loaded) {
  datasetNote_->setText(
      tr("The schedules stay on <b>%1</b>: its σ_data is the EDM weight's, and the entropic "
         "schedules and the informative band use profiles measured on it. <b>%2</b> is loaded; "
         "run its profiles in Diagnostic to compare on it.")
          .arg(comparedOn_.toHtmlEscaped(), loaded.toHtmlEscaped()));
  datasetNote_->show();
  useLoadedDataset_->show();
}

// QScrollArea sizes a form of wrapped lines (height for width) at the viewport's width before its
// vertical bar appears and keeps that width after: the form then ran past the narrower viewport
// and every wrapped line was cut on the right. So the editor is held to the viewport's width.
void SchedulePanel::fitEditorWidth() {
  if (editor_) editor_->setMaximumWidth(editorScroll_->viewport()->width());
}

bool SchedulePanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == editorScroll_->viewport() && event->type() == QEvent::Resize) fitEditorWidth();
  return QWidget::eventFilter(watched, event);
}

void SchedulePanel::showEditor() {
  const int row = list_->currentRow();
  auto* editor = new QWidget();
  auto* form = new QFormLayout(editor);
  editor_ = editor;
  editorScroll_->setWidget(editor);  // deletes the previous editor
  fitEditorWidth();
  if (row < 0 || row >= scheduleCount()) return;
  const ScheduleListModel::Id id = model_->idAt(row);
  const auto draft = std::make_shared<ScheduleRecipe>(model_->recipe(row));
  static const BuiltSchedule kNotBuilt;
  const auto built = model_->built(row);  // held while the editor is made
  const BuiltSchedule& shown = built ? *built : kNotBuilt;
  const QString error = model_->error(row);
  // Every editor change rebuilds this one schedule and redraws: cheap on a few hundred bins.
  const RecipeEditor e{editor, form, draft, [this, id, draft] {
                         model_->setRecipe(id, *draft);
                         redraw();
                       }};

  auto* kind = new QLabel(editor);
  kind->setWordWrap(true);
  form->addRow(tr("Kind:"), kind);
  switch (draft->kind) {
    case ScheduleRecipe::Kind::Preset:
    case ScheduleRecipe::Kind::Family:
      addFamilyRows(e, kind);
      break;
    case ScheduleRecipe::Kind::InfoNoise:
    case ScheduleRecipe::Kind::SqrtEntropy:
      addEntropicRows(e, kind, profileNames(), [this, id] {
        const auto now = model_->built(model_->rowOf(id));
        return now ? now->caveats : std::vector<std::string>();
      });
      break;
    case ScheduleRecipe::Kind::Table:
    case ScheduleRecipe::Kind::File:
    case ScheduleRecipe::Kind::Fixed:
      showBuiltFacts(kind, shown.schedule);
      break;
  }
  // A fixed schedule or file carries its own weight.
  if (draft->kind != ScheduleRecipe::Kind::Fixed && draft->kind != ScheduleRecipe::Kind::File)
    addLossWeightRows(e, shown);
  addBuildOutcome(e, shown, error);
}

QStringList SchedulePanel::profileNames() const {
  QStringList names;
  for (const auto& named : workbench_->profiles()) names << named.name;
  return names;
}

void SchedulePanel::redraw() {
  if (hidden_->defer()) return;  // behind another tab: drawn when shown
  const Coordinate coordinate = kScheduleCoordinates[std::max(0, coordinate_->currentIndex())];
  const int curve = curves_->checkedId();
  const LogSigmaGrid g = grid();
  const QString unit = densityUnit(coordinate);
  // Short enough for the chart's height at 1366×768 (a longer one is elided); the chart's title
  // and the curve buttons name what is drawn.
  const QString yTitles[] = {tr("φ %1").arg(unit), tr("π %1").arg(unit), tr("w(σ), x0 space"),
                             tr("CDF P(σ′ ≤ σ)")};
  chart_->setLogAxes(coordinate == Coordinate::Sigma, curve == kWeight);
  chart_->setAxisTitles(coordinateTitle(coordinate), yTitles[curve]);
  chart_->setTitle(curve == kAllocation
                       ? tr("What training emphasises: φ ∝ π·w, normalised on the grid")
                       : QString());
  std::vector<Curve> drawn;
  for (int row : model_->usableRows()) {
    if (!model_->isDrawn(row)) continue;
    const auto built = model_->built(row);
    const CurveTable table = evaluateCurves(built->schedule, g, coordinate);
    Curve line;
    line.name = model_->name(row);
    line.color = model_->color(row);
    line.x = table.coordinateValue;
    switch (curve) {
      case kAllocation:
        line.y = table.allocation;
        break;
      case kSampling:
        line.y = table.sampling;
        break;
      case kWeight:
        line.y = table.weight;
        break;
      case kCdf:
        line.y = table.cdf;
        break;
    }
    line.dashed = built->schedule.isAtomic();
    drawn.push_back(std::move(line));
  }
  chart_->setCurves(drawn);
  updateMetrics();
}

void SchedulePanel::designAtomic(const QString& checkpoint, const QString& prediction) {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  // The pipeline's design with its quick settings: an interactive answer in seconds; the CLI runs
  // the same job with the full ones. Both make the request with atomicRequest and record the
  // settings in the provenance.
  AtomicRequest request;
  request.checkpoint = checkpoint.toStdString();
  request.prediction = prediction.toStdString();
  std::tie(request.sigmaMin, request.sigmaMax) = sigmaRange();
  request.settings = AtomicSettings::quick();
  try {
    checkAtomicRequest(request);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Atomic design"), QString::fromStdString(e.what()));
    return;
  }
  auto result = std::make_shared<AtomicDesign>();
  workbench_->jobs()->submit(
      kAtomicTag,
      [dataset, result, request](const Progress& progress) {  // `dataset` keeps it alive
        *result = pipeline::designAtomic(request, *dataset, progress);
      },
      [this, result, dataset, request] {
        const std::string name = std::string("Atomic (") +
                                 (request.checkpoint.empty() ? "random features" : "checkpoint") +
                                 ", " + dataset->name + ", " +
                                 std::to_string(result->built.schedule.atoms().size()) + " atoms)";
        addRecipe(atomicRecipe(*result, name));
        Q_EMIT atomicDesignFinished();
      },
      [this](const QString& message, bool cancelled) {
        if (!cancelled) QMessageBox::warning(this, tr("Atomic design failed"), message);
      });
}

QString SchedulePanel::loadScheduleFile(const QString& path) {
  try {
    list_->setCurrentRow(model_->addFile(path.toStdString()));
    redraw();
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

QString SchedulePanel::loadProfileFile(const QString& path) {
  try {
    auto profile = std::make_shared<Profile>(readProfile(path.toStdString()));
    const QString name = workbench_->addProfile(QFileInfo(path).completeBaseName(), profile);
    model_->setProfileFile(name, path.toStdString());
    rebuildAll();
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

QString SchedulePanel::exportCurrent(const QString& path) {
  const auto current = builtAt(list_->currentRow());
  if (!current) return tr("Select a schedule without errors first.");
  try {
    saveScheduleFile(path.toStdString(), *current, kWorkbenchProducer);
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

bool SchedulePanel::exportCurrentAs(const QString& path) {
  const QString error = exportCurrent(path);
  if (!error.isEmpty()) showWarning(this, tr("Export failed"), error);
  return error.isEmpty();
}

SigmaSteps SchedulePanel::currentSigmaSteps(int steps, const std::string& grid) const {
  return model_->sigmaSteps(list_->currentRow(), steps, grid);
}

QString SchedulePanel::exportSigmaSteps(const QString& path, int steps, const QString& grid) {
  const auto current = builtAt(list_->currentRow());
  if (!current) return tr("Select a schedule without errors first.");
  try {
    writeSigmaSteps(path.toStdString(), currentSigmaSteps(steps, grid.toStdString()),
                    scheduleProvenance(*current, kWorkbenchProducer));
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

bool SchedulePanel::exportSigmaStepsAs(const QString& path, int steps, const QString& grid) {
  const QString error = exportSigmaSteps(path, steps, grid);
  if (!error.isEmpty()) showWarning(this, tr("Export failed"), error);
  return error.isEmpty();
}

ExportForDialog* SchedulePanel::openExportFor() {
  const int row = list_->currentRow();
  const auto current = builtAt(row);
  if (!current || current->schedule.empty()) return nullptr;
  auto* dialog = new ExportForDialog(
      pipeline::fitTargetFromSchedule(current->schedule, model_->recipe(row).name),
      workbench_->jobs(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->open();
  return dialog;
}

void SchedulePanel::exportSamplingGrid() {
  if (!builtAt(list_->currentRow())) return;
  SamplingGridDialog dialog(
      [this](const std::string& spec, int steps) { return currentSigmaSteps(steps, spec); },
      model_->name(list_->currentRow()), this);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save σ steps"), QStringLiteral("sigma-steps.json"),
      tr("σ-steps JSON with diffusers and k-diffusion exports (*.json);;Python lists (*.py);;One σ "
         "per line (*.txt)"));
  if (!path.isEmpty()) exportSigmaStepsAs(path, dialog.steps(), dialog.spec());
}

void SchedulePanel::updateMetrics() {
  if (hidden_->defer()) return;  // the comparison, too, waits until the panel is shown
  metrics_->clear();
  metrics_->setRowCount(0);
  // Compare every schedule that builds, against the selected one, on the panel's grid.
  pipeline::ComparisonRequest request = model_->comparisonRequest(list_->currentRow());
  if (request.schedules.empty()) return;
  const QString profileName = bandProfile_->profileName();
  const auto profile = workbench_->profile(profileName);
  if (profile) {
    request.profile = profile.get();
    request.profileSource = profileName.toStdString();
  }
  Comparison comparison;
  try {
    comparison = pipeline::compareSchedules(request);
  } catch (const std::exception& e) {
    metricsNote_->setText(QString::fromStdString(e.what()));
    return;
  }
  QString note = tr("Divergences of each effective allocation φ from the selected schedule's "
                    "(“%1”), on %2 log-σ bins; σ quantiles under φ.")
                     .arg(QString::fromStdString(comparison.labels[comparison.reference]))
                     .arg(request.grid.bins());
  if (comparison.hasProfile)
    note += tr(" Informative band (central 90% of the rate of “%1”): σ ∈ [%2, %3].")
                .arg(profileName)
                .arg(comparison.bandLow, 0, 'g', 3)
                .arg(comparison.bandHigh, 0, 'g', 3);
  else
    note += tr(" Pick a profile to add the informative-band columns.");
  metricsNote_->setText(note);
  // Headers on two lines where they are wider than their numbers, so that every column fits
  // beside the chart at 1366 pixels.
  const QStringList headers = {
      tr("schedule"), tr("loss\nweight"), tr("KL(φ‖ref)"),     tr("KL(ref‖φ)"),
      tr("TV"),       tr("Hellinger"),    tr("mass\nin band"), tr("mass, rate\n< 1% of peak"),
      tr("σ 5%"),     tr("median σ"),     tr("σ 95%"),         tr("truncated\nmass")};
  metrics_->setColumnCount(headers.size());
  metrics_->setHorizontalHeaderLabels(headers);
  auto number = [](double v) {
    if (std::isnan(v)) return QStringLiteral("—");
    if (std::isinf(v)) return QStringLiteral("∞");
    return QString::number(v, 'g', 4);
  };
  for (size_t i = 0; i < comparison.metrics.size(); ++i) {
    const ScheduleMetrics& m = comparison.metrics[i];
    const int row = metrics_->rowCount();
    metrics_->insertRow(row);
    const QStringList cells = {QString::fromStdString(m.label),
                               QString::fromStdString(request.schedules[i].lossWeight.label()),
                               number(m.klToReference),
                               number(m.klFromReference),
                               number(m.totalVariation),
                               number(m.hellinger),
                               number(m.massInBand),
                               number(m.massLowRate),
                               number(m.sigmaQ05),
                               number(m.sigmaMedian),
                               number(m.sigmaQ95),
                               number(m.truncatedMass)};
    for (int c = 0; c < cells.size(); ++c)
      metrics_->setItem(row, c, new QTableWidgetItem(cells[c]));
    metrics_->item(row, 0)->setToolTip(cells[0]);  // the whole name where the column cuts it
  }
  metrics_->resizeColumnsToContents();
  // A long schedule name ("InfoNoise from population bound · …") is cut, not the numbers.
  constexpr int kNameColumnWidth = 220;
  if (metrics_->columnWidth(0) > kNameColumnWidth) metrics_->setColumnWidth(0, kNameColumnWidth);
}

}  // namespace noisescope::ui
