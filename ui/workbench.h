#pragma once
// What the panels share: the loaded dataset with its statistics, and the job runner. Panels
// listen to datasetChanged() instead of talking to each other.
#include <QObject>
#include <QString>

#include <memory>

#include "data/dataset.h"
#include "data/statistics.h"
#include "ui/job_runner.h"

namespace noisescope::ui {

class Workbench : public QObject {
  Q_OBJECT

 public:
  explicit Workbench(QObject* parent = nullptr);

  JobRunner* jobs() const { return jobs_; }
  std::shared_ptr<const Dataset> dataset() const { return dataset_; }
  const DatasetStatistics& statistics() const { return statistics_; }
  bool hasStatistics() const { return hasStatistics_; }

  void setDataset(std::shared_ptr<const Dataset> dataset);
  void setStatistics(const DatasetStatistics& statistics);

 Q_SIGNALS:
  void datasetChanged();
  void statisticsChanged();

 private:
  JobRunner* jobs_;
  std::shared_ptr<const Dataset> dataset_;
  DatasetStatistics statistics_;
  bool hasStatistics_ = false;
};

}  // namespace noisescope::ui
