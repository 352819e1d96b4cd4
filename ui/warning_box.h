#pragma once
// The warning a panel shows when a save, an export or a start fails. It is window-modal over
// `parent` but opened with QDialog::open, not exec: the slot that failed returns at once, with no
// nested event loop under it, and a test (or the main window) finds the open box as a child of
// `parent`. The box deletes itself when closed.
#include <QString>

class QMessageBox;
class QWidget;

namespace noisescope::ui {

QMessageBox* showWarning(QWidget* parent, const QString& title, const QString& text);

}  // namespace noisescope::ui
