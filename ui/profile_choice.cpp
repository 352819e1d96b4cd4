#include "ui/profile_choice.h"

#include "profile/profile.h"
#include "ui/workbench.h"

namespace noisescope::ui {

ProfileChoice::ProfileChoice(Workbench* workbench, const QString& noneText, QWidget* parent)
    : QComboBox(parent), workbench_(workbench), noneText_(noneText) {
  setToolTip(
      tr("Until you pick one, the newest bound profile (the bracket's upper bound on the "
         "population MMSE) is used, else the newest profile; that item is marked “default”."));
  setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  setMinimumContentsLength(24);
  // activated: only the user's own picks, never refill's.
  connect(this, &QComboBox::activated, this, [this] {
    chosen_ = true;
    const QString now = profileName();
    if (now != shown_) {
      shown_ = now;
      Q_EMIT profileChanged();
    }
  });
  refill();
}

QString ProfileChoice::profileName() const {
  return currentData().toString();
}

QString ProfileChoice::defaultProfileName(const Workbench& workbench) {
  const auto& profiles = workbench.profiles();
  for (auto it = profiles.rbegin(); it != profiles.rend(); ++it)
    if (it->profile->kind == "bound") return it->name;
  return profiles.empty() ? QString() : profiles.back().name;
}

void ProfileChoice::refill() {
  if (chosen_ && !shown_.isEmpty() && !workbench_->profile(shown_)) chosen_ = false;  // removed
  const QString fallback = defaultProfileName(*workbench_);
  const QString target = chosen_ ? shown_ : fallback;
  blockSignals(true);
  clear();
  addItem(noneText_, QString());
  for (const auto& named : workbench_->profiles()) {
    // The tag leads, so a narrow combo that cuts the long name still shows it.
    QString text = named.name;
    if (named.name == fallback)
      text = (named.profile->kind == "bound" ? tr("[default: bound] ") : tr("[default: newest] ")) +
             text;
    addItem(text, named.name);
    setItemData(count() - 1,
                QString::fromStdString(named.profile->kind + ": " +
                                       profileKindMeaning(named.profile->kind)),
                Qt::ToolTipRole);
  }
  setCurrentIndex(std::max(0, findData(target)));
  blockSignals(false);
  const QString now = profileName();
  if (now != shown_) {
    shown_ = now;
    Q_EMIT profileChanged();
  }
}

}  // namespace noisescope::ui
