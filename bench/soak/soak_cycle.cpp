#include "soak_cycle.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>

#include "ui/dataset_panel.h"
#include "ui/diagnostic_panel.h"
#include "ui/main_window.h"
#include "ui/run_monitor.h"
#include "ui/schedule_panel.h"
#include "ui/sigma_control.h"
#include "ui/training_panel.h"
#include "ui/workbench.h"

namespace noisescope::soak {

namespace {

using ui::MainWindow;

// The button a user would click, found by its visible text (mnemonic marks removed).
QPushButton* button(QWidget* root, const QString& text) {
  for (QPushButton* b : root->findChildren<QPushButton*>())
    if (b->text().remove(QLatin1Char('&')) == text) return b;
  return nullptr;
}

QString click(QWidget* root, const QString& text) {
  QPushButton* b = button(root, text);
  if (!b) return QStringLiteral("no button \"%1\"").arg(text);
  if (!b->isEnabled()) return QStringLiteral("button \"%1\" is disabled").arg(text);
  b->click();
  return {};
}

// A menu entry (in the menu or a submenu) whose text starts with `prefix` and contains `part`.
QAction* menuAction(QMenu* menu, const QString& prefix, const QString& part) {
  for (QAction* a : menu->actions()) {
    if (a->menu()) {
      if (QAction* found = menuAction(a->menu(), prefix, part)) return found;
    } else if (a->text().startsWith(prefix) && a->text().contains(part) && a->isEnabled()) {
      return a;
    }
  }
  return nullptr;
}

QString datasetLabel(const QString& path) {
  return path.startsWith(QLatin1String("synthetic:")) ? path.section(QLatin1Char('?'), 0, 0)
                                                      : QFileInfo(path).fileName();
}

QString cycleFolder(const SoakContext& c) {
  return QDir(c.workFolder).filePath(QStringLiteral("cycle-%1").arg(c.cycle));
}

void addDatasetSteps(SoakContext& c, std::vector<Step>& steps, const QString& path, bool race) {
  const QString label = datasetLabel(path);
  steps.push_back({"load " + label,
                   [&c, path] {
                     c.loadError.clear();
                     c.loads = 0;
                     c.window->openPath(path, false);
                     return QString();
                   },
                   [&c] {
                     return c.loads > 0 &&
                            (!c.loadError.isEmpty() || (c.window->workbench()->hasStatistics() &&
                                                        c.window->workbench()->jobs()->isIdle()));
                   },
                   120000});
  // One user action per step: the runner returns to the event loop between steps, so a stall is
  // what one click or one finished job costs, as a user would feel it.
  steps.push_back({"dataset tab " + label, [&c] {
                     c.window->tabs()->setCurrentWidget(c.window->datasetPanel());
                     return c.loadError;
                   }});
  for (double s : {0.05, 0.5, 5.0, 40.0})
    steps.push_back({"move σ " + label, [&c, s] {
                       c.window->datasetPanel()->sigmaControl()->setSigma(s);
                       return QString();
                     }});
  steps.push_back({"new samples " + label, [&c] {
                     return click(c.window->datasetPanel(), QStringLiteral("New samples"));
                   }});
  steps.push_back({"bracket " + label,
                   [&c] {
                     ui::DiagnosticPanel* panel = c.window->diagnosticPanel();
                     c.window->tabs()->setCurrentWidget(panel);
                     panel->levelsSpin()->setValue(8);
                     panel->queriesSpin()->setValue(32);
                     c.diagnostics = static_cast<int>(c.window->workbench()->profiles().size());
                     panel->bracketButton()->click();
                     return QString();
                   },
                   [&c] {
                     return static_cast<int>(c.window->workbench()->profiles().size()) >
                                c.diagnostics &&
                            c.window->workbench()->jobs()->isIdle();
                   },
                   300000});
  steps.push_back({"schedules tab " + label, [&c] {
                     c.window->tabs()->setCurrentWidget(c.window->schedulePanel());
                     c.schedulesBefore = c.window->schedulePanel()->scheduleCount();
                     return QString();
                   }});
  for (const char* prefix : {"InfoNoise", "√-entropy"})
    steps.push_back(
        {QStringLiteral("add %1 schedule ").arg(QString::fromUtf8(prefix)) + label, [&c, prefix] {
           ui::SchedulePanel* panel = c.window->schedulePanel();
           QPushButton* add = button(panel, QStringLiteral("Add"));
           if (!add || !add->menu()) return QStringLiteral("no Add menu");
           const QString profile = c.window->workbench()->profiles().back().name;
           QAction* action = menuAction(add->menu(), QString::fromUtf8(prefix), profile);
           if (!action)
             return QStringLiteral("no menu entry %1 for %2")
                 .arg(QString::fromUtf8(prefix), profile);
           action->trigger();
           const int row = panel->scheduleCount() - 1;
           return panel->errorAt(row);
         }});
  for (int row = 0; row < 4; ++row)
    steps.push_back({"select schedule " + label, [&c, row] {
                       c.window->schedulePanel()->list()->setCurrentRow(row);
                       return QString();
                     }});
  for (int i = 0; i < 3; ++i)
    steps.push_back({"compare in coordinate " + label, [&c, i] {
                       QComboBox* box = c.window->schedulePanel()->coordinateBox();
                       box->setCurrentIndex(i % box->count());
                       return QString();
                     }});
  for (int b = 0; b < 4; ++b)
    steps.push_back({"switch curve " + label, [&c, b] {
                       const auto buttons = c.window->schedulePanel()->curveButtons()->buttons();
                       buttons.at(b % buttons.size())->click();
                       return QString();
                     }});
  steps.push_back({"export schedule " + label, [&c, label] {
                     ui::SchedulePanel* panel = c.window->schedulePanel();
                     panel->coordinateBox()->setCurrentIndex(0);
                     panel->curveButtons()->buttons().first()->click();
                     panel->list()->setCurrentRow(c.schedulesBefore);
                     const QString out = cycleFolder(c) + "/" + label;
                     QString error = panel->exportCurrent(out + ".schedule.json");
                     if (error.isEmpty()) error = panel->exportSigmaSteps(out + ".steps.json", 32);
                     return error;
                   }});
  // Tidy up as a user would: the list goes back to the two presets.
  for (int n = 0; n < 2; ++n)
    steps.push_back({"remove schedule " + label, [&c] {
                       ui::SchedulePanel* panel = c.window->schedulePanel();
                       panel->list()->setCurrentRow(c.schedulesBefore);
                       return click(panel, QStringLiteral("Remove"));
                     }});
  if (!race) return;
  steps.push_back({"start race " + label,
                   [&c] {
                     ui::TrainingPanel* panel = c.window->trainingPanel();
                     c.window->tabs()->setCurrentWidget(panel);
                     // Small networks and batches: the race is started to be stopped.
                     const QList<QSpinBox*> spins = panel->findChildren<QSpinBox*>();
                     spins.at(0)->setValue(32);  // MLP width
                     spins.at(1)->setValue(8);   // U-Net / conv channels
                     spins.at(3)->setValue(32);  // batch
                     panel->stepsSpin()->setValue(100000);
                     c.raceFirstRun = panel->runCount();
                     const QString error = click(panel, QStringLiteral("Start race"));
                     if (error.isEmpty() && panel->runCount() != c.raceFirstRun + 3)
                       return QStringLiteral("the race did not start three runs");
                     return error;
                   },
                   [&c] {
                     // Until every child has started training (its start event arrived).
                     ui::TrainingPanel* panel = c.window->trainingPanel();
                     for (int i = c.raceFirstRun; i < panel->runCount(); ++i)
                       if (!panel->run(i)->record().started) return false;
                     return true;
                   },
                   180000});
  for (int k = 0; k < 3; ++k)
    steps.push_back({"stop race run", [&c, k] {
                       ui::TrainingPanel* panel = c.window->trainingPanel();
                       if (k == 0) c.raceRuns.clear();
                       const int row = c.raceFirstRun + k;
                       panel->selectRun(row);
                       c.raceRuns << panel->run(row)->runDirectory();
                       return click(panel, QStringLiteral("Stop"));
                     }});
  steps.push_back(
      {"race stopped", {}, [&c] { return c.window->trainingPanel()->runningCount() == 0; }, 30000});
  for (int k = 0; k < 3; ++k)
    steps.push_back(
        {"open run", [&c, k] {
           ui::TrainingPanel* panel = c.window->trainingPanel();
           const int before = panel->runCount();
           panel->followRun(c.raceRuns.at(k));
           if (!panel->run(before)->record().started)
             return QStringLiteral("%1: its start event was not read").arg(c.raceRuns.at(k));
           return QString();
         }});
}

}  // namespace

std::vector<Step> cycleSteps(SoakContext& c) {
  std::vector<Step> steps;
  steps.push_back({"open window", [&c] {
                     if (!QDir().mkpath(cycleFolder(c)))
                       return QStringLiteral("cannot create %1").arg(cycleFolder(c));
                     c.window = std::make_unique<MainWindow>();
                     c.window->resize(1400, 900);
                     c.window->show();
                     QObject::connect(c.window.get(), &MainWindow::datasetLoaded,
                                      [&c] { ++c.loads; });
                     QObject::connect(c.window.get(), &MainWindow::loadFailed,
                                      [&c](const QString&, const QString& message) {
                                        ++c.loads;
                                        ++c.loadFailures;
                                        c.loadError = message;
                                      });
                     ui::TrainingPanel* training = c.window->trainingPanel();
                     training->setCliPath(c.cli);
                     training->setRunsFolder(cycleFolder(c) + "/runs");
                     return QString();
                   }});
  const int raceOn = c.cycle % c.datasets.size();
  for (int i = 0; i < c.datasets.size(); ++i) addDatasetSteps(c, steps, c.datasets[i], i == raceOn);
  for (int tab = 0; tab < 4; ++tab)
    steps.push_back({QStringLiteral("tab %1").arg(tab), [&c, tab] {
                       c.window->tabs()->setCurrentIndex(tab);
                       return QString();
                     }});
  steps.push_back({"close window", [&c] {
                     c.window->close();
                     c.window.reset();
                     QDir(cycleFolder(c)).removeRecursively();
                     return QString();
                   }});
  return steps;
}

}  // namespace noisescope::soak
