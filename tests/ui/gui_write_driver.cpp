// Test-only driver for test_gui_killed_mid_write: the workbench (offscreen), writing files through
// the panels' own save and export functions (the ones their buttons call after the file dialog),
// over and over, alternating two versions of each, until it is killed.
//   gui_write_driver DIR             write DIR/<file> forever, version a, b, a, …
//   gui_write_driver DIR --reference write DIR/a-<file> and DIR/b-<file> once each, then exit
//   gui_write_driver DIR --once      write DIR/<file> once (version a), then exit
// Prints "writing" once the window is up, and "every file" once each file has been written (the
// loop). Any failed write ends it with exit code 1.
#include <QApplication>
#include <QDir>
#include <QListWidget>
#include <QTextStream>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>

#include "profile/profile.h"
#include "table_profile.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/schedule_panel.h"
#include "ui/workbench.h"

using namespace noisescope;
using namespace noisescope::ui;

namespace {

// The profiles this file writes: 64 levels (table_profile.h).
std::shared_ptr<const Profile> tableProfile(double scale) {
  return ::tableProfile(scale, 64, 1.15);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: gui_write_driver DIR [--reference | --once]\n");
    return 2;
  }
  const QDir dir(QString::fromLocal8Bit(argv[1]));
  const bool reference = argc > 2 && QByteArray(argv[2]) == "--reference";
  const bool once = argc > 2 && QByteArray(argv[2]) == "--once";
  MainWindow window;
  window.show();
  window.workbench()->addProfile("a", tableProfile(1.0));
  window.workbench()->addProfile("b", tableProfile(2.0));
  SchedulePanel* schedules = window.schedulePanel();
  DiagnosticPanel* diagnostic = window.diagnosticPanel();

  // One version of every file: schedule row v and profile v.
  struct Target {
    QString file;
    std::function<QString(const QString&)> write;
  };
  const std::vector<Target> targets = {
      {"schedule.json", [&](const QString& p) { return schedules->exportCurrent(p); }},
      {"schedule.csv", [&](const QString& p) { return schedules->exportCurrent(p); }},
      {"steps.json",
       [&](const QString& p) {
         return schedules->exportSigmaSteps(p, 32, QStringLiteral("quantiles"));
       }},
      {"profile.json", [&](const QString& p) { return diagnostic->saveSelectedTo(p, false); }},
      {"profile.csv", [&](const QString& p) { return diagnostic->saveSelectedTo(p, true); }},
  };
  auto writeVersion = [&](int v, const QString& prefix) {
    schedules->list()->setCurrentRow(v);
    diagnostic->profileList()->setCurrentRow(v);
    for (const Target& t : targets) {
      const QString error = t.write(dir.filePath(prefix + t.file));
      if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        std::exit(1);
      }
      QCoreApplication::processEvents();  // a live window between writes
    }
  };
  std::printf("writing\n");
  std::fflush(stdout);
  if (reference) {
    writeVersion(0, "a-");
    writeVersion(1, "b-");
    return 0;
  }
  if (once) {
    writeVersion(0, QString());
    return 0;
  }
  // "every file" once each file exists: the test's writing-loop kills wait for it, so that a
  // machine slowed by a sanitizer and a parallel build still has its kills land mid-loop.
  writeVersion(0, QString());
  std::printf("every file\n");
  std::fflush(stdout);
  for (int round = 1;; ++round) writeVersion(round % 2, QString());
}
