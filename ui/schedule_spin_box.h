#pragma once
// The Schedules tab's number box (its σ range and every recipe setting): adaptive steps, and a
// value reported on every keystroke so the chart follows the typing.
class QDoubleSpinBox;
class QWidget;

namespace noisescope::ui {

QDoubleSpinBox* numberSpin(QWidget* parent, double lo, double hi, double value, int decimals = 4);

}  // namespace noisescope::ui
