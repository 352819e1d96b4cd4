#pragma once
// The Training panel: configure a run, start and stop it as a child process, and follow any
// number of runs side by side — loss, the live schedule π(σ) and its history, the per-bin error
// estimate against the offline profile, and the schedule race (quality against steps).
#include <QWidget>

#include <vector>

class QLineEdit;
class QCheckBox;
class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QPushButton;
class QListWidget;
class QLabel;

namespace noisescope::ui {

class Workbench;
class CurveChart;
class RunMonitor;

class TrainingPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TrainingPanel(Workbench* workbench, QWidget* parent = nullptr);

  // Which noisescope-cli runs training (default: next to this program, then on PATH).
  void setCliPath(const QString& path) { cliPath_ = path; }
  void setRunsFolder(const QString& path);
  QString cliPath() const { return cliPath_; }

  // Starts one run with the form's settings and the given sampler ("" = the form's). Returns
  // the run directory, or an empty string (with a message shown) when it cannot start.
  QString startRun(const QString& sampler = {});
  // The schedule race: the same data, model and budget with EDM, InfoNoise and √-entropy.
  void startRace();
  // Follows an existing run directory (a finished run, or one started elsewhere).
  void followRun(const QString& directory);
  void stopSelected();
  // Asks for the selected run's checkpoint profile (checkpointProfileRequested; the main window
  // hands it to the Diagnostic tab).
  void profileSelectedCheckpoint();

  int runCount() const { return static_cast<int>(runs_.size()); }
  RunMonitor* run(int index) const { return runs_[index]; }
  CurveChart* lossChart() const { return loss_; }
  CurveChart* qualityChart() const { return quality_; }
  CurveChart* scheduleChart() const { return schedule_; }
  CurveChart* errorChart() const { return error_; }
  QSpinBox* stepsSpin() const { return steps_; }
  QLineEdit* datasetEdit() const { return dataset_; }
  QComboBox* samplerBox() const { return sampler_; }

 Q_SIGNALS:
  void runsUpdated();
  void checkpointProfileRequested(const QString& runDirectory);

 private:
  void redraw();
  void refreshList();
  void addMonitor(RunMonitor* monitor, const QString& label);

  Workbench* workbench_;
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
  QLineEdit* runsFolder_;
  QListWidget* list_;
  QLabel* status_;
  CurveChart* loss_;
  CurveChart* quality_;
  CurveChart* schedule_;
  CurveChart* error_;
  std::vector<RunMonitor*> runs_;
  std::vector<QString> labels_;
  std::vector<QString> failures_;
};

}  // namespace noisescope::ui
