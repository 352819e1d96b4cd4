#pragma once
// One cycle of the soak as a user would work through it: open the workbench window; for each
// dataset load it, look at samples across σ, run the diagnostic bracket, build entropic
// schedules from its profiles, compare them in every coordinate and curve, export one and its
// σ-steps; start a race on one dataset and stop it, open the stopped runs; visit every tab; close
// the window. Everything goes through the widgets' own buttons, menu actions and slots, never
// through file dialogs.
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "step_runner.h"

namespace noisescope::ui {
class MainWindow;
}

namespace noisescope::soak {

struct SoakContext {
  QString cli;           // noisescope-cli, the race's children
  QString workFolder;    // runs and exports go below, one folder per cycle
  QStringList datasets;  // loaded in turn each cycle
  int cycle = 0;
  std::unique_ptr<ui::MainWindow> window;
  int loads = 0, loadFailures = 0, diagnostics = 0;
  QString loadError;
  QStringList raceRuns;  // the current race's run directories
  int raceFirstRun = 0;
  int schedulesBefore = 0;  // the schedule list's length before this dataset's
};

std::vector<Step> cycleSteps(SoakContext& context);

}  // namespace noisescope::soak
