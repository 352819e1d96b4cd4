#include "ui/warning_box.h"

#include <QMessageBox>

namespace noisescope::ui {

QMessageBox* showWarning(QWidget* parent, const QString& title, const QString& text) {
  auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  return box;
}

}  // namespace noisescope::ui
