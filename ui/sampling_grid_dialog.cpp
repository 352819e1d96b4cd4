#include "ui/sampling_grid_dialog.h"

#include "pipeline/sampling/sampling_grids.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTextEdit>
#include <QVBoxLayout>

#include "pipeline/defaults.h"

namespace noisescope::ui {

namespace {

// The family's spec with its defaults, e.g. "ddpm?spacing=trailing&train_timesteps=1000&…".
QString defaultSpec(const std::string& family) {
  if (family == "entropic" || family == "quantiles") return QString::fromStdString(family);
  return QString::fromStdString(pipeline::canonicalSamplingGridSpec(family));
}

}  // namespace

SamplingGridDialog::SamplingGridDialog(Build build, const QString& scheduleName, QWidget* parent)
    : QDialog(parent), build_(std::move(build)) {
  setWindowTitle(tr("Sampling grid"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("Inference σ steps to sample with, written beside <b>%1</b>. Karras ρ = 7 is the default "
         "until the sampling race shows a grid that beats it; <i>Entropic</i> follows the "
         "schedule's profile, <i>Quantiles</i> its π. A step whose ratio "
         "σ<sub>i</sub>/σ<sub>i+1</sub> "
         "exceeds %2 × Karras ρ = 7's largest step at the same N is flagged: the sampler was never "
         "checked on it (add guard=cap to reshape the grid instead).")
          .arg(scheduleName.toHtmlEscaped())
          .arg(pipeline::defaults::kSamplingRatioMargin),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  auto* form = new QFormLayout();
  family_ = new QComboBox(this);
  for (const auto& f : pipeline::samplingGridFamilyList())
    family_->addItem(QString::fromStdString(f.label + " — " + f.rule),
                     QString::fromStdString(f.name));
  spec_ = new QLineEdit(QString::fromStdString(pipeline::defaults::kSamplingGrid), this);
  spec_->setToolTip(
      tr("family?key=value&…; the keys of each family are listed by "
         "noisescope-cli schedule --list"));
  steps_ = new QSpinBox(this);
  steps_->setRange(2, 10000);
  steps_->setValue(pipeline::defaults::kSamplingSteps);
  steps_->setToolTip(tr("N levels, then 0: Heun spends 2N − 1 network evaluations, Euler N"));
  form->addRow(tr("&Family:"), family_);
  form->addRow(tr("&Grid:"), spec_);
  form->addRow(tr("&Levels N:"), steps_);
  layout->addLayout(form);

  const int line = fontMetrics().lineSpacing();
  preview_ = new QTextEdit(this);
  preview_->setReadOnly(true);
  preview_->setMinimumHeight(7 * line);
  preview_->setAccessibleName(tr("Grid preview"));
  warnings_ = new QTextEdit(this);
  warnings_->setReadOnly(true);
  warnings_->setMinimumHeight(4 * line);
  warnings_->setMaximumHeight(6 * line);
  warnings_->setAccessibleName(tr("Step warnings"));
  warnings_->setStyleSheet(QStringLiteral("color: #b00020"));
  layout->addWidget(preview_, 1);
  layout->addWidget(warnings_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  save_ = buttons->addButton(tr("&Save…"), QDialogButtonBox::AcceptRole);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);

  connect(family_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const std::string name = family_->itemData(index).toString().toStdString();
    // Keep the typed spec when it already is of this family.
    if (spec_->text().section(QLatin1Char('?'), 0, 0).trimmed() != QString::fromStdString(name))
      spec_->setText(defaultSpec(name));
  });
  connect(spec_, &QLineEdit::textChanged, this, [this] { refresh(); });
  connect(steps_, &QSpinBox::valueChanged, this, [this] { refresh(); });
  refresh();
  resize(680, sizeHint().height());
}

QString SamplingGridDialog::spec() const {
  return spec_->text().trimmed();
}
int SamplingGridDialog::steps() const {
  return steps_->value();
}
void SamplingGridDialog::setSpec(const QString& spec) {
  spec_->setText(spec);
}
void SamplingGridDialog::setSteps(int steps) {
  steps_->setValue(steps);
}
QString SamplingGridDialog::previewText() const {
  return preview_->toPlainText();
}
QString SamplingGridDialog::warningText() const {
  return warnings_->toPlainText();
}
bool SamplingGridDialog::acceptable() const {
  return ok_;
}

namespace {
// How a data-driven grid was chosen (auto's rule and reason, σ_min, the profiles read).
QString notesHtml(const std::vector<std::string>& notes) {
  QString html;
  for (const auto& note : notes)
    html += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped();
  return html;
}
}  // namespace

void SamplingGridDialog::refresh() {
  ok_ = false;
  try {
    const SigmaSteps s = build_(spec().toStdString(), steps());
    QString levels;
    for (auto it = s.exports.kdiffusionSigmas.begin(); it != s.exports.kdiffusionSigmas.end(); ++it)
      levels +=
          (levels.isEmpty() ? QString() : QStringLiteral(", ")) + QString::number(*it, 'g', 4);
    preview_->setHtml(tr("<b>%1</b> (%2)<br>Rule: %3<br>σ: %4<br>Largest step ×%5, limit ×%6")
                          .arg(QString::fromStdString(s.label).toHtmlEscaped(),
                               QString::fromStdString(s.grid).toHtmlEscaped(),
                               QString::fromStdString(s.rule).toHtmlEscaped(), levels)
                          .arg(s.largestRatio, 0, 'g', 4)
                          .arg(s.ratioLimit, 0, 'g', 4) +
                      notesHtml(s.notes));
    QStringList warnings;
    for (const auto& w : s.warnings) warnings << QString::fromStdString(w);
    warnings_->setPlainText(warnings.isEmpty() ? QString() : warnings.join(QStringLiteral("\n")));
    ok_ = true;
    // Follow a typed spec in the family box without resetting the text.
    const QString head = spec().section(QLatin1Char('?'), 0, 0);
    const int index = family_->findData(head);
    if (index >= 0 && index != family_->currentIndex()) {
      const QSignalBlocker block(family_);
      family_->setCurrentIndex(index);
    }
  } catch (const std::exception& e) {
    preview_->setPlainText(tr("Cannot build this grid."));
    warnings_->setPlainText(QString::fromStdString(e.what()));
  }
  save_->setEnabled(ok_);
}

}  // namespace noisescope::ui
