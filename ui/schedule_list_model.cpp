#include "ui/schedule_list_model.h"

#include <QApplication>
#include <QFileInfo>
#include <QStyle>

#include "data/dataset.h"
#include "pipeline/sampling/sigma_steps.h"
#include "render/palette.h"
#include "ui/workbench.h"
#include "util/error.h"

namespace noisescope::ui {

using pipeline::BuiltSchedule;
using pipeline::ScheduleRecipe;

ScheduleListModel::ScheduleListModel(const Workbench* workbench, QObject* parent)
    : QAbstractListModel(parent), workbench_(workbench), grid_(schedule::LogSigmaGrid::uniform()) {}

int ScheduleListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

QVariant ScheduleListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !valid(index.row())) return {};
  const Entry& entry = entries_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return QString::fromStdString(entry.recipe.name);
    case Qt::CheckStateRole:
      return entry.drawn ? Qt::Checked : Qt::Unchecked;
    case Qt::ForegroundRole:
      return entry.error.isEmpty() ? QVariant() : QColor(Qt::red);
    case Qt::DecorationRole:  // e.g. built from a memorising profile
      return entry.error.isEmpty() && !entry.built->caveats.empty()
                 ? QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning)
                 : QVariant();
    case Qt::ToolTipRole:
      if (!entry.error.isEmpty()) return entry.error;
      if (!entry.built->caveats.empty())
        return QString::fromStdString(entry.built->caveats.front());
      return QString::fromStdString(entry.built->schedule.lossWeight.label());
  }
  return {};
}

bool ScheduleListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::CheckStateRole || !index.isValid() || !valid(index.row())) return false;
  const bool drawn = static_cast<Qt::CheckState>(value.toInt()) == Qt::Checked;
  Entry& entry = entries_[index.row()];
  if (entry.drawn == drawn) return true;
  entry.drawn = drawn;
  Q_EMIT dataChanged(index, index, {Qt::CheckStateRole});
  Q_EMIT drawnChanged(index.row());
  return true;
}

Qt::ItemFlags ScheduleListModel::flags(const QModelIndex& index) const {
  return QAbstractListModel::flags(index) | Qt::ItemIsUserCheckable;
}

int ScheduleListModel::add(const ScheduleRecipe& recipe) {
  Entry entry;
  entry.id = nextId_++;
  entry.recipe = recipe;
  rebuild(entry);
  const int row = rowCount();
  beginInsertRows({}, row, row);
  entries_.push_back(std::move(entry));
  endInsertRows();
  return row;
}

int ScheduleListModel::addFile(const std::string& path) {
  const BuiltSchedule built = pipeline::buildSchedule(pipeline::fileRecipe(path), grid_);
  ScheduleRecipe recipe;
  recipe.kind = ScheduleRecipe::Kind::Fixed;
  recipe.name = QFileInfo(QString::fromStdString(path)).fileName().toStdString() + " (" +
                built.schedule.info.label + ")";
  recipe.fixed = std::make_shared<schedule::Schedule>(built.schedule);
  recipe.fixedParameters = built.parameters;
  return add(recipe);
}

void ScheduleListModel::remove(int row) {
  if (!valid(row)) return;
  beginRemoveRows({}, row, row);
  entries_.erase(entries_.begin() + row);
  endRemoveRows();
}

void ScheduleListModel::setRecipe(Id id, const ScheduleRecipe& recipe) {
  const int row = rowOf(id);
  if (row < 0) return;
  entries_[row].recipe = recipe;
  rebuild(entries_[row]);
  Q_EMIT dataChanged(index(row), index(row));
}

void ScheduleListModel::rebuildAll() {
  for (Entry& entry : entries_) rebuild(entry);
  if (!entries_.empty()) Q_EMIT dataChanged(index(0), index(rowCount() - 1));
}

void ScheduleListModel::setGrid(const schedule::LogSigmaGrid& grid) {
  grid_ = grid;
  rebuildAll();
}

void ScheduleListModel::setDataset(const Dataset* dataset) {
  datasetSigmaData_.reset();
  if (dataset) {
    try {
      datasetSigmaData_ = pipeline::measuredSigmaData(*dataset, dataset->name);
    } catch (const std::exception&) {
      // Fewer than two samples: no σ_data to measure; the default stays, and says so.
    }
  }
  rebuildAll();
}

void ScheduleListModel::setProfileFile(const QString& name, const std::string& path) {
  profileFiles_[name] = path;
}

ScheduleListModel::Id ScheduleListModel::idAt(int row) const {
  return valid(row) ? entries_[row].id : 0;
}

int ScheduleListModel::rowOf(Id id) const {
  for (int row = 0; row < rowCount(); ++row)
    if (entries_[row].id == id) return row;
  return -1;
}

ScheduleRecipe ScheduleListModel::recipe(int row) const {
  return valid(row) ? entries_[row].recipe : ScheduleRecipe();
}

std::shared_ptr<const BuiltSchedule> ScheduleListModel::built(int row) const {
  if (!valid(row) || !entries_[row].error.isEmpty()) return nullptr;
  return entries_[row].built;
}

QString ScheduleListModel::error(int row) const {
  return valid(row) ? entries_[row].error : QString();
}

bool ScheduleListModel::isDrawn(int row) const {
  return valid(row) && entries_[row].drawn;
}

QString ScheduleListModel::name(int row) const {
  return valid(row) ? QString::fromStdString(entries_[row].recipe.name) : QString();
}

QColor ScheduleListModel::color(int row) const {
  const render::Rgb c = render::seriesColour(std::max(0, row));
  return QColor(c.r, c.g, c.b);
}

std::vector<int> ScheduleListModel::usableRows() const {
  std::vector<int> rows;
  for (int row = 0; row < rowCount(); ++row)
    if (entries_[row].error.isEmpty() && !entries_[row].built->schedule.empty())
      rows.push_back(row);
  return rows;
}

pipeline::ComparisonRequest ScheduleListModel::comparisonRequest(int referenceRow) const {
  pipeline::ComparisonRequest request;
  request.grid = grid_;
  for (int row : usableRows()) {
    if (row == referenceRow) request.reference = static_cast<int>(request.schedules.size());
    request.schedules.push_back(entries_[row].built->schedule);
    request.schedules.back().info.label = entries_[row].recipe.name;
  }
  return request;
}

SigmaSteps ScheduleListModel::sigmaSteps(int row, int steps, const std::string& grid) const {
  const auto current = built(row);
  if (!current) throw InputError("Sampling grid", "select a schedule without errors first");
  // An entropic schedule's profile is the entropic grid's, unless the spec names a file.
  std::shared_ptr<const Profile> profile;
  std::string source;
  const std::string& name = entries_[row].recipe.profileName;
  if (!name.empty()) {
    profile = workbench_->profile(QString::fromStdString(name));
    source = profileSource(name);
  }
  return pipeline::sigmaSteps(*current, steps, grid, profile.get(), source);
}

void ScheduleListModel::rebuild(Entry& entry) const {
  pipeline::RecipeContext context;
  context.datasetSigmaData = datasetSigmaData_;
  std::shared_ptr<const Profile> held;  // alive through the build
  if (!entry.recipe.profileName.empty()) {
    held = workbench_->profile(QString::fromStdString(entry.recipe.profileName));
    context.profile = held.get();
    context.profileSource = profileSource(entry.recipe.profileName);
  }
  try {
    entry.built = std::make_shared<const BuiltSchedule>(
        pipeline::buildSchedule(entry.recipe, grid_, context));
    entry.error.clear();
  } catch (const std::exception& e) {
    entry.built = std::make_shared<const BuiltSchedule>();
    entry.error = QString::fromStdString(e.what());
  }
}

std::string ScheduleListModel::profileSource(const std::string& name) const {
  const auto file = profileFiles_.find(QString::fromStdString(name));
  return file != profileFiles_.end() ? file->second : "workbench profile " + name;
}

}  // namespace noisescope::ui
