#pragma once
// Saves what a widget shows (a chart, a strip of images) as PNG or SVG; the format follows the
// file name's suffix. Returns an empty string on success, else a message naming the file.
#include <QString>

class QWidget;

namespace noisescope::ui {

QString exportWidgetImage(QWidget* widget, const QString& path);
// Asks for a file name (PNG or SVG) and exports; reports failure in a message box.
void exportWidgetWithDialog(QWidget* widget, const QString& suggestedName);

}  // namespace noisescope::ui
