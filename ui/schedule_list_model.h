#pragma once
// The Schedules panel's list as an item model. Each row owns its recipe, what the recipe builds to
// (a schedule, or the error that stopped it), whether it is drawn, and its colour; the model also
// holds what recipes are built from (the grid, the dataset's σ_data, the files profiles came
// from) and rebuilds rows itself. Callers get values, shared built schedules that outlive a
// rebuild, or a row's Id: never a reference into the list, so adding or removing a row cannot
// leave anyone holding a dangling one.
#include <QAbstractListModel>
#include <QColor>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/sigma_steps_io.h"
#include "pipeline/schedules/compare_job.h"
#include "pipeline/schedules/schedule_recipe.h"

namespace noisescope {
struct Dataset;
}

namespace noisescope::ui {

class Workbench;

class ScheduleListModel : public QAbstractListModel {
  Q_OBJECT

 public:
  // A row's handle: it names the same schedule while rows before it come and go.
  using Id = quint64;

  // Entropic recipes find their profile in `workbench` by name.
  explicit ScheduleListModel(const Workbench* workbench, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

  // Builds the recipe into a new last row (drawn); returns the row.
  int add(const pipeline::ScheduleRecipe& recipe);
  // Reads a schedule file (JSON, CSV, HDF5) once and adds it as built, so the row outlives the
  // file; throws InputError naming the file. Returns the row.
  int addFile(const std::string& path);
  void remove(int row);
  // Replaces the recipe of the row `id` names, if it is still there, and rebuilds it.
  void setRecipe(Id id, const pipeline::ScheduleRecipe& recipe);
  void rebuildAll();

  // What recipes are built from; each setter but setProfileFile rebuilds every row.
  void setGrid(const schedule::LogSigmaGrid& grid);
  // The dataset's measured σ_data is every schedule's, unless given or in its profile; none
  // (no dataset, or too few samples to measure) leaves the default.
  void setDataset(const Dataset* dataset);
  // The workbench profile `name` was read from `path`: entropic schedules record the path.
  void setProfileFile(const QString& name, const std::string& path);

  Id idAt(int row) const;
  int rowOf(Id id) const;  // -1 once removed
  pipeline::ScheduleRecipe recipe(int row) const;
  // Null for a row out of range or one that did not build.
  std::shared_ptr<const pipeline::BuiltSchedule> built(int row) const;
  QString error(int row) const;
  bool isDrawn(int row) const;
  QString name(int row) const;
  QColor color(int row) const;  // the chart's colour of the row (render/palette.h)
  // Rows whose schedule built and is not empty: what the chart and the comparison can use.
  std::vector<int> usableRows() const;
  // Every usable schedule, labelled by its name, on the model's grid, measured against
  // `referenceRow` (the first usable one when that row is not); no profile.
  pipeline::ComparisonRequest comparisonRequest(int referenceRow) const;
  // N inference σ-steps of `grid` for `row` (pipeline/sampling/sigma_steps.h), with the row's own
  // profile for an entropic grid; throws InputError for a row that did not build.
  SigmaSteps sigmaSteps(int row, int steps, const std::string& grid) const;

 Q_SIGNALS:
  // A row's check box changed: the chart redraws.
  void drawnChanged(int row);

 private:
  struct Entry {
    Id id = 0;
    pipeline::ScheduleRecipe recipe;
    std::shared_ptr<const pipeline::BuiltSchedule> built;  // never null; empty on error
    QString error;
    bool drawn = true;
  };

  void rebuild(Entry& entry) const;
  std::string profileSource(const std::string& name) const;
  bool valid(int row) const { return row >= 0 && row < rowCount(); }

  const Workbench* workbench_;
  std::vector<Entry> entries_;
  Id nextId_ = 1;
  schedule::LogSigmaGrid grid_;
  std::optional<pipeline::SigmaDataChoice> datasetSigmaData_;
  std::map<QString, std::string> profileFiles_;  // workbench profile name → its file
};

}  // namespace noisescope::ui
