#pragma once
// The dataset explorer: a grid of samples drawn as a person expects (images, DNA strips, 2-D
// scatter), redrawn live with noise x + σ·ε as the σ control moves, or signal-scaled so that the
// high-σ half is not all saturated static; each sample's class label where the set has labels;
// and the dataset's statistics.
#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QLabel;
class QSpinBox;
class QPushButton;
class QStackedWidget;
class QFormLayout;

namespace noisescope::ui {

class Workbench;
class SigmaControl;
class ImageView;
class ScatterView;

class DatasetPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DatasetPanel(Workbench* workbench, QWidget* parent = nullptr);

  SigmaControl* sigmaControl() const { return sigma_; }
  ImageView* imageView() const { return imageView_; }
  ScatterView* scatterView() const { return scatterView_; }
  QLabel* noteLabel() const { return noiseNote_; }
  const std::vector<int64_t>& shownIndices() const { return indices_; }
  // The signal-scaled view y/√(σ_data² + σ²) instead of the clipped x + σ·ε.
  QCheckBox* signalScaledBox() const { return signalScaled_; }

 public Q_SLOTS:
  void drawNewSamples();

 private:
  void onDatasetChanged();
  void onStatisticsChanged();
  void redraw();
  // The note under the controls: what the reader decided, and how values become pixels.
  void updateNote();

  Workbench* workbench_;
  SigmaControl* sigma_;
  QSpinBox* sampleCount_;
  QPushButton* newSamples_;
  QLabel* header_;
  QLabel* noiseNote_;
  QCheckBox* signalScaled_;
  QString readerNote_;  // the dataset's notes from its reader
  QStackedWidget* views_;
  ImageView* imageView_;
  ScatterView* scatterView_;
  QFormLayout* statsForm_;
  QLabel* statsLabels_[9];
  std::vector<int64_t> indices_;
  uint64_t noiseSeed_ = 1;
  uint64_t drawCount_ = 0;
};

}  // namespace noisescope::ui
