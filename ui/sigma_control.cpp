#include "ui/sigma_control.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>

#include "util/log_grid.h"

namespace noisescope::ui {

SigmaControl::SigmaControl(QWidget* parent, double sigmaMin, double sigmaMax)
    : QWidget(parent), sigmaMin_(sigmaMin), sigmaMax_(sigmaMax), sigma_(sigmaMin) {
  auto* label = new QLabel(tr("Noise level &σ:"), this);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, kSliderSteps);
  slider_->setToolTip(
      tr("Standard deviation of the added Gaussian noise, log scale (data in [−1, 1])"));
  slider_->setAccessibleName(tr("Noise level sigma"));
  label->setBuddy(slider_);
  spin_ = new QDoubleSpinBox(this);
  spin_->setDecimals(4);
  spin_->setRange(sigmaMin_, sigmaMax_);
  spin_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  spin_->setAccessibleName(tr("Noise level sigma value"));
  // Commit on Enter, focus-out or a step, not per keystroke: a committed value is clamped to σ_min
  // and reformatted, so committing "2" of "2.5" left the user's next keys on "2.0000".
  spin_->setKeyboardTracking(false);
  auto* range = new QLabel(tr("%1 … %2").arg(sigmaMin_).arg(sigmaMax_), this);
  range->setEnabled(false);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label);
  layout->addWidget(slider_, 1);
  layout->addWidget(spin_);
  layout->addWidget(range);

  connect(slider_, &QSlider::valueChanged, this, [this](int position) {
    if (!updating_) setSigma(sliderToSigma(position));
  });
  connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    if (!updating_) setSigma(value);
  });
  setSigma(sigmaMin_);
}

double SigmaControl::sliderToSigma(int position) const {
  const double t = static_cast<double>(position) / kSliderSteps;
  return logInterpolate(sigmaMin_, sigmaMax_, t);
}

int SigmaControl::sigmaToSlider(double sigma) const {
  const double t =
      (std::log(sigma) - std::log(sigmaMin_)) / (std::log(sigmaMax_) - std::log(sigmaMin_));
  return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

void SigmaControl::setSigma(double sigma) {
  sigma = std::clamp(sigma, sigmaMin_, sigmaMax_);
  const bool changed = sigma != sigma_;
  sigma_ = sigma;
  updating_ = true;
  slider_->setValue(sigmaToSlider(sigma));
  spin_->setValue(sigma);
  updating_ = false;
  if (changed) Q_EMIT sigmaChanged(sigma_);
}

}  // namespace noisescope::ui
