#pragma once
// The Diagnostic panel: runs the offline optimal-denoiser diagnostic on the loaded dataset (in
// the background, with progress and cancel), keeps the measured and loaded profiles, and overlays
// them: MMSE per dimension and the entropy rate in a chosen coordinate, both with 95 % bands, and
// the posterior's shape. Below, the optimal-denoiser strip for one sample.
#include <QColor>
#include <QString>
#include <QWidget>

#include <optional>

#include <functional>
#include <map>
#include <string>
#include <utility>

#include "diagnostic/diagnostic_options.h"
#include "pipeline/diagnose/diagnose_job.h"  // DiagnoseRequest, LevelObserver (torch-free)
#include "profile/profile.h"
#include "util/progress.h"

class QSpinBox;
class QDoubleSpinBox;
class QComboBox;
class QPushButton;
class QListWidget;
class QLabel;

namespace noisescope::ui {

class Workbench;
class CurveChart;
class PosteriorStrip;
class HiddenRedraw;

class DiagnosticPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DiagnosticPanel(Workbench* workbench, QWidget* parent = nullptr);

  // Starts the diagnostic with the current settings on the loaded dataset.
  void runDiagnostic();
  // The bracket (THEORY §10, pipeline/diagnose/bracket_job.h): the empirical curve, the held-out
  // members and the population bound on the loaded dataset, added as profiles drawn together. The
  // held-out queries come from the test split beside the file, else a seeded 10 % share.
  void runBracket();
  // Profiles a TorchScript denoiser on the loaded dataset (its unweighted x0 error per σ).
  void runCheckpoint(const QString& path);
  // Profiles a training run's newest exported denoiser on the run's own held-out data
  // (pipeline/diagnose/run_profile.h), whatever dataset is loaded.
  void runRunCheckpoint(const QString& runDirectory);
  // Reads a profile file; returns an error message (empty on success).
  QString loadProfile(const QString& path);
  // Writes the profile selected in the list (JSON, or CSV when `csv`) through io/profile_io.h;
  // returns an error message (empty on success).
  QString saveSelectedTo(const QString& path, bool csv);
  // What the Save buttons do after their dialog: saveSelectedTo, and on failure a warning naming
  // the file and the system error (ui/warning_box.h, which does not block). True when written.
  bool saveSelectedAs(const QString& path, bool csv);

  CurveChart* mmseChart() const { return mmseChart_; }
  CurveChart* rateChart() const { return rateChart_; }
  CurveChart* posteriorChart() const { return posteriorChart_; }
  QComboBox* rateCoordinate() const { return coordinate_; }
  QSpinBox* levelsSpin() const { return levels_; }
  QSpinBox* queriesSpin() const { return queries_; }
  QComboBox* deviceBox() const { return device_; }
  QSpinBox* seedSpin() const { return seed_; }
  QDoubleSpinBox* heldOutShareSpin() const { return heldOutShare_; }
  QListWidget* profileList() const { return list_; }
  QPushButton* bracketButton() const { return runBracket_; }
  QLabel* summaryLabel() const { return summary_; }
  PosteriorStrip* strip() const { return strip_; }

 Q_SIGNALS:
  void diagnosticFinished(const QString& profileName);
  // A running job's level has just been drawn (the charts already show it); MMSE per dimension.
  void liveLevelDrawn(const QString& kind, int level, double sigma, double mmsePerDim);

 private:
  // Runs `compute` on the job thread and adds its profile under `name` when it finishes.
  void submitProfileJob(const QString& name, std::function<Profile(const Progress&)> compute);
  // The σ grid, queries, seed and device every kind of profile takes from the panel's controls.
  void readLevelSettings(DiagnosticOptions& options) const;
  // An observer that draws each finished level of a running diagnostic (clears the last run's).
  LevelObserver liveLevels(const Dataset& dataset);
  // Draws the levels that arrived since the last draw, once for all of them, and says so for each.
  void drawLiveLevels();
  // The empirical engine's settings (levels, memory), validated; nullopt after telling the user.
  std::optional<DiagnosticOptions> engineOptions();
  // The Diagnostic action's request of `kind` from the panel's controls
  // (pipeline/diagnose/diagnose_job.h: the CLI's `diagnose` fills the same one); nullopt after
  // telling the user what is wrong.
  std::optional<pipeline::DiagnoseRequest> diagnoseRequest(const std::string& kind);
  void redrawCharts();
  void rebuildList();
  void saveSelected(bool csv);
  QStringList checkedProfiles() const;
  // A profile's colour on all three charts: given once, by name, when it is first drawn, so that
  // unchecking or removing a profile leaves the others' colours as they were.
  QColor profileColour(const QString& name);

  Workbench* workbench_;
  HiddenRedraw* hidden_;  // the charts wait while the panel is hidden
  QSpinBox* levels_;
  QDoubleSpinBox* sigmaMin_;
  QDoubleSpinBox* sigmaMax_;
  QSpinBox* queries_;
  QSpinBox* seed_;
  QComboBox* device_;
  QSpinBox* memory_;
  QDoubleSpinBox* heldOutShare_;
  QPushButton* run_;
  QPushButton* runBracket_;
  QComboBox* prediction_;
  QPushButton* runCheckpoint_;
  QListWidget* list_;
  QComboBox* coordinate_;
  QLabel* summary_;
  CurveChart* mmseChart_;
  CurveChart* rateChart_;
  CurveChart* posteriorChart_;
  PosteriorStrip* strip_;
  // Levels of a running bracket known so far: kind → level → (σ, MMSE/D), drawn dashed.
  std::map<std::string, std::map<int, std::pair<double, double>>> live_;
  // Levels that arrived but are not drawn yet: a burst of them is drawn once, not once each.
  struct LiveLevel {
    std::string kind;
    int level;
    double sigma, mmsePerDim;
  };
  std::vector<LiveLevel> undrawn_;
  std::map<QString, QColor> profileColours_;
  int nextProfileColour_ = 0;
};

}  // namespace noisescope::ui
