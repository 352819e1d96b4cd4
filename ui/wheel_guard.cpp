#include "ui/wheel_guard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace noisescope::ui {

namespace {

class WheelGuard : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::Wheel) return false;
    const auto* field = qobject_cast<QWidget*>(watched);
    if (!field || field->hasFocus()) return false;
    // Ignored, not accepted: QApplication then offers the wheel to the parents (the scroll area).
    event->ignore();
    return true;
  }
};

}  // namespace

void guardWheel(QWidget* root) {
  auto* guard = new WheelGuard(root);
  QList<QWidget*> fields;
  for (QComboBox* box : root->findChildren<QComboBox*>()) fields << box;
  for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) fields << box;
  for (QWidget* field : fields) {
    field->setFocusPolicy(Qt::StrongFocus);
    field->installEventFilter(guard);
  }
}

}  // namespace noisescope::ui
