#include "ui/workbench.h"

namespace noisescope::ui {

Workbench::Workbench(QObject* parent) : QObject(parent), jobs_(new JobRunner(this)) {}

void Workbench::setDataset(std::shared_ptr<const Dataset> dataset) {
  dataset_ = std::move(dataset);
  hasStatistics_ = false;
  statistics_ = {};
  Q_EMIT datasetChanged();
}

void Workbench::setStatistics(const DatasetStatistics& statistics) {
  statistics_ = statistics;
  hasStatistics_ = true;
  Q_EMIT statisticsChanged();
}

}  // namespace noisescope::ui
