#include "ui/diagnostic_panel.h"

#include <optional>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <map>
#include <set>

#include "io/profile_io.h"
#include "pipeline/defaults.h"
#include "pipeline/diagnose/diagnose_job.h"
#include "pipeline/environment.h"
#include "ui/curve_chart.h"
#include "ui/hidden_redraw.h"
#include "ui/posterior_strip.h"
#include "ui/torchscript_dialog.h"
#include "ui/warning_box.h"
#include "ui/workbench.h"
#include "util/error.h"

namespace noisescope::ui {

namespace {
const QString kDiagnosticTag = QStringLiteral("diagnostic");

struct CoordinateInfo {
  const char* key;
  const char* label;
  const char* axis;
};
// Axis titles short enough for the chart's height at 1366×768 (a longer one is elided); the unit
// "per unit x" is the derivative's own.
const CoordinateInfo kRateCoordinates[] = {
    {"log_sigma", "per log σ: MMSE/σ²", "dH/d log σ (nats)"},
    {"sigma", "per σ: MMSE/σ³", "dH/dσ (nats)"},
    {"lambda", "per λ = −2 log σ: MMSE/(2σ²)", "|dH/dλ| (nats)"},
};

// The bracket's curves in legends: the kind first, since that is what tells them apart.
QString bracketCurveLabel(const std::string& kind) {
  if (kind == "empirical") return QObject::tr("empirical (training queries)");
  if (kind == "held-out") return QObject::tr("held-out posterior (bound)");
  if (kind == "held-out-wiener") return QObject::tr("held-out Wiener (bound)");
  if (kind == "held-out-patch") return QObject::tr("held-out patch Wiener (bound)");
  if (kind == "bound") return QObject::tr("population bound");
  return QString::fromStdString(kind);
}

// The checked profiles' names as the legends show them. A " · dataset" that every name ends with
// is dropped from them (the panel says it once): a bracket's five curves of one dataset took seven
// legend lines each at 1366×768, and the charts kept too little height for their axis titles.
struct LegendNames {
  std::map<QString, QString> shown;  // profile name → legend name
  QString shared;                    // the suffix dropped from every name ("" when none)
};
LegendNames legendNames(const QStringList& names) {
  LegendNames out;
  for (const QString& n : names) out.shown[n] = n;
  if (names.isEmpty()) return out;
  const QString separator = QStringLiteral(" · ");
  const int cut = names.front().lastIndexOf(separator);
  if (cut <= 0) return out;
  const QString suffix = names.front().mid(cut);
  std::set<QString> shortened;
  for (const QString& n : names) {
    if (!n.endsWith(suffix) || n.size() == suffix.size()) return out;
    shortened.insert(n.left(n.size() - suffix.size()));
  }
  if (shortened.size() != static_cast<size_t>(names.size())) return out;  // would collide
  for (const QString& n : names) out.shown[n] = n.left(n.size() - suffix.size());
  out.shared = suffix.mid(separator.size());
  return out;
}

QDoubleSpinBox* sigmaSpin(QWidget* parent, double value) {
  auto* box = new QDoubleSpinBox(parent);
  box->setDecimals(4);
  box->setRange(1e-4, 1e4);
  box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  box->setValue(value);
  return box;
}
}  // namespace

DiagnosticPanel::DiagnosticPanel(Workbench* workbench, QWidget* parent)
    : QWidget(parent),
      workbench_(workbench),
      hidden_(new HiddenRedraw(this, [this] { redrawCharts(); })) {
  // Settings: every one of THEORY §3's knobs, with the documented defaults.
  auto* settings = new QGroupBox(tr("Optimal-denoiser diagnostic"), this);
  auto* form = new QFormLayout(settings);
  levels_ = new QSpinBox(settings);
  levels_->setRange(2, 1024);
  levels_->setValue(pipeline::defaults::kDiagnosticLevels);
  sigmaMin_ = sigmaSpin(settings, pipeline::defaults::kSigmaMin);
  sigmaMax_ = sigmaSpin(settings, pipeline::defaults::kSigmaMax);
  queries_ = new QSpinBox(settings);
  queries_->setRange(1, 1000000);
  queries_->setValue(static_cast<int>(pipeline::defaults::kDiagnosticQueries));
  queries_->setToolTip(tr("Monte Carlo queries y = x_j + σε per level; the same ones at every σ"));
  seed_ = new QSpinBox(settings);
  seed_->setRange(0, 1 << 30);
  device_ = new QComboBox(settings);
  for (const std::string& name : pipeline::deviceNames())
    device_->addItem(QString::fromStdString(name));
  memory_ = new QSpinBox(settings);
  memory_->setRange(16, 1 << 20);
  memory_->setValue(static_cast<int>(DiagnosticOptions{}.memoryBytes >> 20));
  memory_->setSuffix(tr(" MB"));
  memory_->setToolTip(tr("Extra memory the computation may use on top of the dataset"));
  form->addRow(tr("&Levels:"), levels_);
  form->addRow(tr("σ min:"), sigmaMin_);
  form->addRow(tr("σ max:"), sigmaMax_);
  form->addRow(tr("&Queries per level:"), queries_);
  form->addRow(tr("S&eed:"), seed_);
  form->addRow(tr("De&vice:"), device_);
  form->addRow(tr("Memor&y:"), memory_);
  heldOutShare_ = new QDoubleSpinBox(settings);
  heldOutShare_->setRange(1.0, 50.0);
  heldOutShare_->setDecimals(1);
  heldOutShare_->setValue(100.0 * pipeline::defaults::kHeldOutShare);
  heldOutShare_->setSuffix(tr(" %"));
  heldOutShare_->setToolTip(
      tr("The bracket's held-out queries come from the test split beside the file when there is "
         "one (t10k-… for train-…, test_batch for data_batch…); otherwise this seeded share of "
         "the dataset is held out and the prior is the rest. A checkpoint is scored on the "
         "loaded set when it is a test split, otherwise on this seeded share of it (as "
         "`diagnose --checkpoint --holdout`)"));
  form->addRow(tr("Held-o&ut share:"), heldOutShare_);
  runBracket_ = new QPushButton(tr("Run &bracket on dataset"), settings);
  runBracket_->setDefault(true);
  runBracket_->setToolTip(
      tr("The curves of THEORY §10 together: empirical (training queries, memorises at small "
         "σ); denoisers fitted on the prior and scored on held-out points, each an upper bound "
         "on the population MMSE (the empirical posterior, the Wiener filter and, for images "
         "and sequences, a patch Wiener filter); and the population bound, the member chosen "
         "per σ on one half of the held-out points and scored on the other"));
  form->addRow(runBracket_);
  run_ = new QPushButton(tr("&Run empirical only"), settings);
  run_->setToolTip(
      tr("Exact posterior over every sample of the loaded dataset, queries from the "
         "dataset itself"));
  form->addRow(run_);
  prediction_ = new QComboBox(settings);
  prediction_->addItem(tr("x₀ (the convention)"), QStringLiteral("x0"));
  prediction_->addItem(tr("ε: x̂₀ = y − σ·ε̂"), QStringLiteral("eps"));
  prediction_->addItem(tr("v (VP input): x̂₀ = α·z − s·v̂"), QStringLiteral("v"));
  prediction_->setToolTip(tr("What the TorchScript model's forward(x, sigma) returns"));
  form->addRow(tr("Checkpoint &predicts:"), prediction_);
  runCheckpoint_ = new QPushButton(tr("Run chec&kpoint…"), settings);
  runCheckpoint_->setToolTip(
      tr("A trained denoiser's unweighted x₀ error per σ: an upper bound on the MMSE. Scored on "
         "the loaded dataset if it is a test split, else on the held-out share of it (the "
         "profile names which)"));
  form->addRow(runCheckpoint_);

  auto* profilesBox = new QGroupBox(tr("Profiles (checked ones are drawn)"), this);
  auto* profilesLayout = new QVBoxLayout(profilesBox);
  list_ = new QListWidget(profilesBox);
  list_->setAccessibleName(tr("Profiles"));
  auto* load = new QPushButton(tr("Lo&ad…"), profilesBox);
  auto* save = new QPushButton(tr("Save &JSON…"), profilesBox);
  auto* csv = new QPushButton(tr("Export &CSV…"), profilesBox);
  auto* remove = new QPushButton(tr("Rem&ove"), profilesBox);
  // Two rows: four buttons in one cut their text short in the settings column's width.
  auto* buttons = new QGridLayout();
  buttons->addWidget(load, 0, 0);
  buttons->addWidget(remove, 0, 1);
  buttons->addWidget(save, 1, 0);
  buttons->addWidget(csv, 1, 1);
  profilesLayout->addWidget(list_);
  profilesLayout->addLayout(buttons);
  summary_ = new QLabel(profilesBox);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  profilesLayout->addWidget(summary_);

  auto* left = new QVBoxLayout();
  left->addWidget(settings);
  left->addWidget(profilesBox, 1);

  mmseChart_ = new CurveChart(this);
  mmseChart_->setTitle(tr("MMSE per dimension"));
  mmseChart_->setAxisTitles(tr("noise level σ (log scale)"), tr("MMSE / D (units²)"));
  mmseChart_->setLogY(true);
  rateChart_ = new CurveChart(this);
  rateChart_->setTitle(tr("Conditional-entropy rate"));
  coordinate_ = new QComboBox(this);
  for (const CoordinateInfo& c : kRateCoordinates)
    coordinate_->addItem(tr(c.label), QString(c.key));
  coordinate_->setAccessibleName(tr("Entropy-rate coordinate"));
  posteriorChart_ = new CurveChart(this);
  posteriorChart_->setTitle(tr("Posterior shape (empirical profiles)"));
  posteriorChart_->setAxisTitles(tr("noise level σ (log scale)"), tr("fraction"));

  auto* rateHeader = new QHBoxLayout();
  auto* coordinateLabel = new QLabel(tr("Rate coordinate:"), this);
  coordinateLabel->setBuddy(coordinate_);
  rateHeader->addWidget(coordinateLabel);
  rateHeader->addWidget(coordinate_);
  rateHeader->addStretch(1);
  auto* rateBox = new QWidget(this);
  auto* rateLayout = new QVBoxLayout(rateBox);
  rateLayout->setContentsMargins(0, 0, 0, 0);
  rateLayout->addLayout(rateHeader);
  rateLayout->addWidget(rateChart_, 1);

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->addWidget(mmseChart_);
  charts->addWidget(rateBox);
  charts->addWidget(posteriorChart_);
  for (int i = 0; i < 3; ++i) charts->setStretchFactor(i, 1);
  charts->setSizes({400, 400, 400});

  strip_ = new PosteriorStrip(workbench_, this);
  auto* stripBox = new QGroupBox(tr("Optimal denoiser, one sample"), this);
  auto* stripLayout = new QVBoxLayout(stripBox);
  auto* stripScroll = new QScrollArea(stripBox);
  stripScroll->setWidget(strip_);
  stripScroll->setWidgetResizable(true);
  stripScroll->setFrameShape(QFrame::NoFrame);
  stripLayout->addWidget(stripScroll);

  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(charts);
  right->addWidget(stripBox);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);
  right->setSizes({460, 400});

  auto* layout = new QHBoxLayout(this);
  auto* leftWidget = new QWidget(this);
  leftWidget->setLayout(left);
  leftWidget->setMaximumWidth(360);
  layout->addWidget(leftWidget);
  layout->addWidget(right, 1);

  connect(run_, &QPushButton::clicked, this, &DiagnosticPanel::runDiagnostic);
  connect(runBracket_, &QPushButton::clicked, this, &DiagnosticPanel::runBracket);
  connect(runCheckpoint_, &QPushButton::clicked, this, [this] {
    const QString path = chooseTorchScriptFile(this, tr("TorchScript denoiser"));
    if (!path.isEmpty()) runCheckpoint(path);
  });
  connect(load, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load profile"), QString(),
                                                      tr("NoiseScope profile (*.json)"));
    if (path.isEmpty()) return;
    const QString error = loadProfile(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot load profile"), error);
  });
  connect(save, &QPushButton::clicked, this, [this] { saveSelected(false); });
  connect(csv, &QPushButton::clicked, this, [this] { saveSelected(true); });
  connect(remove, &QPushButton::clicked, this, [this] {
    if (QListWidgetItem* item = list_->currentItem()) workbench_->removeProfile(item->text());
  });
  connect(list_, &QListWidget::itemChanged, this, &DiagnosticPanel::redrawCharts);
  connect(list_, &QListWidget::currentItemChanged, this, &DiagnosticPanel::redrawCharts);
  connect(coordinate_, &QComboBox::currentIndexChanged, this, &DiagnosticPanel::redrawCharts);
  connect(workbench_, &Workbench::profilesChanged, this, &DiagnosticPanel::rebuildList);
  connect(workbench_, &Workbench::datasetChanged, this, [this] {
    run_->setEnabled(workbench_->dataset() != nullptr);
    runBracket_->setEnabled(workbench_->dataset() != nullptr);
    runCheckpoint_->setEnabled(workbench_->dataset() != nullptr);
  });
  run_->setEnabled(false);
  runBracket_->setEnabled(false);
  runCheckpoint_->setEnabled(false);
  redrawCharts();
}

void DiagnosticPanel::readLevelSettings(DiagnosticOptions& options) const {
  options.levels = levels_->value();
  options.sigmaMin = sigmaMin_->value();
  options.sigmaMax = sigmaMax_->value();
  options.queries = queries_->value();
  options.seed = static_cast<uint64_t>(seed_->value());
  options.device = device_->currentText().toStdString();
}

std::optional<DiagnosticOptions> DiagnosticPanel::engineOptions() {
  DiagnosticOptions options;
  readLevelSettings(options);
  options.memoryBytes = static_cast<int64_t>(memory_->value()) << 20;
  try {
    options.validate();
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Diagnostic settings"), QString::fromStdString(e.what()));
    return std::nullopt;
  }
  return options;
}

LevelObserver DiagnosticPanel::liveLevels(const Dataset& dataset) {
  // Each level as it completes is posted to the GUI thread and drawn in the next turn of the
  // event loop (dashed, "running"); levels that arrive together are drawn together.
  const double dim = static_cast<double>(std::max<int64_t>(1, dataset.dim()));
  live_.clear();
  undrawn_.clear();
  // The guard drops a level that arrives after the panel is gone (the runner outlives it).
  const QPointer<DiagnosticPanel> self(this);
  JobRunner* jobs = workbench_->jobs();
  return [self, jobs, dim](const LevelEstimate& e) {
    jobs->post([self, e, dim] {
      if (!self) return;
      self->live_[e.kind][e.level] = {e.sigma, e.mmse / dim};
      self->undrawn_.push_back({e.kind, e.level, e.sigma, e.mmse / dim});
      if (self->undrawn_.size() == 1)
        QTimer::singleShot(0, self.data(), [self] {
          if (self) self->drawLiveLevels();
        });
    });
  };
}

void DiagnosticPanel::drawLiveLevels() {
  if (undrawn_.empty()) return;
  redrawCharts();
  const std::vector<LiveLevel> drawn = std::move(undrawn_);
  undrawn_.clear();
  for (const LiveLevel& l : drawn)
    Q_EMIT liveLevelDrawn(QString::fromStdString(l.kind), l.level, l.sigma, l.mmsePerDim);
}

std::optional<pipeline::DiagnoseRequest> DiagnosticPanel::diagnoseRequest(const std::string& kind) {
  const std::optional<DiagnosticOptions> options = engineOptions();
  if (!options) return std::nullopt;
  pipeline::DiagnoseRequest request;
  request.kind = kind;
  request.options = *options;
  // One share for both uses: the bracket's held-out queries and a checkpoint's evaluation set.
  request.heldOut.share = heldOutShare_->value() / 100.0;
  request.prediction = predictionFromString(prediction_->currentData().toString().toStdString());
  request.producer = kWorkbenchProducer;
  return request;
}

void DiagnosticPanel::runDiagnostic() {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  const std::optional<pipeline::DiagnoseRequest> request = diagnoseRequest("empirical");
  if (!request) return;
  const QString name = tr("%1 · empirical · %2×%3")
                           .arg(QString::fromStdString(dataset->name))
                           .arg(request->options.levels)
                           .arg(request->options.queries);
  const LevelObserver onLevel = liveLevels(*dataset);
  submitProfileJob(name, [dataset, request = *request, onLevel](const Progress& progress) {
    return std::move(pipeline::runDiagnosis(*dataset, dataset->source, request, progress, onLevel)
                         .profiles.front());
  });
}

void DiagnosticPanel::runBracket() {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  const std::optional<pipeline::DiagnoseRequest> request = diagnoseRequest("bracket");
  if (!request) return;
  auto result = std::make_shared<pipeline::DiagnoseResult>();
  const LevelObserver onLevel = liveLevels(*dataset);
  workbench_->jobs()->submit(
      kDiagnosticTag,
      [dataset, request = *request, result, onLevel](const Progress& progress) {
        *result = pipeline::runDiagnosis(*dataset, dataset->source, request, progress, onLevel);
      },
      [this, dataset, result] {
        drawLiveLevels();  // levels that came in the same burst as the result
        live_.clear();
        const QString data = QString::fromStdString(dataset->name);
        std::vector<Workbench::NamedProfile> curves;
        for (Profile& profile : result->profiles) {
          // The kind first: chart legends are short, and it is what tells the curves apart.
          curves.push_back({tr("%1 · %2").arg(bracketCurveLabel(profile.kind), data),
                            std::make_shared<Profile>(std::move(profile))});
        }
        // All at once: each profilesChanged redraws every panel (1.4 s of GUI time for a
        // five-curve bracket when they came one by one; bench/soak/RESULTS.md).
        const QStringList names = workbench_->addProfiles(curves);
        Q_EMIT diagnosticFinished(names.isEmpty() ? QString() : names.back());
      },
      [this](const QString& message, bool cancelled) {
        live_.clear();
        undrawn_.clear();
        redrawCharts();
        if (!cancelled) QMessageBox::warning(this, tr("Bracket failed"), message);
      });
}

void DiagnosticPanel::submitProfileJob(const QString& name,
                                       std::function<Profile(const Progress&)> compute) {
  auto profile = std::make_shared<Profile>();
  workbench_->jobs()->submit(
      kDiagnosticTag,
      [compute, profile](const Progress& progress) { *profile = compute(progress); },
      [this, profile, name] {
        drawLiveLevels();  // levels that came in the same burst as the result
        live_.clear();     // the finished profile replaces its running curve
        const QString added = workbench_->addProfile(name, profile);
        Q_EMIT diagnosticFinished(added);
      },
      [this](const QString& message, bool cancelled) {
        live_.clear();
        undrawn_.clear();
        redrawCharts();
        if (!cancelled) QMessageBox::warning(this, tr("Diagnostic failed"), message);
      });
}

void DiagnosticPanel::runCheckpoint(const QString& path) {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  std::optional<pipeline::DiagnoseRequest> request = diagnoseRequest("checkpoint");
  if (!request) return;
  // Scored on the test split, or on a seeded held-out share of the loaded set (the pipeline's
  // rule, and the profile says which): held-out data is what makes it an honest bound.
  request->checkpoint = path.toStdString();
  const QString name = tr("%1 · checkpoint on %2")
                           .arg(QFileInfo(path).fileName(), QString::fromStdString(dataset->name));
  submitProfileJob(name, [dataset, request = *request](const Progress& progress) {
    return std::move(
        pipeline::runDiagnosis(*dataset, dataset->source, request, progress).profiles.front());
  });
}

void DiagnosticPanel::runRunCheckpoint(const QString& runDirectory) {
  std::optional<pipeline::DiagnoseRequest> request = diagnoseRequest("checkpoint");
  if (!request) return;
  request->checkpoint = runDirectory.toStdString();
  request->prediction = Prediction::X0;  // a run's exports predict x0
  // The run's own held-out data is scored; a loaded dataset only has its shape checked.
  const auto dataset = workbench_->dataset();
  const QString name =
      tr("%1 · checkpoint on its held-out data").arg(QFileInfo(runDirectory).fileName());
  submitProfileJob(name, [dataset, request = *request](const Progress& progress) {
    static const Dataset none;
    return std::move(
        pipeline::runDiagnosis(dataset ? *dataset : none, "", request, progress).profiles.front());
  });
}

QString DiagnosticPanel::loadProfile(const QString& path) {
  try {
    auto profile = std::make_shared<Profile>(readProfile(path.toStdString()));
    workbench_->addProfile(QFileInfo(path).completeBaseName() + QStringLiteral(" · ") +
                               QString::fromStdString(profile->kind),
                           profile);
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

void DiagnosticPanel::saveSelected(bool csv) {
  QListWidgetItem* item = list_->currentItem();
  if (!item) {
    QMessageBox::information(this, tr("Save profile"), tr("Select a profile in the list first."));
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      this, csv ? tr("Export profile as CSV") : tr("Save profile"), QString(),
      csv ? tr("CSV table (*.csv)") : tr("NoiseScope profile (*.json)"));
  if (path.isEmpty()) return;
  saveSelectedAs(path, csv);
}

bool DiagnosticPanel::saveSelectedAs(const QString& path, bool csv) {
  const QString error = saveSelectedTo(path, csv);
  if (!error.isEmpty()) showWarning(this, tr("Save failed"), error);
  return error.isEmpty();
}

QString DiagnosticPanel::saveSelectedTo(const QString& path, bool csv) {
  QListWidgetItem* item = list_->currentItem();
  const auto profile = item ? workbench_->profile(item->text()) : nullptr;
  if (!profile) return tr("Select a profile in the list first.");
  try {
    if (csv)
      writeProfileCsv(path.toStdString(), *profile);
    else
      writeProfile(path.toStdString(), *profile);
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

void DiagnosticPanel::rebuildList() {
  const QStringList checked = checkedProfiles();
  const int before = list_->count();
  list_->blockSignals(true);
  list_->clear();
  for (const auto& named : workbench_->profiles()) {
    auto* item = new QListWidgetItem(named.name, list_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    if (named.profile)
      item->setToolTip(QString::fromStdString(named.profile->kind + ": " +
                                              profileKindMeaning(named.profile->kind)));
    // New profiles are drawn at once; existing ones keep their state.
    const bool isNew = list_->count() > before;
    item->setCheckState(checked.contains(named.name) || isNew ? Qt::Checked : Qt::Unchecked);
  }
  if (list_->count() > 0) list_->setCurrentRow(list_->count() - 1);
  list_->blockSignals(false);
  redrawCharts();
}

QStringList DiagnosticPanel::checkedProfiles() const {
  QStringList names;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked) names << list_->item(i)->text();
  return names;
}

QColor DiagnosticPanel::profileColour(const QString& name) {
  const auto known = profileColours_.find(name);
  if (known != profileColours_.end()) return known->second;
  return profileColours_[name] = CurveChart::paletteColor(nextProfileColour_++);
}

void DiagnosticPanel::redrawCharts() {
  if (hidden_->defer()) return;  // behind another tab: drawn when shown
  const int ci = std::max(0, coordinate_->currentIndex());
  rateChart_->setAxisTitles(tr("noise level σ (log scale)"), tr(kRateCoordinates[ci].axis));
  rateChart_->setLogY(true);
  std::vector<Curve> mmse, rates, posterior;
  const QStringList checked = checkedProfiles();
  const LegendNames legends = legendNames(checked);
  // What every curve's name shares (a bracket's dataset) is said once, in the profile list and
  // the charts' tooltips: in a title it was elided at 1366×768.
  const QString ofData =
      legends.shared.isEmpty()
          ? QString()
          : tr("Every curve's name ends in “ · %1”, left out of the legend").arg(legends.shared);
  for (CurveChart* chart : {mmseChart_, rateChart_, posteriorChart_}) chart->setToolTip(ofData);
  for (const QString& profileName : checked) {
    const auto profile = workbench_->profile(profileName);
    if (!profile || profile->estimates.empty()) continue;
    const QColor c = profileColour(profileName);
    const QString& name = legends.shown.at(profileName);
    const MmseEstimate& e = profile->primary();
    const double d = static_cast<double>(std::max<int64_t>(1, profile->dim));
    // The bound coincides with one of its two curves at every σ: dashed, both stay visible.
    Curve m{name, profile->sigma, {}, {}, {}, c, profile->kind == "bound"};
    for (size_t i = 0; i < e.mean.size(); ++i) {
      m.y.push_back(e.mean[i] / d);
      m.lower.push_back(e.ciLow[i] / d);
      m.upper.push_back(e.ciHigh[i] / d);
    }
    mmse.push_back(m);
    if (const RateSeries* r = profile->rate(kRateCoordinates[ci].key)) {
      Curve rc{name, profile->sigma, r->value, {}, {}, c, profile->kind == "bound"};
      for (size_t i = 0; i < r->value.size() && i < r->standardError.size(); ++i) {
        rc.lower.push_back(r->value[i] - kNormal95 * r->standardError[i]);
        rc.upper.push_back(r->value[i] + kNormal95 * r->standardError[i]);
      }
      if (rc.lower.size() != rc.x.size()) rc.lower.clear(), rc.upper.clear();
      rates.push_back(rc);
    }
    if (!profile->posterior.empty()) {
      posterior.push_back({tr("max weight · %1").arg(name),
                           profile->sigma,
                           profile->posterior.maxWeight,
                           {},
                           {},
                           c});
      Curve h{tr("entropy / log N · %1").arg(name), profile->sigma, {}, {}, {}, c, true};
      const double logN = std::log(static_cast<double>(std::max<int64_t>(2, profile->datasetSize)));
      for (double v : profile->posterior.weightEntropy) h.y.push_back(v / logN);
      posterior.push_back(h);
    }
  }
  // A running bracket: the levels known so far, dashed, one curve per kind.
  int liveColour = 0;
  for (const auto& [kind, levels] : live_) {
    Curve c{tr("%1 (running…)").arg(QString::fromStdString(kind)),
            {},
            {},
            {},
            {},
            CurveChart::paletteColor(8 + liveColour++),
            true};
    for (const auto& [level, point] : levels) {
      if (!(point.second > 0.0)) continue;  // a log axis cannot show 0
      c.x.push_back(point.first);
      c.y.push_back(point.second);
    }
    if (!c.x.empty()) mmse.push_back(c);
  }
  mmseChart_->setCurves(mmse);
  rateChart_->setCurves(rates);
  posteriorChart_->setCurves(posterior);

  QListWidgetItem* item = list_->currentItem();
  const auto current = item ? workbench_->profile(item->text()) : nullptr;
  if (!current) {
    summary_->setText(tr("Run the diagnostic or load a profile."));
    return;
  }
  QString text =
      tr("<b>%1</b> — %6: %2 levels, %3 queries per level, N = %4, D = %5.")
          .arg(item->text().toHtmlEscaped())
          .arg(current->levels())
          .arg(current->queries)
          .arg(current->datasetSize)
          .arg(current->dim)
          .arg(QString::fromStdString(profileKindMeaning(current->kind)).toHtmlEscaped());
  if (current->provenance.contains("query_set") && current->provenance["query_set"].is_string())
    text += tr(" Held-out queries: %1.")
                .arg(QString::fromStdString(current->provenance["query_set"].get<std::string>())
                         .toHtmlEscaped());
  if (current->kind == "empirical") {
    text += tr(" ∫ rate d log σ = %1 nats (log N = %2).")
                .arg(integrateRateOverLogSigma(*current), 0, 'f', 3)
                .arg(std::log(static_cast<double>(current->datasetSize)), 0, 'f', 3);
    text += tr(" Weights below e^−%1 of the largest were dropped (≤ %2 of the mass per query). "
               "Below the nearest-neighbour scale the empirical prior's MMSE is ~0: its optimal "
               "denoiser memorises the training points.")
                .arg(current->posterior.pruneLogRatio)
                .arg(current->posterior.prunedWeightBound, 0, 'g', 2);
  }
  // The engine's warnings about this profile (e.g. float32 past its proven bound), in red.
  const auto warnings = current->provenance.find("warnings");
  if (warnings != current->provenance.end() && warnings->is_array())
    for (const auto& w : *warnings)
      if (w.is_string())
        text +=
            QStringLiteral("<br><span style='color:#b00020'><b>%1</b> %2</span>")
                .arg(tr("Warning:"), QString::fromStdString(w.get<std::string>()).toHtmlEscaped());
  summary_->setText(text);
}

}  // namespace noisescope::ui
