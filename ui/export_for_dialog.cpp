#include "ui/export_for_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

#include "pipeline/defaults.h"
#include "pipeline/schedules/fit_current.h"
#include "schedule/trainer_families.h"
#include "ui/curve_chart.h"
#include "ui/job_runner.h"
#include "ui/warning_box.h"

namespace noisescope::ui {

namespace {
const QString kFitTag = QStringLiteral("fit for a trainer");
const QString kCompareTag = QStringLiteral("compare with my config");

QString range(double lo, double hi) {
  auto n = [](double v) {
    return std::isinf(v) ? QStringLiteral("∞") : QString::number(v, 'g', 4);
  };
  return QStringLiteral("%1 … %2").arg(n(lo), n(hi));
}

Curve toCurve(const pipeline::ToolCurve& c, QColor colour, bool dashed) {
  Curve out;
  out.name = QString::fromStdString(c.label);
  out.x = c.x;
  out.y = c.y;
  out.color = colour;
  out.dashed = dashed;
  return out;
}
}  // namespace

ExportForDialog::ExportForDialog(pipeline::FitTarget target, JobRunner* jobs, QWidget* parent)
    : QDialog(parent), target_(std::move(target)), jobs_(jobs) {
  setWindowTitle(tr("Export for a trainer — %1").arg(QString::fromStdString(target_.source)));

  tool_ = new QComboBox(this);
  for (const std::string& name : schedule::trainerToolNames())
    tool_->addItem(QString::fromStdString(name));
  tool_->setAccessibleName(tr("Trainer"));
  model_ = new QComboBox(this);
  model_->setAccessibleName(tr("Model"));
  model_->setToolTip(
      tr("The model family being trained: it fixes the trainer's table, prediction and loss "
         "(docs/trainers.md); the first is the trainer's most common case"));
  auto fillModels = [this] {
    const QSignalBlocker quiet(model_);
    model_->clear();
    for (const std::string& name : schedule::trainerModelNames(tool_->currentText().toStdString()))
      model_->addItem(QString::fromStdString(name));
  };
  fillModels();
  width_ = new QSpinBox(this);
  height_ = new QSpinBox(this);
  for (QSpinBox* box : {width_, height_}) {
    box->setRange(16, 16384);
    box->setSingleStep(64);
    box->setSuffix(tr(" px"));
  }
  width_->setValue(pipeline::defaults::kTrainerWidth);
  height_->setValue(pipeline::defaults::kTrainerHeight);
  width_->setToolTip(
      tr("Training image size: Flux's flux_shift (and SimpleTuner's auto shift) "
         "set the shift from the image's token count"));
  height_->setToolTip(width_->toolTip());
  auto* size = new QHBoxLayout();
  size->addWidget(width_);
  size->addWidget(new QLabel(QStringLiteral("×"), this));
  size->addWidget(height_);
  size->addStretch(1);
  auto* form = new QFormLayout();
  form->addRow(tr("&Trainer:"), tool_);
  form->addRow(tr("&Model:"), model_);
  auto* sizeLabel = new QLabel(tr("Training &resolution:"), this);
  sizeLabel->setBuddy(width_);
  form->addRow(sizeLabel, size);

  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  families_ = new QTableWidget(this);
  families_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  families_->setSelectionBehavior(QAbstractItemView::SelectRows);
  families_->setSelectionMode(QAbstractItemView::SingleSelection);
  families_->setAccessibleName(tr("Fitted families"));
  families_->setColumnCount(5);
  families_->setHorizontalHeaderLabels(
      {tr("family"), tr("fitted knobs"), tr("KL(target‖fit)"), tr("KL(fit‖target)"), tr("TV")});
  families_->horizontalHeader()->setStretchLastSection(true);
  families_->setWordWrap(true);  // one knob per line keeps the mismatch columns in view
  families_->verticalHeader()->setVisible(false);

  chart_ = new CurveChart(this);
  chart_->setMinimumSize(520, 300);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  snippet_ = new QPlainTextEdit(this);
  snippet_->setReadOnly(true);
  snippet_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  snippet_->setAccessibleName(tr("Snippet"));
  snippet_->setMaximumHeight(130);
  copy_ = new QPushButton(tr("&Copy snippet"), this);
  save_ = new QPushButton(tr("&Save knobs…"), this);
  save_->setToolTip(tr("Every family's fit and snippet: JSON for .json, text otherwise"));
  compare_ = new QPushButton(tr("Compare with &my config…"), this);
  compare_->setToolTip(
      tr("Your own settings file for this tool: the φ it trains, its mismatch "
         "and the knobs to change (noisescope-cli fit --current)"));
  auto* snippetButtons = new QHBoxLayout();
  snippetButtons->addWidget(copy_);
  snippetButtons->addWidget(save_);
  snippetButtons->addWidget(compare_);
  snippetButtons->addStretch(1);

  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addLayout(form);
  leftLayout->addWidget(summary_);
  leftLayout->addWidget(families_, 1);
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addWidget(chart_, 1);
  rightLayout->addWidget(note_);
  rightLayout->addWidget(snippet_);
  rightLayout->addLayout(snippetButtons);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(left);
  split->addWidget(right);
  split->setSizes({480, 660});
  auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(split, 1);
  layout->addWidget(close);
  resize(1180, 720);

  connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(tool_, &QComboBox::currentIndexChanged, this, [this, fillModels] {
    fillModels();
    refit();
  });
  connect(model_, &QComboBox::currentIndexChanged, this, &ExportForDialog::refit);
  connect(width_, &QSpinBox::editingFinished, this, &ExportForDialog::refit);
  connect(height_, &QSpinBox::editingFinished, this, &ExportForDialog::refit);
  connect(families_, &QTableWidget::currentCellChanged, this, [this](int row) { showFamily(row); });
  connect(copy_, &QPushButton::clicked, this,
          [this] { QApplication::clipboard()->setText(snippet_->toPlainText()); });
  connect(save_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save knobs"), QStringLiteral("%1-knobs.json").arg(tool_->currentText()),
        tr("JSON (*.json);;Text (*.txt)"));
    if (!path.isEmpty()) saveKnobsAs(path);
  });
  connect(compare_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Your %1 settings").arg(tool_->currentText()), QString(),
        tr("Settings (*.json *.yaml *.yml *.toml *.txt *.sh);;All files (*)"));
    if (!path.isEmpty()) compareWith(path);
  });
  refit();
}

schedule::TrainerSettings ExportForDialog::chosenSettings() const {
  schedule::TrainerSettings settings;
  settings.width = width_->value();
  settings.height = height_->value();
  settings.model = model_->currentText().toStdString();
  return settings;
}

void ExportForDialog::compareWith(const QString& path) {
  const std::string tool = tool_->currentText().toStdString();
  const schedule::TrainerSettings settings = chosenSettings();
  const pipeline::FitTarget target = target_;
  const std::string file = path.toStdString();
  auto text = std::make_shared<std::string>();
  auto work = [text, target, file, tool, settings](const Progress&) {
    *text = io::formatCurrentFit(pipeline::fitCurrentSettingsFile(target, file, tool, settings));
  };
  auto failed = [this](const QString& message) {
    showWarning(this, tr("Compare with my config"), message);
    Q_EMIT comparisonFinished(false);
  };
  if (!jobs_) {
    try {
      work({});
      showComparison(QString::fromStdString(*text));
    } catch (const std::exception& e) {
      failed(QString::fromStdString(e.what()));
    }
    return;
  }
  QPointer<ExportForDialog> self(this);
  jobs_->submit(
      kCompareTag, work,
      [self, text] {
        if (self) self->showComparison(QString::fromStdString(*text));
      },
      [self, failed](const QString& message, bool cancelled) {
        if (self && !cancelled) failed(message);
      });
}

void ExportForDialog::showComparison(const QString& text) {
  if (!comparison_) {
    comparison_ = new QDialog(this);
    comparison_->setWindowTitle(tr("Your settings against the target"));
    comparisonView_ = new QPlainTextEdit(comparison_);
    comparisonView_->setReadOnly(true);
    comparisonView_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    comparisonView_->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, comparison_);
    connect(buttons, &QDialogButtonBox::rejected, comparison_, &QDialog::hide);
    auto* layout = new QVBoxLayout(comparison_);
    layout->addWidget(comparisonView_, 1);
    layout->addWidget(buttons);
    comparison_->resize(900, 560);
  }
  comparisonView_->setPlainText(text);
  comparison_->show();
  comparison_->raise();
  Q_EMIT comparisonFinished(true);
}

QString ExportForDialog::comparisonText() const {
  return comparisonView_ ? comparisonView_->toPlainText() : QString();
}

void ExportForDialog::refit() {
  const std::string tool = tool_->currentText().toStdString();
  const schedule::TrainerSettings settings = chosenSettings();
  summary_->setText(
      tr("Fitting %1's families for %2…").arg(tool_->currentText(), model_->currentText()));
  families_->setEnabled(false);
  copy_->setEnabled(false);
  save_->setEnabled(false);
  auto result = std::make_shared<io::ToolFit>();
  const pipeline::FitTarget target = target_;
  auto work = [result, target, tool, settings](const Progress&) {
    *result = pipeline::fitForTool(target, tool, settings);
  };
  if (!jobs_) {
    try {
      work({});
      showFit(result);
    } catch (const std::exception& e) {
      summary_->setText(QString::fromStdString(e.what()));
    }
    return;
  }
  QPointer<ExportForDialog> self(this);
  jobs_->submit(
      kFitTag, work,
      [self, result] {
        if (self) self->showFit(result);
      },
      [self](const QString& message, bool cancelled) {
        if (self && !cancelled) self->summary_->setText(message);
      });
}

void ExportForDialog::showFit(std::shared_ptr<const io::ToolFit> fit) {
  // A result for a tool no longer chosen (the user moved on) is dropped; its successor follows.
  if (QString::fromStdString(fit->tool) != tool_->currentText() ||
      QString::fromStdString(fit->model) != model_->currentText())
    return;
  fit_ = std::move(fit);
  const io::ToolFit& f = *fit_;
  summary_->setText(
      tr("<b>%1</b> training <b>%2</b> (%3) draws in <b>%4</b> (%5); its loss is on %6.<br>Knobs "
         "go in %7.<br>Its draw reaches σ %8, where %9 % of the target's φ lies.")
          .arg(QString::fromStdString(f.tool), QString::fromStdString(f.model),
               QString::fromStdString(f.modelNote).toHtmlEscaped(),
               QString::fromStdString(f.coordinate),
               QString::fromStdString(f.discretisation).toHtmlEscaped(),
               QString::fromStdString(f.lossSpace).toHtmlEscaped(),
               QString::fromStdString(f.knob).toHtmlEscaped(), range(f.sigmaMin, f.sigmaMax))
          .arg(100.0 * f.targetMassReachable, 0, 'f', 1));
  // A target from a latent cache's profile: whether its σ is on the scale this tool noises.
  if (!f.latentScale.empty())
    summary_->setText(
        summary_->text() +
        tr("<br>Latent scale: %1").arg(QString::fromStdString(f.latentScale).toHtmlEscaped()));
  families_->setRowCount(0);
  for (const auto& family : f.fits) {
    QStringList knobs;
    for (const auto& [name, values] : io::knobValues(family))
      knobs << (values.size() == 1 ? QStringLiteral("%1 = %2")
                                         .arg(QString::fromStdString(name))
                                         .arg(values[0], 0, 'g', 4)
                                   : tr("%1 = %2 knots (in the snippet)")
                                         .arg(QString::fromStdString(name))
                                         .arg(values.size()));
    const int row = families_->rowCount();
    families_->insertRow(row);
    const QStringList cells = {QString::fromStdString(family.family),
                               knobs.isEmpty() ? tr("(no knob)") : knobs.join(QLatin1Char('\n')),
                               QString::number(family.kl, 'g', 4),
                               QString::number(family.klReverse, 'g', 4),
                               QString::number(family.tv, 'g', 4)};
    for (int c = 0; c < cells.size(); ++c)
      families_->setItem(row, c, new QTableWidgetItem(cells[c]));
  }
  families_->resizeColumnsToContents();
  families_->resizeRowsToContents();
  families_->setEnabled(true);
  save_->setEnabled(true);
  families_->setCurrentCell(f.fits.empty() ? -1 : 0, 0);
  showFamily(f.fits.empty() ? -1 : 0);
  Q_EMIT fitFinished();
}

void ExportForDialog::showFamily(int row) {
  if (!fit_ || row < 0 || row >= static_cast<int>(fit_->fits.size())) {
    chart_->setCurves({});
    snippet_->clear();
    copy_->setEnabled(false);
    return;
  }
  const pipeline::ToolOverlay overlay = pipeline::toolOverlay(*fit_);
  const schedule::TrainerFamilyFit& family = fit_->fits[row];
  chart_->setLogAxes(overlay.logX, false);
  chart_->setAxisTitles(QString::fromStdString(overlay.xLabel),
                        QString::fromStdString(overlay.yLabel));
  chart_->setTitle(
      tr("%1 %2 over the target: KL %3 nats, TV %4")
          .arg(QString::fromStdString(fit_->tool), QString::fromStdString(family.family))
          .arg(family.kl, 0, 'g', 3)
          .arg(family.tv, 0, 'g', 3));
  chart_->setCurves({toCurve(overlay.target, CurveChart::paletteColor(0), false),
                     toCurve(overlay.fits[row], CurveChart::paletteColor(1), true)});
  note_->setText(
      tr("%1: %2. TV = %3: that share of the training effort goes to noise levels "
         "where the target does not put it.")
          .arg(QString::fromStdString(family.family), QString::fromStdString(family.note))
          .arg(family.tv, 0, 'f', 3));
  snippet_->setPlainText(QString::fromStdString(family.snippet));
  copy_->setEnabled(true);
}

bool ExportForDialog::saveKnobsAs(const QString& path) {
  const QString error = saveKnobs(path);
  if (!error.isEmpty()) showWarning(this, tr("Cannot save"), error);
  return error.isEmpty();
}

QString ExportForDialog::saveKnobs(const QString& path) {
  if (!fit_) return tr("No fit yet.");
  try {
    io::writeToolFit(path.toStdString(), *fit_);
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace noisescope::ui
