#pragma once
// Saves what a widget shows (a chart, a strip of images) as PNG or SVG; the format follows the
// file name's suffix, and the file is written atomically (util/atomic_file.h). Returns an
// empty string on success, else a message naming the file (and the system error).
#include <QString>

class QWidget;

namespace noisescope::ui {

QString exportWidgetImage(QWidget* widget, const QString& path);
// What the export action does after its dialog: exportWidgetImage, and on failure a warning on
// `widget` naming the file and the system error (ui/warning_box.h, which does not block).
bool exportWidgetImageAs(QWidget* widget, const QString& path);
// Asks for a file name (PNG or SVG) and exports with exportWidgetImageAs.
void exportWidgetWithDialog(QWidget* widget, const QString& suggestedName);

}  // namespace noisescope::ui
