#pragma once
// The Schedules panel: any number of schedules (fixed families and presets, entropic ones from a
// profile, atomic designs, files) edited in place and overlaid on one axis — the sampling density
// π, the loss weight w, the effective allocation φ ∝ π·w or the CDF, in a chosen coordinate —
// with a metrics table against a reference and exports that training code can read.
#include <QWidget>

#include <memory>
#include <vector>

#include "pipeline/schedule_recipe.h"

class QListWidget;
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

class SchedulePanel : public QWidget {
  Q_OBJECT

 public:
  explicit SchedulePanel(Workbench* workbench, QWidget* parent = nullptr);

  // Adds a schedule and selects it; returns its row.
  int addRecipe(const ScheduleRecipe& recipe);
  void removeCurrent();
  // Starts an atomic design on the loaded dataset in the background: with the shared
  // random-feature model, or with the last linear layer of a TorchScript checkpoint.
  void designAtomic(const QString& checkpoint = {});
  // Reads a schedule file (JSON, CSV, HDF5); returns an error message (empty on success).
  QString loadScheduleFile(const QString& path);
  // Writes the current schedule; the extension picks the format. Returns an error message.
  QString exportCurrent(const QString& path);

  int scheduleCount() const { return static_cast<int>(entries_.size()); }
  const schedule::Schedule* scheduleAt(int row) const;
  QString errorAt(int row) const;
  QListWidget* list() const { return list_; }
  CurveChart* chart() const { return chart_; }
  QComboBox* coordinateBox() const { return coordinate_; }
  QButtonGroup* curveButtons() const { return curves_; }
  QTableWidget* metricsTable() const { return metrics_; }
  QWidget* editor() const { return editor_; }

 Q_SIGNALS:
  void atomicDesignFinished();

 private:
  struct Entry {
    ScheduleRecipe recipe;
    schedule::Schedule built;
    QString error;
    bool visible = true;
  };

  void rebuild(int row);
  void rebuildAll();
  void redraw();
  void refreshList();
  void showEditor();
  void addMenuActions();
  schedule::LogSigmaGrid grid() const;
  void exportSamplingGrid();
  void updateMetrics();

  Workbench* workbench_;
  std::vector<Entry> entries_;
  QDoubleSpinBox* sigmaMin_;
  QDoubleSpinBox* sigmaMax_;
  QSpinBox* bins_;
  QListWidget* list_;
  QPushButton* add_;
  QPushButton* remove_;
  QPushButton* export_;
  QPushButton* samplingGrid_;
  QScrollArea* editorScroll_;
  QWidget* editor_ = nullptr;
  QComboBox* coordinate_;
  QButtonGroup* curves_;
  CurveChart* chart_;
  QTableWidget* metrics_;
  QLabel* metricsNote_;
  QComboBox* bandProfile_;
  bool updatingList_ = false;
};

}  // namespace noisescope::ui
