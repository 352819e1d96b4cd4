#pragma once
// The Sampling tab (issue 23): which σ steps to *sample* a trained model with. It takes a run
// folder or a TorchScript file with its training config, offers the sampling grids to race
// (GridPicker), draws them on σ over the run's training π and the profile's rate, and races them
// in the background with progress, an ETA and cancel: quality against NFE with 95 % bands and the
// real-against-real floor. Every number comes from core/pipeline (planSampleRace,
// previewRaceGrids, raceBackdrop, runSampleRace, sampleRaceChart), the calls `sample-race` makes.
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "pipeline/progress_eta.h"
#include "pipeline/sampling/sample_race.h"
#include "pipeline/sampling/sample_race_plan.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTextEdit;

namespace noisescope::ui {

class CurveChart;
class GridPicker;
class Workbench;

class SamplingPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SamplingPanel(Workbench* workbench, QWidget* parent = nullptr);
  ~SamplingPanel() override;

  // What the fields hold (for the tab's own buttons and for tests).
  void setModel(const QString& path);
  void setConfig(const QString& path);
  void setProfile(const QString& path);
  void setFeatureNetwork(const QString& path);
  void setNfe(const QString& budgets);
  void setSeeds(const QString& seeds);
  void setSamples(int samples);
  void setElbo(bool on);
  GridPicker* gridPicker() const { return grids_; }
  QLineEdit* nfeField() const { return nfe_; }

  // The session's profiles (the Diagnostic tab's brackets, loaded files) offered beside the file
  // field. Picking one asks for its file (sessionProfileChosen): the main window writes it into
  // the runs folder and hands the path back through useSessionProfileFile.
  QComboBox* sessionProfileBox() const { return sessionProfile_; }
  QString profilePath() const;                     // the profile file the race reads ("" for none)
  void chooseSessionProfile(const QString& name);  // as the user's pick
  void useSessionProfileFile(const QString& name, const QString& path);

  // The race's JSON (noisescope.sample-race/1) and the chart of the shown measure (.svg or .png),
  // as `sample-race --json/--chart` write them; false, with a warning naming the file, on failure.
  bool saveJsonAs(const QString& path);
  bool saveChartAs(const QString& path);

  void startRace();       // the checked grids with the tab's settings
  void startQuickLook();  // pipeline::SampleRaceOptions::quick() on the tab's model and profile
  QString quickLookText() const;  // what a quick look races, as the tab names it
  void cancelRace();
  bool racing() const { return racing_; }
  const SampleRaceResult* result() const { return result_.get(); }
  // Shows a race, finished or not: its table, its measures and the chart of the chosen one (the
  // tab's own races call it as their cells finish).
  void showRace(std::shared_ptr<const SampleRaceResult> result);
  QString planText() const;    // what the model resolves to, or why it does not
  QString statusText() const;  // progress, ETA or the last error
  QString tableText() const;
  CurveChart* gridChart() const { return gridChart_; }
  CurveChart* raceChart() const { return raceChart_; }
  // Whether the race page (chart and table) is shown rather than the grids' preview: a race
  // shows it as it starts, so its cells are seen as they finish.
  bool raceShown() const;

 Q_SIGNALS:
  void raceFinished(bool succeeded);
  // The race so far changed: the grids and floor are known, a cell finished, or it ended.
  void raceUpdated();
  void sessionProfileChosen(const QString& name);

 private:
  pipeline::SampleRaceOptions options() const;
  pipeline::SampleRaceOptions quickOptions() const;
  void race(const pipeline::SampleRaceOptions& options);
  void refillSessionProfiles();
  void replan();       // model, config or profile changed: new default grids and preview
  void redrawGrids();  // the preview chart at the chosen NFE
  void redrawRace();   // the race chart of the chosen measure
  void onProgress(double fraction, const QString& message);
  void saveJson();
  void saveChart();

  Workbench* workbench_;
  QLineEdit* model_;
  QLineEdit* config_;
  QComboBox* sessionProfile_;
  QString sessionProfilePath_;  // the file written for the chosen session profile
  QLineEdit* profile_;
  QLineEdit* features_;
  QLabel* plan_;
  GridPicker* grids_;
  QLineEdit* nfe_;
  QLineEdit* seeds_;
  QSpinBox* samples_;
  QComboBox* sampler_;
  QCheckBox* elbo_;
  QPushButton* quick_;
  QLabel* quickNote_;
  QPushButton* start_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* status_;
  QComboBox* previewNfe_;
  QTabWidget* views_;
  QWidget* racePage_;
  CurveChart* gridChart_;
  QComboBox* measure_;
  CurveChart* raceChart_;
  QTextEdit* table_;
  QPushButton* saveJson_;
  QPushButton* saveChart_;

  // What the fields resolve to, and the curves its grids are drawn over: read once per replan,
  // not on every redraw of the preview.
  std::optional<pipeline::SampleRacePlan> racePlan_;
  pipeline::RaceBackdrop backdrop_;
  QString backdropError_;
  bool racing_ = false;
  pipeline::ProgressEta eta_;
  std::shared_ptr<const SampleRaceResult> result_;
};

}  // namespace noisescope::ui
