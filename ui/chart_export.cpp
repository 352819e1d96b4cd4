#include "ui/chart_export.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

#include <exception>

#include "ui/warning_box.h"
#include "util/atomic_file.h"

namespace noisescope::ui {

QString exportWidgetImage(QWidget* widget, const QString& path) {
  // The image is made in memory and written by the one atomic writer: a full disk leaves the old
  // file, and the message names the system error.
  const QString suffix = QFileInfo(path).suffix().toLower();
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (suffix == "svg") {
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(widget->windowTitle());
    generator.setDescription(QStringLiteral("Exported from NoiseScope"));
    QPainter painter;
    if (!painter.begin(&generator)) return QObject::tr("%1: cannot draw the SVG file").arg(path);
    widget->render(&painter);
    painter.end();
  } else if (suffix == "png") {
    if (!widget->grab().save(&buffer, "PNG"))
      return QObject::tr("%1: cannot encode the PNG image").arg(path);
  } else {
    return QObject::tr("%1: unknown image type (use .png or .svg)").arg(path);
  }
  if (bytes.isEmpty()) return QObject::tr("%1: the image is empty").arg(path);
  try {
    writeFileAtomically(path.toStdString(), bytes.toStdString());
    return {};
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

bool exportWidgetImageAs(QWidget* widget, const QString& path) {
  const QString error = exportWidgetImage(widget, path);
  if (!error.isEmpty()) showWarning(widget, QObject::tr("Export failed"), error);
  return error.isEmpty();
}

void exportWidgetWithDialog(QWidget* widget, const QString& suggestedName) {
  const QString path =
      QFileDialog::getSaveFileName(widget, QObject::tr("Export chart"), suggestedName,
                                   QObject::tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (!path.isEmpty()) exportWidgetImageAs(widget, path);
}

}  // namespace noisescope::ui
