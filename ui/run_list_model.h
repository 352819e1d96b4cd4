#pragma once
// The Training tab's runs, one row each: the run's monitor, its label, why it failed, which race
// it runs in and as what, whether its checkpoint profile was asked for, and its config.json once
// read. Shown by a QListView: "label — status" with a check box (checked runs are charted) and a
// tooltip (the failure, the run's error, else its folder).
#include <QAbstractListModel>
#include <QString>

#include <memory>
#include <vector>

#include "pipeline/training/schedule_race.h"

namespace noisescope::train {
struct TrainConfig;
}

namespace noisescope::ui {

class RunMonitor;

using pipeline::RaceRole;  // what a run is in its race (pipeline/training/schedule_race.h)

struct RunEntry {
  RunMonitor* monitor = nullptr;  // owned by the panel (a child QObject)
  QString label;
  QString failure;  // why the child failed to run ("" while none)
  int race = -1;    // which race the run belongs to; -1: started alone
  RaceRole role = RaceRole::None;
  bool referenceAsked = false;                       // its checkpoint profile was asked for (once)
  bool checked = true;                               // charted
  std::shared_ptr<const train::TrainConfig> config;  // its config.json, once read
};

class RunListModel : public QAbstractListModel {
  Q_OBJECT

 public:
  explicit RunListModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

  int count() const { return static_cast<int>(entries_.size()); }
  const RunEntry& entry(int row) const { return entries_[row]; }
  RunEntry& entry(int row) { return entries_[row]; }
  const std::vector<RunEntry>& entries() const { return entries_; }
  // The row of the run in `race` with `role`, or -1.
  int find(int race, RaceRole role) const;

  int append(RunEntry entry);
  // The run's status changed (new events, its child ended): redraw its row.
  void refresh(int row);
  void setFailure(int row, const QString& failure);
  void setChecked(int row, bool checked);
  // "label — status", as the row shows it.
  QString text(int row) const;

 Q_SIGNALS:
  // A run was checked or unchecked: the charts change.
  void checkedChanged(int row);

 private:
  QString status(int row) const;
  std::vector<RunEntry> entries_;
};

}  // namespace noisescope::ui
