#pragma once
// The Schedules panel: any number of schedules (fixed families and presets, entropic ones from a
// profile, atomic designs, files) edited in place and overlaid on one axis — the sampling density
// π, the loss weight w, the effective allocation φ ∝ π·w or the CDF, in a chosen coordinate —
// with a metrics table against a reference and exports that training code can read. Every
// schedule, its provenance and its σ-steps come from core/pipeline, exactly as the CLI's do.
#include <QStringList>
#include <QWidget>

#include <memory>
#include <utility>

#include "io/sigma_steps_io.h"
#include "pipeline/schedules/schedule_recipe.h"
#include "ui/schedule_list_view.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QPushButton;
class QButtonGroup;
class QTableWidget;
class QLabel;
class QFormLayout;
class QScrollArea;

namespace noisescope::ui {

using pipeline::ScheduleRecipe;

class Workbench;
class CurveChart;
class ExportForDialog;
class HiddenRedraw;
class ProfileChoice;
class ScheduleListModel;

class SchedulePanel : public QWidget {
  Q_OBJECT

 public:
  explicit SchedulePanel(Workbench* workbench, QWidget* parent = nullptr);

  // Adds a schedule and selects it; returns its row.
  int addRecipe(const ScheduleRecipe& recipe);
  void removeCurrent();
  // Starts an atomic design (pipeline::designAtomic, quick settings) on the loaded dataset in the
  // background: with the shared random-feature model, or with a TorchScript checkpoint.
  // `prediction` names what the checkpoint predicts: "x0", "eps" or "v".
  void designAtomic(const QString& checkpoint = {},
                    const QString& prediction = QStringLiteral("x0"));
  // Reads a schedule file (JSON, CSV, HDF5); returns an error message (empty on success).
  QString loadScheduleFile(const QString& path);
  // Reads a profile (JSON or CSV, io/profile_io.h) into the workbench under the
  // file's base name; entropic schedules built from it record the path. Returns an error message.
  QString loadProfileFile(const QString& path);
  // Writes the current schedule with the pipeline's provenance; the extension picks the format.
  // Returns an error message.
  QString exportCurrent(const QString& path);
  // What Export… does after its dialog: exportCurrent, and on failure a warning naming the file
  // and the system error (ui/warning_box.h, which does not block). True when written.
  bool exportCurrentAs(const QString& path);
  // Writes N inference σ-steps of the sampling grid `grid` (pipeline/sampling/sigma_steps.h) beside
  // the current schedule: its π for "quantiles", its profile for "entropic". Error message.
  QString exportSigmaSteps(
      const QString& path, int steps,
      const QString& grid = QString::fromUtf8(pipeline::defaults::kSamplingGrid));
  // What "Sampling grid…" does after its dialogs: exportSigmaSteps, and a warning on failure.
  bool exportSigmaStepsAs(const QString& path, int steps, const QString& grid);
  // The same grid without writing it (throws InputError); what the dialog previews.
  SigmaSteps currentSigmaSteps(int steps, const std::string& grid) const;
  // Opens "Export for…" (ui/export_for_dialog.h) on the current schedule's φ: another trainer's
  // knobs fitted to it. Returns the dialog (deleted on close), or nullptr with no valid selection.
  ExportForDialog* openExportFor();

  int scheduleCount() const;
  // Null for a row out of range or one that did not build; a rebuild leaves them as they were.
  std::shared_ptr<const schedule::Schedule> scheduleAt(int row) const;
  std::shared_ptr<const pipeline::BuiltSchedule> builtAt(int row) const;
  QString errorAt(int row) const;
  ScheduleListModel* model() const { return model_; }
  ScheduleListView* list() const { return list_; }
  CurveChart* chart() const { return chart_; }
  QComboBox* coordinateBox() const { return coordinate_; }
  QButtonGroup* curveButtons() const { return curves_; }
  QTableWidget* metricsTable() const { return metrics_; }
  QWidget* editor() const { return editor_; }
  // The profile whose rate gives the comparison's informative band (default: the bound).
  ProfileChoice* bandProfileBox() const { return bandProfile_; }
  // While the schedules stay on an earlier dataset than the loaded one: what says so, and the
  // button that moves σ_data to the loaded one.
  QLabel* datasetNote() const { return datasetNote_; }
  QPushButton* useLoadedDatasetButton() const { return useLoadedDataset_; }

 Q_SIGNALS:
  void atomicDesignFinished();
  // "Train with it": the selected schedule (`name`, built without errors) is wanted on the
  // Training tab; the main window exports it there.
  void trainWithRequested(const QString& name);

 protected:
  // Keeps the editor as wide as its scroll area's viewport (see fitEditorWidth).
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void fitEditorWidth();
  // The grid from the spin boxes, rebuilding every schedule on it; then the editor and chart.
  void rebuildAll();
  void redraw();
  // The selected schedule's editor: its kind's rows (ui/recipe_editor.h), the loss weight and
  // what the build reported.
  void showEditor();
  QStringList profileNames() const;
  void addMenuActions();
  // The σ range the spin boxes give (σ_min kept below σ_max), and the grid on it.
  std::pair<double, double> sigmaRange() const;
  schedule::LogSigmaGrid grid() const;
  // Opens the Sampling grid dialog (ui/sampling_grid_dialog.h), then a file dialog.
  void exportSamplingGrid();
  void updateMetrics();
  // A dataset was loaded: σ_data follows it unless profiles of the earlier one are in use.
  void onDatasetChanged();
  void useLoadedDataset();
  void showDatasetNote(const QString& loaded);

  Workbench* workbench_;
  HiddenRedraw* hidden_;  // chart, comparison and Add menu wait while the panel is hidden
  ScheduleListModel* model_;
  QDoubleSpinBox* sigmaMin_;
  QDoubleSpinBox* sigmaMax_;
  QSpinBox* bins_;
  ScheduleListView* list_;
  QPushButton* add_;
  QPushButton* remove_;
  QPushButton* export_;
  QPushButton* samplingGrid_;
  QPushButton* exportFor_;
  QPushButton* trainWith_;
  QScrollArea* editorScroll_;
  QWidget* editor_ = nullptr;
  QComboBox* coordinate_;
  QButtonGroup* curves_;
  CurveChart* chart_;
  QTableWidget* metrics_;
  QLabel* metricsNote_;
  ProfileChoice* bandProfile_;
  QLabel* datasetNote_;
  QPushButton* useLoadedDataset_;
  QString comparedOn_;  // the dataset whose σ_data the schedules use; empty: none yet
};

}  // namespace noisescope::ui
