#include "ui/run_list_model.h"

#include "pipeline/training/run_watch.h"
#include "ui/run_monitor.h"

namespace noisescope::ui {

RunListModel::RunListModel(QObject* parent) : QAbstractListModel(parent) {}

int RunListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : count();
}

QVariant RunListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= count()) return {};
  const RunEntry& e = entries_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return text(index.row());
    case Qt::CheckStateRole:
      return e.checked ? Qt::Checked : Qt::Unchecked;
    case Qt::ToolTipRole: {
      const std::string& error = e.monitor->record().error;
      return !e.failure.isEmpty() ? e.failure
             : !error.empty()     ? QString::fromStdString(error)
                                  : e.monitor->runDirectory();
    }
    default:
      return {};
  }
}

bool RunListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.row() >= count() || role != Qt::CheckStateRole) return false;
  setChecked(index.row(), value.toInt() == Qt::Checked);
  return true;
}

Qt::ItemFlags RunListModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable;
}

int RunListModel::find(int race, RaceRole role) const {
  if (race < 0) return -1;
  for (int i = 0; i < count(); ++i)
    if (entries_[i].race == race && entries_[i].role == role) return i;
  return -1;
}

int RunListModel::append(RunEntry entry) {
  const int row = count();
  beginInsertRows({}, row, row);
  entries_.push_back(std::move(entry));
  endInsertRows();
  return row;
}

void RunListModel::refresh(int row) {
  const QModelIndex i = index(row);
  Q_EMIT dataChanged(i, i, {Qt::DisplayRole, Qt::ToolTipRole});
}

void RunListModel::setFailure(int row, const QString& failure) {
  entries_[row].failure = failure;
  refresh(row);
}

void RunListModel::setChecked(int row, bool checked) {
  if (entries_[row].checked == checked) return;
  entries_[row].checked = checked;
  const QModelIndex i = index(row);
  Q_EMIT dataChanged(i, i, {Qt::CheckStateRole});
  Q_EMIT checkedChanged(row);
}

QString RunListModel::text(int row) const {
  return QStringLiteral("%1 — %2").arg(entries_[row].label, status(row));
}

QString RunListModel::status(int row) const {
  const RunEntry& e = entries_[row];
  const pipeline::RunRecord& s = e.monitor->record();
  const double step = s.train.empty() ? 0 : s.train.back().step;
  if (!e.failure.isEmpty()) return tr("failed");
  if (!s.error.empty() && !e.monitor->isRunning())
    return tr("stopped at step %1 by an error, resumable").arg(step);
  if (s.ended) return tr("finished");
  if (e.monitor->isRunning())
    return tr("running, step %1 of %2 · %3")
        .arg(step)
        .arg(s.totalSteps)
        .arg(QString::fromStdString(pipeline::runEta(s).text));
  if (e.monitor->stoppedByUser())
    return s.lastCheckpointStep >= 0 ? tr("stopped by you at step %1, resumable from step %2")
                                           .arg(step)
                                           .arg(s.lastCheckpointStep)
                                     : tr("stopped by you at step %1").arg(step);
  return tr("stopped at step %1").arg(step);
}

}  // namespace noisescope::ui
