#include "ui/posterior_strip.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "pipeline/diagnose/diagnose_job.h"
#include "render/sample_image.h"
#include "ui/chart_export.h"
#include "ui/image_view.h"
#include "ui/workbench.h"
#include "util/log_grid.h"

namespace noisescope::ui {

namespace {
const QString kProbeTag = QStringLiteral("posterior probe");

// σ values for the strip: log-spaced over the range where the picture changes for [−1, 1] data.
std::vector<double> stripSigmas(int count) {
  return logSpacedGrid(0.05, 20.0, count);
}

QLabel* imageCell(const Dataset& dataset, const float* values, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setAlignment(Qt::AlignCenter);
  if (dataset.dim() <= 3) {
    QStringList parts;
    for (int64_t i = 0; i < dataset.dim(); ++i) parts << QString::number(values[i], 'f', 3);
    label->setText(QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", "))));
    return label;
  }
  const QImage image = toQImage(renderSample(dataset, values));
  const int scale = std::max(1, 84 / std::max(1, std::max(image.width(), image.height())));
  label->setPixmap(QPixmap::fromImage(image.scaled(image.size() * scale)));
  return label;
}
}  // namespace

PosteriorStrip::PosteriorStrip(Workbench* workbench, QWidget* parent)
    : QWidget(parent), workbench_(workbench) {
  sample_ = new QSpinBox(this);
  sample_->setAccessibleName(tr("Sample index"));
  columns_ = new QSpinBox(this);
  columns_->setRange(2, 16);
  columns_->setValue(8);
  random_ = new QPushButton(tr("Ra&ndom sample"), this);
  run_ = new QPushButton(tr("Sho&w posterior"), this);
  export_ = new QPushButton(tr("E&xport strip…"), this);
  auto* sampleLabel = new QLabel(tr("Sample:"), this);
  sampleLabel->setBuddy(sample_);
  auto* columnsLabel = new QLabel(tr("σ values:"), this);
  columnsLabel->setBuddy(columns_);

  auto* controls = new QHBoxLayout();
  controls->addWidget(sampleLabel);
  controls->addWidget(sample_);
  controls->addWidget(random_);
  controls->addWidget(columnsLabel);
  controls->addWidget(columns_);
  controls->addWidget(run_);
  controls->addStretch(1);
  controls->addWidget(export_);

  cells_ = new QWidget(this);
  grid_ = new QGridLayout(cells_);
  grid_->setSpacing(4);
  note_ = new QLabel(tr("Rows: noisy input y = x₀ + σε, then the optimal denoiser's posterior mean "
                        "E[x₀ | y] over the whole dataset. Under each: max weight, weight entropy "
                        "(nats) and effective sample size 1/Σw²."),
                     this);
  note_->setWordWrap(true);
  note_->setEnabled(false);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(note_);
  layout->addWidget(cells_, 1);

  connect(random_, &QPushButton::clicked, this, [this] {
    sample_->setValue(
        static_cast<int>(QRandomGenerator::global()->bounded(sample_->maximum() + 1)));
    probe();
  });
  connect(run_, &QPushButton::clicked, this, &PosteriorStrip::probe);
  connect(export_, &QPushButton::clicked, this,
          [this] { exportWidgetWithDialog(cells_, QStringLiteral("posterior-strip.png")); });
  connect(workbench_, &Workbench::datasetChanged, this, [this] {
    const auto dataset = workbench_->dataset();
    sample_->setRange(0, dataset ? static_cast<int>(dataset->size() - 1) : 0);
    clearCells();
  });
}

int PosteriorStrip::shownLevels() const {
  return shown_;
}

void PosteriorStrip::probe() {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  auto result = std::make_shared<PosteriorProbe>();
  const int64_t index = sample_->value();
  const std::vector<double> sigmas = stripSigmas(columns_->value());
  workbench_->jobs()->submit(
      kProbeTag,
      [dataset, result, index, sigmas](const Progress& progress) {
        *result = pipeline::probeSample(*dataset, index, sigmas, progress);
      },
      [this, dataset, result] {
        if (workbench_->dataset() != dataset) return;
        show(*result);
        Q_EMIT probeFinished();
      });
}

void PosteriorStrip::clearCells() {
  while (QLayoutItem* item = grid_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  shown_ = 0;
}

void PosteriorStrip::show(const PosteriorProbe& probe) {
  clearCells();
  const auto dataset = workbench_->dataset();
  grid_->addWidget(new QLabel(tr("noisy y"), cells_), 1, 0);
  grid_->addWidget(new QLabel(tr("E[x₀ | y]"), cells_), 2, 0);
  grid_->addWidget(new QLabel(tr("clean x₀"), cells_), 0, 0);
  grid_->addWidget(imageCell(*dataset, probe.clean.data(), cells_), 0, 1);
  for (int level = 0; level < static_cast<int>(probe.sigma.size()); ++level) {
    auto* title = new QLabel(QStringLiteral("σ = %1").arg(probe.sigma[level], 0, 'g', 3), cells_);
    title->setAlignment(Qt::AlignCenter);
    grid_->addWidget(title, 0, level + 2);
    grid_->addWidget(imageCell(*dataset, probe.noisyAt(level), cells_), 1, level + 2);
    grid_->addWidget(imageCell(*dataset, probe.meanAt(level), cells_), 2, level + 2);
    auto* stats = new QLabel(tr("max w %1\nH %2 nats\nESS %3")
                                 .arg(probe.maxWeight[level], 0, 'f', 3)
                                 .arg(probe.weightEntropy[level], 0, 'f', 2)
                                 .arg(probe.effectiveSampleSize[level], 0, 'g', 4),
                             cells_);
    stats->setAlignment(Qt::AlignCenter);
    grid_->addWidget(stats, 3, level + 2);
  }
  shown_ = static_cast<int>(probe.sigma.size());
  // Keep every row readable: the enclosing scroll area scrolls instead of squeezing the cells.
  cells_->setMinimumSize(grid_->sizeHint());
}

}  // namespace noisescope::ui
