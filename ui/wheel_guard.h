#pragma once
// Scrolling a form with the mouse wheel must not change the combo box or spin box that passes
// under the pointer (a Training setting silently edited on the way down). A guarded field takes
// the wheel only once it has focus (clicked or tabbed to: Qt::StrongFocus, so the wheel itself
// never gives it focus); otherwise the wheel event is ignored and goes on to the scroll area.
class QWidget;

namespace noisescope::ui {

// Guards every QComboBox and QAbstractSpinBox inside `root` (existing ones; call it once the form
// is built).
void guardWheel(QWidget* root);

}  // namespace noisescope::ui
