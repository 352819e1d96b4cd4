#pragma once
// What the panels share: the loaded dataset with its statistics, the noise-level profiles measured
// or loaded so far, and the job runner. Panels listen to the signals instead of talking to each
// other.
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "data/dataset.h"
#include "pipeline/dataset/dataset_info.h"
#include "profile/profile.h"
#include "ui/job_runner.h"

namespace noisescope::ui {

// The producer every file the workbench writes records in its provenance.
inline constexpr const char* kWorkbenchProducer = "noisescope workbench";

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

  struct NamedProfile {
    QString name;  // unique display name, e.g. "fashion-mnist · empirical · 64 levels"
    std::shared_ptr<const Profile> profile;
    int addedBy = 0;  // which addProfiles call added it (a bracket's curves share one)
  };
  const std::vector<NamedProfile>& profiles() const { return profiles_; }
  // Adds a profile under a unique name (a suffix is added when the name is taken); returns it.
  QString addProfile(const QString& name, std::shared_ptr<const Profile> profile);
  // Adds several at once with one profilesChanged (a bracket's curves: every panel redraws once,
  // not once per curve); returns their unique names in order.
  QStringList addProfiles(const std::vector<NamedProfile>& profiles);
  void removeProfile(const QString& name);
  std::shared_ptr<const Profile> profile(const QString& name) const;
  // The profiles added in the same call as `name` (a bracket's curves), `name` included, in order;
  // empty for an unknown name.
  QStringList addedWith(const QString& name) const;

 Q_SIGNALS:
  void datasetChanged();
  void statisticsChanged();
  void profilesChanged();

 private:
  JobRunner* jobs_;
  std::shared_ptr<const Dataset> dataset_;
  DatasetStatistics statistics_;
  bool hasStatistics_ = false;
  std::vector<NamedProfile> profiles_;
  int additions_ = 0;  // addProfiles calls so far
};

}  // namespace noisescope::ui
