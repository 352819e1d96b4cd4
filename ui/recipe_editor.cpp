#include "ui/recipe_editor.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

#include "pipeline/defaults.h"
#include "ui/coordinate_titles.h"
#include "ui/schedule_panel.h"
#include "ui/schedule_spin_box.h"

namespace noisescope::ui {

using namespace noisescope::schedule;
using pipeline::ScheduleRecipe;

void RecipeEditor::addNumber(const QString& label, double lo, double hi, double value,
                             std::function<void(double)> set, const QString& help) const {
  QDoubleSpinBox* box = numberSpin(editor, lo, hi, value);
  box->setToolTip(help);
  form->addRow(label, box);
  QObject::connect(box, &QDoubleSpinBox::valueChanged, editor, [set, changed = changed](double v) {
    set(v);
    changed();
  });
}

void addFamilyRows(const RecipeEditor& e, QLabel* kind) {
  const ScheduleRecipe& recipe = *e.draft;
  const FamilyDescriptor& f = family(recipe.family);
  kind->setText(QString::fromStdString(f.label + ": " + f.formula));
  for (const ParameterDescriptor& p : f.parameters) {
    const std::string key = p.name;
    e.addNumber(
        QString::fromStdString(p.label) + QLatin1Char(':'), p.minimum, p.maximum,
        recipe.parameters.count(key) ? recipe.parameters.at(key) : p.defaultValue,
        [draft = e.draft, key](double v) { draft->parameters[key] = v; },
        QString::fromStdString(p.help));
  }
}

namespace {

// Where the schedule is made, what its profile's kind means for it
// (pipeline/schedules/caveats.h); shown again after each change of profile.
std::function<void()> addCaveatRow(const RecipeEditor& e,
                                   const std::function<std::vector<std::string>()>& caveats) {
  auto* caveat = new QLabel(e.editor);
  caveat->setObjectName(QStringLiteral("scheduleCaveat"));
  caveat->setWordWrap(true);
  caveat->setStyleSheet(QStringLiteral("color: #a04000;"));
  e.form->addRow(caveat);
  auto showCaveat = [caveat, caveats] {
    const std::vector<std::string> now = caveats();
    caveat->setText(now.empty()
                        ? QString()
                        : SchedulePanel::tr("Caveat: %1").arg(QString::fromStdString(now.front())));
    caveat->setVisible(!now.empty());
  };
  showCaveat();
  return showCaveat;
}

// √-entropy takes the square root of dH/du in a coordinate u of the user's choice.
void addSqrtCoordinateRow(const RecipeEditor& e) {
  auto* coordinate = new QComboBox(e.editor);
  const Coordinate options[] = {Coordinate::LogSigma, Coordinate::Sigma, Coordinate::Lambda};
  for (Coordinate c : options) coordinate->addItem(coordinateTitle(c));
  const Coordinate current = e.draft->sqrtCoordinate;
  coordinate->setCurrentIndex(current == Coordinate::Sigma    ? 1
                              : current == Coordinate::Lambda ? 2
                                                              : 0);
  e.form->addRow(SchedulePanel::tr("Square root in &u:"), coordinate);
  QObject::connect(coordinate, &QComboBox::currentIndexChanged, e.editor,
                   [draft = e.draft, changed = e.changed, options](int i) {
                     draft->sqrtCoordinate = options[i];
                     changed();
                   });
}

}  // namespace

void addEntropicRows(const RecipeEditor& e, QLabel* kind, const QStringList& profiles,
                     const std::function<std::vector<std::string>()>& caveats) {
  const ScheduleRecipe& recipe = *e.draft;
  const bool info = recipe.kind == ScheduleRecipe::Kind::InfoNoise;
  kind->setText(info ? SchedulePanel::tr("InfoNoise: effective allocation ρ ∝ (MMSE/σ²)·g(σ), "
                                         "g = σⁿ/(σⁿ + cⁿ); sampling π ∝ ρ/w")
                     : SchedulePanel::tr("√-entropy: sampling density π(u) ∝ √(dH/du) in the "
                                         "coordinate u below, moved to log σ with the Jacobian"));
  auto* profile = new QComboBox(e.editor);
  profile->addItems(profiles);
  profile->setCurrentText(QString::fromStdString(recipe.profileName));
  // A profile's name ("population bound · train-images-idx3-ubyte") would set the form's width
  // beyond the editor's column and cut every wrapped line on the right: the box is narrow, its
  // list as wide as the names, and the tooltip says the whole name.
  profile->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  profile->setMinimumContentsLength(12);
  profile->view()->setMinimumWidth(profile->view()->sizeHintForColumn(0));
  profile->setToolTip(profile->currentText());
  e.form->addRow(SchedulePanel::tr("&Profile:"), profile);
  const std::function<void()> showCaveat = addCaveatRow(e, caveats);
  QObject::connect(profile, &QComboBox::currentTextChanged, e.editor,
                   [profile, draft = e.draft, changed = e.changed, showCaveat](const QString& t) {
                     profile->setToolTip(t);
                     draft->profileName = t.toStdString();
                     changed();
                     showCaveat();
                   });
  if (!info) addSqrtCoordinateRow(e);
  e.addNumber(
      SchedulePanel::tr("Gate c (0: off):"), 0.0, 100.0, recipe.gateC,
      [draft = e.draft](double v) { draft->gateC = v; },
      SchedulePanel::tr("Low-noise gate g(σ) = σⁿ/(σⁿ + cⁿ). ≈%1 for CIFAR-like images, %2 for "
                        "DNA and other discrete data; an offline empirical profile needs none.")
          .arg(pipeline::defaults::autoGateC(false))
          .arg(pipeline::defaults::autoGateC(true)));
  e.addNumber(SchedulePanel::tr("Gate n:"), 0.5, 20.0, recipe.gateN,
              [draft = e.draft](double v) { draft->gateN = v; });
  e.addNumber(
      SchedulePanel::tr("Smoothing (log σ):"), 0.0, 5.0, recipe.smoothing,
      [draft = e.draft](double v) { draft->smoothing = v; },
      SchedulePanel::tr("Gaussian smoothing bandwidth of the log-rate along log σ, for noisy "
                        "profiles"));
}

void showBuiltFacts(QLabel* kind, const Schedule& built) {
  QStringList facts;
  for (const auto& [k, v] : built.info.notes)
    facts << QStringLiteral("%1: %2").arg(QString::fromStdString(k), QString::fromStdString(v));
  for (const auto& [k, v] : built.info.parameters)
    facts << QStringLiteral("%1 = %2").arg(QString::fromStdString(k)).arg(v, 0, 'g', 6);
  if (built.isAtomic()) {
    QStringList atoms;
    for (const Atom& a : built.atoms())
      atoms << QStringLiteral("σ=%1: %2").arg(a.sigma, 0, 'g', 4).arg(a.weight, 0, 'f', 4);
    facts << SchedulePanel::tr("atoms: %1").arg(atoms.join(QStringLiteral("; ")));
  }
  kind->setText(QString::fromStdString(built.info.label) + QStringLiteral("\n") +
                facts.join(QLatin1Char('\n')));
  kind->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void addLossWeightRows(const RecipeEditor& e, const pipeline::BuiltSchedule& shown) {
  auto* weight = new QComboBox(e.editor);
  for (const std::string& name : lossWeightNames()) weight->addItem(QString::fromStdString(name));
  weight->setCurrentText(QString::fromStdString(e.draft->weight.name()));
  e.form->addRow(SchedulePanel::tr("&Loss weight w:"), weight);
  QObject::connect(weight, &QComboBox::currentTextChanged, e.editor,
                   [draft = e.draft, changed = e.changed](const QString& t) {
                     draft->weight.kind = lossWeightKindFromString(t.toStdString());
                     changed();
                   });
  // Shows the σ_data in use; typing a value makes it "given".
  e.addNumber(
      SchedulePanel::tr("σ_data (EDM weight):"), 1e-3, 100.0, shown.sigmaData.value,
      [draft = e.draft](double v) { draft->sigmaData = v; },
      SchedulePanel::tr("σ_data in use: %1").arg(QString::fromStdString(shown.sigmaData.source)));
  e.addNumber(SchedulePanel::tr("γ (min-SNR):"), 1e-3, 1e4, e.draft->weight.gamma,
              [draft = e.draft](double v) { draft->weight.gamma = v; });
}

void addBuildOutcome(const RecipeEditor& e, const pipeline::BuiltSchedule& shown,
                     const QString& error) {
  auto* facts = new QLabel(e.editor);
  facts->setWordWrap(true);
  if (error.isEmpty()) {
    facts->setText(
        SchedulePanel::tr("Mass outside [σ_min, σ_max] before truncation: %1\nσ_data %2: %3")
            .arg(shown.schedule.info.truncatedMass, 0, 'g', 3)
            .arg(shown.sigmaData.value, 0, 'g', 4)
            .arg(QString::fromStdString(shown.sigmaData.source)));
  } else {
    facts->setText(error);
  }
  e.form->addRow(facts);
}

}  // namespace noisescope::ui
