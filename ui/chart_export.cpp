#include "ui/chart_export.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace noisescope::ui {

QString exportWidgetImage(QWidget* widget, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "svg") {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(widget->windowTitle());
    generator.setDescription(QStringLiteral("Exported from NoiseScope"));
    QPainter painter;
    if (!painter.begin(&generator)) return QObject::tr("%1: cannot write the SVG file").arg(path);
    widget->render(&painter);
    painter.end();
    return QFileInfo(path).size() > 0 ? QString()
                                      : QObject::tr("%1: the SVG file is empty").arg(path);
  }
  if (suffix == "png") {
    const QPixmap pixmap = widget->grab();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit())
      return QObject::tr("%1: cannot write the PNG file").arg(path);
    return {};
  }
  return QObject::tr("%1: unknown image type (use .png or .svg)").arg(path);
}

void exportWidgetWithDialog(QWidget* widget, const QString& suggestedName) {
  const QString path =
      QFileDialog::getSaveFileName(widget, QObject::tr("Export chart"), suggestedName,
                                   QObject::tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (path.isEmpty()) return;
  const QString error = exportWidgetImage(widget, path);
  if (!error.isEmpty()) QMessageBox::warning(widget, QObject::tr("Export failed"), error);
}

}  // namespace noisescope::ui
