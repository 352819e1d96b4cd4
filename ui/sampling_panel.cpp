#include "ui/sampling_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTextEdit>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "pipeline/sampling/sample_race.h"
#include "profile/profile.h"
#include "ui/curve_chart.h"
#include "ui/grid_picker.h"
#include "ui/job_runner.h"
#include "ui/warning_box.h"
#include "ui/wheel_guard.h"
#include "ui/workbench.h"

namespace noisescope::ui {

namespace {

const QString kRaceTag = QStringLiteral("sample-race");
constexpr double kRaceChartDecades = 2.0;

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

// "8 16, 32" → {8, 16, 32}; false for anything that is not a list of positive integers.
template <typename T>
bool parseList(const QString& typed, std::vector<T>& out) {
  out.clear();
  const QStringList parts =
      typed.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
  for (const QString& p : parts) {
    bool ok = false;
    const qulonglong v = p.toULongLong(&ok);
    if (!ok || v == 0) return false;
    out.push_back(static_cast<T>(v));
  }
  return !out.empty();
}

// The race chart as the CLI writes it (pipeline::sampleRaceChart), as the GUI's curves.
std::vector<Curve> curvesOf(const render::ChartSpec& chart) {
  std::vector<Curve> curves;
  for (const auto& s : chart.series) {
    Curve c;
    c.name = text(s.label);
    c.x = s.x;
    c.y = s.y;
    if (s.hasBand()) {
      c.lower = s.low;
      c.upper = s.high;
    }
    c.dashed = s.dashed;
    curves.push_back(std::move(c));
  }
  return curves;
}

// A form row's label for a field inside a row layout: QFormLayout sets a buddy only for a widget
// field, and a label without a buddy shows its mnemonic's "&" literally.
QLabel* buddyLabel(const QString& text, QWidget* buddy) {
  auto* label = new QLabel(text, buddy->parentWidget());
  label->setBuddy(buddy);
  return label;
}

// "grid 3 of 8 — ETA 2 min": the parts that say something, so no dash dangles before or after
// an empty one (a progress report without a message).
QString progressLine(const QString& message, const QString& eta) {
  QStringList parts;
  for (const QString& part : {message.trimmed(), eta.trimmed()})
    if (!part.isEmpty()) parts << part;
  return parts.join(QStringLiteral(" — "));
}

QLineEdit* pathField(QWidget* parent, const QString& placeholder) {
  auto* field = new QLineEdit(parent);
  field->setPlaceholderText(placeholder);
  field->setClearButtonEnabled(true);
  return field;
}

}  // namespace

SamplingPanel::SamplingPanel(Workbench* workbench, QWidget* parent)
    : QWidget(parent), workbench_(workbench) {
  const pipeline::SampleRaceOptions defaults;
  auto* layout = new QVBoxLayout(this);

  // The model and what its grids follow.
  auto* modelBox = new QGroupBox(tr("Model"), this);
  auto* form = new QFormLayout(modelBox);
  model_ = pathField(this, tr("a run folder, or a TorchScript x0 denoiser (.pt)"));
  // Mnemonics: every letter once on the tab, none of the tab bar's (D, i, S, T, m) or the menu
  // bar's (F, H); test_window_layout checks it.
  auto* runButton = new QPushButton(tr("R&un folder…"), this);
  auto* fileButton = new QPushButton(tr("T&orchScript file…"), this);
  auto* modelRow = new QHBoxLayout();
  modelRow->addWidget(model_, 1);
  modelRow->addWidget(runButton);
  modelRow->addWidget(fileButton);
  form->addRow(buddyLabel(tr("Model:"), model_), modelRow);
  auto browseRow = [this](QLineEdit* field, const QString& title, const QString& filter) {
    auto* row = new QHBoxLayout();
    auto* browse = new QPushButton(tr("Browse…"), this);
    row->addWidget(field, 1);
    row->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this, field, title, filter] {
      const QString path = QFileDialog::getOpenFileName(this, title, field->text(), filter);
      if (!path.isEmpty()) field->setText(path);
    });
    return row;
  };
  config_ = pathField(this, tr("only for a TorchScript file: the training config of its data"));
  profile_ = pathField(this, tr("optional: the entropic grids follow this profile's rate"));
  features_ = pathField(this, tr("optional: default the config's eval.feature_network"));
  form->addRow(buddyLabel(tr("&Config:"), config_),
               browseRow(config_, tr("Training config"), tr("Config (*.json);;All files (*)")));
  sessionProfile_ = new QComboBox(this);
  sessionProfile_->setToolTip(
      tr("A profile of this session (a bracket from the Diagnostic tab, a loaded file): it is "
         "written into the runs folder's profiles/ with the rest of its bracket, and the field "
         "below names that file"));
  sessionProfile_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sessionProfile_->setMinimumContentsLength(24);
  form->addRow(buddyLabel(tr("&Profile:"), sessionProfile_), sessionProfile_);
  form->addRow(buddyLabel(tr("Profile fi&le:"), profile_),
               browseRow(profile_, tr("Profile"), tr("Profiles (*.json);;All files (*)")));
  form->addRow(buddyLabel(tr("Feature net&work:"), features_),
               browseRow(features_, tr("Feature network"), tr("TorchScript (*.pt);;All (*)")));
  plan_ = new QLabel(tr("Choose a run folder or a TorchScript file."), this);
  plan_->setWordWrap(true);
  plan_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(plan_);
  layout->addWidget(modelBox);

  auto* split = new QSplitter(Qt::Horizontal, this);
  layout->addWidget(split, 1);

  // Left: the grids and the race's settings.
  auto* left = new QWidget(split);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(new QLabel(tr("<b>Grids</b> (checked ones are raced)"), left));
  grids_ = new GridPicker(left);
  leftLayout->addWidget(grids_, 1);
  auto* settings = new QFormLayout();
  nfe_ = new QLineEdit(left);
  QStringList budgets;
  for (int64_t n : defaults.nfe) budgets << QString::number(n);
  nfe_->setText(budgets.join(QLatin1Char(' ')));
  nfe_->setToolTip(tr("Budgets of denoiser evaluations; every grid gets the same σ steps at each"));
  seeds_ = new QLineEdit(left);
  QStringList seeds;
  for (uint64_t s : defaults.seeds) seeds << QString::number(s);
  seeds_->setText(seeds.join(QLatin1Char(' ')));
  seeds_->setToolTip(tr("Sampling seeds; the intervals are 95 % Student t over them (≥ 2)"));
  samples_ = new QSpinBox(left);
  samples_->setRange(0, 100000);
  samples_->setValue(int(defaults.samples));
  samples_->setSpecialValueText(tr("the config's eval.quality_samples"));
  sampler_ = new QComboBox(left);
  sampler_->addItem("auto");
  for (schedule::OdeSampler s : schedule::odeSamplers()) sampler_->addItem(toString(s));
  sampler_->setCurrentText(text(defaults.sampler));
  sampler_->setToolTip(tr("auto: Euler for a flow-v model, else EDM's Heun"));
  elbo_ = new QCheckBox(tr("also the grid's ELBO bound"), left);
  elbo_->setChecked(defaults.elbo);
  settings->addRow(tr("&NFE:"), nfe_);
  settings->addRow(tr("S&eeds:"), seeds_);
  settings->addRow(tr("S&amples:"), samples_);
  settings->addRow(tr("Sampler:"), sampler_);
  settings->addRow(elbo_);
  leftLayout->addLayout(settings);
  auto* buttons = new QHBoxLayout();
  quick_ = new QPushButton(tr("&Quick look"), left);
  quick_->setToolTip(
      tr("A first look in minutes, with the settings named under the buttons; "
         "the fields above are left as they are"));
  start_ = new QPushButton(tr("Start &race"), left);
  start_->setToolTip(tr("Race the checked grids with the settings above"));
  cancel_ = new QPushButton(tr("Cancel"), left);
  cancel_->setToolTip(tr("Stop the race; the cells already finished stay in the table"));
  cancel_->setEnabled(false);
  buttons->addWidget(quick_);
  buttons->addWidget(start_);
  buttons->addWidget(cancel_);
  leftLayout->addLayout(buttons);
  quickNote_ = new QLabel(left);
  quickNote_->setWordWrap(true);
  quickNote_->setEnabled(false);  // a note, drawn dimmed
  leftLayout->addWidget(quickNote_);
  progress_ = new QProgressBar(left);
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  leftLayout->addWidget(progress_);
  status_ = new QLabel(left);
  status_->setWordWrap(true);
  leftLayout->addWidget(status_);
  split->addWidget(left);

  // Right: the grids on σ, the race chart and its table.
  views_ = new QTabWidget(split);
  auto* views = views_;
  auto* gridPage = new QWidget(views);
  auto* gridLayout = new QVBoxLayout(gridPage);
  auto* gridRow = new QHBoxLayout();
  previewNfe_ = new QComboBox(gridPage);
  previewNfe_->setToolTip(tr("The σ steps every grid takes at this budget"));
  gridRow->addWidget(new QLabel(tr("Steps at NFE:"), gridPage));
  gridRow->addWidget(previewNfe_);
  gridRow->addStretch(1);
  gridLayout->addLayout(gridRow);
  gridChart_ = new CurveChart(gridPage);
  gridChart_->setAxisTitles(tr("σ"), tr("grid row · π, rate (scaled)"));
  gridLayout->addWidget(gridChart_, 1);
  views->addTab(gridPage, tr("Grids on σ"));

  auto* racePage = new QWidget(views);
  auto* raceLayout = new QVBoxLayout(racePage);
  auto* raceRow = new QHBoxLayout();
  measure_ = new QComboBox(racePage);
  raceRow->addWidget(new QLabel(tr("Measure:"), racePage));
  raceRow->addWidget(measure_);
  raceRow->addStretch(1);
  saveJson_ = new QPushButton(tr("Save &JSON…"), racePage);
  saveChart_ = new QPushButton(tr("Sa&ve chart…"), racePage);
  saveJson_->setEnabled(false);
  saveChart_->setEnabled(false);
  raceRow->addWidget(saveJson_);
  raceRow->addWidget(saveChart_);
  raceLayout->addLayout(raceRow);
  raceChart_ = new CurveChart(racePage);
  // One grid that fails (a measure 100× the others') set a linear y-range and flattened the
  // others: a log y with the rate chart's informative-range rule in a two-decade window keeps the
  // grids that agree at the largest NFE readable and marks ▲ where the outlier leaves the range.
  // Data within a decade still draws linearly (CurveChart), and so does a measure that is not
  // positive (redrawRace).
  raceChart_->setLogAxes(true, true);
  raceChart_->setMaxLogDecades(kRaceChartDecades);
  raceChart_->setAxisTitles(tr("denoiser evaluations (NFE budget)"), tr("measure"));
  raceLayout->addWidget(raceChart_, 2);
  table_ = new QTextEdit(racePage);
  table_->setReadOnly(true);
  table_->setLineWrapMode(QTextEdit::NoWrap);
  table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  table_->setAccessibleName(tr("Race table"));
  raceLayout->addWidget(table_, 1);
  racePage_ = racePage;
  views->addTab(racePage, tr("Race"));
  split->addWidget(views);
  split->setStretchFactor(1, 3);

  connect(runButton, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Run folder"), model_->text());
    if (!dir.isEmpty()) model_->setText(dir);
  });
  connect(fileButton, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("TorchScript denoiser"), model_->text(), tr("TorchScript (*.pt);;All files (*)"));
    if (!path.isEmpty()) model_->setText(path);
  });
  for (QLineEdit* field : {model_, config_, profile_})
    connect(field, &QLineEdit::editingFinished, this, [this] { replan(); });
  for (QLineEdit* field : {model_, config_, profile_})
    connect(field, &QLineEdit::textChanged, this, [this, field] {
      if (!field->hasFocus()) replan();  // set by a button or a test, not being typed
    });
  connect(nfe_, &QLineEdit::editingFinished, this, [this] { replan(); });
  connect(sampler_, &QComboBox::currentIndexChanged, this, [this] { replan(); });
  connect(grids_, &GridPicker::selectionChanged, this, [this] { redrawGrids(); });
  connect(previewNfe_, &QComboBox::currentIndexChanged, this, [this] { redrawGrids(); });
  connect(measure_, &QComboBox::currentIndexChanged, this, [this] { redrawRace(); });
  connect(quick_, &QPushButton::clicked, this, &SamplingPanel::startQuickLook);
  connect(start_, &QPushButton::clicked, this, &SamplingPanel::startRace);
  // A session profile picked: the main window writes its file. Editing the file field leaves the
  // session profile.
  connect(sessionProfile_, &QComboBox::activated, this, [this] {
    const QString name = sessionProfile_->currentData().toString();
    if (!name.isEmpty()) Q_EMIT sessionProfileChosen(name);
  });
  connect(profile_, &QLineEdit::textChanged, this, [this](const QString& text) {
    if (text != sessionProfilePath_ && sessionProfile_->currentIndex() != 0) {
      sessionProfilePath_.clear();
      sessionProfile_->setCurrentIndex(0);
    }
  });
  connect(workbench_, &Workbench::profilesChanged, this, &SamplingPanel::refillSessionProfiles);
  connect(cancel_, &QPushButton::clicked, this, &SamplingPanel::cancelRace);
  connect(saveJson_, &QPushButton::clicked, this, &SamplingPanel::saveJson);
  connect(saveChart_, &QPushButton::clicked, this, &SamplingPanel::saveChart);
  connect(workbench_->jobs(), &JobRunner::progressChanged, this,
          [this](const QString& tag, double fraction, const QString& message) {
            if (tag == kRaceTag) onProgress(fraction, message);
          });
  start_->setEnabled(false);
  quick_->setEnabled(false);
  guardWheel(this);  // the wheel scrolls, not the setting under the pointer
  refillSessionProfiles();
}

SamplingPanel::~SamplingPanel() {
  // ~QWidget closes the panel, and a field losing its focus then would replan on members
  // already destroyed.
  for (QWidget* field :
       std::initializer_list<QWidget*>{model_, config_, profile_, nfe_, sampler_, sessionProfile_})
    field->disconnect(this);
}

void SamplingPanel::refillSessionProfiles() {
  const QString chosen = sessionProfile_->currentData().toString();
  const QSignalBlocker block(sessionProfile_);
  sessionProfile_->clear();
  sessionProfile_->addItem(workbench_->profiles().empty()
                               ? tr("none in this session: run a bracket, or load a profile")
                               : tr("a file: the field below"),
                           QString());
  for (const auto& named : workbench_->profiles()) {
    sessionProfile_->addItem(named.name, named.name);
    sessionProfile_->setItemData(sessionProfile_->count() - 1,
                                 QString::fromStdString(named.profile->kind + ": " +
                                                        profileKindMeaning(named.profile->kind)),
                                 Qt::ToolTipRole);
  }
  const int index = chosen.isEmpty() ? -1 : sessionProfile_->findData(chosen);
  if (index > 0) {
    sessionProfile_->setCurrentIndex(index);
  } else {
    sessionProfile_->setCurrentIndex(0);
    if (!sessionProfilePath_.isEmpty() && profile_->text() == sessionProfilePath_)
      profile_->clear();  // its profile was removed from the session
    sessionProfilePath_.clear();
  }
}

void SamplingPanel::chooseSessionProfile(const QString& name) {
  const int index = sessionProfile_->findData(name);
  if (index <= 0) return;
  sessionProfile_->setCurrentIndex(index);
  Q_EMIT sessionProfile_->activated(index);
}

void SamplingPanel::useSessionProfileFile(const QString& name, const QString& path) {
  const int index = sessionProfile_->findData(name);
  sessionProfilePath_ = path;
  if (index > 0) sessionProfile_->setCurrentIndex(index);
  profile_->setText(path);
  profile_->setToolTip(tr("%1, written from this session's profile “%2”").arg(path, name));
}

void SamplingPanel::setModel(const QString& path) {
  model_->setText(path);
}
void SamplingPanel::setConfig(const QString& path) {
  config_->setText(path);
}
void SamplingPanel::setProfile(const QString& path) {
  profile_->setText(path);
}
void SamplingPanel::setFeatureNetwork(const QString& path) {
  features_->setText(path);
}
void SamplingPanel::setNfe(const QString& budgets) {
  nfe_->setText(budgets);
  replan();
}
void SamplingPanel::setSeeds(const QString& seeds) {
  seeds_->setText(seeds);
}
void SamplingPanel::setSamples(int samples) {
  samples_->setValue(samples);
}
void SamplingPanel::setElbo(bool on) {
  elbo_->setChecked(on);
}
QString SamplingPanel::profilePath() const {
  return profile_->text().trimmed();
}
QString SamplingPanel::planText() const {
  return plan_->text();
}
QString SamplingPanel::statusText() const {
  return status_->text();
}
QString SamplingPanel::tableText() const {
  return table_->toPlainText();
}

pipeline::SampleRaceOptions SamplingPanel::options() const {
  pipeline::SampleRaceOptions o;
  o.model = model_->text().trimmed().toStdString();
  o.config = config_->text().trimmed().toStdString();
  o.profile = profile_->text().trimmed().toStdString();
  o.featureNetwork = features_->text().trimmed().toStdString();
  for (const QString& g : grids_->checkedSpecs()) o.grids.push_back(g.toStdString());
  std::vector<int64_t> nfe;
  if (parseList(nfe_->text(), nfe)) o.nfe = nfe;
  std::vector<uint64_t> seeds;
  if (parseList(seeds_->text(), seeds)) o.seeds = seeds;
  o.sampler = sampler_->currentText().toStdString();
  o.samples = samples_->value();
  o.elbo = elbo_->isChecked();
  return o;
}

pipeline::SampleRaceOptions SamplingPanel::quickOptions() const {
  const pipeline::SampleRaceOptions form = options();
  pipeline::SampleRaceOptions o = pipeline::SampleRaceOptions::quick();
  o.model = form.model;
  o.config = form.config;
  o.profile = form.profile;
  o.featureNetwork = form.featureNetwork;
  o.sampler = form.sampler;
  return o;
}

QString SamplingPanel::quickLookText() const {
  return quickNote_->text();
}

void SamplingPanel::replan() {
  racePlan_.reset();
  backdrop_ = {};
  backdropError_.clear();
  pipeline::SampleRaceOptions o = options();
  o.grids.clear();  // the defaults for this model; the picker keeps the user's own
  quickNote_->clear();
  if (o.model.empty()) {
    plan_->setText(tr("Choose a run folder or a TorchScript file."));
    start_->setEnabled(false);
    quick_->setEnabled(false);
    redrawGrids();
    return;
  }
  try {
    racePlan_ = pipeline::planSampleRace(o);
    const pipeline::SampleRacePlan& plan = *racePlan_;
    QStringList specs;
    for (const auto& g : plan.grids) specs << text(g);
    {
      const QSignalBlocker block(grids_);  // one redraw, below, once the NFE list is set too
      grids_->setDefaults(specs);
    }
    plan_->setText(tr("Samples <b>%1</b> with the %2 sampler on σ ∈ [%3, %4]; data and "
                      "held-out set from %5.")
                       .arg(text(plan.model).toHtmlEscaped(), text(toString(plan.sampler)))
                       .arg(plan.context.sigmaMin, 0, 'g', 4)
                       .arg(plan.context.sigmaMax, 0, 'g', 4)
                       .arg(text(plan.source).toHtmlEscaped()));
    const pipeline::SampleRaceOptions quick = quickOptions();
    QStringList quickGrids;
    for (const auto& g : pipeline::defaultGridsOf(quick, plan.context)) quickGrids << text(g);
    quickNote_->setText(tr("Quick look: %1 · %2")
                            .arg(quickGrids.join(QStringLiteral(", ")),
                                 text(pipeline::sampleRaceSettingsText(quick))));
    try {
      backdrop_ = pipeline::raceBackdrop(plan);
    } catch (const std::exception& e) {
      backdropError_ = QString::fromStdString(e.what());  // e.g. a profile that does not read
    }
  } catch (const std::exception& e) {
    plan_->setText(QStringLiteral("<span style=\"color:#b00020\">%1</span>")
                       .arg(QString::fromStdString(e.what()).toHtmlEscaped()));
  }
  // The preview's budgets follow the NFE field.
  const QString shown = previewNfe_->currentText();
  {
    const QSignalBlocker block(previewNfe_);
    previewNfe_->clear();
    for (int64_t n : o.nfe) previewNfe_->addItem(QString::number(n));
    const int index = previewNfe_->findText(shown);
    previewNfe_->setCurrentIndex(index >= 0 ? index : 0);
  }
  start_->setEnabled(racePlan_.has_value() && !racing_);
  quick_->setEnabled(racePlan_.has_value() && !racing_);
  redrawGrids();
}

void SamplingPanel::redrawGrids() {
  std::vector<Curve> curves;
  if (!racePlan_ || previewNfe_->count() == 0) {
    gridChart_->setCurves(curves);
    return;
  }
  try {
    pipeline::SampleRacePlan plan = *racePlan_;
    plan.grids.clear();
    for (const QString& g : grids_->checkedSpecs()) plan.grids.push_back(g.toStdString());
    const int64_t nfe = previewNfe_->currentText().toLongLong();
    const auto previews = pipeline::previewRaceGrids(plan, nfe);
    const pipeline::RaceBackdrop& backdrop = backdrop_;
    // Rows 1…G, one per grid; the curves peak half a row above the top one, so no row sits on
    // the plot's edge.
    const double top = double(previews.size()) + 0.5;
    auto scaled = [top](const QString& name, const std::vector<double>& x,
                        const std::vector<double>& y, const QColor& color, bool dashed) {
      Curve c;
      c.name = name;
      c.x = x;
      const double peak = y.empty() ? 0.0 : *std::max_element(y.begin(), y.end());
      for (double v : y) c.y.push_back(peak > 0 ? top * v / peak : 0.0);
      c.color = color;
      c.dashed = dashed;
      return c;
    };
    if (!backdrop.pi.empty())
      curves.push_back(scaled(tr("training π (%1)").arg(text(backdrop.piSource)), backdrop.piSigma,
                              backdrop.pi, QColor(0x80, 0x80, 0x80), false));
    if (!backdrop.rate.empty())
      curves.push_back(scaled(tr("profile rate MMSE/σ² (%1)").arg(text(backdrop.profileSource)),
                              backdrop.rateSigma, backdrop.rate, QColor(0x40, 0x40, 0x40), true));
    QStringList failed;
    if (!backdropError_.isEmpty()) failed << backdropError_;
    int row = 0;
    for (const auto& p : previews) {
      ++row;
      if (!p.error.empty()) {
        failed << tr("%1: %2").arg(text(p.name), text(p.error));
        continue;
      }
      Curve c;
      c.name = tr("%1 (%2 steps)").arg(text(p.name)).arg(p.steps);
      c.x = p.sigma;
      c.y.assign(p.sigma.size(), double(row));
      c.markers = true;
      c.color = CurveChart::paletteColor(row - 1);
      curves.push_back(std::move(c));
    }
    gridChart_->setTitle(
        tr("σ steps at NFE %1 (%2 sampler)").arg(nfe).arg(text(toString(plan.sampler))));
    if (!failed.isEmpty()) status_->setText(failed.join(QLatin1Char('\n')));
  } catch (const std::exception& e) {
    status_->setText(QString::fromStdString(e.what()));
  }
  gridChart_->setCurves(curves);
}

void SamplingPanel::startRace() {
  if (racing_) return;
  if (grids_->checkedSpecs().isEmpty()) {
    status_->setText(tr("Check at least one grid to race."));
    return;
  }
  std::vector<int64_t> nfe;
  std::vector<uint64_t> seeds;
  if (!parseList(nfe_->text(), nfe)) {
    status_->setText(tr("NFE must be positive whole numbers, e.g. 8 16 32 64."));
    return;
  }
  if (!parseList(seeds_->text(), seeds)) {
    status_->setText(tr("Seeds must be positive whole numbers, e.g. 1 2 3."));
    return;
  }
  race(options());
}

void SamplingPanel::startQuickLook() {
  if (racing_) return;
  race(quickOptions());
}

bool SamplingPanel::raceShown() const {
  return views_->currentWidget() == racePage_;
}

void SamplingPanel::race(const pipeline::SampleRaceOptions& o) {
  auto result = std::make_shared<SampleRaceResult>();
  racing_ = true;
  eta_.clear();
  result_.reset();
  table_->clear();
  raceChart_->setCurves({});
  saveJson_->setEnabled(false);
  saveChart_->setEnabled(false);
  start_->setEnabled(false);
  quick_->setEnabled(false);
  cancel_->setEnabled(true);
  progress_->setValue(0);
  status_->setText(tr("Starting the race…"));
  views_->setCurrentWidget(racePage_);  // the cells fill in there as they finish
  // Each finished cell is posted to the GUI thread and shown; the guard drops one that arrives
  // after the panel is gone (the runner outlives it).
  const QPointer<SamplingPanel> self(this);
  JobRunner* jobs = workbench_->jobs();
  const pipeline::SampleRaceObserver onCell = [self, jobs](const SampleRaceResult& sofar) {
    auto copy = std::make_shared<const SampleRaceResult>(sofar);
    jobs->post([self, copy] {
      if (self && self->racing_) self->showRace(copy);
    });
  };
  workbench_->jobs()->submit(
      kRaceTag,
      [o, result, onCell](const Progress& progress) {
        *result = pipeline::runSampleRace(o, progress, onCell);
      },
      [this, result] {
        racing_ = false;
        cancel_->setEnabled(false);
        start_->setEnabled(racePlan_.has_value());
        quick_->setEnabled(racePlan_.has_value());
        progress_->setValue(1000);
        status_->setText(tr("Raced %1 grids at %2 budgets with %3 seeds.")
                             .arg(result->grids.size())
                             .arg(result->nfe.size())
                             .arg(result->seeds.size()));
        showRace(result);
        Q_EMIT raceFinished(true);
      },
      [this](const QString& message, bool cancelled) {
        racing_ = false;
        cancel_->setEnabled(false);
        start_->setEnabled(racePlan_.has_value());
        quick_->setEnabled(racePlan_.has_value());
        // The cells that finished stay, marked; the rest were not raced.
        QString kept;
        if (result_) {
          auto stopped = std::make_shared<SampleRaceResult>(*result_);
          stopped->state = SampleRaceState::Cancelled;
          kept = tr(" %1 of %2 cells finished and kept.")
                     .arg(stopped->cells.size())
                     .arg(stopped->grids.size() * stopped->nfe.size());
          showRace(stopped);
        }
        status_->setText((cancelled ? tr("Race cancelled.") : message) + kept);
        Q_EMIT raceFinished(false);
      });
}

void SamplingPanel::showRace(std::shared_ptr<const SampleRaceResult> result) {
  result_ = std::move(result);
  table_->setPlainText(text(pipeline::sampleRaceText(*result_)));
  {
    // The measure shown stays through the updates of one race.
    const QString shown = measure_->currentText();
    const QSignalBlocker block(measure_);
    measure_->clear();
    for (const auto& m : result_->measures()) measure_->addItem(text(m));
    const int index = measure_->findText(shown);
    measure_->setCurrentIndex(index >= 0 ? index : 0);
  }
  saveJson_->setEnabled(true);
  saveChart_->setEnabled(measure_->count() > 0);
  redrawRace();
  Q_EMIT raceUpdated();
}

void SamplingPanel::cancelRace() {
  workbench_->jobs()->cancel(kRaceTag);
}

void SamplingPanel::onProgress(double fraction, const QString& message) {
  progress_->setValue(int(std::lround(1000 * std::clamp(fraction, 0.0, 1.0))));
  eta_.add(fraction, QDateTime::currentMSecsSinceEpoch() / 1000.0);
  status_->setText(progressLine(message, text(eta_.text())));
}

void SamplingPanel::redrawRace() {
  if (!result_ || measure_->count() == 0) {
    raceChart_->setCurves({});
    return;
  }
  const render::ChartSpec chart =
      pipeline::sampleRaceChart(*result_, measure_->currentText().toStdString());
  raceChart_->setTitle(text(chart.title));
  raceChart_->setAxisTitles(text(chart.xLabel), text(chart.yLabel));
  std::vector<Curve> curves = curvesOf(chart);
  // A log y only shows positive values: a measure that is not (a continuous ELBO in nats can be
  // negative) keeps its linear axis.
  bool positive = true;
  for (const Curve& c : curves)
    for (double y : c.y) positive = positive && !(y <= 0);
  raceChart_->setLogAxes(true, positive);
  raceChart_->setCurves(curves);
}

void SamplingPanel::saveJson() {
  if (!result_) return;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save the race"), tr("race.json"), tr("JSON (*.json)"));
  if (!path.isEmpty()) saveJsonAs(path);
}

bool SamplingPanel::saveJsonAs(const QString& path) {
  if (!result_) return false;
  try {
    pipeline::writeSampleRaceJson(path.toStdString(), *result_);
    return true;
  } catch (const std::exception& e) {
    showWarning(this, tr("Cannot save the race"), QString::fromStdString(e.what()));
    return false;
  }
}

void SamplingPanel::saveChart() {
  if (!result_ || measure_->count() == 0) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Save the race chart"), tr("race.svg"),
                                                    tr("Charts (*.svg *.png)"));
  if (!path.isEmpty()) saveChartAs(path);
}

bool SamplingPanel::saveChartAs(const QString& path) {
  if (!result_ || measure_->count() == 0) return false;
  try {
    pipeline::writeSampleRaceChart(path.toStdString(), *result_,
                                   measure_->currentText().toStdString());
    return true;
  } catch (const std::exception& e) {
    showWarning(this, tr("Cannot save the chart"), QString::fromStdString(e.what()));
    return false;
  }
}

}  // namespace noisescope::ui
