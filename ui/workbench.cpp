#include "ui/workbench.h"

#include <algorithm>

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

QString Workbench::addProfile(const QString& name, std::shared_ptr<const Profile> profile) {
  return addProfiles({{name, std::move(profile)}}).front();
}

QStringList Workbench::addProfiles(const std::vector<NamedProfile>& profiles) {
  QStringList names;
  for (const NamedProfile& p : profiles) {
    QString unique = p.name;
    for (int n = 2; this->profile(unique); ++n)
      unique = QStringLiteral("%1 (%2)").arg(p.name).arg(n);
    profiles_.push_back({unique, p.profile, additions_});
    names << unique;
  }
  ++additions_;
  if (!profiles.empty()) Q_EMIT profilesChanged();
  return names;
}

void Workbench::removeProfile(const QString& name) {
  const auto it = std::find_if(profiles_.begin(), profiles_.end(),
                               [&](const NamedProfile& p) { return p.name == name; });
  if (it == profiles_.end()) return;
  profiles_.erase(it);
  Q_EMIT profilesChanged();
}

std::shared_ptr<const Profile> Workbench::profile(const QString& name) const {
  for (const NamedProfile& p : profiles_)
    if (p.name == name) return p.profile;
  return nullptr;
}

QStringList Workbench::addedWith(const QString& name) const {
  QStringList names;
  const auto it = std::find_if(profiles_.begin(), profiles_.end(),
                               [&](const NamedProfile& p) { return p.name == name; });
  if (it == profiles_.end()) return names;
  for (const NamedProfile& p : profiles_)
    if (p.addedBy == it->addedBy) names << p.name;
  return names;
}

}  // namespace noisescope::ui
