#pragma once
// The Training panel: configure a run, start and stop it as a child process, and follow any
// number of runs side by side — loss, the live schedule π(σ) and its history, the per-bin error
// estimate against the offline profile, and the schedule race (quality against steps).
#include <QWidget>

#include <optional>

#include "pipeline/training/schedule_race.h"

class QLineEdit;
class QCheckBox;
class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QPushButton;
class QListView;
class QLabel;
class QFormLayout;
class QGridLayout;
class QScrollArea;
class QVBoxLayout;

namespace noisescope::train {
struct TrainConfig;
}

namespace noisescope::ui {

class Workbench;
class CurveChart;
class RunMonitor;
class ProfileChoice;
class HiddenRedraw;
class RunListModel;
struct Curve;

class TrainingPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TrainingPanel(Workbench* workbench, QWidget* parent = nullptr);

  // Which noisescope-cli runs training (default: next to this program, then on PATH).
  void setCliPath(const QString& path) { cliPath_ = path; }
  void setRunsFolder(const QString& path);
  QString runsFolder() const;
  // A schedule file (a schedule built on the Schedules tab, exported) as the schedule of the next
  // runs: listed under the presets as `label` and chosen. A file carries its own loss weight, so
  // the loss-weight box is off while it is chosen.
  void useScheduleFile(const QString& path, const QString& label);
  QComboBox* scheduleBox() const { return schedulePreset_; }
  QComboBox* lossWeightBox() const { return lossWeight_; }
  QString cliPath() const { return cliPath_; }

  // Starts one run with the form's settings and the given sampler ("" = the form's). Its config
  // gets `threads` torch threads; 0: its share of the machine with the runs already running
  // (threadShare). Returns the run directory, or an empty string (with a message shown) when it
  // cannot start.
  QString startRun(const QString& sampler = {}, int threads = 0);
  // What a start writes before it launches the run: the form's settings with `sampler` ("" =
  // the form's) and `threads` as the config file at `configPath` (creating its folder). On
  // failure it shows a warning naming the file and the system error (ui/warning_box.h, which
  // does not block) and returns false.
  // `quickLook`: with the quick-look race's budget over the form's settings
  // (pipeline/training/schedule_race.h).
  bool writeRunConfig(const QString& configPath, const QString& sampler = {}, int threads = 1,
                      bool quickLook = false);
  // The schedule race: the same data, model and budget with EDM, InfoNoise and √-entropy, each
  // with its share of the cores.
  void startRace();
  // The same race on the quick-look budget (a first look in about five minutes on two cores).
  void startQuickLookRace();
  // Stops every running run of the selected run's race (else of the newest race still running)
  // with one click; each is then "stopped", not failed. Returns how many were asked to stop.
  int stopRace();
  // Torch threads for each of `concurrentRuns` runs sharing this machine: cores / runs, ≥ 1, so
  // that concurrent runs do not oversubscribe the cores.
  static int threadShare(int concurrentRuns);
  int runningCount() const;
  // Follows an existing run directory (a finished run, or one started elsewhere).
  void followRun(const QString& directory);
  void stopSelected();
  // Asks for the selected run's checkpoint profile (checkpointProfileRequested; the main window
  // hands it to the Diagnostic tab).
  void profileSelectedCheckpoint();
  // Asks for the Sampling tab on the selected run (samplingRaceRequested).
  void raceSelectedSamplingGrids();

  int runCount() const;
  RunMonitor* run(int index) const;
  CurveChart* lossChart() const { return loss_; }
  CurveChart* qualityChart() const { return quality_; }
  CurveChart* scheduleChart() const { return schedule_; }
  CurveChart* errorChart() const { return error_; }
  QSpinBox* stepsSpin() const { return steps_; }
  QLineEdit* datasetEdit() const { return dataset_; }
  QComboBox* samplerBox() const { return sampler_; }
  QComboBox* transformBox() const { return transform_; }
  QLineEdit* featureNetworkEdit() const { return featureNetwork_; }
  // Where the feature network came from (found beside the data, chosen, none), under the field.
  QLabel* featureNetworkNote() const { return featureNote_; }
  QPushButton* featureNetworkUseButton() const { return featureUse_; }
  // What the race chart ranks by: 0 sample quality (the default), 1 the ELBO-like held-out error.
  QComboBox* raceMeasureBox() const { return raceMeasure_; }
  // The runs, one row each (label, status, check box: charted), and the view that shows them.
  RunListModel* runList() const { return runs_; }
  QListView* runListView() const { return list_; }
  // The run the schedule and error charts show and the buttons act on (-1: none).
  int currentRun() const;
  void selectRun(int row);
  // The profile drawn as the offline MMSE in the per-bin error chart (default: the bound).
  ProfileChoice* overlayProfileBox() const { return overlayProfile_; }

 Q_SIGNALS:
  void runsUpdated();
  void checkpointProfileRequested(const QString& runDirectory);
  void samplingRaceRequested(const QString& runDirectory);
  // A race's EDM run finished and no checkpoint profile is loaded: its checkpoint's profile is
  // wanted for the offline reference overlay (the main window profiles it in the background).
  void referenceProfileRequested(const QString& runDirectory);

 private:
  // The settings form (training_panel_form.cpp): its row groups top to bottom, then the
  // buttons, each connecting what it creates. Widgets are made in tab order.
  QWidget* buildForm();
  void addDatasetRows(QWidget* form, QFormLayout* layout);
  void addNetworkRows(QWidget* form, QFormLayout* layout, const train::TrainConfig& defaults);
  void addOptimiserRows(QWidget* form, QFormLayout* layout, const train::TrainConfig& defaults);
  void addNoiseSamplerRows(QWidget* form, QFormLayout* layout, const train::TrainConfig& defaults);
  void addGateRow(QWidget* form, QFormLayout* layout, const train::TrainConfig& defaults);
  void addCadenceAndDeviceRows(QWidget* form, QFormLayout* layout,
                               const train::TrainConfig& defaults);
  void addFeatureNetworkRows(QWidget* form, QFormLayout* layout);
  void followFeatureNetworkChoice(QPushButton* browse);
  void addRunsFolderRow(QWidget* form, QFormLayout* layout);
  void addRunButtons(QWidget* form, QFormLayout* layout);
  QScrollArea* formScrollArea(QWidget* form);
  // Right of the form: the run list and status, above the four charts.
  QVBoxLayout* buildRunsSide();
  void buildRunList();
  void fitRunListHeight();
  QGridLayout* buildCharts();
  QVBoxLayout* buildQualityArea();
  QVBoxLayout* buildErrorArea();
  void followWorkbench();

  void redraw();
  // redraw's parts: the checked runs' losses, then the selected run's charts and status line.
  void drawLosses();
  void drawSchedules(int row);
  // The π its rule gives from a frozen checkpoint's profile, when the run has one to compare.
  std::optional<Curve> offlineReferenceCurve(int row);
  void drawErrors(int row);
  void showRunStatus(int row);
  QString launch(const QString& sampler, int threads, int race, pipeline::RaceRole role,
                 bool quickLook = false);
  void launchRace(bool quickLook);
  void addMonitor(RunMonitor* monitor, const QString& label, int race, pipeline::RaceRole role);
  void drawQuality();
  // The evaluations of the runs `charted` in `measure`, one curve each; `network` and
  // `reference` get the feature network and the reference weighting the records name.
  std::vector<Curve> qualityCurves(const std::vector<int>& charted, pipeline::RaceMeasureId measure,
                                   QString& network, QString& reference);
  // Titles the quality chart and its tooltip for `measure`; returns the y axis's title.
  QString titleQualityChart(pipeline::RaceMeasureId measure, bool nothingCharted, bool secondAsked,
                            const QString& network, const QString& reference);
  // The checkpoint profile the overlay uses for `run`: the race's baseline's, else the newest.
  int referenceProfileIndex(int run);
  const train::TrainConfig* runConfig(int index);
  void requestReferenceProfiles();
  // Offers the feature network beside the loaded dataset (named, not loaded) unless the user
  // chose one; useSuggestedFeatureNetwork loads it once the user clicks "Use it".
  void suggestFeatureNetwork();
  void useSuggestedFeatureNetwork();

  Workbench* workbench_;
  HiddenRedraw* hidden_;  // the charts and status wait while the panel is hidden
  QString cliPath_;
  QLineEdit* dataset_;
  QComboBox* transform_;
  QComboBox* model_;
  QSpinBox* width_;
  QSpinBox* channels_;
  QSpinBox* steps_;
  QSpinBox* batch_;
  QDoubleSpinBox* lr_;
  QSpinBox* seed_;
  QComboBox* sampler_;
  QComboBox* schedulePreset_;
  QComboBox* lossWeight_;
  QSpinBox* warmup_;
  QSpinBox* refresh_;
  QSpinBox* bins_;
  QCheckBox* gateAuto_;  // gate_c "auto"; unchecked: the number below (0: no gate)
  QDoubleSpinBox* gateC_;
  QSpinBox* evalEvery_;
  QSpinBox* checkpointEvery_;
  QComboBox* device_;
  QLineEdit* featureNetwork_;
  QLabel* featureNote_;
  QPushButton* featureUse_;    // "Use it": loads the suggested network (shown while there is one)
  QString featureSuggested_;   // the network beside the data, not loaded until the user uses it
  bool featureFound_ = false;  // the field holds the suggestion the user accepted, not a pick
  QLineEdit* runsFolder_;
  RunListModel* runs_;
  QListView* list_;
  QLabel* status_;
  CurveChart* loss_;
  CurveChart* quality_;
  QComboBox* raceMeasure_;
  CurveChart* schedule_;
  CurveChart* error_;
  ProfileChoice* overlayProfile_;
  int races_ = 0;
};

}  // namespace noisescope::ui
