#include "ui/torchscript_dialog.h"

#include <QFileDialog>
#include <QObject>

namespace noisescope::ui {

QString torchScriptDialogTitle(const QString& what) {
  return QObject::tr("%1 — a TorchScript file runs the code inside it: open only one you trust")
      .arg(what);
}

QString chooseTorchScriptFile(QWidget* parent, const QString& what) {
  return QFileDialog::getOpenFileName(parent, torchScriptDialogTitle(what), QString(),
                                      QObject::tr("TorchScript (*.pt *.pth);;All files (*)"));
}

}  // namespace noisescope::ui
