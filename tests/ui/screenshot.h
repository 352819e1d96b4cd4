#pragma once
// When NOISESCOPE_SCREENSHOT_DIR is set, UI tests save what they see there, so a person can look
// at the real widgets the tests drove (offscreen rendering, no display needed).
#include <QCoreApplication>
#include <QDir>
#include <QPixmap>
#include <QWidget>

inline void saveScreenshot(QWidget* widget, const QString& name) {
  const QByteArray dir = qgetenv("NOISESCOPE_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QDir().mkpath(QString::fromLocal8Bit(dir));
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();  // let pending layouts settle
  widget->grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name + ".png"));
}
