#pragma once
// A noise-level control on a log scale (σ over the default grid of pipeline/defaults.h): a slider
// for dragging and a spin box for typing an exact value (taken on Enter or focus-out), kept in
// step.
#include <QWidget>

#include "pipeline/defaults.h"

class QSlider;
class QDoubleSpinBox;
class QLabel;

namespace noisescope::ui {

class SigmaControl : public QWidget {
  Q_OBJECT

 public:
  explicit SigmaControl(QWidget* parent = nullptr, double sigmaMin = pipeline::defaults::kSigmaMin,
                        double sigmaMax = pipeline::defaults::kSigmaMax);

  double sigma() const { return sigma_; }
  void setSigma(double sigma);
  QSlider* slider() const { return slider_; }
  QDoubleSpinBox* spinBox() const { return spin_; }
  static constexpr int kSliderSteps = 1000;

 Q_SIGNALS:
  void sigmaChanged(double sigma);

 private:
  double sliderToSigma(int position) const;
  int sigmaToSlider(double sigma) const;

  QSlider* slider_;
  QDoubleSpinBox* spin_;
  double sigmaMin_, sigmaMax_;
  double sigma_;
  bool updating_ = false;
};

}  // namespace noisescope::ui
