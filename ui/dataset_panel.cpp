#include "ui/dataset_panel.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <random>
#include <utility>

#include "pipeline/defaults.h"
#include "render/sample_image.h"
#include "ui/image_view.h"
#include "ui/scatter_view.h"
#include "ui/sigma_control.h"
#include "ui/workbench.h"

namespace noisescope::ui {

namespace {
// Rows of the statistics box, in display order.
enum StatRow { kCount, kShape, kKind, kScaling, kRange, kMean, kStd, kSigmaData, kNearest };
const char* kStatNames[] = {"Samples N", "Shape",  "Kind",
                            "Values",    "Range",  "Mean",
                            "Std",       "σ_data", "NN distance (median)"};
}  // namespace

DatasetPanel::DatasetPanel(Workbench* workbench, QWidget* parent)
    : QWidget(parent), workbench_(workbench) {
  header_ =
      new QLabel(tr("No dataset loaded. Open one with File ▸ Open, or drop a file here."), this);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  sigma_ = new SigmaControl(this);
  sampleCount_ = new QSpinBox(this);
  sampleCount_->setRange(1, 400);
  sampleCount_->setValue(48);
  sampleCount_->setAccessibleName(tr("Number of samples shown"));
  auto* countLabel = new QLabel(tr("Sam&ples:"), this);
  countLabel->setBuddy(sampleCount_);
  newSamples_ = new QPushButton(tr("&New samples"), this);
  newSamples_->setToolTip(tr("Show another random selection of samples and noise"));

  signalScaled_ = new QCheckBox(tr("Si&gnal-scaled: (x + σε)/√(σ_data² + σ²)"), this);
  signalScaled_->setToolTip(
      tr("Draw each noisy sample divided by √(σ_data² + σ²), the network's input scaling "
         "c_in (EDM), at the clean data's contrast (×σ_data), instead of clipping x + σ·ε to "
         "[−1, 1]: at large σ the signal left in the noise stays visible, so σ = 5 and σ = 80 "
         "no longer look the same."));

  auto* controls = new QHBoxLayout();
  controls->addWidget(sigma_, 1);
  controls->addSpacing(12);
  controls->addWidget(signalScaled_);
  controls->addSpacing(12);
  controls->addWidget(countLabel);
  controls->addWidget(sampleCount_);
  controls->addWidget(newSamples_);

  noiseNote_ = new QLabel(this);
  noiseNote_->setWordWrap(true);
  noiseNote_->setEnabled(false);

  views_ = new QStackedWidget(this);
  imageView_ = new ImageView(views_);
  scatterView_ = new ScatterView(views_);
  views_->addWidget(imageView_);
  views_->addWidget(scatterView_);

  auto* statsBox = new QGroupBox(tr("Statistics"), this);
  statsForm_ = new QFormLayout(statsBox);
  for (int row = 0; row <= kNearest; ++row) {
    statsLabels_[row] = new QLabel(QStringLiteral("—"), statsBox);
    statsLabels_[row]->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statsForm_->addRow(tr(kStatNames[row]) + QLatin1Char(':'), statsLabels_[row]);
  }
  statsBox->setMinimumWidth(240);

  auto* body = new QHBoxLayout();
  body->addWidget(views_, 1);
  body->addWidget(statsBox, 0, Qt::AlignTop);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header_);
  layout->addLayout(controls);
  layout->addWidget(noiseNote_);
  layout->addLayout(body, 1);

  connect(sigma_, &SigmaControl::sigmaChanged, this, &DatasetPanel::redraw);
  connect(signalScaled_, &QCheckBox::toggled, this, [this] {
    updateNote();
    redraw();
  });
  connect(sampleCount_, &QSpinBox::valueChanged, this, &DatasetPanel::drawNewSamples);
  connect(newSamples_, &QPushButton::clicked, this, &DatasetPanel::drawNewSamples);
  connect(workbench_, &Workbench::datasetChanged, this, &DatasetPanel::onDatasetChanged);
  connect(workbench_, &Workbench::statisticsChanged, this, &DatasetPanel::onStatisticsChanged);
  setEnabled(false);
}

void DatasetPanel::onDatasetChanged() {
  const auto dataset = workbench_->dataset();
  setEnabled(dataset != nullptr);
  if (!dataset) return;
  header_->setText(tr("<b>%1</b> — %2 samples of shape %3 (%4), split: %5<br><small>%6</small>")
                       .arg(QString::fromStdString(dataset->name).toHtmlEscaped())
                       .arg(dataset->size())
                       .arg(QString::fromStdString(dataset->shapeString()))
                       .arg(QString::fromLatin1(toString(dataset->kind)))
                       .arg(QString::fromStdString(dataset->split))
                       .arg(QString::fromStdString(dataset->source).toHtmlEscaped()));
  readerNote_.clear();
  // The readers' notes are phrases ("HDF5 dataset /train/images", "image values in …"): each is
  // shown as a sentence, so it does not run into the next.
  for (const std::string& readerNote : dataset->notes) {
    QString sentence = QString::fromStdString(readerNote).trimmed();
    if (sentence.isEmpty()) continue;
    sentence[0] = sentence[0].toUpper();
    if (!sentence.endsWith(QLatin1Char('.'))) sentence += QLatin1Char('.');
    readerNote_ += sentence + QLatin1Char(' ');
  }
  // A scatter plot fits its view to the noisy points: it has nothing to clip.
  signalScaled_->setEnabled(dataset->kind != SampleKind::Points);
  updateNote();
  // A DNA window is a long strip: a dozen fill the view legibly, where images want a few dozen.
  sampleCount_->blockSignals(true);
  sampleCount_->setValue(dataset->kind == SampleKind::Sequence ? 12 : 48);
  sampleCount_->blockSignals(false);
  for (QLabel* label : statsLabels_) label->setText(QStringLiteral("…"));
  statsLabels_[kCount]->setText(QString::number(dataset->size()));
  statsLabels_[kShape]->setText(QString::fromStdString(dataset->shapeString()));
  statsLabels_[kKind]->setText(QString::fromLatin1(toString(dataset->kind)));
  statsLabels_[kScaling]->setText(
      QString::fromStdString(dataset->scaling) +
      tr(" (from %1)").arg(QString::fromStdString(dataset->sourceDtype)));
  drawNewSamples();
}

void DatasetPanel::updateNote() {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  QString note = readerNote_;
  if (dataset->kind == SampleKind::Sequence)
    note =
        tr("DNA is one-hot coded: +1 for the base, −1 in the other three channels. Top row: the "
           "strongest base (A green, C blue, G amber, T red), faded as its lead shrinks; below: "
           "one row per channel.");
  else if (dataset->kind == SampleKind::Image)
    note += signalScaled_->isChecked()
                ? tr("Signal-scaled: each noisy sample is drawn as (x + σε)·σ_data/√(σ_data² + "
                     "σ²), from −1 (black) to +1 (white), so the clean data looks as it is and "
                     "large σ keeps its contrast.")
                : tr("Pixels are shown from −1 (black) to +1 (white); noisy values outside are "
                     "clipped.");
  if (dataset->hasLabels()) note += tr(" Each sample's class label is in its corner.");
  noiseNote_->setText(note + tr(" The same noise ε is reused as σ moves: x + σ·ε."));
}

void DatasetPanel::onStatisticsChanged() {
  if (!workbench_->hasStatistics()) return;
  if (signalScaled_->isChecked()) redraw();  // the scaling uses the measured σ_data
  const DatasetStatistics& s = workbench_->statistics();
  auto num = [](double v) { return QString::number(v, 'g', 4); };
  statsLabels_[kRange]->setText(QStringLiteral("[%1, %2]").arg(num(s.minValue), num(s.maxValue)));
  statsLabels_[kMean]->setText(num(s.mean));
  statsLabels_[kStd]->setText(num(s.stddev));
  statsLabels_[kSigmaData]->setText(num(s.sigmaData));
  statsLabels_[kNearest]->setText(
      s.nearestNeighbourQueries > 0
          ? tr("%1 (%2 queries)").arg(num(s.nearestNeighbourMedian)).arg(s.nearestNeighbourQueries)
          : tr("not computed"));
  statsLabels_[kNearest]->setToolTip(
      tr("Below about this σ the empirical posterior is essentially one-hot: the optimal "
         "denoiser of the empirical distribution memorises the nearest training point."));
}

void DatasetPanel::drawNewSamples() {
  const auto dataset = workbench_->dataset();
  if (!dataset) return;
  const int64_t n = dataset->size();
  const bool scatter = dataset->kind == SampleKind::Points;
  // A scatter plot shows many points at once; a grid shows the requested number of samples.
  const int64_t wanted = std::min<int64_t>(n, scatter ? 2000 : sampleCount_->value());
  std::mt19937_64 rng(0x5eed + drawCount_++);
  std::vector<int64_t> all(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) all[i] = i;
  for (int64_t i = 0; i < wanted; ++i) {
    std::uniform_int_distribution<int64_t> pick(i, n - 1);
    std::swap(all[i], all[pick(rng)]);
  }
  indices_.assign(all.begin(), all.begin() + wanted);
  noiseSeed_ = rng();
  redraw();
}

void DatasetPanel::redraw() {
  const auto dataset = workbench_->dataset();
  if (!dataset || indices_.empty()) return;
  const double sigma = sigma_->sigma();
  if (dataset->kind == SampleKind::Points) {
    std::vector<float> clean, noisy;
    const bool twoD = dataset->dim() >= 2;
    for (int64_t index : indices_) {
      const float* x = dataset->sample(index);
      const std::vector<float> y = noisySample(*dataset, index, sigma, noiseSeed_);
      clean.insert(clean.end(), {x[0], twoD ? x[1] : 0.0f});
      noisy.insert(noisy.end(), {y[0], twoD ? y[1] : 0.0f});
    }
    scatterView_->setPoints(clean, noisy, sigma);
    imageView_->setCellLabels({}, {});
    views_->setCurrentWidget(scatterView_);
    return;
  }
  const bool sequence = dataset->kind == SampleKind::Sequence;
  const int columns = sequence ? 1 : static_cast<int>(std::ceil(std::sqrt(indices_.size() * 1.5)));
  // σ_data as measured once the statistics are in, the engine's fallback until then.
  const double sigmaData = workbench_->hasStatistics() ? workbench_->statistics().sigmaData
                                                       : pipeline::defaults::kSigmaDataFallback;
  const double gain = signalScaled_->isChecked() ? signalScaledGain(sigma, sigmaData) : 1.0;
  std::vector<std::pair<int, int>> origins;
  const RgbImage grid = renderSampleGrid(*dataset, indices_, sigma, noiseSeed_, columns,
                                         sequence ? 2 : 1, gain, &origins);
  std::vector<QPoint> corners;
  QStringList labels;
  if (dataset->hasLabels())
    for (size_t i = 0; i < indices_.size() && i < origins.size(); ++i) {
      corners.emplace_back(origins[i].first, origins[i].second);
      labels << QString::number(dataset->labels[indices_[i]]);
    }
  imageView_->setImage(toQImage(grid));
  imageView_->setCellLabels(std::move(corners), labels);
  views_->setCurrentWidget(imageView_);
}

}  // namespace noisescope::ui
