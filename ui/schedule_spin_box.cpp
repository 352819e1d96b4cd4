#include "ui/schedule_spin_box.h"

#include <QDoubleSpinBox>

namespace noisescope::ui {

QDoubleSpinBox* numberSpin(QWidget* parent, double lo, double hi, double value, int decimals) {
  auto* box = new QDoubleSpinBox(parent);
  box->setDecimals(decimals);
  box->setRange(lo, hi);
  box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  box->setValue(value);
  box->setKeyboardTracking(true);  // redraw as the user types
  return box;
}

}  // namespace noisescope::ui
